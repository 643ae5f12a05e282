"""Single sign-on configured for one test from an environment of its own, as base.py does from os.environ."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from django.conf import settings
from django.test import override_settings
from django.urls import clear_url_caches

from config.settings.sso import sso_settings, with_form_action


def _reload_urls() -> None:
    import config.urls

    importlib.reload(config.urls)  # config/urls.py serves allauth's pages only when providers are set
    clear_url_caches()


@contextmanager
def sso_configured(env: Mapping[str, str]) -> Iterator[dict[str, object]]:
    values = sso_settings(env)
    values["CONTENT_SECURITY_POLICY"] = with_form_action(settings.CONTENT_SECURITY_POLICY,
                                                         values["TIERSCOPE_SSO_FORM_ACTION"])
    try:
        with override_settings(**values):
            _reload_urls()
            yield values
    finally:
        _reload_urls()
