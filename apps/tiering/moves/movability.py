"""Which segments a move to another tier can actually relocate, and why the others cannot.

A recommendation only counts when its DDL can be run. Oracle will not move
some segments at all (data dictionary objects, clusters), moves others only
with the object they belong to (a LOB index with its LOB, an index-organized
table's index and overflow with the table, AQ's internal objects with their
queue table), and some rows cannot be acted on as read (a name a text report
cut short, an object AWR could no longer name). :func:`movability` gives each
segment a code from :data:`CODES` ("" = its own DDL moves it), and
:func:`why_not_movable` the sentence shown as its reason and in its DDL
comment, so the two always say the same.

Undo and TEMP are movable here: their own rules (``rules``) keep them or say
how to switch the undo or temporary tablespace.

The refresh classifies 100k segments in SQL (apps.tiering.recommendations.services, from the
constants below); a test holds that query to :func:`movability`.

Pure: standard library only.
"""

from __future__ import annotations

import re

MOVABLE = ""
NAME_TRUNCATED = "name_truncated"
MOVES_WITH_LOB = "moves_with_lob"
DICTIONARY = "dictionary"
ORACLE_MAINTAINED = "oracle_maintained"
UNKNOWN_OBJECT = "unknown_object"
CLUSTER = "cluster"
AQ_INTERNAL = "aq_internal"
IOT_SEGMENT = "iot_segment"
SEGMENT_TYPE = "segment_type"

#: Batch arrays (rules.Columns.movability) index these; 0 = movable. Append only: refreshes store them.
CODES: tuple[str, ...] = (
    MOVABLE, NAME_TRUNCATED, MOVES_WITH_LOB, DICTIONARY, ORACLE_MAINTAINED, UNKNOWN_OBJECT, CLUSTER,
    AQ_INTERNAL, IOT_SEGMENT, SEGMENT_TYPE,
)

#: Owners of the data dictionary: SYS owns it, SYSTEM holds Oracle's own tables beside it.
DICTIONARY_OWNERS: frozenset[str] = frozenset({"SYS", "SYSTEM"})
#: Other schemas Oracle creates and maintains (DBA_USERS.ORACLE_MAINTAINED = 'Y' in 12c+); their objects
#: move only by the owning feature's procedures (V$SYSAUX_OCCUPANTS.MOVE_PROCEDURE for SYSAUX occupants).
ORACLE_MAINTAINED_OWNERS: frozenset[str] = frozenset({
    "APPQOSSYS", "AUDSYS", "CTXSYS", "DBSFWUSER", "DBSNMP", "DVSYS", "GSMADMIN_INTERNAL", "LBACSYS", "MDSYS",
    "OJVMSYS", "OLAPSYS", "ORDDATA", "ORDSYS", "OUTLN", "REMOTE_SCHEDULER_AGENT", "SYSBACKUP", "SYSDG",
    "SYSKM", "SYSRAC", "SYS$UMF", "WMSYS", "XDB",
})
#: DBA_SEGMENTS spells a LOB index LOBINDEX; an AWR report lists it as an INDEX named SYS_IL<obj#>C<col#>$$.
LOB_INDEX_TYPES: frozenset[str] = frozenset({"LOBINDEX", "LOB INDEX"})
LOB_INDEX_NAME = r"^SYS_IL[0-9]{10}C[0-9]{5}\$\$$"  # a POSIX and a Python regular expression alike
#: AWR names an object whose dictionary row is gone (dropped since) "** MISSING **", of type UNDEFINED.
MISSING_OWNER = "** MISSING **"
UNKNOWN_TYPES: frozenset[str] = frozenset({"UNDEFINED"})
CLUSTER_TYPES: frozenset[str] = frozenset({"CLUSTER"})
#: AQ$_<queue table>_I, _T, _H, _G, _D, _C, _L, _P, _S ...: a queue table's internal tables and IOTs.
AQ_PREFIX = "AQ$_"
#: An index-organized table's primary key index and overflow segment.
IOT_PREFIXES: tuple[str, ...] = ("SYS_IOT_TOP_", "SYS_IOT_OVER_")
#: Segment types (DBA_SEGMENTS.SEGMENT_TYPE) that DDL never moves: undo moves by switching UNDO_TABLESPACE,
#: temporary segments by switching the temporary tablespace.
UNDO_TYPES: frozenset[str] = frozenset({"TYPE2 UNDO", "UNDO", "ROLLBACK", "DEFERRED ROLLBACK"})
TEMP_TYPES: frozenset[str] = frozenset({"TEMPORARY"})
#: A LOB's segments: statements name the LOB's table and column.
LOB_TYPES: frozenset[str] = frozenset({"LOBSEGMENT", "LOB PARTITION", "LOB SUBPARTITION"})
#: Segment types with their own rules (undo and temporary): never classified here.
OWN_RULE_TYPES: frozenset[str] = UNDO_TYPES | TEMP_TYPES
#: Segment types whose own ALTER TABLE ... MOVE / ALTER INDEX ... REBUILD / MOVE LOB relocates them.
MOVABLE_TYPES: frozenset[str] = frozenset({
    "TABLE", "TABLE PARTITION", "TABLE SUBPARTITION", "INDEX", "INDEX PARTITION", "INDEX SUBPARTITION",
}) | LOB_TYPES

_LOB_INDEX_NAME = re.compile(LOB_INDEX_NAME)


def movability(owner: str, object_name: str, object_type: str, *, name_truncated: bool = False) -> str:
    """The code of :data:`CODES` for one segment ("" = its own DDL moves it); rules in this order.

    >>> movability("SYS", "IDL_UB2$", "TABLE")
    'dictionary'
    >>> movability("SOE", "SYS_IL0000087654C00003$$", "INDEX")
    'moves_with_lob'
    >>> movability("SOE", "ORDERS", "TABLE")
    ''
    """
    kind = " ".join(object_type.upper().split())
    if name_truncated:
        return NAME_TRUNCATED
    if kind in LOB_INDEX_TYPES or (kind == "INDEX" and _LOB_INDEX_NAME.match(object_name)):
        return MOVES_WITH_LOB
    if kind in OWN_RULE_TYPES:
        return MOVABLE
    if owner == MISSING_OWNER or kind in UNKNOWN_TYPES:
        return UNKNOWN_OBJECT
    if owner in DICTIONARY_OWNERS:
        return DICTIONARY
    if owner in ORACLE_MAINTAINED_OWNERS:
        return ORACLE_MAINTAINED
    if kind in CLUSTER_TYPES:
        return CLUSTER
    if object_name.startswith(AQ_PREFIX):
        return AQ_INTERNAL
    if object_name.startswith(IOT_PREFIXES):
        return IOT_SEGMENT
    if kind not in MOVABLE_TYPES:
        return SEGMENT_TYPE
    return MOVABLE


#: Why a segment of each code (but MOVABLE) is not moved by itself, and what to do instead: filled with the
#: segment's ``name`` (owner.object), ``owner``, ``kind`` (its type) and ``lob`` (" <its LOB>" for a LOB index
#: named after its LOB, else "").
_WHY_NOT: dict[str, str] = {
    NAME_TRUNCATED: (
        "Its name ({name}) was cut short by the text report, so it may not be the segment's real name: "
        "resolve it (import the HTML report, or a sizes listing where exactly one segment has that "
        "prefix) before acting on it; no DDL until then."),
    MOVES_WITH_LOB: (
        "{name} is a LOB index: Oracle moves it with its LOB segment{lob} (ALTER TABLE ... MOVE LOB "
        "(...) STORE AS (TABLESPACE ...)), never by itself; it is neither moved nor counted in savings on its own."),
    DICTIONARY: (
        "{name} is a data dictionary object ({owner}): Oracle does not support moving it "
        "(SYSAUX occupants move only with the procedure V$SYSAUX_OCCUPANTS.MOVE_PROCEDURE names)."),
    ORACLE_MAINTAINED: (
        "{owner} is a schema Oracle maintains: its objects move only with their feature's own "
        "procedure (V$SYSAUX_OCCUPANTS.MOVE_PROCEDURE for SYSAUX occupants), not with ALTER TABLE/INDEX."),
    UNKNOWN_OBJECT: (
        "AWR could not name this object ({name}, type {kind}): it was dropped, or its "
        "dictionary row is gone, so there is nothing to move."),
    CLUSTER: (
        "{name} is a CLUSTER segment: ALTER TABLE ... MOVE refuses clustered tables (ORA-14512) and online "
        "redefinition cannot change their tablespace (ORA-42066); recreate the cluster in the new "
        "tablespace and reload it."),
    AQ_INTERNAL: (
        "{name} is an internal object of an Advanced Queuing queue table: it moves only with its "
        "queue table, e.g. recreated with DBMS_AQADM.CREATE_QUEUE_TABLE(storage_clause => "
        "'TABLESPACE ...')."),
    IOT_SEGMENT: (
        "{name} is the index or overflow segment of an index-organized table: it moves with the "
        "table (ALTER TABLE <table> MOVE [OVERFLOW] TABLESPACE ...), not by itself."),
    SEGMENT_TYPE: "No DDL moves a segment of type {kind} by itself; it stays where it is.",
}


def why_not_movable(code: str, *, owner: str, object_name: str, object_type: str) -> str:
    """One sentence: why a segment of ``code`` is not moved by itself, and what to do instead.

    Names are printed with ``ascii`` when they hold anything unusual, so the
    sentence can also be a DDL comment line.
    """
    sentence = _WHY_NOT.get(code)
    if sentence is None:
        raise ValueError(f"not a not-movable code: {code!r}")
    lob = f" {_shown(_lob_of(object_name))}" if _LOB_INDEX_NAME.match(object_name) else ""
    return sentence.format(name=f"{_shown(owner)}.{_shown(object_name)}", owner=_shown(owner),
                           kind=_shown(" ".join(object_type.upper().split())), lob=lob)


def _lob_of(lob_index_name: str) -> str:
    """The LOB segment of a LOB index: SYS_IL<obj#>C<col#>$$ indexes SYS_LOB<obj#>C<col#>$$.

    >>> _lob_of("SYS_IL0000087654C00003$$")
    'SYS_LOB0000087654C00003$$'
    """
    return "SYS_LOB" + lob_index_name.removeprefix("SYS_IL")


def _shown(name: str) -> str:
    """``name`` as is when it is plain printable text, else its ascii() form (one line, no control characters)."""
    return name if name.isprintable() and '"' not in name else ascii(name)
