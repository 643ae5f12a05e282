"""The offline extract fixtures (tests/targets/extract/fixtures/) and copies of them to edit: a fixture copied
into a temporary folder, one of its lines replaced, a folder zipped, the one-line refusal of a bad copy."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path
from typing import IO

import pytest

from apps.targets.extract import ExtractError, read_extract

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def copy_fixture(tmp_path: Path, name: str = "single") -> Path:
    """A copy of the extract fixture ``name`` in ``tmp_path``, to edit."""
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


def copy_without(tmp_path: Path, *filenames: str) -> Path:
    """A copy of the "single" extract fixture in ``tmp_path`` without the files ``filenames`` (an older extract)."""
    directory = copy_fixture(tmp_path)
    for filename in filenames:
        (directory / filename).unlink()
    return directory


def replace_line(path: Path, number: int, text: str) -> None:
    """Line ``number`` (from 1) of the file at ``path`` replaced by ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = text
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def zipped(directory: Path, *, folder: str = "") -> bytes:
    """The files of ``directory`` as a .zip (under ``folder``, a prefix ending in "/", if given)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(directory.iterdir()):
            archive.write(path, f"{folder}{path.name}")
    return buffer.getvalue()


def refused(source: Path | IO[bytes]) -> ExtractError:
    """The error read_extract raises for ``source``, after checking its message is one line."""
    with pytest.raises(ExtractError) as caught:
        read_extract(source)
    assert "\n" not in str(caught.value)
    return caught.value


def refused_line(tmp_path: Path, filename: str, number: int, text: str) -> ExtractError:
    """The error for a copy of the "single" fixture whose ``filename`` has line ``number`` replaced by ``text``."""
    directory = copy_fixture(tmp_path)
    replace_line(directory / filename, number, text)
    return refused(directory)
