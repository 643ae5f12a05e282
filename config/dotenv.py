"""Load the project's .env (written by `make run`) without overriding the real environment."""

from __future__ import annotations

import os
from pathlib import Path

from dotenv import load_dotenv

BASE_DIR = Path(__file__).resolve().parent.parent


def load_dotenv_file() -> None:
    path = Path(os.environ.get("TIERSCOPE_ENV_FILE", BASE_DIR / ".env"))
    if path.is_file():
        load_dotenv(path, override=False)
