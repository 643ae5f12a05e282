"""Real identity servers on loopback for the single sign-on tests: an OpenID Connect provider and slapd."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.accounts.directory import Slapd, start_directory

# sub → claims; "groups" is the claim tierscope reads by default.
OIDC_USERS = {
    "alice": {"preferred_username": "alice", "email": "alice@example.com", "name": "Alice Admin",
              "groups": ["tierscope-admins", "dbas"]},
    "bob": {"preferred_username": "bob", "email": "bob@example.com", "name": "Bob Viewer", "groups": ["dbas"]},
    "mallory": {"preferred_username": "mallory", "email": "mallory@example.com", "groups": ["sales"]},
}


@dataclass
class Provider:
    url: str

    def env(self, **extra: str) -> dict[str, str]:
        """The environment a DBA team would set for this provider (docs/sso.md)."""
        providers = [{"id": "corp", "name": "Corp ID", "server_url": self.url, "client_id": "tierscope",
                      "secret": "s3cret"}]
        return {"TIERSCOPE_OIDC_PROVIDERS": json.dumps(providers),
                "TIERSCOPE_OIDC_ADMIN_GROUPS": "tierscope-admins", **extra}

    def set_claims(self, sub: str, claims: dict) -> None:
        """Changes a user's claims at the provider, as a directory admin would (the mock's PUT /users/<sub>)."""
        import requests

        requests.put(f"{self.url}/users/{sub}", json=claims, timeout=10).raise_for_status()


@pytest.fixture
def oidc_provider() -> Iterator[Provider]:
    """oidc-provider-mock, a real OpenID Connect provider (discovery, PKCE, signed ID tokens, userinfo), in a
    thread of this process on a free loopback port; its sign-in page offers the users of OIDC_USERS."""
    from oidc_provider_mock import User, run_server_in_thread

    users = [User(sub=sub, claims=claims) for sub, claims in OIDC_USERS.items()]
    with run_server_in_thread(port=0, user_claims=users) as server:
        yield Provider(url=f"http://localhost:{server.server_port}")


@pytest.fixture
def directory(tmp_path: Path) -> Iterator[tuple[Slapd, Path]]:
    """Debian's slapd on a free loopback port with the users and groups of tests/accounts/directory.py."""
    server, ca = start_directory(tmp_path)
    try:
        yield server, ca
    finally:
        server.stop()
