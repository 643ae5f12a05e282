from __future__ import annotations

from django.apps import AppConfig


class ApiTokensConfig(AppConfig):
    name = "apps.apitokens"
    label = "apitokens"
    verbose_name = "API tokens"

    def ready(self) -> None:
        from apps.apitokens import checks  # noqa: F401  (registers the system checks)
        from apps.apitokens.models import ApiToken
        from apps.core.audit_registry import audit_register

        # Creations and revocations, by whom. The hash is no one's business; uses are not changes (and are
        # written by an UPDATE that auditlog does not see anyway).
        audit_register(ApiToken, exclude_fields=["key_hash", "last_used_at", "last_used_address"])
