"""Development: what `make run` uses. Production differs only by environment."""

from config.settings.base import *  # noqa: F401,F403
