"""apitokens.E001: the token settings are usable."""

from __future__ import annotations

import pytest

from apps.apitokens.checks import check_api_token_settings


class ChecksTests:
    def test_it_passes_the_defaults(self):
        assert check_api_token_settings() == []

    @pytest.mark.parametrize(("name", "value", "message"), [
        ("TIERSCOPE_API_TOKEN_DAYS", 400, "TIERSCOPE_API_TOKEN_DAYS=400 must be 1 to TIERSCOPE_API_TOKEN_MAX_DAYS (365)."),
        ("TIERSCOPE_API_TOKEN_DAYS", 0, "TIERSCOPE_API_TOKEN_DAYS=0 must be 1 to"),
        ("TIERSCOPE_API_TOKEN_FAILURE_LIMIT", 0, "TIERSCOPE_API_TOKEN_FAILURE_LIMIT=0 must be at least 1."),
        ("TIERSCOPE_API_TOKEN_COOLOFF_S", -5, "TIERSCOPE_API_TOKEN_COOLOFF_S=-5 must be at least 1."),
    ])
    def test_it_refuses_a_bad_value_naming_it(self, settings, name, value, message):
        setattr(settings, name, value)

        errors = check_api_token_settings()

        assert [e.id for e in errors] == ["apitokens.E001"]
        assert errors[0].msg.startswith(message)
