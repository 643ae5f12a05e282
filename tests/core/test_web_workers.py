from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILES = ("scripts/dev/supervisord.conf", "deploy/systemd/tierscope-web.service", "docker-compose.yml", "Dockerfile")


def _command_lines(path: str) -> list[str]:
    """The file's lines, a Dockerfile's exec-form CMD as the command line it runs."""
    lines = (ROOT / path).read_text().splitlines()
    return [" ".join(json.loads(line[len("CMD "):])) if line.startswith("CMD [") else line for line in lines]


def _gunicorn_args(path: str) -> dict[str, str]:
    (line,) = [line for line in _command_lines(path) if "gunicorn config.wsgi" in line]
    return dict(re.findall(r"--(worker-class|threads|keep-alive)[ =]([^ \"]+)", line))


def test_make_run_systemd_compose_and_the_image_run_the_same_gunicorn_worker_class_threads_and_keep_alive():
    args = {path: _gunicorn_args(path) for path in FILES}
    assert args["scripts/dev/supervisord.conf"] == {"worker-class": "gthread", "threads": "4", "keep-alive": "0"}
    assert all(found == args["scripts/dev/supervisord.conf"] for found in args.values()), args
