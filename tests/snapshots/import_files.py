"""Files the import tests read: real AWR reports (../shared/awr-samples), the offline extract fixtures, a RAC
instance report edited into the interval of the global report, and a segments listing (DBA_SEGMENTS as CSV)."""

from __future__ import annotations

from pathlib import Path

from tests.targets.awr_report.samples import HTML_11G_TWIN, HTML_GLOBAL, SAMPLES_DIR, TEXT_11G, TEXT_11G_2, sample_bytes

SAMPLES = SAMPLES_DIR
EXTRACTS = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures"
INSTANCE_1, INSTANCE_2, GLOBAL = TEXT_11G, TEXT_11G_2, HTML_GLOBAL
#: One instance's report of one interval, in its HTML and its text form.
SAME_HTML, SAME_TEXT = HTML_11G_TWIN, TEXT_11G
sample = sample_bytes  # a real AWR report's bytes


def as_instance_of_the_global_interval(name: str) -> bytes:
    """An instance report of the global report's database and snapshot pair (SLOB, DBID 3648831675, 176-177):
    the 11.2.0.4 instance report with its header's DBID, snapshot ids and times edited, in place."""
    text = (SAMPLES / name).read_text()
    text = text.replace("1380142923", "3648831675")
    text = text.replace("Begin Snap:         2 10-Jul-14 04:00:45", "Begin Snap:       176 18-Sep-16 14:51:10")
    text = text.replace("  End Snap:         3 10-Jul-14 05:00:58", "  End Snap:       177 18-Sep-16 14:54:05")
    return text.encode()


def sizes_csv(*rows: tuple[str, str, str, str, str, int]) -> bytes:
    """A DBA_SEGMENTS listing (the extract's segments.csv) of ``rows``: (owner, name, partition, type, tablespace,
    bytes)."""
    lines = ["OWNER,SEGMENT_NAME,PARTITION_NAME,SEGMENT_TYPE,TABLESPACE_NAME,BYTES,BLOCKS,BUFFER_POOL,FLASH_CACHE,"
             "CELL_FLASH_CACHE,OBJ_NUMBER,DATAOBJ_NUMBER,LOB_TABLE_NAME,LOB_COLUMN_NAME,LOB_TABLE_PARTITION_NAME"]
    for owner, name, partition, segment_type, tablespace, size_bytes in rows:
        lines.append(f'"{owner}","{name}","{partition}","{segment_type}","{tablespace}","{size_bytes}",'
                     f'"{size_bytes // 8192}","DEFAULT","DEFAULT","DEFAULT","","","","",""')
    return ("\n".join(lines) + "\n").encode()
