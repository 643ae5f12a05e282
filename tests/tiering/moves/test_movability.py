"""Which segments a move can relocate (apps.tiering.moves.movability), and the refresh's SQL that classifies them."""

from __future__ import annotations

import datetime as dt
import doctest
import unittest

import pytest

from apps.tiering.moves import movability
from apps.tiering.moves.movability import (
    AQ_INTERNAL,
    CLUSTER,
    CODES,
    DICTIONARY,
    IOT_SEGMENT,
    MOVABLE,
    MOVES_WITH_LOB,
    NAME_TRUNCATED,
    ORACLE_MAINTAINED,
    SEGMENT_TYPE,
    UNKNOWN_OBJECT,
    why_not_movable,
)

#: (owner, name, type, truncated) -> code; names as the demo and the real reports in ../shared/awr-samples give them.
CASES: dict[tuple[str, str, str, bool], str] = {
    ("SOE", "ORDERS", "TABLE", False): MOVABLE,
    ("SOE", "ORDERS", "TABLE PARTITION", False): MOVABLE,
    ("SOE", "ORDERS_PK", "INDEX SUBPARTITION", False): MOVABLE,
    ("SOE", "SYS_LOB0000087654C00003$$", "LOBSEGMENT", False): MOVABLE,
    ("SOE", "SYS_IL0000087654C00003$$", "LOBINDEX", False): MOVES_WITH_LOB,
    ("IDC_U_UNIAUTH", "SYS_IL0000092764C00009$$", "INDEX", False): MOVES_WITH_LOB,  # as an AWR report lists it
    ("SYS", "IDL_UB2$", "TABLE", False): DICTIONARY,
    ("SYS", "OBJ$", "TABLE", False): DICTIONARY,
    ("SYS", "C_OBJ#", "CLUSTER", False): DICTIONARY,
    ("SYS", "I_OBJ1", "INDEX", False): DICTIONARY,
    ("SYSTEM", "LOGMNR_RESTART_CKPT$", "TABLE", False): DICTIONARY,
    ("SYS", "_SYSSMU1_3780397527$", "TYPE2 UNDO", False): MOVABLE,  # undo's own rules apply
    ("XDB", "XDB$RESOURCE", "TABLE", False): ORACLE_MAINTAINED,
    ("MDSYS", "SDO_GEOR_DDL__TABLE$$", "TABLE", False): ORACLE_MAINTAINED,
    ("** MISSING **", "** MISSING: 501101/4", "UNDEFINED", False): UNKNOWN_OBJECT,
    ("APP", "EMP_DEPT", "CLUSTER", False): CLUSTER,
    ("APP", "AQ$_ORDERS_QT_I", "INDEX", False): AQ_INTERNAL,
    ("APP", "AQ$_ORDERS_QT_S", "TABLE", False): AQ_INTERNAL,
    ("APP", "SYS_IOT_TOP_91234", "INDEX", False): IOT_SEGMENT,
    ("APP", "SYS_IOT_OVER_91234", "TABLE", False): IOT_SEGMENT,
    ("APP", "ORDERS_NT", "NESTED TABLE", False): SEGMENT_TYPE,
    ("BAZA_BPSC", "SYS_LOB0000104009C00", "LOBSEGMENT", True): NAME_TRUNCATED,
    ("SYS", "WRH$_ACTIVE_SESSION_HISTO", "TABLE", True): NAME_TRUNCATED,
}


class MovabilityTests(unittest.TestCase):
    def test_it_classifies_each_kind_of_segment(self) -> None:
        for (owner, name, kind, truncated), code in CASES.items():
            with self.subTest(segment=f"{owner}.{name} {kind}"):
                self.assertEqual(movability.movability(owner, name, kind, name_truncated=truncated), code)

    def test_it_says_why_in_one_line_for_every_code_but_movable(self) -> None:
        for code in CODES[1:]:
            with self.subTest(code=code):
                text = why_not_movable(code, owner="APP", object_name="T\n1", object_type="TABLE")
                self.assertNotIn("\n", text)
                self.assertTrue(text.endswith("."), text)
        with self.assertRaises(ValueError):
            why_not_movable(MOVABLE, owner="APP", object_name="T", object_type="TABLE")

    def test_its_examples_hold(self) -> None:
        self.assertEqual(doctest.testmod(movability).failed, 0)


@pytest.mark.django_db
def test_the_refresh_classifies_segments_in_sql_as_movability_does(seed_tiers):
    from apps.snapshots.models import Segment
    from apps.targets.models import Target
    from apps.tiering.recommendations.services import segment_arrays

    target = Target.objects.create(name="t1", mode=Target.Mode.REPORT)
    now = dt.datetime(2026, 11, 20, tzinfo=dt.timezone.utc)
    expected = {}
    for (owner, name, kind, truncated), code in CASES.items():
        segment = Segment.objects.create(target=target, owner=owner, object_name=name, object_type=kind,
                                         name_truncated=truncated, first_seen_at=now, last_seen_at=now)
        expected[segment.id] = code

    arrays = segment_arrays(target_id=target.id)

    got = {int(i): CODES[int(c)] for i, c in zip(arrays.segment_id, arrays.movability)}
    assert got == expected
