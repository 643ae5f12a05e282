"""Upload forms of the import page: an AWR report (+ optional sizes), an offline extract (.zip)."""

from __future__ import annotations

import zipfile

from django import forms
from django.core.files.uploadedfile import UploadedFile

from apps.core.config import get_config
from apps.targets.awr_report import MAX_REPORT_BYTES


def _bounded(upload: UploadedFile | None, *, label: str, kind_limit_bytes: int | None = None) -> UploadedFile | None:
    """Refuse an upload over MAX_UPLOAD_BYTES (or the lower bound of its kind) by its size, before
    reading any of it."""
    if upload is None:
        return None
    limit = min(get_config()["MAX_UPLOAD_BYTES"], kind_limit_bytes or get_config()["MAX_UPLOAD_BYTES"])
    if upload.size is not None and upload.size > limit:
        raise forms.ValidationError(
            f"{label} {upload.name} is {upload.size} bytes, more than the {limit // (1024 * 1024)} MB allowed."
        )
    return upload


class ReportUploadForm(forms.Form):
    report = forms.FileField(
        label="AWR report",
        help_text=("HTML or text, as awrrpt.sql, awrrpti.sql or awrgrpt.sql (global RAC, HTML) write it; a "
                   "compare-period report (awrddrpt.sql, awrddrpi.sql) gives one snapshot per period."),
    )
    sizes = forms.FileField(
        label="Segment sizes (optional)",
        required=False,
        help_text="segments.csv from an offline extract: the sizes of the segments the report lists.",
    )

    def clean_report(self) -> UploadedFile | None:
        # What the parser takes (MAX_REPORT_BYTES) is lower than the upload bound.
        return _bounded(self.cleaned_data.get("report"), label="AWR report", kind_limit_bytes=MAX_REPORT_BYTES)

    def clean_sizes(self) -> UploadedFile | None:
        # Read whole into typed rows, like an extract's files (MAX_WEB_EXTRACT_BYTES says why).
        return _bounded(self.cleaned_data.get("sizes"), label="Sizes file", kind_limit_bytes=get_config()["MAX_WEB_EXTRACT_BYTES"])


class ExtractUploadForm(forms.Form):
    extract = forms.FileField(
        label="Offline extract (.zip)",
        help_text="The output directory of scripts/oracle/tierscope_extract.sql, zipped.",
    )

    def clean_extract(self) -> UploadedFile | None:
        upload = _bounded(self.cleaned_data.get("extract"), label="Extract")
        if upload is not None and not zipfile.is_zipfile(upload):
            raise forms.ValidationError(f"{upload.name} is not a .zip file: zip the extract's output directory.")
        return upload
