"""A LOB index counted with its LOB (apps.tiering.recommendations.lobfold): pairing, and the figures added up."""

from __future__ import annotations

import doctest

import numpy as np

from apps.tiering.recommendations import lobfold
from apps.tiering.recommendations.decision_records import WindowColumns
from apps.tiering.recommendations.lobfold import LobRow, fold, lob_index_pairs, positions


def test_the_module_examples_hold():
    assert doctest.testmod(lobfold).failed == 0


def test_a_lob_index_pairs_with_the_lob_of_its_table_and_column():
    # User-named LOB segment (STORE AS DOC_SEG): only DBA_LOBS' table and column tie the two.
    rows = [LobRow(1, "SOE", "DOC_SEG", "LOBSEGMENT", "DOCS", "BODY"),
            LobRow(2, "SOE", "DOC_IDX", "LOBINDEX", "DOCS", "BODY"),
            LobRow(3, "SOE", "NOTE_SEG", "LOBSEGMENT", "DOCS", "NOTE"),
            LobRow(4, "SOE", "NOTE_IDX", "LOBINDEX", "DOCS", "NOTE")]
    assert lob_index_pairs(rows) == {2: 1, 4: 3}


def test_without_table_and_column_a_system_named_pair_shares_its_object_and_column_numbers():
    # An AWR report names neither table nor column and spells the index an INDEX.
    rows = [LobRow(10, "SHOP", "SYS_LOB0000076543C00004$$", "LOBSEGMENT", "", ""),
            LobRow(11, "SHOP", "SYS_IL0000076543C00004$$", "INDEX", "", ""),
            LobRow(12, "SHOP", "SYS_IL0000076543C00005$$", "INDEX", "", ""),  # another column: no LOB listed
            LobRow(13, "OTHER", "SYS_IL0000076543C00004$$", "LOBINDEX", "", "")]  # another owner
    assert lob_index_pairs(rows) == {11: 10}


def test_an_ordinary_index_is_never_paired():
    rows = [LobRow(1, "SOE", "SYS_LOB0000000001C00001$$", "LOBSEGMENT", "T", "C"),
            LobRow(2, "SOE", "SYS_IL_NOT_A_LOB", "INDEX", "", "")]
    assert lob_index_pairs(rows) == {}


def test_positions_point_each_index_at_its_lob():
    ids = np.array([5, 8, 9, 20])
    assert positions(ids, {9: 5, 20: 8, 99: 5}).tolist() == [-1, -1, 0, 1]


def _window(**values):
    n = 3
    window = {name: np.zeros(n) for name in lobfold._SUMMED}
    window.update({name: np.zeros(n, dtype=bool) for name in lobfold._EITHER})
    window.update(covered_s=np.full(n, 86400.0), present=np.ones(n, dtype=bool))
    window.update(values)
    return WindowColumns(**window)


def test_a_lob_counts_its_index_s_size_and_io_and_the_index_keeps_its_own():
    window = _window(iops=np.array([40.0, 5.0, 7.0]), read_requests=np.array([1000.0, 200.0, 9.0]),
                     iops_bound=np.array([40.0, 5.0, 7.0]))
    size = np.array([25 * 2**30, 2**27, 2**30])

    folded, folded_size, _ = fold(window, size, (np.full(3, np.nan), np.full(3, np.nan)), np.array([-1, 0, -1]))

    assert folded.iops.tolist() == [45.0, 5.0, 7.0]
    assert folded.read_requests.tolist() == [1200.0, 200.0, 9.0]
    assert folded_size.tolist() == [25 * 2**30 + 2**27, 2**27, 2**30]
    assert window.iops.tolist() == [40.0, 5.0, 7.0]  # the input is left alone


def test_an_index_not_all_measured_leaves_its_lob_a_lower_bound():
    window = _window(iops=np.array([40.0, 5.0, 0.0]), unmeasured=np.array([False, True, False]),
                     iops_bound=np.array([40.0, np.nan, 0.0]))

    folded, _, _ = fold(window, np.array([1, 1, 1]), (np.full(3, np.nan), np.full(3, np.nan)), np.array([-1, 0, -1]))

    assert folded.unmeasured.tolist() == [True, True, False]
    assert np.isnan(folded.iops_bound[0])  # the index had no bound: neither has the pair


def test_an_index_of_unknown_size_leaves_its_lob_s_size_unknown_not_its_own():
    _, folded_size, _ = fold(_window(), np.array([100, -1, 5]), (np.full(3, np.nan), np.full(3, np.nan)),
                             np.array([-1, 0, -1]))
    assert folded_size.tolist() == [-1, -1, 5]


def test_flash_residency_adds_up_where_collected():
    flash, cache = np.array([np.nan, 4.0, 1.0]), np.array([10.0, 6.0, np.nan])
    _, _, (folded_flash, folded_cache) = fold(_window(), np.array([1, 1, 1]), (flash, cache), np.array([-1, 0, -1]))
    assert folded_flash.tolist() == [4.0, 4.0, 1.0]
    assert folded_cache.tolist()[:2] == [16.0, 6.0]


def test_a_lob_index_pairs_only_with_the_lob_of_its_own_pdb():
    rows = [LobRow(1, "APP", "SYS_LOB0000012345C00002$$", "LOBSEGMENT", "DOCS", "BODY", "PDB1"),
            LobRow(2, "APP", "SYS_LOB0000012345C00002$$", "LOBSEGMENT", "DOCS", "BODY", "PDB2"),
            LobRow(3, "APP", "SYS_IL0000012345C00002$$", "LOBINDEX", "DOCS", "BODY", "PDB2"),
            LobRow(4, "APP", "SYS_IL0000012345C00002$$", "INDEX", "", "", "PDB1")]

    assert lob_index_pairs(rows) == {3: 2, 4: 1}
