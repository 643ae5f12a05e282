"""Drive Django's WSGI handler with a request body that is never held in memory, and count what it reads."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_started
from django.db import close_old_connections

BOUNDARY = "tierscope-boundary"


class OverRead(Exception):
    """The server read more of the body than the test allows (raised so a failing run stays fast)."""


class CountingInput:
    """A ``wsgi.input`` of ``total_bytes`` (a multipart file part filled with zeros): counts what is read,
    raises past ``cap_bytes``, and notes the files that appear in ``watch_dir`` while it is read."""

    def __init__(self, total_bytes: int, *, cap_bytes: int, watch_dir: Path, field_name: str = "extract-extract"):
        self.head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field_name}\"; filename=\"big.zip\""
                     "\r\nContent-Type: application/zip\r\n\r\n").encode()
        self.total_bytes = total_bytes
        self.cap_bytes = cap_bytes
        self.read_bytes = 0
        self.watch_dir = watch_dir
        self.before = set(os.listdir(watch_dir))
        self.files_seen: set[str] = set()

    def _take(self, size: int) -> bytes:
        size = self.total_bytes - self.read_bytes if size is None or size < 0 else size
        size = min(size, self.total_bytes - self.read_bytes, 1024 * 1024)
        if self.read_bytes + size > self.cap_bytes:
            raise OverRead(f"read past {self.cap_bytes} bytes")
        start = self.read_bytes
        self.read_bytes += size
        self.files_seen |= set(os.listdir(self.watch_dir)) - self.before
        head = self.head[start:start + size]
        return head + b"\0" * (size - len(head))

    def read(self, size: int = -1) -> bytes:
        return self._take(size)

    def readline(self, size: int = -1) -> bytes:
        return self._take(size)


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


@contextmanager
def _no_connection_reset() -> Iterator[None]:
    # As django.test.Client does: the test's transaction must survive request_started.
    request_started.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)


def wsgi_post(path: str, stream: CountingInput | None, *, content_length: int | None, cookies: dict[str, str],
              content_type: str = f"multipart/form-data; boundary={BOUNDARY}", chunked: bool = False) -> Answer:
    """POST ``stream`` to ``path`` through a fresh WSGIHandler (the whole middleware stack)."""
    environ = {
        "REQUEST_METHOD": "POST", "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
        "SERVER_NAME": "localhost", "SERVER_PORT": "80", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "localhost",
        "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http", "wsgi.input": stream, "wsgi.errors": None,
        "CONTENT_TYPE": content_type,
        "HTTP_COOKIE": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        "HTTP_REFERER": "http://localhost/",
    }
    if content_length is not None:
        environ["CONTENT_LENGTH"] = str(content_length)
    if chunked:
        environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        environ["wsgi.input_terminated"] = True
    started: dict[str, object] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> None:
        started["status"], started["headers"] = int(status.split()[0]), dict(headers)

    with _no_connection_reset():
        body = b"".join(WSGIHandler()(environ, start_response))
    return Answer(int(started["status"]), body, started["headers"])  # type: ignore[arg-type]
