"""A CDB watched live: every segment is named with its PDB, and two PDBs' same-named segments stay apart."""

from __future__ import annotations

import copy
import unittest

from apps.targets.oracle.containers import Containers
from apps.targets.oracle.source import OracleSource

from .fakes import FakeConnect, load_recording
from .recorded_sources import rac_state


def _cdb_recording(*, session_con_id: int) -> dict:
    """rac_awr as a CDB: the session in container ``session_con_id``, AWR's rows spread over two PDBs."""
    recording = copy.deepcopy(load_recording("rac_awr"))
    recording["statements"]["containers"] = [{
        "columns": ["CDB", "CON_ID", "CON_NAME", "SESSION_CON_ID"],
        "rows": [["YES", 1, "CDB$ROOT", str(session_con_id)], ["YES", 3, "PDB1", str(session_con_id)],
                 ["YES", 4, "PDB2", str(session_con_id)]],
    }]
    seg_stat = recording["statements"]["seg_stat"][0]
    con = seg_stat["columns"].index("CON_ID")
    owner, name = seg_stat["columns"].index("OWNER"), seg_stat["columns"].index("OBJECT_NAME")
    first = seg_stat["rows"][0]
    twin = list(first)
    first[con], twin[con] = 3, 4  # the same owner.object in PDB1 and PDB2
    seg_stat["rows"].append(twin)
    recording["twin"] = (first[owner], first[name])
    return recording


def _collect(recording: dict):
    connect = FakeConnect(recording)
    source = OracleSource(dsn="dbhost1:1521/CDB", user="C##TIERSCOPE", password="x", mode="awr", connect=connect)
    return source.collect(rac_state())


class CdbRootTests(unittest.TestCase):
    def setUp(self) -> None:
        self.recording = _cdb_recording(session_con_id=1)
        self.collection = _collect(self.recording)

    def test_awr_rows_of_two_pdbs_are_two_segments_with_their_own_figures(self) -> None:
        owner, name = self.recording["twin"]
        twins = sorted((stat.key.container, stat.physical_read_requests) for snap in self.collection.snapshots
                       for stat in snap.segment_stats if (stat.key.owner, stat.key.object_name) == (owner, name))
        containers = {container for container, _reads in twins}
        self.assertTrue({"PDB1", "PDB2"} <= containers, twins)

    def test_the_root_s_own_segments_are_named_cdb_root(self) -> None:
        self.assertEqual({info.key.container for info in self.collection.segments}, {"CDB$ROOT"})


class PdbSessionTests(unittest.TestCase):
    def test_a_session_in_a_pdb_names_its_segments_with_that_pdb(self) -> None:
        collection = _collect(_cdb_recording(session_con_id=3))

        self.assertEqual({info.key.container for info in collection.segments}, {"PDB1"})


class NonCdbTests(unittest.TestCase):
    def test_a_non_cdb_has_no_container(self) -> None:
        collection = _collect(load_recording("rac_awr"))

        self.assertEqual({info.key.container for info in collection.segments}, {""})
        self.assertEqual({s.key.container for snap in collection.snapshots for s in snap.segment_stats}, {""})

    def test_a_container_the_session_cannot_name_is_never_merged_with_another(self) -> None:
        self.assertEqual(Containers(True, {1: "CDB$ROOT"}, 1).name_of(7), "CON_ID 7")
