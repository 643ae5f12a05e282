"""docker-compose.yml cannot run here (no Docker engine): keep it in step with the Makefile by reading both."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _stack_script() -> str:
    return (ROOT / "scripts" / "dev" / "stack.sh").read_text()


class DockerComposeTests:
    def test_it_has_the_five_services(self):
        assert set(_compose()["services"]) == {"postgres", "redis", "web", "worker", "beat"}

    def test_it_runs_the_same_programs_as_the_makefile(self):
        services = _compose()["services"]
        stack = _stack_script()
        web = " ".join(services["web"]["command"])
        worker = " ".join(services["worker"]["command"])
        beat = " ".join(services["beat"]["command"])

        assert "gunicorn config.wsgi" in web and 'gunicorn" config.wsgi' in stack
        assert "manage.py migrate --noinput" in web and "manage.py migrate --noinput" in stack
        assert "manage.py bootstrap" in web and "manage.py bootstrap" in stack
        assert worker.startswith("celery -A config worker") and "celery\" -A config worker" in stack
        assert beat.startswith("celery -A config beat") and "celery\" -A config beat" in stack
        scheduler = "django_celery_beat.schedulers:DatabaseScheduler"
        assert scheduler in beat and scheduler in stack

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
