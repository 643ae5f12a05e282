"""Pages read what the refresh stored: a move's group (grouped payback) in the recommendations table and on
the segment page; a LOB index under its LOB (counted in the LOB's row, its own figures on the LOB's page)."""

from __future__ import annotations

import datetime as dt
import html

import pytest

from apps.snapshots.models import Segment
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, SegmentStat, Snapshot
from apps.tiering.models import Recommendation, Tier
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.stored_targets import LABEL

GB = 1024**3
LOB = SegmentKey("APP", "SYS_LOB0000012345C00002$$", "", "LOBSEGMENT")
INDEX = SegmentKey("APP", "SYS_IL0000012345C00002$$", "", "LOBINDEX")


def build_lob_target(name: str, *, pairs: int = 1) -> Target:
    """A target whose ``pairs`` LOBs each have their LOB index (the first pair: LOB and INDEX), refreshed."""
    target = Target.objects.create(name=name, mode=Target.Mode.DEMO, tier_set_id="seed-2009")
    TablespaceTier.objects.create(target=target, tablespace_name="SLOW",
                                  tier=Tier.objects.get(tier_set="seed-2009", name="hi-cap disk"))
    keys = [(SegmentKey("APP", LOB.object_name.replace("C00002", f"C{2 + i:05d}"), "", "LOBSEGMENT"),
             SegmentKey("APP", INDEX.object_name.replace("C00002", f"C{2 + i:05d}"), "", "LOBINDEX"))
            for i in range(pairs)]
    snapshots = []
    for hour in range(24):
        end = NOW - dt.timedelta(hours=23 - hour)
        stats = tuple(SegmentStat(key=key, tablespace_name="SLOW", obj_number=number, dataobj_number=number,
                                  physical_read_requests=reads, physical_write_requests=0, physical_reads_blocks=reads)
                      for i, (lob, index) in enumerate(keys)
                      for key, number, reads in ((lob, 12346 + 2 * i, 360_000), (index, 12347 + 2 * i, 36_000)))
        snapshots.append(Snapshot(dbid=7, instance_number=1, snap_id=1 + hour, begin_at=end - dt.timedelta(hours=1),
                                  end_at=end, startup_at=NOW - dt.timedelta(days=30), segment_stats=stats,
                                  top_n_only=False))
    segments = tuple(SegmentInfo(key=key, tablespace_name="SLOW", bytes=size, blocks=size // 8192,
                                 partitioned_parent="DOCS", lob_column=f"BODY{i}" if i else "BODY")
                     for i, (lob, index) in enumerate(keys) for key, size in ((lob, 2 * GB), (index, GB // 8)))
    collection_store(target=target, kind="demo", state=CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8)),
                     collection=Collection(database=DatabaseInfo(dbid=7, db_name="L", release="19.0.0.0.0",
                                                                 is_rac=False, instances=(1,)),
                                           snapshots=tuple(snapshots), segments=segments))
    recommendation_refresh(target_id=target.id, now=NOW)
    return target


@pytest.fixture
def lob_target(db, seed_tiers) -> Target:
    return build_lob_target("lobs")


@pytest.mark.django_db
class GroupPageTests:
    def test_the_recommendations_table_names_each_move_s_group(self, grouped_target, viewer_client):
        recommendation_refresh(target_id=grouped_target.id, now=NOW)

        body = html.unescape(viewer_client.get(f"/targets/{grouped_target.name}/recommendations/").content.decode())

        assert "Group</th>" in body
        assert body.count(f'data-col="group">{LABEL}</td>') == 15

    def test_the_segment_page_names_its_group_and_why_it_moves(self, grouped_target, viewer_client):
        recommendation_refresh(target_id=grouped_target.id, now=NOW)
        segment = Segment.objects.filter(target=grouped_target).first()

        body = html.unescape(viewer_client.get(f"/targets/{grouped_target.name}/segments/{segment.id}/")
                             .content.decode())

        assert f'<dd id="seg-group">{LABEL}</dd>' in body
        assert "Worth moving with its group" in body


@pytest.mark.django_db
class LobIndexPageTests:
    def test_the_index_is_listed_under_its_lob_and_counted_once(self, lob_target, viewer_client):
        body = html.unescape(viewer_client.get(f"/targets/{lob_target.name}/recommendations/").content.decode())

        assert f">APP.{LOB.object_name}</span>" in body
        assert f">APP.{INDEX.object_name}</span>" not in body  # no row of its own
        assert f"with its LOB index {INDEX.object_name} (128 MB), counted in this row" in body
        lob = Recommendation.objects.current(target_id=lob_target.id).get(segment__object_name=LOB.object_name)
        # 2 GB + 0.125 GB at 100 + 10 IOPS: max(110 x $2.50, 2.125 x $0.25) = $275 on hi-cap disk.
        assert lob.size_bytes == 2 * GB + GB // 8
        assert lob.iops == pytest.approx(110.0)
        assert lob.cost_now_usd == 275

    def test_the_lob_s_page_shows_its_index_s_own_figures_and_the_index_s_page_its_lob(self, lob_target,
                                                                                      viewer_client):
        lob, index = (Segment.objects.get(target=lob_target, object_name=key.object_name) for key in (LOB, INDEX))

        body = html.unescape(viewer_client.get(f"/targets/{lob_target.name}/segments/{lob.id}/").content.decode())
        card = body[body.index('id="lob-indexes"'):]
        card = card[:card.index("</section>")]
        assert f">{INDEX.object_name}</a>" in card and "128 MB" in card and ">10.0 IOPS<" in card

        body = html.unescape(viewer_client.get(f"/targets/{lob_target.name}/segments/{index.id}/").content.decode())
        assert f'<dd id="seg-folded-into"><a href="/targets/{lob_target.name}/segments/{lob.id}/">' in body

    def test_the_table_reads_the_lob_indexes_of_a_page_in_one_query_whatever_the_number_of_lobs(
            self, seed_tiers, viewer_client):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        counts = []
        for name, pairs in (("one-lob", 1), ("four-lobs", 4)):
            build_lob_target(name, pairs=pairs)
            viewer_client.get(f"/targets/{name}/recommendations/")  # the run's figures, computed on first view
            with CaptureQueriesContext(connection) as captured:
                body = html.unescape(viewer_client.get(f"/targets/{name}/recommendations/").content.decode())
            assert body.count("counted in this row") == pairs
            counts.append(len(captured.captured_queries))
        assert counts[0] == counts[1]
