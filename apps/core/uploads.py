"""An upload handler that refuses each file once it passes MAX_UPLOAD_BYTES, while it streams in.

It runs first in FILE_UPLOAD_HANDLERS: it counts the bytes of each file and passes them on to Django's
memory and temp-file handlers; past the bound it raises SkipFile, so the file is dropped (its temp file
closed and deleted) and never reaches request.FILES, and the parser reads on to the next field. The
refusal is kept on the request for the view to show: ``upload_refusals(request)``.
"""

from __future__ import annotations

from typing import Any

from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest

from apps.core.config import get_config

_REFUSALS = "_upload_refusals"


def upload_refusals(request: HttpRequest) -> list[str]:
    """One line per file refused while the body was parsed, e.g. ``"big.zip: more than the 50 MB allowed"``."""
    return getattr(request, _REFUSALS, [])


class SizeLimitUploadHandler(FileUploadHandler):
    """Drop any one file of more than MAX_UPLOAD_BYTES before more of it than one chunk is kept."""

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.limit_bytes: int = get_config()["MAX_UPLOAD_BYTES"]
        self.received_bytes = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received_bytes = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received_bytes += len(raw_data)
        if self.received_bytes > self.limit_bytes:
            if self.request is not None:
                refused = upload_refusals(self.request)
                refused.append(f"{self.file_name}: more than the {self.limit_bytes // (1024 * 1024)} MB allowed")
                setattr(self.request, _REFUSALS, refused)
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler builds the file
