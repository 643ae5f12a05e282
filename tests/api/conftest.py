"""API clients by role and a target with segments, recommendations and runs (tests/dashboard/factories.py)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.dashboard.factories import build_target


@pytest.fixture
def anon_api():
    return APIClient()


@pytest.fixture
def viewer_api(viewer):
    client = APIClient()
    client.force_login(viewer)
    return client


@pytest.fixture
def admin_api(admin_user):
    client = APIClient()
    client.force_login(admin_user)
    return client


@pytest.fixture
def csrf_admin_api(admin_user):
    """An admin's session that must send the CSRF token on writes, as a browser's must."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(admin_user)
    return client


@pytest.fixture
def big(seed_tiers):
    """A demo-mode target of 30 segments with a current recommendation run and five successful runs."""
    return build_target(name="big", segments=30)
