"""What every real report in ../shared/awr-samples says, for parse_report's tests (test_parser.py).

Every expected figure below was read off the report itself (the HTML cell or
the text line), not produced by the parser. Two figures are combined by hand:
eyko139's SYS_TEMP_0FD9DD36E_811628D6 is listed twice under Logical Reads
(22,598,816 and 15,904,000, two data object ids of one temp segment), so the
merged segment carries their sum; and in 11.2.0.4 reports the Tablespace IO
writes are the figures printed under "1-bk Rds/s" (they add up to 'physical
write IO requests': 348+121+40+0 = 509 in awr_11204_1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

Seg = tuple[str, str, str, str, str, dict[str, int]]


@dataclass(frozen=True)
class Expected:
    db_name: str
    dbid: int
    instances: list[int]
    release: str
    rac: bool
    snaps: tuple[int, int]
    times: tuple[str, str]
    elapsed_minutes: float
    segments: list[Seg] = field(default_factory=list)
    tablespaces: dict[str, tuple[int, float, int]] = field(default_factory=dict)
    sysstat: dict[str, int] = field(default_factory=dict)
    no_segments: bool = False
    no_tablespaces: bool = False
    startup: dict[int, str] = field(default_factory=dict)
    is_global: bool = False


EXPECTED: dict[str, Expected] = {
    "1newstar__awr2csv__sample__awr_11204_1.html": Expected(
        "ORCL", 1380142923, [1], "11.2.0.4.0", True, (2, 3),
        ("2014-07-10T04:00:45", "2014-07-10T05:00:58"), 60.22,
        segments=[
            ("SYS", "SYSTEM", "JOB$", "", "TABLE", {"logical_reads": 1648}),
            ("SYS", "SYSAUX", "WRH$_LATCH", "WRH$_LATCH_1380142923_0", "TABLE PARTITION",
             {"physical_writes": 15}),
            ("SYS", "SYSTEM", "KOTAD$", "", "TABLE",
             {"physical_read_requests": 7, "physical_reads": 7}),
        ],
        tablespaces={"SYSAUX": (39, 3.33, 348), "UNDOTBS1": (0, 0.0, 121)},
        sysstat={"physical read IO requests": 68, "physical write total IO requests": 3435},
        startup={1: "2014-07-10T03:07:00"},
    ),
    "1newstar__awr2csv__sample__awr_11204_1.txt": Expected(
        "ORCL", 1380142923, [1], "11.2.0.4.0", True, (2, 3),
        ("2014-07-10T04:00:45", "2014-07-10T05:00:58"), 60.22,
        segments=[
            ("SYS", "SYSTEM", "JOB$", "", "TABLE", {"logical_reads": 1648}),
            ("SYS", "SYSAUX", "WRH$_LATCH_MISSES_SU", "80142923_0", "INDEX",
             {"physical_reads": 3, "physical_read_requests": 3}),
            ("SYS", "SYSAUX", "SYS_LOB0000006417C00", "", "LOB", {"physical_writes_direct": 1}),
            ("SYS", "SYSAUX", "WRM$_SNAPSHOT_DETAIL", "", "INDEX",
             {"db_block_changes": 128, "row_lock_waits": 1, "gc_current_blocks_received": 29}),
        ],
        tablespaces={"SYSAUX": (39, 3.3, 348), "SYSTEM": (31, 5.2, 40)},
        sysstat={"physical write IO requests": 509, "physical read total IO requests": 9031},
        startup={1: "2014-07-10T03:10:00"},
    ),
    "1newstar__awr2csv__sample__awr_11204_2.txt": Expected(
        "ORCL", 1380142923, [2], "11.2.0.4.0", True, (2, 3),
        ("2014-07-10T04:00:45", "2014-07-10T05:00:58"), 60.22,
        segments=[
            ("SYS", "SYSTEM", "COL_USAGE$", "", "TABLE", {"physical_writes": 23}),
            ("SYS", "SYSTEM", "I_COL_USAGE$", "", "INDEX", {"physical_writes": 17}),
            ("SYS", "SYSAUX", "WRH$_EVENT_HISTOGRAM", "80142923_0", "TABLE", {"physical_writes": 12}),
        ],
        tablespaces={"SYSTEM": (1014, 4.0, 48), "TEMP": (114, 0.0, 132)},
        sysstat={"physical read IO requests": 1401, "physical write IO requests": 631},
        startup={2: "2014-07-10T03:10:00"},
    ),
    "Azure__Oracle-Workloads-for-Azure__levelup-oracle-on-iaas__lab1__awr__AWR_DBS.html": Expected(
        "DBS", 2494196594, [1], "12.2.0.1.0", True, (132132, 132420),
        ("2022-01-23T10:00:39", "2022-01-26T10:00:35"), 4319.92,
        tablespaces={"STAGING_TBS": (73663346, 0.46, 5608614), "SUMM_GAAP_TBS": (21941018, 0.52, 7566691)},
        sysstat={
            "cell flash cache read hits": 155468232,
            "physical read requests optimized": 160462782,
            "physical read IO requests": 151426790,
            "physical write total IO requests": 22844119,
        },
        no_segments=True,
    ),
    "Azure__Oracle-Workloads-for-Azure__levelup-oracle-on-iaas__lab1__awr__AWR_DBU.html": Expected(
        "DBU", 3128649325, [1, 2], "19.0.0.0.0", True, (15883, 16027),
        ("2023-02-15T00:00:00", "2023-02-21T00:00:00"), 8640.20,
        sysstat={
            "cell flash cache read hits": 870880549,
            "physical read requests optimized": 891045001,
            "physical read IO requests": 856193094,
            "physical write total IO requests": 327894826,
        },
        no_segments=True,
        no_tablespaces=True,
        startup={1: "2022-12-11T04:22:00", 2: "2022-12-11T06:28:00"},
        is_global=True,
    ),
    "Lucky29011__reports__awr.html": Expected(
        "DVK", 2742271753, [1], "19.0.0.0.0", False, (5, 7),
        ("2024-10-20T19:51:14", "2024-10-20T21:48:53"), 117.66,
        segments=[
            ("SYS", "SYSAUX", "WRH$_SYSSTAT", "WRH$_SYSSTAT_2742271753_0", "TABLE PARTITION",
             {"logical_reads": 7840}),
            ("SYS", "SYSTEM", "IDL_UB1$", "", "TABLE",
             {"physical_reads": 715, "physical_read_requests": 715, "unoptimized_reads": 715}),
            ("SYS", "SYSAUX", "SYS_LOB0000011147C00038$$", "", "LOB", {"physical_writes": 110}),
        ],
        sysstat={"physical read IO requests": 2572, "physical write total IO requests": 3827},
        no_tablespaces=True,
    ),
    "edwinjiang__dataextraction_found__beautifulsoap__awr_db1tp.html": Expected(
        "DB1TP", 2972175158, [1], "12.2.0.1.0", True, (70, 71),
        ("2017-10-05T05:24:47", "2017-10-05T05:54:51"), 30.06,
        segments=[
            ("USER1", "IOPS", "CF1", "", "TABLE", {
                "logical_reads": 19905552,
                "physical_reads": 6037396,
                "physical_read_requests": 5340956,
                "physical_writes": 5041518,
                "physical_write_requests": 2106443,
            }),
            ("USER1", "IOPS", "I_CF1", "", "INDEX", {"logical_reads": 4024368}),
        ],
        sysstat={"physical read IO requests": 5345951, "physical write total IO requests": 2628919},
        no_tablespaces=True,
    ),
    "edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html": Expected(
        "SLOB", 3648831675, [1, 2], "12.1.0.2.0", True, (176, 177),
        ("2016-09-18T14:51:00", "2016-09-18T14:54:00"), 2.77,
        segments=[
            ("USER1", "DW", "CF1", "", "TABLE", {
                "logical_reads": 53482752,
                "physical_reads": 53485646,
                "physical_reads_direct": 53484974,
                "physical_read_requests": 1673295,
            }),
            ("SYS", "SYSAUX", "WRH$_SYSSTAT_PK", "WRH$_SYSSTA_3648831675_0", "INDEX PARTITION",
             {"db_block_changes": 1776, "logical_reads": 4912, "physical_write_requests": 16}),
            ("SYS", "SYSTEM", "OBJ$", "", "TABLE", {"buffer_busy_waits": 1, "gc_cr_blocks_received": 6}),
        ],
        sysstat={"physical read IO requests": 2909192, "physical write total IO requests": 945},
        no_tablespaces=True,
        startup={1: "2016-09-14T10:33:00", 2: "2016-09-14T10:41:00"},
        is_global=True,
    ),
    "eyko139__awr_reports__awr_PRDG_1_237812_237837.htm": Expected(
        "PRDG", 1336253677, [1], "18.0.0.0.0", True, (237812, 237837),
        ("2020-06-18T07:40:12", "2020-06-18T16:00:11"), 499.99,
        segments=[
            ("SYS", "TEMP", "SYS_TEMP_0FD9DD36E_811628D6", "", "TABLE",
             {"logical_reads": 22598816 + 15904000}),
            ("DAIP", "DAIP_DAT", "I_K_KGPPA6", "", "INDEX",
             {"physical_read_requests": 349184, "optimized_physical_reads": 349160}),
            ("ALIP", "ALIP_DAT", "BF_PERSON", "", "TABLE", {"logical_reads": 17558416}),
        ],
        sysstat={
            "cell flash cache read hits": 4717400,
            "physical read requests optimized": 4755287,
            "physical read IO requests": 1276622,
        },
        no_tablespaces=True,
    ),
    "jdmoreno__awr-export__test__in__PPD_-_2023-12-23_-_asd_-soak__awrrpt_1_160_204.html": Expected(
        "RMGTIBN", 2216396004, [1], "19.0.0.0.0", False, (160, 204),
        ("2023-12-23T05:59:38", "2023-12-24T04:00:45"), 1321.13,
        segments=[
            ("TDS", "EPS_TDS_TBLSPC", "LOCK_ALLOCATION_PK", "", "INDEX", {"logical_reads": 363159040}),
            ("TDS", "EPS_TDS_TBLSPC", "EVENT_PK", "", "INDEX",
             {"physical_read_requests": 70936633, "physical_writes": 46484546}),
            ("TDS", "EPS_TDS_TBLSPC", "MAIL_PIECE", "SYS_P76768", "TABLE PARTITION",
             {"physical_read_requests": 8734898, "physical_writes": 11614521}),
        ],
        sysstat={"physical read IO requests": 140512614, "physical write total IO requests": 151873209},
        no_tablespaces=True,
    ),
    "ora600pl__jas-min__awrrpt_1_2668_2669.txt": Expected(
        "BPSC", 1135854311, [1], "12.2.0.1.0", False, (2668, 2669),
        ("2023-02-04T19:00:39", "2023-02-04T20:00:54"), 60.25,
        segments=[
            ("BAZA_BPSC", "BPSC", "OA_GRANTS", "", "TABLE", {"logical_reads": 99505248}),
            ("DBPLUS_REP", "DBPLUS", "DBPLUS_TAB4", "", "TABLE",
             {"physical_reads": 1670, "physical_read_requests": 1406}),
            ("SYS", "SYSAUX", "SYS_LOB0000007381C00", "_LOB_P3044", "LOB P",
             {"physical_writes_direct": 44}),
            ("BAZA_BPSC", "BPSC", "DEKRETACJA_LOCK_MAG", "", "TABLE", {"row_lock_waits": 12}),
        ],
        sysstat={"physical read IO requests": 366729, "physical write IO requests": 45219},
        no_tablespaces=True,
        startup={1: "2023-02-04T15:30:00"},
    ),
    "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html": Expected(
        "XYDB", 1932768254, [1], "11.2.0.4.0", False, (36006, 36007),
        ("2023-12-12T17:00:31", "2023-12-12T18:00:37"), 60.09,
        segments=[
            ("IDC_U_UNIAUTH", "TS_UNIAUTH", "T_ONLINE_USER", "", "TABLE",
             {"logical_reads": 249756096, "physical_read_requests": 2040761}),
            ("IDC_U_UNIAUTH", "TS_UNIAUTH", "SYS_LOB0000092764C00009$$", "", "LOB",
             {"logical_reads": 28887424, "physical_writes": 1945287}),
        ],
        tablespaces={"TS_UNIAUTH": (4075643, 0.01, 917089), "UNDOTBS1": (0, 0.0, 9498)},
        sysstat={"physical read IO requests": 4084013, "physical write total IO requests": 1065172},
    ),
    "pcambell__awrrptanalyzor__awrrpt__11g_rac__awrrpt_1_24703_24704.html": Expected(
        "XYDB", 1882826147, [1], "11.2.0.4.0", True, (24703, 24704),
        ("2021-02-28T12:26:45", "2021-02-28T13:03:45"), 37.01,
        segments=[
            ("NTJW", "NTJW", "TLK_STUDENTREPORT", "", "TABLE",
             {"logical_reads": 40214288, "physical_read_requests": 161238}),
            ("IDC_U_UNIAUTH", "TS_UNIAUTH", "SYS_LOB0000095384C00009$$", "", "LOB",
             {"physical_writes": 17219}),
        ],
        tablespaces={"NTJW": (167322, 0.0, 512), "TEMP": (11412, 54.85, 40349)},
        sysstat={"physical read IO requests": 208501, "physical write total IO requests": 132319},
    ),
    "pcambell__awrrptanalyzor__awrrpt__12c_rac__awrrpt_1_56288_562891.html": Expected(
        "IDCDB", 4102709851, [1], "12.2.0.1.0", True, (56288, 56289),
        ("2024-12-09T10:00:09", "2024-12-09T11:00:07"), 59.97,
        tablespaces={"TS_DC": (377670, 1.85, 63), "UNDO_2": (241726, 0.28, 0)},
        sysstat={"physical read IO requests": 1681953, "physical write total IO requests": 30},
        no_segments=True,
    ),
    "pcambell__awrrptanalyzor__awrrpt__19c_rac__awr_xydb_1_20230217_8_9.html": Expected(
        "XYDB", 1971498938, [1], "19.0.0.0.0", True, (18346, 18347),
        ("2023-02-17T08:00:05", "2023-02-17T09:00:22"), 60.28,
        segments=[
            ("LPTMJUSER", "LPTMJPDB", "PASS_RECORD", "", "TABLE", {"logical_reads": 83960672}),
            ("EAMS_JMU", "EAMS", "SYS_LOB0000115263C00005$$", "", "LOB",
             {"physical_read_requests": 25730}),
            ("IDC_DATA_SHAREDB", "IDC_DATA_SHAREDB", "JX_JHXFXSYQ", "", "TABLE",
             {"physical_writes": 5884}),
        ],
        sysstat={"physical read IO requests": 97814, "physical write total IO requests": 535489},
        no_tablespaces=True,
    ),
    "pcambell__awrrptanalyzor__awrrpt__19c_rac__awrrpt_1_18175_18176.html": Expected(
        "XYDB", 2028335103, [1], "19.0.0.0.0", True, (18175, 18176),
        ("2024-11-18T14:00:47", "2024-11-18T15:00:13"), 59.44,
        segments=[
            ("IDC_U_STUWORK", "TB_STUWORK", "DORM_UNUSUAL_RECORD", "", "TABLE",
             {"logical_reads": 568309840}),
            ("** MISSING **", "TEMP", "** MISSING: -40003517/4197248", "** MISSING **", "UNDEFINED",
             {"physical_read_requests": 26}),
            ("SYS", "SYSAUX", "I_WRI$_OPTSTAT_IND_OBJ#_ST", "", "INDEX", {"physical_writes": 408}),
        ],
        sysstat={"physical read IO requests": 56798, "physical write total IO requests": 48064},
        no_tablespaces=True,
    ),
    "sarthi2020__AWR-reports__awr_rpt_1.html": Expected(
        "DB1UAT", 3002120671, [1], "11.2.0.3.0", False, (42809, 42810),
        ("2018-10-15T18:30:16", "2018-10-15T19:30:32"), 60.27,
        segments=[
            ("FINAXIAUAT2", "TESTING2", "PAYMENT_INSTRUCTION", "", "TABLE", {
                "logical_reads": 63431392,
                "physical_reads": 63370496,
                "physical_read_requests": 551047,
                "physical_reads_direct": 63113480,
            }),
            ("PSUSER_DEV", "CMNUSER", "LSWC_PO_VERSIONS", "", "INDEX", {"physical_writes": 17022}),
        ],
        tablespaces={"USERS": (2195142, 1.83, 84199), "TESTING2": (1119135, 0.76, 10335)},
        sysstat={"physical read IO requests": 4089416, "physical write total IO requests": 508406},
    ),
    "shadabshaukat__oracle-awr-report-ai-assistant__sample__awrrpt_1_555_556.html": Expected(
        "GEPDIPC", 2812207431, [1], "12.1.0.2.0", False, (555, 556),
        ("2021-06-10T08:00:24", "2021-06-10T09:00:40"), 60.28,
        segments=[
            ("GLOGOWNER", "INDX", "IX_IE_SHPSTUS_TRANS_NO", "", "INDEX", {"logical_reads": 4501029728}),
            ("GLOGOWNER", "PART_4", "IE_SHIPMENTSTATUS_T", "PART4", "TABLE PARTITION",
             {"logical_reads": 2713111200}),
            ("GLOGOWNER", "INDX", "IX_ORREFNUM_GID_QUAL_DOMAIN", "", "INDEX",
             {"physical_read_requests": 3863}),
        ],
        tablespaces={"LOB7": (116919, 0.56, 1255), "INDX": (26692, 0.65, 54482)},
        sysstat={"physical read IO requests": 227852, "physical write total IO requests": 123629},
    ),
    "structureddata__structureddata.github.io__assets__pq__range__1__awrrpt_1_910_911.html": Expected(
        "DEMO", 3430975138, [1], "11.1.0.7.0", True, (910, 911),
        ("2009-06-27T17:16:56", "2009-06-27T17:21:53"), 4.96,
        segments=[
            ("RETAIL", "RETAIL_20090522", "DWB_RTL_TRX", "R20090522", "TABLE PARTITION",
             {"logical_reads": 267344}),
            ("RETAIL", "RETAIL_20090531", "DWB_RTL_TRX", "R20090531", "TABLE PARTITION",
             {"physical_reads": 249804, "physical_reads_direct": 249804}),
            ("SYS", "SYSAUX", "WRH$_ACTIVE_SESSION_HISTORY", "975138_895", "TABLE PARTITION",
             {"physical_writes": 11, "physical_writes_direct": 11}),
        ],
        tablespaces={"TEMP": (186711, 2.38, 194059), "SYSTEM": (33, 4.85, 3)},
        sysstat={"physical read IO requests": 274018, "physical write total IO requests": 194571},
    ),
}
