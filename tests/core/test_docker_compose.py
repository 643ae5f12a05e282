"""docker-compose.yml cannot run here (no Docker engine): keep it in step with the Makefile by reading both."""

from __future__ import annotations

import configparser
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _stack_script() -> str:
    return (ROOT / "scripts" / "dev" / "stack.sh").read_text()


def _supervisor_programs() -> dict[str, dict[str, str]]:
    """The [program:x] sections of make run's supervisord template."""
    parser = configparser.RawConfigParser()
    parser.read_string((ROOT / "scripts" / "dev" / "supervisord.conf").read_text())
    return {name.split(":", 1)[1]: dict(parser[name]) for name in parser.sections() if name.startswith("program:")}


class DockerComposeTests:
    def test_it_has_the_five_services(self):
        assert set(_compose()["services"]) == {"postgres", "redis", "web", "worker", "beat"}

    def test_it_runs_the_same_programs_as_the_makefile(self):
        services = _compose()["services"]
        stack = _stack_script()
        programs = _supervisor_programs()
        web = " ".join(services["web"]["command"])
        worker = " ".join(services["worker"]["command"])
        beat = " ".join(services["beat"]["command"])

        assert "gunicorn config.wsgi" in web and "/bin/gunicorn config.wsgi" in programs["web"]["command"]
        assert "manage.py migrate --noinput" in web and "manage.py migrate --noinput" in stack
        assert "manage.py bootstrap" in web and "manage.py bootstrap" in stack
        assert worker.startswith("celery -A config worker")
        assert "/bin/celery -A config worker" in programs["worker"]["command"]
        assert beat.startswith("celery -A config beat") and "/bin/celery -A config beat" in programs["beat"]["command"]

    def test_beat_runs_the_scheduler_that_survives_database_outages_everywhere(self):
        from django.conf import settings

        scheduler = "apps.core.beat:ResilientDatabaseScheduler"
        assert settings.CELERY_BEAT_SCHEDULER == scheduler
        assert scheduler in " ".join(_compose()["services"]["beat"]["command"])
        assert scheduler in _supervisor_programs()["beat"]["command"]
        assert scheduler in (ROOT / "deploy" / "systemd" / "tierscope-beat.service").read_text()

    def test_every_program_is_restarted_and_stopped_with_its_children(self):
        programs = _supervisor_programs()
        assert set(programs) == {"web", "worker", "beat"}
        for name, program in programs.items():
            assert program["autorestart"] == "true", name
            assert program["stopasgroup"] == program["killasgroup"] == "true", name
            assert int(program["startretries"]) >= 1000 and int(program["startsecs"]) <= 1, name
            assert program["stdout_logfile"] == f"@LOG@/{name}.log" and program["redirect_stderr"] == "true", name
        for name in ("web", "worker", "beat"):
            assert _compose()["x-app"]["restart"] == "unless-stopped"
            assert "Restart=always" in (ROOT / "deploy" / "systemd" / f"tierscope-{name}.service").read_text()

    def test_processes_log_to_stdout_and_nothing_daemonizes(self):
        services = _compose()["services"]
        web = " ".join(services["web"]["command"])
        assert "--access-logfile -" in web and "--error-logfile -" in web
        for text in [" ".join(services[name]["command"]) for name in ("web", "worker", "beat")] + [
            program["command"] for program in _supervisor_programs().values()
        ]:
            assert "--daemon" not in text and "--detach" not in text and "--logfile" not in text

    def test_redis_keeps_an_append_only_file_in_both(self):
        assert "--appendonly yes" in " ".join(_compose()["services"]["redis"]["command"])
        assert "--appendonly yes" in _stack_script()

    def test_it_passes_the_same_configuration_variables_the_settings_read(self):
        env = _compose()["x-app"]["environment"]
        for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "TIERSCOPE_FERNET_KEY", "ALLOWED_HOSTS", "DEBUG"):
            assert name in env
        assert env["DEBUG"] == "0"

    def test_it_uses_postgresql_15_like_the_makefile(self):
        assert _compose()["services"]["postgres"]["image"] == "postgres:15"

    def test_every_app_service_waits_for_healthy_backends(self):
        services = _compose()["services"]
        for name in ("web", "worker", "beat"):
            service = {**_compose()["x-app"], **services[name]}
            assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
            assert service["depends_on"]["redis"]["condition"] == "service_healthy"
