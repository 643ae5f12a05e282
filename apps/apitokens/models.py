"""API tokens: a user's keys for the REST API, kept as a public prefix and the hash of a secret."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q

#: The longest name a token may have (its column's length).
NAME_MAX_CHARS = 64

class ApiToken(models.Model):
    """One key of one user (several per user). The key itself is never stored: see apps.apitokens.keys."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=NAME_MAX_CHARS, help_text="what the token is for, e.g. 'nightly report'")
    # Public, in clear: finds the row from a presented key (unique, so one lookup by index).
    prefix = models.CharField(max_length=16, unique=True)
    # SHA-256 of the secret, hex (apps.apitokens.keys says why not a password KDF).
    key_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Written at most once a minute per token (apps.apitokens.services.TOUCH_EVERY), not per request.
    last_used_at = models.DateTimeField(null=True, blank=True)
    last_used_address = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        verbose_name = "API token"
        constraints = [
            # A name identifies a live token of its user (the page and `api_token --revoke NAME`); a revoked
            # token keeps its row for the record and frees its name.
            models.UniqueConstraint(fields=["user", "name"], condition=Q(revoked_at__isnull=True),
                                    name="apitoken_name_unique_per_user_unrevoked"),
            models.CheckConstraint(condition=Q(expires_at__gt=models.F("created_at")),
                                   name="apitoken_expires_after_created"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (tsk_{self.prefix}_…)"

    def state(self, now: datetime) -> str:
        """``revoked``, ``expired`` or ``active`` at ``now``."""
        if self.revoked_at is not None:
            return "revoked"
        return "expired" if self.expires_at <= now else "active"
