from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from apps.apitokens.models import ApiToken
from apps.apitokens.services import token_revoke


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Every user's tokens, read-only (the hash included); revoked here with the action. Made on the API
    tokens page or with `manage.py api_token`, which show the key once: the admin has no add form."""

    list_display = ["name", "user", "key_prefix", "state_now", "created_at", "expires_at", "revoked_at",
                    "last_used_at", "last_used_address"]
    list_filter = ["revoked_at", "expires_at"]
    search_fields = ["name", "prefix", "user__username"]
    readonly_fields = ["user", "name", "prefix", "key_hash", "created_at", "expires_at", "revoked_at",
                       "last_used_at", "last_used_address"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="key")
    def key_prefix(self, token: ApiToken) -> str:
        return f"tsk_{token.prefix}_…"

    @admin.display(description="state")
    def state_now(self, token: ApiToken) -> str:
        return token.state(timezone.now())

    @admin.action(description="Revoke selected API tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        now = timezone.now()
        revoked = [token.name for token in queryset.select_related("user") if token_revoke(token=token, now=now)]
        self.message_user(request, f"Revoked {len(revoked)} token(s)" + (f": {', '.join(revoked)}." if revoked
                                                                            else " (all were revoked already)."),
                          messages.SUCCESS)

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("user")
