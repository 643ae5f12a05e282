from __future__ import annotations

from django.apps import AppConfig


class TargetsConfig(AppConfig):
    name = "apps.targets"

    def ready(self) -> None:
        from apps.core.audit_registry import audit_register  # ready(): auditlog needs the app registry
        from apps.targets.models import StorageLocation, TablespaceTier, Target  # ready(): models need the app registry

        # The password is masked (the log says whether it changed, never a character of it or of its
        # ciphertext). next_collect_at and capabilities are rewritten by every collection, not by anyone.
        audit_register(Target, target_name=lambda target: target.name, mask_fields=["password_encrypted"],
                       exclude_fields=["next_collect_at", "capabilities", "created_at"])
        audit_register(TablespaceTier, target_name=lambda row: row.target.name)
        audit_register(StorageLocation, target_name=lambda row: row.target.name)
