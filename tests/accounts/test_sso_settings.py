"""Single sign-on settings from the environment: off by default, every bad value named at start-up."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config.settings.sso import sso_settings, with_form_action

PROVIDER = {"id": "entra", "name": "Entra ID", "server_url": "https://login.example.com/tenant/v2.0",
            "client_id": "app-id", "secret": "s"}


def providers_env(*items, **extra) -> dict[str, str]:
    return {"TIERSCOPE_OIDC_PROVIDERS": json.dumps(list(items)), **extra}


class OffByDefaultTests:
    def test_it_configures_nothing_without_variables(self):
        values = sso_settings({})
        assert values["AUTHENTICATION_BACKENDS"] == ["axes.backends.AxesStandaloneBackend",
                                                     "django.contrib.auth.backends.ModelBackend"]
        assert values["SOCIALACCOUNT_PROVIDERS"]["openid_connect"]["APPS"] == []
        assert values["TIERSCOPE_OIDC"] == {} and values["TIERSCOPE_SSO_FORM_ACTION"] == []
        assert not any(name.startswith("AUTH_LDAP_") for name in values)

    def test_the_running_settings_have_no_provider_and_no_ldap(self):
        assert settings.TIERSCOPE_OIDC == {}
        assert "django_auth_ldap.backend.LDAPBackend" not in settings.AUTHENTICATION_BACKENDS

    @pytest.mark.django_db
    def test_the_login_page_has_no_sign_in_button_and_no_sso_pages(self, client):
        assert "Sign in with" not in client.get("/accounts/login/").content.decode()
        assert client.get("/accounts/oidc/entra/login/").status_code == 404
        assert client.get("/accounts/signup/").status_code == 404

    @pytest.mark.django_db
    def test_with_a_provider_only_its_pages_are_served_and_no_local_signup(self, client):
        from tests.accounts.sso_env import sso_configured

        with sso_configured(providers_env(PROVIDER)):
            page = client.get("/accounts/login/").content.decode()
            assert 'action="/accounts/oidc/entra/login/?process=login"' in page and "Sign in with Entra ID" in page
            assert client.get("/accounts/signup/").status_code == 404
            assert client.get("/accounts/email/").status_code == 404
            assert client.get("/accounts/password/reset/").status_code == 404
            assert client.get("/accounts/3rdparty/").status_code == 404


class OidcTests:
    def test_it_reads_several_providers_with_the_global_role_mapping(self):
        second = {**PROVIDER, "id": "okta", "name": "Okta", "server_url": "https://corp.okta.com/",
                  "admin_groups": ["okta-admins"], "claim": "roles", "scope": "openid,email,groups"}
        values = sso_settings(providers_env(PROVIDER, second, TIERSCOPE_OIDC_ADMIN_GROUPS="dba-admins, ops",
                                            TIERSCOPE_OIDC_VIEWER_GROUPS="dbas"))
        entra, okta = values["TIERSCOPE_OIDC"]["entra"], values["TIERSCOPE_OIDC"]["okta"]
        assert (entra["claim"], entra["admin_groups"], entra["viewer_groups"]) == ("groups", ["dba-admins", "ops"],
                                                                                   ["dbas"])
        assert (okta["claim"], okta["admin_groups"], okta["server_url"]) == ("roles", ["okta-admins"],
                                                                             "https://corp.okta.com")
        apps = values["SOCIALACCOUNT_PROVIDERS"]["openid_connect"]["APPS"]
        assert [a["provider_id"] for a in apps] == ["entra", "okta"]
        assert apps[1]["settings"] == {"server_url": "https://corp.okta.com", "scope": ["openid", "email", "groups"]}
        assert values["TIERSCOPE_SSO_FORM_ACTION"] == ["https://corp.okta.com", "https://login.example.com"]

    def test_it_adds_the_provider_origins_to_the_form_action_policy(self):
        policy = with_form_action(settings.CONTENT_SECURITY_POLICY, ["https://login.example.com"])
        assert policy["DIRECTIVES"]["form-action"] == ["'self'", "https://login.example.com"]
        assert policy["DIRECTIVES"]["script-src"] == settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]["script-src"]

    @pytest.mark.parametrize(("env", "message"), [
        ({"TIERSCOPE_OIDC_PROVIDERS": "[{"}, "TIERSCOPE_OIDC_PROVIDERS is not JSON"),
        ({"TIERSCOPE_OIDC_PROVIDERS": '{"id": "x"}'}, "must be a JSON list"),
        (providers_env({**PROVIDER, "secret": ""}), "TIERSCOPE_OIDC_PROVIDERS[0] lacks secret"),
        (providers_env({**PROVIDER, "id": "Entra ID"}), "TIERSCOPE_OIDC_PROVIDERS[0].id='Entra ID'"),
        (providers_env(PROVIDER, PROVIDER), "TIERSCOPE_OIDC_PROVIDERS[1].id='entra' is given twice"),
        (providers_env({**PROVIDER, "server_url": "login.example.com"}), "TIERSCOPE_OIDC_PROVIDERS[0].server_url="),
        (providers_env({**PROVIDER, "tenant": "x"}), "TIERSCOPE_OIDC_PROVIDERS[0] has unknown keys: tenant"),
        (providers_env({**PROVIDER, "admin_groups": [1]}), "TIERSCOPE_OIDC_PROVIDERS[0].admin_groups must be"),
    ])
    def test_it_names_a_bad_value(self, env, message):
        with pytest.raises(ImproperlyConfigured) as error:
            sso_settings(env)
        assert message in str(error.value)


LDAP = {"TIERSCOPE_LDAP_URI": "ldap://dc1.example.com", "TIERSCOPE_LDAP_USER_SEARCH_BASE": "dc=example,dc=com"}


class LdapTests:
    def test_it_puts_the_ldap_backend_after_axes(self):
        backends = sso_settings(LDAP)["AUTHENTICATION_BACKENDS"]
        assert backends == ["axes.backends.AxesStandaloneBackend", "django_auth_ldap.backend.LDAPBackend",
                            "django.contrib.auth.backends.ModelBackend"]

    def test_it_maps_active_directory_groups(self):
        values = sso_settings({**LDAP, "TIERSCOPE_LDAP_USER_FILTER": "(sAMAccountName=%(user)s)",
                               "TIERSCOPE_LDAP_GROUP_SEARCH_BASE": "ou=groups,dc=example,dc=com",
                               "TIERSCOPE_LDAP_GROUP_TYPE": "nestedActiveDirectory",
                               "TIERSCOPE_LDAP_ADMIN_GROUP": "cn=dba-admins,ou=groups,dc=example,dc=com"})
        assert values["AUTH_LDAP_USER_SEARCH"].filterstr == "(sAMAccountName=%(user)s)"
        assert type(values["AUTH_LDAP_GROUP_TYPE"]).__name__ == "NestedActiveDirectoryGroupType"
        assert values["AUTH_LDAP_GROUP_SEARCH"].filterstr == "(objectClass=group)"
        assert values["AUTH_LDAP_USER_FLAGS_BY_GROUP"] == {
            "is_staff": "cn=dba-admins,ou=groups,dc=example,dc=com",
            "is_superuser": "cn=dba-admins,ou=groups,dc=example,dc=com"}
        assert "AUTH_LDAP_REQUIRE_GROUP" not in values

    def test_it_reads_the_bind_password_from_a_file(self, tmp_path):
        secret = tmp_path / "bind"
        secret.write_text("p4ss\n")
        values = sso_settings({**LDAP, "TIERSCOPE_LDAP_BIND_PASSWORD_FILE": str(secret)})
        assert values["AUTH_LDAP_BIND_PASSWORD"] == "p4ss"

    @pytest.mark.parametrize(("env", "message"), [
        ({"TIERSCOPE_LDAP_URI": "dc1.example.com"}, "TIERSCOPE_LDAP_URI='dc1.example.com'"),
        ({"TIERSCOPE_LDAP_URI": "ldap://dc1"}, "set TIERSCOPE_LDAP_USER_SEARCH_BASE or TIERSCOPE_LDAP_USER_DN_TEMPLATE"),
        ({**LDAP, "TIERSCOPE_LDAP_USER_FILTER": "(uid=x)"}, "TIERSCOPE_LDAP_USER_FILTER must contain %(user)s"),
        ({**LDAP, "TIERSCOPE_LDAP_ADMIN_GROUP": "cn=a"}, "need TIERSCOPE_LDAP_GROUP_SEARCH_BASE"),
        ({**LDAP, "TIERSCOPE_LDAP_GROUP_SEARCH_BASE": "dc=x", "TIERSCOPE_LDAP_GROUP_TYPE": "ad"},
         "TIERSCOPE_LDAP_GROUP_TYPE='ad' is not one of"),
        ({**LDAP, "TIERSCOPE_LDAP_START_TLS": "maybe"}, "TIERSCOPE_LDAP_START_TLS='maybe' is not a boolean"),
        ({**LDAP, "TIERSCOPE_LDAP_TIMEOUT_S": "0"}, "TIERSCOPE_LDAP_TIMEOUT_S='0'"),
        ({**LDAP, "TIERSCOPE_LDAP_BIND_PASSWORD_FILE": "/nonexistent/bind"}, "TIERSCOPE_LDAP_BIND_PASSWORD_FILE="),
    ])
    def test_it_names_a_bad_value(self, env, message):
        with pytest.raises(ImproperlyConfigured) as error:
            sso_settings(env)
        assert message in str(error.value)
