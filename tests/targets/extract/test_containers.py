"""An extract of a CDB: every segment is named with its PDB, from containers.csv and seg_stat.csv's CON_ID."""

from __future__ import annotations

import shutil
from pathlib import Path

from apps.targets.extract import read_extract

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _cdb_copy(tmp_path: Path, *, session_con_id: int, con_id_column: bool) -> Path:
    directory = tmp_path / "cdb"
    shutil.copytree(FIXTURES / "single", directory)
    (directory / "containers.csv").write_text(
        "CDB,CON_ID,CON_NAME,SESSION_CON_ID\n"
        f'"YES","1","CDB$ROOT","{session_con_id}"\n"YES","3","PDB1","{session_con_id}"\n'
        f'"YES","4","PDB2","{session_con_id}"\n')
    if con_id_column:
        seg_stat = directory / "seg_stat.csv"
        header, *rows = seg_stat.read_text().splitlines()
        # The first row's segment again, in the other PDB: two segments, never summed.
        rows = [row + ',"3"' for row in rows] + [rows[0] + ',"4"']
        seg_stat.write_text("\n".join([header + ",CON_ID", *rows]) + "\n")
    return directory


def test_a_pdb_extract_names_its_segments_with_its_pdb(tmp_path):
    collection = read_extract(_cdb_copy(tmp_path, session_con_id=3, con_id_column=False))

    assert {info.key.container for info in collection.segments} == {"PDB1"}
    assert {stat.key.container for snap in collection.snapshots for stat in snap.segment_stats} == {"PDB1"}


def test_a_root_extract_keeps_two_pdbs_same_named_segments_apart(tmp_path):
    collection = read_extract(_cdb_copy(tmp_path, session_con_id=1, con_id_column=True))

    keys = {stat.key for snap in collection.snapshots for stat in snap.segment_stats}
    twins = {(key.owner, key.object_name, key.subobject_name, key.object_type) for key in keys}
    assert {key.container for key in keys} == {"PDB1", "PDB2"}
    assert len(keys) == len(twins) + 1


def test_an_extract_without_containers_is_a_non_cdb():
    collection = read_extract(FIXTURES / "single")

    assert {info.key.container for info in collection.segments} == {""}
