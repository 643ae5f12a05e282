"""A CDB's segment belongs to its PDB: the same owner.object in two PDBs are two stored segments."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots import store
from apps.snapshots.codec import sample_from_json, sample_to_json
from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.targets.rows import Collection, CounterSample, DatabaseInfo, SegmentInfo, SegmentKey, segment_name

T0 = dt.datetime(2026, 11, 20, 10, 0, tzinfo=dt.timezone.utc)
DB = DatabaseInfo(dbid=7, db_name="CDB1", release="19.0.0.0.0", is_rac=False, instances=(1,))


def _pdb_segment(container: str, size: int) -> SegmentInfo:
    return SegmentInfo(key=SegmentKey("ORACLE", "IOSATURATIONTOOLKIT", "", "TABLE", container),
                       tablespace_name="USERS", bytes=size, blocks=size // 8192)


@pytest.mark.django_db
def test_the_same_object_in_three_pdbs_is_stored_as_three_segments_each_with_its_own_size():
    target = Target.objects.create(name="cdb", mode=Target.Mode.DEMO)
    segments = tuple(_pdb_segment(pdb, size) for pdb, size in (("PDB1", 8192 * 10), ("PDB2", 8192 * 20),
                                                                 ("PDB3", 8192 * 30)))

    ids = store.segments_upsert(target_id=target.id, collection=Collection(database=DB, segments=segments), seen_at=T0)
    again = store.segments_upsert(target_id=target.id, collection=Collection(database=DB, segments=segments),
                                  seen_at=T0 + dt.timedelta(hours=1))

    assert len(set(ids.values())) == 3 and ids == again
    stored = dict(Segment.objects.filter(target=target).values_list("container", "size_bytes"))
    assert stored == {"PDB1": 8192 * 10, "PDB2": 8192 * 20, "PDB3": 8192 * 30}
    assert str(Segment.objects.get(target=target, container="PDB2")) == "PDB2:ORACLE.IOSATURATIONTOOLKIT (TABLE)"


def test_a_sample_keeps_its_segments_containers_through_its_stored_form():
    keys = [SegmentKey("A", "T", "", "TABLE", "PDB1"), SegmentKey("A", "T", "", "TABLE", "PDB2")]
    sample = CounterSample(instance_number=1, startup_at=T0, sampled_at=T0,
                           segment_totals={key: {"physical_read_requests": n} for n, key in enumerate(keys)},
                           segment_places={key: ("USERS", 1, 1) for key in keys})

    back = sample_from_json(sample_to_json(sample))

    assert back.segment_totals == sample.segment_totals


def test_a_sample_stored_before_containers_existed_still_reads():
    payload = {"instance_number": 1, "startup_at": T0.isoformat(), "sampled_at": T0.isoformat(),
               "segments": [[["A", "T", "", "TABLE"], {"physical_read_requests": 3}, ["USERS", 1, 1]]]}

    assert list(sample_from_json(payload).segment_totals) == [SegmentKey("A", "T", "", "TABLE")]


def test_a_pdb_segment_is_named_after_its_pdb():
    assert segment_name("SOE", "ORDERS", "P1", "PDB1") == "PDB1:SOE.ORDERS.P1"
    assert segment_name("SOE", "ORDERS") == "SOE.ORDERS"
