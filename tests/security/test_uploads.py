"""Hostile uploads to the import page: a real web worker stays under 200 MB and says what is wrong.

Seen: a 1.9 MB zip holding 1.9 GB of one line took a web worker to 3.9 GB of memory for 18 s. The worker here
is gunicorn's, in its own process, on the test database; its peak memory is VmHWM in /proc/<pid>/status.
"""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.core.config import get_config
from apps.snapshots.models import Snapshot
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
EXTRACT = ROOT / "tests" / "targets" / "extract" / "fixtures" / "single"
SAMPLE_HTML = ROOT.parent / "shared" / "awr-samples" / "eyko139__awr_reports__awr_PRDG_1_237812_237837.htm"
WORKER_PEAK_LIMIT_BYTES = 200 * 1024 * 1024
CSRF = "b" * 32
BOUNDARY = "tierscope-upload-test"


@dataclass
class Web:
    port: int
    worker_pid: int
    cookies: str


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def vm_hwm_bytes(pid: int) -> int:
    """Peak resident memory of a process (VmHWM), in bytes."""
    found = re.search(r"^VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.MULTILINE)
    assert found, pid
    return int(found.group(1)) * 1024


@pytest.fixture
def web(transactional_db, admin_user, client) -> Iterator[Web]:
    """gunicorn (one sync worker) on the test database, an admin's session and a report target."""
    from django.db import connection

    from apps.targets.models import Target

    Target.objects.create(name="xydb", mode=Target.Mode.REPORT)
    client.force_login(admin_user)
    db = connection.settings_dict
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
         "--timeout", "120"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        def serving() -> list[int]:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {proc.stderr.read() if proc.stderr else ''}")
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return _children(proc.pid)

        children = wait_for(serving, timeout_s=30, every_s=0.2, ignoring=(OSError,), what="gunicorn to serve")
        cookies = f"csrftoken={CSRF}; sessionid={client.cookies['sessionid'].value}"
        yield Web(port=port, worker_pid=children[0], cookies=cookies)
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=20)


def _post_file(web: Web, *, kind: str, field: str, path: Path, timeout_s: float = 60) -> tuple[int, str]:
    """POST one file to the import page as a browser does, streamed from disk."""
    head = (f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"csrfmiddlewaretoken\"\r\n\r\n{CSRF}\r\n"
            f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"kind\"\r\n\r\n{kind}\r\n"
            f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{path.name}\"\r\n"
            "Content-Type: application/octet-stream\r\n\r\n").encode()
    tail = f"\r\n--{BOUNDARY}--\r\n".encode()

    def body() -> Iterator[bytes]:
        yield head
        with path.open("rb") as handle:
            while chunk := handle.read(1024 * 1024):
                yield chunk
        yield tail

    connection = http.client.HTTPConnection("127.0.0.1", web.port, timeout=timeout_s)
    connection.request("POST", "/targets/xydb/import/", body=body(), headers={
        "Content-Type": f"multipart/form-data; boundary={BOUNDARY}", "Cookie": web.cookies,
        "Content-Length": str(len(head) + path.stat().st_size + len(tail)),
    })
    response = connection.getresponse()
    return response.status, response.read().decode(errors="replace")


def _zip_bomb(path: Path, *, line_bytes: int) -> Path:
    """A whole extract whose instance.csv is one line of ``line_bytes`` after its header; written by chunks."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for item in EXTRACT.iterdir():
            if item.name != "instance.csv":
                archive.write(item, item.name)
        with archive.open("instance.csv", "w") as member:
            member.write((EXTRACT / "instance.csv").read_bytes().splitlines()[0] + b"\n")
            chunk = b"A" * (1024 * 1024)
            for _ in range(line_bytes // len(chunk)):
                member.write(chunk)
            member.write(b"\n")
    return path


def _single_line_html(path: Path, *, pad_bytes: int) -> Path:
    """A real report on one line, one of its sections padded with table rows to ``pad_bytes``."""
    document = SAMPLE_HTML.read_bytes().replace(b"\n", b" ")
    at = document.find(b"Segments by Logical Reads")
    at = document.find(b"<tr", document.find(b"<table", at))
    row = b"<tr><td>APP</td><td>USERS</td><td>T</td><td></td><td>TABLE</td><td>1</td><td>1.0</td></tr>"
    with path.open("wb") as handle:
        handle.write(document[:at])
        for _ in range(pad_bytes // len(row)):
            handle.write(row)
        handle.write(document[at:])
    return path


def _text_of_blank_lines(path: Path, *, size_bytes: int) -> Path:
    with path.open("wb") as handle:
        handle.write(b"WORKLOAD REPOSITORY report for\n")
        for _ in range(size_bytes // (1024 * 1024)):
            handle.write(b"\n" * (1024 * 1024))
    return path


class WorkerMemoryTests:
    def test_it_refuses_a_50_mb_report_by_its_size_before_reading_it(self, web, tmp_path):
        report = _single_line_html(tmp_path / "big.html", pad_bytes=47 * 1024 * 1024)

        status, page = _post_file(web, kind="report", field="report-report", path=report)

        assert status == 400 and "big.html" in page and "20 MB allowed" in page
        assert vm_hwm_bytes(web.worker_pid) < WORKER_PEAK_LIMIT_BYTES

    def test_it_refuses_a_zip_bomb_in_a_worker_under_200_mb(self, web, tmp_path):
        bomb = _zip_bomb(tmp_path / "bomb.zip", line_bytes=1900 * 1024 * 1024)
        assert bomb.stat().st_size < 3 * 1024 * 1024
        started = time.monotonic()

        status, page = _post_file(web, kind="extract", field="extract-extract", path=bomb)

        # Refused with the member named, quickly, in a worker that never went near the bomb's size
        assert status == 400
        assert "bomb.zip" in page and "instance.csv" in page
        assert time.monotonic() - started < 10
        assert vm_hwm_bytes(web.worker_pid) < WORKER_PEAK_LIMIT_BYTES
        assert Snapshot.objects.count() == 0

    def test_it_reads_a_report_of_table_rows_on_one_line_under_200_mb(self, web, tmp_path):
        # Just under the report bound (MAX_REPORT_BYTES, 20 MB); one section holds nearly all of it
        report = _single_line_html(tmp_path / "rows.html", pad_bytes=19 * 1024 * 1024)

        status, page = _post_file(web, kind="report", field="report-report", path=report)

        # Refused (a section past what a report holds) or read, but bounded either way
        assert status in (302, 400)
        assert vm_hwm_bytes(web.worker_pid) < WORKER_PEAK_LIMIT_BYTES
        if status == 400:
            assert "rows.html" in page

    def test_it_reads_a_text_report_of_blank_lines_under_200_mb(self, web, tmp_path):
        report = _text_of_blank_lines(tmp_path / "blank.txt", size_bytes=19 * 1024 * 1024)

        status, page = _post_file(web, kind="report", field="report-report", path=report)

        assert status == 400 and "blank.txt" in page
        assert vm_hwm_bytes(web.worker_pid) < WORKER_PEAK_LIMIT_BYTES


@pytest.mark.django_db
class UploadBoundTests:
    @pytest.fixture
    def small_bound(self, settings):
        settings.TIERSCOPE = {**settings.TIERSCOPE, "MAX_UPLOAD_BYTES": 1024 * 1024}
        get_config.cache_clear()
        yield
        get_config.cache_clear()

    @pytest.fixture
    def target(self, db):
        from apps.targets.models import Target

        return Target.objects.create(name="xydb", mode=Target.Mode.REPORT)

    def test_it_names_the_file_past_the_bound_and_keeps_no_temp_file(self, admin_client, target, small_bound,
                                                                      settings, tmp_path):
        settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
        upload = SimpleUploadedFile("huge.zip", b"\0" * (2 * 1024 * 1024), "application/zip")

        response = admin_client.post("/targets/xydb/import/", {"kind": "extract", "extract-extract": upload})

        assert response.status_code == 400
        assert "huge.zip: more than the 1 MB allowed" in response.content.decode()
        assert list(tmp_path.iterdir()) == []
        assert Snapshot.objects.count() == 0

    def test_it_names_the_sizes_file_past_the_bound(self, admin_client, target, small_bound):
        report = SimpleUploadedFile("r.html", SAMPLE_HTML.read_bytes()[:1000], "text/html")
        sizes = SimpleUploadedFile("sizes.csv", b"x" * (2 * 1024 * 1024), "text/csv")

        response = admin_client.post("/targets/xydb/import/",
                                     {"kind": "report", "report-report": report, "report-sizes": sizes})

        assert response.status_code == 400
        assert "sizes.csv: more than the 1 MB allowed" in response.content.decode()
