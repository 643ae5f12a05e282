"""Which format a file is, and the limits every file meets first (size, UTF-8)."""

from __future__ import annotations

from pathlib import Path

from apps.tiering.calibration.base import CalibrationError, CalibrationReading
from apps.tiering.calibration.calibrate_io import looks_like_calibrate_io, parse_calibrate_io
from apps.tiering.calibration.fio import looks_like_fio, parse_fio
from apps.tiering.calibration.orion import looks_like_orion, parse_orion

# fio's JSON for a few dozen jobs with percentiles is well under 1 MB; ORION's and CALIBRATE_IO's
# outputs are a few KB. 20 MB leaves room for json+ histograms and refuses anything that is not a result.
MAX_FILE_BYTES = 20 * 1024 * 1024


def calibration_parse(data: bytes, *, file_name: str) -> CalibrationReading:
    """A calibration file's figures, whichever of the three formats it is in.

    Sniffed by content, in this order: fio JSON (a JSON object with fio's keys), ORION (its "Maximum
    Small IOPS" / "Maximum Large MBPS" / "Minimum Small Latency" lines or a "Large/Small" matrix),
    CALIBRATE_IO (max_iops). Raises CalibrationError (one line) for anything else.
    """
    if len(data) > MAX_FILE_BYTES:
        raise CalibrationError(file_name, f"larger than the {MAX_FILE_BYTES // (1024 * 1024)} MB a calibration "
                                          "file may be")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CalibrationError(file_name, f"not UTF-8 text (byte 0x{data[error.start]:02x} at offset "
                                          f"{error.start})") from None
    if "\x00" in text:
        raise CalibrationError(file_name, "not a text file (it holds NUL bytes)")
    if not text.strip():
        raise CalibrationError(file_name, "empty file")
    if looks_like_fio(text):
        return parse_fio(text, file_name=file_name)
    if looks_like_orion(text):
        return parse_orion(text, file_name=file_name)
    if looks_like_calibrate_io(text):
        return parse_calibrate_io(text, file_name=file_name)
    raise CalibrationError(file_name, "not fio JSON, ORION output or a CALIBRATE_IO result")


def calibration_read(path: Path) -> tuple[bytes, CalibrationReading]:
    """Read and parse a file from disk, reading no more than one byte past the limit."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise CalibrationError(str(path), "no such file") from None
    except IsADirectoryError:
        raise CalibrationError(str(path), "a directory, not a file") from None
    except OSError as error:
        raise CalibrationError(str(path), error.strerror or "cannot be read") from None
    return data, calibration_parse(data, file_name=str(path))
