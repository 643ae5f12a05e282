"""Where the shared real AWR reports live (../shared/awr-samples beside the project)."""

from __future__ import annotations

from pathlib import Path

SAMPLES_DIR = Path(__file__).resolve().parents[3] / ".." / "shared" / "awr-samples"

#: Real reports the tests read by name.
HTML_11G = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
HTML_12C_RAC = "edwinjiang__dataextraction_found__beautifulsoap__awr_db1tp.html"
HTML_19C = "pcambell__awrrptanalyzor__awrrpt__19c_rac__awrrpt_1_18175_18176.html"
HTML_GLOBAL = "edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html"  # a RAC database's global report
TEXT_11G = "1newstar__awr2csv__sample__awr_11204_1.txt"  # instance 1 of a 2-instance database
TEXT_11G_2 = "1newstar__awr2csv__sample__awr_11204_2.txt"  # instance 2, the same interval
HTML_11G_TWIN = "1newstar__awr2csv__sample__awr_11204_1.html"  # TEXT_11G's report in HTML
TEXT_12C = "ora600pl__jas-min__awrrpt_1_2668_2669.txt"


def sample_paths() -> list[Path]:
    """Every report in the samples folder (the MANIFEST excluded)."""
    return sorted(path for path in SAMPLES_DIR.iterdir() if path.name != "MANIFEST.tsv")


def sample_bytes(name: str) -> bytes:
    return (SAMPLES_DIR / name).read_bytes()


def replaced_after(document: str, title: str, old: str, new: str) -> str:
    """``document`` with the first ``old`` after ``title`` replaced by ``new`` (one section's heading edited)."""
    at = document.index(old, document.index(title))
    return document[:at] + new + document[at + len(old):]


#: Real reports printed without any "Segments by ..." section (MANIFEST.tsv): read with a warning.
WITHOUT_SEGMENTS: tuple[str, ...] = (
    "Azure__Oracle-Workloads-for-Azure__levelup-oracle-on-iaas__lab1__awr__AWR_DBS.html",
    "Azure__Oracle-Workloads-for-Azure__levelup-oracle-on-iaas__lab1__awr__AWR_DBU.html",
    "pcambell__awrrptanalyzor__awrrpt__12c_rac__awrrpt_1_56288_562891.html",
)


class RefusalAssertions:
    """For unittest.TestCase subclasses: a report refused with one AwrReportError line, starting with the
    file's name and holding each fragment."""

    def assert_refused(self, data, *fragments: str, filename: str = "r.html"):
        from apps.targets.awr_report import AwrReportError, parse_report

        with self.assertRaises(AwrReportError) as caught:
            parse_report(data, filename=filename)
        message = str(caught.exception)
        self.assertNotIn("\n", message)
        self.assertTrue(message.startswith(filename), message)
        for fragment in fragments:
            self.assertIn(fragment, message)
        return caught.exception
