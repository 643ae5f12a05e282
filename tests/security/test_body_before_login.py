"""Login (and the admin role for big bodies) is checked before a byte of the request body is read.

Seen: an anonymous client holding only the login page's CSRF cookie made the server write a 2 GB temp file,
because CsrfViewMiddleware parsed the multipart body before LoginRequiredMiddleware ran.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security.streams import CountingInput, wsgi_post

TWO_GB = 2 * 1024**3
# What the server may read of a refused body: nothing, or one small buffer.
SMALL_BUFFER = 64 * 1024
CSRF = "a" * 32  # a CSRF cookie as the login page sets it (the secret, unmasked)
IMPORT_URL = "/targets/xydb/import/"


@pytest.fixture
def upload_dir(settings, tmp_path: Path) -> Path:
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    return tmp_path


def _post(path: str, upload_dir: Path, *, cookies: dict[str, str], total: int = TWO_GB,
          content_length: int | None = TWO_GB, chunked: bool = False):
    # Refused "before reading" is proved by the bytes read and the files written, never by a time (a busy machine
    # makes a first request slow, not wrong).
    stream = CountingInput(total, cap_bytes=16 * 1024 * 1024, watch_dir=upload_dir)
    answer = wsgi_post(path, stream, content_length=content_length, cookies=cookies, chunked=chunked)
    return answer, stream


@pytest.mark.django_db
class AnonymousBodyTests:
    def test_it_refuses_a_2gb_anonymous_post_without_reading_it(self, upload_dir):
        answer, stream = _post(IMPORT_URL, upload_dir, cookies={"csrftoken": CSRF})

        # Refused, and the body was left unread: no temp file, not even for a moment
        assert answer.status == 403
        assert b"log in" in answer.body.lower()
        assert stream.read_bytes <= SMALL_BUFFER
        assert stream.files_seen == set() and list(upload_dir.iterdir()) == []

    def test_it_refuses_it_on_every_path_but_the_login_form(self, upload_dir):
        for path in ("/", "/tiers/", "/admin/targets/target/add/", "/targets/xydb/collect/", "/nowhere/"):
            answer, stream = _post(path, upload_dir, cookies={"csrftoken": CSRF})

            assert answer.status == 403, path
            assert stream.read_bytes <= SMALL_BUFFER, path

    @pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
    def test_it_bounds_the_login_form_by_its_content_length(self, upload_dir, path):
        answer, stream = _post(path, upload_dir, cookies={"csrftoken": CSRF})

        assert answer.status == 413
        assert stream.read_bytes <= SMALL_BUFFER
        assert list(upload_dir.iterdir()) == []

    def test_it_reads_no_chunked_login_body_past_the_limit(self, upload_dir):
        # No Content-Length (Transfer-Encoding: chunked, as gunicorn passes it on): nothing past a small buffer
        answer, stream = _post("/accounts/login/", upload_dir, cookies={"csrftoken": CSRF}, content_length=None,
                                  chunked=True)

        assert answer.status in (200, 403, 413)
        assert stream.read_bytes <= SMALL_BUFFER

    def test_it_still_lets_a_user_log_in(self, client, viewer):
        response = client.post("/accounts/login/", {"username": "vera", "password": "vera-pass-1"})

        assert response.status_code == 302
        assert client.get("/").status_code == 200


@pytest.mark.django_db
class SignedInBodyTests:
    def test_it_refuses_a_big_body_from_a_viewer_before_reading_it(self, client, viewer, upload_dir):
        client.force_login(viewer)
        cookies = {"csrftoken": CSRF, "sessionid": client.cookies["sessionid"].value}

        answer, stream = _post(IMPORT_URL, upload_dir, cookies=cookies)

        assert answer.status in (403, 413)
        assert stream.read_bytes <= SMALL_BUFFER
        assert list(upload_dir.iterdir()) == []

    def test_it_refuses_an_admin_body_past_the_upload_bound_by_its_content_length(self, client, admin_user,
                                                                                   upload_dir):
        client.force_login(admin_user)
        cookies = {"csrftoken": CSRF, "sessionid": client.cookies["sessionid"].value}

        answer, stream = _post(IMPORT_URL, upload_dir, cookies=cookies)

        assert answer.status == 413
        assert b"MB allowed" in answer.body
        assert stream.read_bytes <= SMALL_BUFFER
        assert list(upload_dir.iterdir()) == []
