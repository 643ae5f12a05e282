from __future__ import annotations

from django.apps import AppConfig


class ApiTokensConfig(AppConfig):
    name = "apps.apitokens"
    label = "apitokens"
    verbose_name = "API tokens"

    def ready(self) -> None:
        # ready(): registers the system checks
        from apps.apitokens import checks  # noqa: F401
        from apps.apitokens.models import ApiToken  # ready(): models need the app registry
        from apps.core.audit_registry import audit_register  # ready(): auditlog needs the app registry

        # Creations and revocations, by whom. The hash is no one's business; uses are not changes (and are
        # written by an UPDATE that auditlog does not see anyway).
        audit_register(ApiToken, exclude_fields=["key_hash", "last_used_at", "last_used_address"])
