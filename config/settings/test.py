"""Tests: real PostgreSQL and Redis, fast password hashing, eager tasks for unit tests.

Integration tests that need a real worker start one themselves (tests/core/test_celery_worker.py).
"""

from config.env import env_str
from config.settings.base import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Separate test databases for concurrent runs on one cluster (e.g. TEST_DB_NAME=test_tierscope_2).
DATABASES["default"]["TEST"] = {"NAME": env_str("TEST_DB_NAME", "test_tierscope")}  # noqa: F405
# A replica alias (DATABASE_REPLICA_URL) is the same database seen from a standby: never created for tests.
if "replica" in DATABASES:  # noqa: F405
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}  # noqa: F405

# pytest-xdist workers (make test runs several) share one Redis: each keeps its cached pages under its own prefix.
CACHES["pages"]["KEY_PREFIX"] = f"tierscope-test-{env_str('PYTEST_XDIST_WORKER', 'main')}"  # noqa: F405
