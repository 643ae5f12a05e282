"""The storage rows of the row contract: where segments live and how much room is left.

``TablespaceSpace`` (room per permanent tablespace), ``DataFile`` (the data and temp files a tablespace
lives in) and ``DiskGroup`` (an ASM disk group as the instance sees it), as every source yields them at
collection time. Re-exported by :mod:`apps.targets.rows`, whose unit conventions they follow; a figure
the source does not give is None (unknown), never 0.

This module is pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TablespaceSpace:
    """Room in one permanent tablespace at collection time (DBA_DATA_FILES; used from
    DBA_TABLESPACE_USAGE_METRICS, else DBA_FREE_SPACE).

    ``size_bytes`` is what its files hold now, ``max_size_bytes`` what they may grow to
    (autoextend up to MAXBYTES), ``used_bytes`` what segments hold. A figure the source does not
    give is None (unknown), never 0.
    """

    tablespace_name: str
    size_bytes: int | None
    used_bytes: int | None
    max_size_bytes: int | None
    block_size_bytes: int | None = None
    autoextensible: bool | None = None  # any of its files autoextends
    offline: bool | None = None  # DBA_TABLESPACES.STATUS = 'OFFLINE' (DBA_FREE_SPACE lists none of its extents)

    @property
    def free_bytes(self) -> int | None:
        """Free in the files as they are now."""
        if self.size_bytes is None or self.used_bytes is None:
            return None
        return self.size_bytes - self.used_bytes


@dataclass(frozen=True)
class DataFile:
    """One data or temp file at collection time (DBA_DATA_FILES, DBA_TEMP_FILES): where a tablespace lives.

    ``file_name`` is as Oracle lists it ('+DATA/PROD/DATAFILE/users.259.1150000001', '/u03/oradata/PROD/
    users01.dbf'); apps.targets.storage turns it into a disk group or mount point. ``file_type`` is "DATA"
    or "TEMP" (temp files have their own FILE_ID numbering). A size the source does not give is None.
    """

    tablespace_name: str
    file_id: int
    file_name: str
    size_bytes: int | None
    max_size_bytes: int | None = None
    autoextensible: bool | None = None
    file_type: str = "DATA"


@dataclass(frozen=True)
class DiskGroup:
    """An ASM disk group as the database instance sees it (V$ASM_DISKGROUP_STAT) at collection time.

    ``name`` as Oracle lists it ('DATA'; files name it '+DATA/...'). ``redundancy`` is V$ASM_DISKGROUP.TYPE
    (EXTERN, NORMAL, HIGH, FLEX, EXTEND). ``total_mb``/``free_mb`` are raw space before mirroring;
    ``usable_file_mb`` what files may still take once mirroring and the ``required_mirror_free_mb`` reserve
    are counted (negative: the group could not restore its redundancy after losing a disk). Sizes are MiB,
    as the view gives them. A figure not read is None (unknown), never 0.
    """

    name: str
    redundancy: str | None = None
    state: str | None = None
    total_mb: int | None = None
    free_mb: int | None = None
    required_mirror_free_mb: int | None = None
    usable_file_mb: int | None = None
    offline_disks: int | None = None
    allocation_unit_bytes: int | None = None
    sector_size_bytes: int | None = None
    block_size_bytes: int | None = None
    compatibility: str | None = None
    database_compatibility: str | None = None

    @property
    def location_name(self) -> str:
        """As the storage map keys it: '+DATA'."""
        return f"+{self.name.upper()}"

    @property
    def usable_file_bytes(self) -> int | None:
        return None if self.usable_file_mb is None else self.usable_file_mb * 1024 * 1024
