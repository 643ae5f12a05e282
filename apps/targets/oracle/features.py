"""Release and licence capabilities of an Oracle target, decided once per collection.

Everything that differs between Oracle releases (a column that only exists from 12.1, the
Thin driver's 12.1 floor) and the Diagnostics Pack gate is decided here, not by ``if``
branches scattered through the source. Pure: standard library and the row contract only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.targets.base import SourceError

#: (major, minor). From 18c on, Oracle numbers releases by year: "19.0.0.0.0" is (19, 0).
Release = tuple[int, int]

MODES: tuple[str, ...] = ("awr", "nopack")

#: Releases tierscope claims to support; the catalog test checks every one of them.
SUPPORTED_RELEASES: tuple[Release, ...] = ((11, 2), (12, 1), (12, 2), (18, 0), (19, 0), (21, 0), (23, 0))

#: Statement variants by release: noun -> ((lowest release, file stem), ...), newest first.
#: A noun absent here has a single file named like the noun.
RELEASE_VARIANTS: dict[str, tuple[tuple[Release, str], ...]] = {
    # DBA_HIST_SEG_STAT(_OBJ).CON_DBID exists from 12.1 and is part of the segment identity.
    "seg_stat": (((12, 1), "seg_stat"), ((11, 2), "seg_stat_112")),
    # Multitenant (V$DATABASE.CDB, V$CONTAINERS) from 12.1; an 11.2 database is never a CDB.
    "containers": (((12, 1), "containers"),),
}

_VERSION = re.compile(r"^\s*(\d+)\.(\d+)")


def parse_release(version: str) -> Release:
    """Turn V$INSTANCE.VERSION into a release tuple.

    >>> parse_release("11.2.0.4.0")
    (11, 2)
    >>> parse_release("19.0.0.0.0")
    (19, 0)
    """
    match = _VERSION.match(version or "")
    if match is None:
        raise ValueError(f"V$INSTANCE.VERSION {version!r} is not a release number like '19.0.0.0.0'")
    major, minor = int(match.group(1)), int(match.group(2))
    # 18c and later: the second field is not a feature level (VERSION is "19.0.0.0.0").
    return (major, 0) if major >= 18 else (major, minor)


@dataclass(frozen=True)
class Features:
    """What the target's release can do, and which statement file to run for a noun."""

    release: Release

    def runs(self, noun: str) -> bool:
        """Whether ``noun`` has a statement on this release (containers: 12.1 on; the others: every release)."""
        variants = RELEASE_VARIANTS.get(noun)
        return variants is None or any(self.release >= lowest for lowest, _stem in variants)

    def sql_file(self, noun: str) -> str:
        """Name (stem) of the sql/ file that runs ``noun`` on this release."""
        variants = RELEASE_VARIANTS.get(noun)
        if variants is None:
            return noun
        for lowest, stem in variants:
            if self.release >= lowest:
                return stem
        raise ValueError(f"no variant of statement {noun!r} for release {self.release}")


def features_for(version: str) -> Features:
    """Capabilities from V$INSTANCE.VERSION; releases before 11.2 are refused (permanent)."""
    release = parse_release(version)
    if release < (11, 2):
        raise SourceError(
            f"Oracle {version} is older than 11.2, the oldest release tierscope reads "
            "(DBA_HIST_SEG_STAT has no request columns before 11.2).",
            permanent=True,
        )
    return Features(release=release)


def check_mode(mode: str) -> str:
    """Return ``mode`` if it is a known Oracle source mode, else raise ValueError naming it."""
    if mode not in MODES:
        raise ValueError(f"Oracle source mode {mode!r} is not one of {', '.join(MODES)}")
    return mode


def check_pack_access(pack_access: str | None, *, mode: str) -> None:
    """Refuse awr mode when CONTROL_MANAGEMENT_PACK_ACCESS says the Diagnostics Pack is off.

    The parameter is a usage switch, not proof of a licence, but NONE is the DBA saying "no
    pack here": reading DBA_HIST_SYSSTAT and friends would then be unlicensed use.
    """
    if mode != "awr":
        return
    value = (pack_access or "").strip().upper()
    if value == "NONE":
        raise SourceError(
            "CONTROL_MANAGEMENT_PACK_ACCESS is NONE on this database, so the Diagnostics Pack "
            "is not enabled and awr mode would read licensed DBA_HIST views. Switch this target "
            "to mode 'nopack' (segment history from the pack-exempt DBA_HIST_SEG_STAT plus V$ "
            "samples), or have the DBA confirm the licence and set "
            "CONTROL_MANAGEMENT_PACK_ACCESS='DIAGNOSTIC'.",
            permanent=True,
            code="PACK-NONE",
        )
