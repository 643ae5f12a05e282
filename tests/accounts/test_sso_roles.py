"""The role a provider's groups claim gives (apps/core/sso.py)."""

from __future__ import annotations

import pytest

from apps.core.sso import claim_source, claimed_groups, role_for

PROVIDER = {"admin_groups": ["dba-admins"], "viewer_groups": []}


@pytest.mark.parametrize(("value", "groups"), [
    (["a", "b"], {"a", "b"}), ("a", {"a"}), (None, set()), ([1, "a"], {"a"}), ({"a": 1}, set()),
])
def test_it_reads_a_list_or_a_single_group_from_the_claim(value, groups):
    assert claimed_groups({"groups": value}, "groups") == groups


def test_it_reads_the_claim_from_userinfo_first_then_from_the_id_token():
    both = {"userinfo": {"groups": ["u"]}, "id_token": {"groups": ["t"]}}
    assert claim_source(both, "groups") == {"groups": ["u"]}
    # Entra ID: a userinfo answer without groups, the groups in the ID token.
    entra = {"userinfo": {"sub": "x", "email": "e"}, "id_token": {"sub": "x", "groups": ["t"]}}
    assert claim_source(entra, "groups") == {"sub": "x", "groups": ["t"]}
    assert claim_source({"userinfo": {"sub": "x"}}, "groups") == {"sub": "x"}


def test_an_admin_group_makes_an_admin_and_anything_else_a_viewer():
    assert role_for(PROVIDER, {"dba-admins", "x"}) == "admin"
    assert role_for(PROVIDER, {"x"}) == "viewer"
    assert role_for(PROVIDER, set()) == "viewer"


def test_viewer_groups_when_set_are_required():
    provider = {**PROVIDER, "viewer_groups": ["dbas"]}
    assert role_for(provider, {"dbas"}) == "viewer"
    assert role_for(provider, {"dba-admins"}) == "admin"
    assert role_for(provider, {"sales"}) is None
