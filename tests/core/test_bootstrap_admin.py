"""The admin's password is shown once, when it is created, and never kept or printed again."""

from __future__ import annotations

import pytest

from tests.commands import command_output

pytestmark = pytest.mark.django_db


def bootstrap(*args: str) -> str:
    return command_output("bootstrap", *args)


@pytest.fixture
def data_dir(tmp_path, settings):
    # What config/settings/base.py reads from TIERSCOPE_DATA_DIR, TIERSCOPE_ADMIN_PASSWORD and TIERSCOPE_ADMIN_USER.
    settings.TIERSCOPE_DATA_DIR = tmp_path
    settings.TIERSCOPE_ADMIN_PASSWORD = ""
    settings.TIERSCOPE_ADMIN_USER = "admin"
    return tmp_path


def password_in(text: str) -> str:
    line = next(line for line in text.splitlines() if "password:" in line)
    return line.split("password:")[1].split()[0]


class BootstrapAdminTests:
    def test_the_first_run_prints_the_password_once(self, data_dir, django_user_model):
        first = bootstrap()

        password = password_in(first)
        assert django_user_model.objects.get(username="admin").check_password(password)
        # Later runs and the login line of every `make run` never show it again.
        assert password not in bootstrap()
        assert password not in bootstrap("--print-login")

    def test_the_login_line_says_how_to_reset(self, data_dir):
        bootstrap()

        assert bootstrap("--print-login").strip() == (
            "login: admin (password printed when it was created; reset with manage.py changepassword admin)"
        )

    def test_the_password_is_not_kept_on_disk(self, data_dir):
        password = password_in(bootstrap())

        for path in data_dir.rglob("*"):
            assert password not in path.read_text(errors="replace"), path

    def test_an_old_credentials_file_is_removed_and_never_read(self, data_dir, django_user_model):
        django_user_model.objects.create_superuser(username="admin", email="", password="old-secret-1")
        legacy = data_dir / "admin-credentials"
        legacy.write_text("admin\nold-secret-1\n")

        assert "old-secret-1" not in bootstrap("--print-login")
        out = bootstrap()

        assert "old-secret-1" not in out
        assert not legacy.exists()

    def test_a_password_from_the_environment_is_never_printed(self, data_dir, settings):
        settings.TIERSCOPE_ADMIN_PASSWORD = "from-env-secret-1"

        out = bootstrap() + bootstrap("--print-login")

        assert "from-env-secret-1" not in out
        assert "login: admin / (TIERSCOPE_ADMIN_PASSWORD)" in out
