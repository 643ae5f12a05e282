"""Single sign-on settings (docs/sso.md), read from the environment; everything is off unless configured.

``sso_settings(environ)`` returns the Django settings for OpenID Connect providers (django-allauth) and
for LDAP / Active Directory (django-auth-ldap). It is a function of a mapping so that base.py applies it
to ``os.environ`` at import and tests apply it to an environment of their own (override_settings).
A bad value stops start-up with a message naming the variable.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, TypedDict
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_secret

_PROVIDER_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_PROVIDER_REQUIRED = ("id", "name", "server_url", "client_id", "secret")
_PROVIDER_OPTIONAL = ("scope", "claim", "admin_groups", "viewer_groups")

AXES_BACKEND = "axes.backends.AxesStandaloneBackend"
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
LDAP_BACKEND = "django_auth_ldap.backend.LDAPBackend"

# TIERSCOPE_LDAP_GROUP_TYPE → django-auth-ldap group type class and the objectClass its groups have.
LDAP_GROUP_TYPES = {
    "groupOfNames": ("GroupOfNamesType", "groupOfNames"),
    "groupOfUniqueNames": ("GroupOfUniqueNamesType", "groupOfUniqueNames"),
    "posixGroup": ("PosixGroupType", "posixGroup"),
    "activeDirectory": ("ActiveDirectoryGroupType", "group"),
    "nestedActiveDirectory": ("NestedActiveDirectoryGroupType", "group"),
}


def _str(env: Mapping[str, str], name: str, default: str = "") -> str:
    value = env.get(name, "")
    return value.strip() if value.strip() else default


def _list(value: object, where: str) -> list[str]:
    """Group names: a JSON list of strings, or one comma-separated string."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return [item.strip() for item in value if item.strip()]
    raise ImproperlyConfigured(f"{where} must be a list of group names or a comma-separated string.")


def _origin(url: str, where: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise ImproperlyConfigured(f"{where}={url!r} is not an http(s) URL of the provider's issuer.")
    return f"{parts.scheme}://{parts.netloc}"


class OidcProvider(TypedDict):
    """One provider of TIERSCOPE_OIDC_PROVIDERS, checked, its role mapping filled in (settings.TIERSCOPE_OIDC)."""

    id: str
    name: str
    server_url: str
    client_id: str
    secret: str
    scope: list[str]
    claim: str
    admin_groups: list[str]
    viewer_groups: list[str]


def oidc_providers(env: Mapping[str, str]) -> list[OidcProvider]:
    """The providers of TIERSCOPE_OIDC_PROVIDERS (a JSON list), each checked, with the global role mapping
    (TIERSCOPE_OIDC_GROUPS_CLAIM, _ADMIN_GROUPS, _VIEWER_GROUPS) filled in where it sets none of its own."""
    raw = _str(env, "TIERSCOPE_OIDC_PROVIDERS")
    if not raw:
        return []
    try:
        items = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(f"TIERSCOPE_OIDC_PROVIDERS is not JSON: {exc.msg} at character {exc.pos}.") from None
    if not isinstance(items, list):
        raise ImproperlyConfigured("TIERSCOPE_OIDC_PROVIDERS must be a JSON list of provider objects.")
    claim = _str(env, "TIERSCOPE_OIDC_GROUPS_CLAIM", "groups")
    admin_groups = _list(_str(env, "TIERSCOPE_OIDC_ADMIN_GROUPS"), "TIERSCOPE_OIDC_ADMIN_GROUPS")
    viewer_groups = _list(_str(env, "TIERSCOPE_OIDC_VIEWER_GROUPS"), "TIERSCOPE_OIDC_VIEWER_GROUPS")
    providers: list[OidcProvider] = []
    seen: set[str] = set()
    for n, item in enumerate(items):
        where = f"TIERSCOPE_OIDC_PROVIDERS[{n}]"
        if not isinstance(item, dict):
            raise ImproperlyConfigured(f"{where} must be an object with {', '.join(_PROVIDER_REQUIRED)}.")
        unknown = sorted(set(item) - set(_PROVIDER_REQUIRED) - set(_PROVIDER_OPTIONAL))
        if unknown:
            raise ImproperlyConfigured(f"{where} has unknown keys: {', '.join(unknown)}.")
        missing = [key for key in _PROVIDER_REQUIRED if not isinstance(item.get(key), str) or not item[key].strip()]
        if missing:
            raise ImproperlyConfigured(f"{where} lacks {', '.join(missing)} (each a non-empty string).")
        provider_id = item["id"].strip()
        if not _PROVIDER_ID.match(provider_id):
            raise ImproperlyConfigured(f"{where}.id={provider_id!r} must be lower-case letters, digits, - or _.")
        if provider_id in seen:
            raise ImproperlyConfigured(f"{where}.id={provider_id!r} is given twice.")
        seen.add(provider_id)
        _origin(item["server_url"].strip(), f"{where}.server_url")
        scope = _list(item.get("scope", "openid,profile,email"), f"{where}.scope")
        if "openid" not in scope:
            scope = ["openid", *scope]
        providers.append({
            "id": provider_id,
            "name": item["name"].strip(),
            "server_url": item["server_url"].strip().rstrip("/"),
            "client_id": item["client_id"].strip(),
            "secret": item["secret"],
            "scope": scope,
            "claim": (item.get("claim") or claim).strip(),
            "admin_groups": _list(item.get("admin_groups", admin_groups), f"{where}.admin_groups"),
            "viewer_groups": _list(item.get("viewer_groups", viewer_groups), f"{where}.viewer_groups"),
        })
    return providers


def oidc_settings(env: Mapping[str, str]) -> dict[str, Any]:
    providers = oidc_providers(env)
    apps = [
        {
            "provider_id": p["id"],
            "name": p["name"],
            "client_id": p["client_id"],
            "secret": p["secret"],
            "settings": {"server_url": p["server_url"], "scope": p["scope"]},
        }
        for p in providers
    ]
    return {
        "TIERSCOPE_OIDC": {p["id"]: p for p in providers},
        "SOCIALACCOUNT_PROVIDERS": {"openid_connect": {"APPS": apps, "OAUTH_PKCE_ENABLED": True}},
        # The login page's buttons post to us and we redirect to the provider: CSP form-action must allow it.
        "TIERSCOPE_SSO_FORM_ACTION": sorted({_origin(p["server_url"], "server_url") for p in providers}),
    }


def ldap_settings(env: Mapping[str, str]) -> dict[str, object]:
    """django-auth-ldap's AUTH_LDAP_* settings; empty when TIERSCOPE_LDAP_URI is unset."""
    uri = _str(env, "TIERSCOPE_LDAP_URI")
    if not uri:
        return {}
    import ldap  # optional: python-ldap, needed only when LDAP login is configured
    from django_auth_ldap import config as ldap_config  # optional: django-auth-ldap, as above

    for part in uri.split():
        if not part.startswith(("ldap://", "ldaps://", "ldapi://")):
            raise ImproperlyConfigured(f"TIERSCOPE_LDAP_URI={uri!r}: {part!r} is not an ldap://, ldaps:// or ldapi:// URL.")
    result: dict[str, object] = {
        "AUTH_LDAP_SERVER_URI": uri,
        "AUTH_LDAP_BIND_DN": _str(env, "TIERSCOPE_LDAP_BIND_DN"),
        "AUTH_LDAP_BIND_PASSWORD": env_secret("TIERSCOPE_LDAP_BIND_PASSWORD", "", env),
        "AUTH_LDAP_START_TLS": env_bool("TIERSCOPE_LDAP_START_TLS", False, env),
        "AUTH_LDAP_USER_ATTR_MAP": {"first_name": "givenName", "last_name": "sn", "email": "mail"},
        "AUTH_LDAP_ALWAYS_UPDATE_USER": True,
        "AUTH_LDAP_CACHE_TIMEOUT": 0,
    }
    timeout = _str(env, "TIERSCOPE_LDAP_TIMEOUT_S", "10")
    if not timeout.isdigit() or int(timeout) < 1:
        raise ImproperlyConfigured(f"TIERSCOPE_LDAP_TIMEOUT_S={timeout!r} must be a whole number of seconds, 1 or more.")
    options: dict[int, object] = {ldap.OPT_REFERRALS: 0, ldap.OPT_NETWORK_TIMEOUT: int(timeout)}
    ca_file = _str(env, "TIERSCOPE_LDAP_CA_FILE")
    if ca_file:
        options[ldap.OPT_X_TLS_CACERTFILE] = ca_file
        options[ldap.OPT_X_TLS_REQUIRE_CERT] = ldap.OPT_X_TLS_DEMAND
        options[ldap.OPT_X_TLS_NEWCTX] = 0  # last: makes the options above take effect on this connection
    result["AUTH_LDAP_CONNECTION_OPTIONS"] = options

    dn_template = _str(env, "TIERSCOPE_LDAP_USER_DN_TEMPLATE")
    search_base = _str(env, "TIERSCOPE_LDAP_USER_SEARCH_BASE")
    if dn_template:
        if "%(user)s" not in dn_template:
            raise ImproperlyConfigured("TIERSCOPE_LDAP_USER_DN_TEMPLATE must contain %(user)s.")
        result["AUTH_LDAP_USER_DN_TEMPLATE"] = dn_template
    elif search_base:
        user_filter = _str(env, "TIERSCOPE_LDAP_USER_FILTER", "(uid=%(user)s)")
        if "%(user)s" not in user_filter:
            raise ImproperlyConfigured("TIERSCOPE_LDAP_USER_FILTER must contain %(user)s.")
        result["AUTH_LDAP_USER_SEARCH"] = ldap_config.LDAPSearch(search_base, ldap.SCOPE_SUBTREE, user_filter)
    else:
        raise ImproperlyConfigured(
            "TIERSCOPE_LDAP_URI is set: set TIERSCOPE_LDAP_USER_SEARCH_BASE or TIERSCOPE_LDAP_USER_DN_TEMPLATE too."
        )

    admin_group = _str(env, "TIERSCOPE_LDAP_ADMIN_GROUP")
    viewer_group = _str(env, "TIERSCOPE_LDAP_VIEWER_GROUP")
    group_base = _str(env, "TIERSCOPE_LDAP_GROUP_SEARCH_BASE")
    if (admin_group or viewer_group) and not group_base:
        raise ImproperlyConfigured(
            "TIERSCOPE_LDAP_ADMIN_GROUP / TIERSCOPE_LDAP_VIEWER_GROUP need TIERSCOPE_LDAP_GROUP_SEARCH_BASE."
        )
    if group_base:
        kind = _str(env, "TIERSCOPE_LDAP_GROUP_TYPE", "groupOfNames")
        if kind not in LDAP_GROUP_TYPES:
            raise ImproperlyConfigured(
                f"TIERSCOPE_LDAP_GROUP_TYPE={kind!r} is not one of {', '.join(LDAP_GROUP_TYPES)}."
            )
        class_name, object_class = LDAP_GROUP_TYPES[kind]
        result["AUTH_LDAP_GROUP_SEARCH"] = ldap_config.LDAPSearch(
            group_base, ldap.SCOPE_SUBTREE, f"(objectClass={object_class})"
        )
        result["AUTH_LDAP_GROUP_TYPE"] = getattr(ldap_config, class_name)()
        # Admin follows the directory at every login: removed from the group, back to viewer. Admins are
        # superusers too, as the bootstrap admin is, so that the Django admin pages open for them.
        result["AUTH_LDAP_USER_FLAGS_BY_GROUP"] = (
            {"is_staff": admin_group, "is_superuser": admin_group} if admin_group else {}
        )
        if viewer_group:
            # Members of either group may log in; the admin group alone is enough.
            result["AUTH_LDAP_REQUIRE_GROUP"] = (
                ldap_config.LDAPGroupQuery(viewer_group) | ldap_config.LDAPGroupQuery(admin_group)
                if admin_group else viewer_group
            )
    return result


def with_form_action(policy: dict, origins: list[str]) -> dict:
    """django-csp's CONTENT_SECURITY_POLICY with ``origins`` added to form-action: the login page's
    "Sign in with" forms post to us and we redirect to the provider, which Chromium checks against it."""
    directives = dict(policy["DIRECTIVES"])
    directives["form-action"] = [*directives["form-action"], *[o for o in origins if o not in directives["form-action"]]]
    return {**policy, "DIRECTIVES": directives}


def sso_settings(env: Mapping[str, str]) -> dict[str, Any]:  # settings by name: values of every kind
    """Every SSO setting from ``env``, AUTHENTICATION_BACKENDS included (axes first, LDAP only when set)."""
    ldap_part = ldap_settings(env)
    backends = [AXES_BACKEND, *([LDAP_BACKEND] if ldap_part else []), MODEL_BACKEND]
    return {**oidc_settings(env), **ldap_part, "AUTHENTICATION_BACKENDS": backends}
