"""Opening an offline extract (a directory or a .zip) within its limits, and the package's one error.

A zip is judged before it is unpacked (number of members and size of its central directory from the
archive's tail, before zipfile loads the directory; declared sizes and compression ratios), and again while
it is read: :class:`Budget` counts the bytes actually read, because a member's declared size is not proof.
Pure: standard library only.
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO

#: Bound on the uncompressed size of the CSV files read, all together (a zip's declared sizes are
#: checked before anything is decompressed, and the bytes actually read are counted as they come).
#: The segment statistics are kept on disk as they are read (extract.spill), so memory does not grow
#: with it: weeks of AWR history of a large database import (about as much again in temporary files).
MAX_EXTRACT_BYTES = 16 * 1024**3


@dataclass(frozen=True)
class ExtractLimits:
    """What one extract may hold; anything past a limit is refused with the file (and line) named.

    A CSV line of the extract is at most a few hundred bytes (names are 128 characters at most); the
    zip holds 12 files (twice that with a folder and macOS metadata); CSV text deflates 5-20 to 1, a
    zip bomb 1000 to 1. The central directory is bounded before zipfile reads it into memory.
    """

    unpacked_bytes: int = MAX_EXTRACT_BYTES
    line_bytes: int = 64 * 1024
    members: int = 100
    central_directory_bytes: int = 1024 * 1024
    ratio: int = 200
    #: The compression ratio is only judged on members larger than this (tiny files deflate oddly).
    ratio_from_bytes: int = 1024 * 1024



class ExtractError(ValueError):
    """The extract cannot be used. One line: file, line, column when known, and what is wrong."""

    def __init__(self, problem: str, *, filename: str = "", line: int | None = None, column: str = "") -> None:
        self.problem = problem
        self.filename = filename
        self.line = line
        self.column = column
        where = [part for part in (filename, f"line {line}" if line else "", f"column {column}" if column else "")
                 if part]
        super().__init__(f"{', '.join(where)}: {problem}" if where else problem)


class ExtractFiles:
    """The extract's files by name, from a directory or a zip; opened as binary streams."""

    def __init__(self, opener: Mapping[str, Callable[[], IO[bytes]]], origin: str) -> None:
        self._opener = opener
        self.origin = origin

    def has(self, name: str) -> bool:
        return name in self._opener

    def open(self, name: str) -> IO[bytes]:
        return self._opener[name]()


def _open_file(path: Path) -> IO[bytes]:
    return path.open("rb")


def open_directory(path: Path, names: Iterable[str]) -> ExtractFiles:
    opener = {name: partial(_open_file, path / name) for name in names if (path / name).is_file()}
    return ExtractFiles(opener, str(path))


_EOCD = struct.Struct("<4s4H2LH")  # end of central directory record (APPNOTE 4.3.16)


def check_zip_directory(stream: IO[bytes], origin: str, limits: ExtractLimits) -> None:
    """Refuse a zip with too many members or a huge central directory before zipfile loads it.

    Reads only the archive's tail; a zip without the record is left for zipfile to refuse.
    """
    stream.seek(0, io.SEEK_END)
    size = stream.tell()
    stream.seek(max(0, size - _EOCD.size - 0xFFFF))
    tail = stream.read()
    stream.seek(0)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or at + _EOCD.size > len(tail):
        return
    _, _, _, _, entries, directory_bytes, _, _ = _EOCD.unpack_from(tail, at)
    if entries > limits.members or entries == 0xFFFF:
        raise ExtractError(f"the zip holds {'too many' if entries == 0xFFFF else entries} files, more than the "
                           f"{limits.members} an extract has: zip the extract's output directory only",
                           filename=origin)
    if directory_bytes > limits.central_directory_bytes:
        raise ExtractError(f"the zip's file list is {directory_bytes} bytes, more than the "
                           f"{limits.central_directory_bytes} allowed", filename=origin)


def _check_member_sizes(members: dict[str, zipfile.ZipInfo], origin: str, limits: ExtractLimits) -> None:
    """The declared sizes, before anything is unpacked (the bytes read are counted again as they come)."""
    for info in members.values():
        where = f"{origin}, {info.filename}"
        if info.file_size > limits.unpacked_bytes:
            raise ExtractError(f"unpacks to {info.file_size} bytes, more than the {limits.unpacked_bytes} allowed",
                               filename=where)
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > limits.ratio_from_bytes and ratio > limits.ratio:
            raise ExtractError(f"unpacks {ratio:.0f} times its packed size ({info.compress_size} to "
                               f"{info.file_size} bytes), more than the {limits.ratio} a CSV file does: "
                               "not an extract", filename=where)
    declared = sum(info.file_size for info in members.values())
    if declared > limits.unpacked_bytes:
        raise ExtractError(f"the CSV files unpack to {declared} bytes, more than the {limits.unpacked_bytes} "
                           "allowed", filename=origin)


def open_zip(archive: zipfile.ZipFile, origin: str, names: Iterable[str], *, limits: ExtractLimits) -> ExtractFiles:
    if len(archive.infolist()) > limits.members:
        raise ExtractError(f"the zip holds {len(archive.infolist())} files, more than the {limits.members} "
                           "an extract has", filename=origin)
    names = set(names)
    members: dict[str, list[zipfile.ZipInfo]] = defaultdict(list)
    for info in archive.infolist():
        base = info.filename.rsplit("/", 1)[-1]
        if base in names and not info.is_dir() and not info.filename.startswith("__MACOSX/"):
            members[base].append(info)
    for name, infos in members.items():
        if len(infos) > 1:
            listed = ", ".join(info.filename for info in infos)
            raise ExtractError(f"the zip holds {name} more than once ({listed}): zip one extract only",
                               filename=origin)
    _check_member_sizes({name: infos[0] for name, infos in members.items()}, origin, limits)
    opener = {name: partial(archive.open, infos[0]) for name, infos in members.items()}
    return ExtractFiles(opener, origin)


class Budget:
    """The bytes all files of one extract may unpack to, spent as lines are read."""

    def __init__(self, limit_bytes: int) -> None:
        self.limit_bytes = limit_bytes
        self.used_bytes = 0

    def spend(self, size_bytes: int, *, filename: str, line: int) -> None:
        self.used_bytes += size_bytes
        if self.used_bytes > self.limit_bytes:
            raise ExtractError(f"the CSV files unpack to more than the {self.limit_bytes} bytes allowed",
                               filename=filename, line=line)
