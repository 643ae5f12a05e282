"""The role a provider's groups claim gives (apps/core/sso.py)."""

from __future__ import annotations

import pytest

from apps.core.sso import claimed_groups, provider_data, role_for

PROVIDER = {"admin_groups": ["dba-admins"], "viewer_groups": []}


@pytest.mark.parametrize(("value", "groups"), [
    (["a", "b"], {"a", "b"}), ("a", {"a"}), (None, set()), ([1, "a"], {"a"}), ({"a": 1}, set()),
])
def test_it_reads_a_list_or_a_single_group_from_the_claim(value, groups):
    assert claimed_groups({"groups": value}, "groups") == groups


def test_it_prefers_userinfo_to_the_id_token():
    assert provider_data({"userinfo": {"groups": ["u"]}, "id_token": {"groups": ["t"]}}) == {"groups": ["u"]}
    assert provider_data({"id_token": {"groups": ["t"]}}) == {"groups": ["t"]}


def test_an_admin_group_makes_an_admin_and_anything_else_a_viewer():
    assert role_for(PROVIDER, {"dba-admins", "x"}) == "admin"
    assert role_for(PROVIDER, {"x"}) == "viewer"
    assert role_for(PROVIDER, set()) == "viewer"


def test_viewer_groups_when_set_are_required():
    provider = {**PROVIDER, "viewer_groups": ["dbas"]}
    assert role_for(provider, {"dbas"}) == "viewer"
    assert role_for(provider, {"dba-admins"}) == "admin"
    assert role_for(provider, {"sales"}) is None
