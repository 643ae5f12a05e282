"""Tier figures from measurements: fio JSON, Oracle ORION output and CALIBRATE_IO results (issue 17).

The parsers are pure: the standard library only, no Django, no clock. :func:`calibration_parse` takes a
file's bytes and name, decides which of the three it is, and returns a :class:`CalibrationReading`; anything
it cannot read raises :class:`CalibrationError`, whose text is one line naming the file and what is wrong.
One module per format (fio.py, orion.py, calibrate_io.py), each saying which figures it takes and why.

Beside them: :mod:`.models` (a tier's stored calibrations; registered through apps.tiering.models),
:mod:`.services` (storing a calibration beside its tier, and what that changes), :mod:`.selectors` (the
calibrations read for the pages). Importing this package loads the pure modules only (no Django).
"""

from apps.tiering.calibration.base import (
    FIGURE_KEYS,
    SOURCES,
    CalibrationError,
    CalibrationFigures,
    CalibrationReading,
)
from apps.tiering.calibration.dispatch import MAX_FILE_BYTES, calibration_parse, calibration_read

__all__ = ["FIGURE_KEYS", "MAX_FILE_BYTES", "SOURCES", "CalibrationError", "CalibrationFigures",
           "CalibrationReading", "calibration_parse", "calibration_read"]
