"""Making, revoking and checking API tokens. The key is returned once by :func:`token_create` and kept nowhere."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q

from apps.apitokens import keys
from apps.apitokens.models import NAME_MAX_CHARS, ApiToken

# last_used_at is written at most this often per token: an API client polling every second would otherwise
# write a row per request.
TOUCH_EVERY = timedelta(minutes=1)


class TokenRefused(Exception):
    """A presented key that does not authenticate; the message says why, for the 401 and the log."""

    def __init__(self, message: str, *, token: ApiToken | None = None) -> None:
        super().__init__(message)
        self.token = token


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    key: str  # shown once, then gone


def token_create(*, user: Any, name: str, expires_days: int | None, now: datetime) -> NewToken:
    """A new token of ``user`` named ``name``, valid ``expires_days`` days (the default when None).

    Raises ValidationError naming the field: an empty or long name, a name the user already has on a token
    not revoked, an expiry outside 1 .. TIERSCOPE_API_TOKEN_MAX_DAYS.
    """
    name = name.strip()
    days = settings.TIERSCOPE_API_TOKEN_DAYS if expires_days is None else expires_days
    _validate(user=user, name=name, days=days)
    prefix, secret = keys.key_new()
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(
                user=user, name=name, prefix=prefix, key_hash=keys.secret_hash(secret), created_at=now,
                expires_at=now + timedelta(days=days),
            )
    except IntegrityError as exc:
        # A request of the same user with the same name that won the race; a prefix drawn twice (one in
        # four billion) also lands here, and the user simply tries again.
        raise ValidationError({"name": f"{user.get_username()} already has a token named {name!r}."}) from exc
    return NewToken(token=token, key=keys.key_format(prefix=prefix, secret=secret))


def _validate(*, user: Any, name: str, days: int) -> None:
    if not name:
        raise ValidationError({"name": "A token needs a name (what it is for)."})
    if len(name) > NAME_MAX_CHARS:
        raise ValidationError({"name": f"The name is {len(name)} characters long; at most {NAME_MAX_CHARS}."})
    max_days = settings.TIERSCOPE_API_TOKEN_MAX_DAYS
    if not 1 <= days <= max_days:
        raise ValidationError({"expires_days": f"Expiry must be 1 to {max_days} days, not {days}."})
    if ApiToken.objects.filter(user=user, name=name, revoked_at__isnull=True).exists():
        raise ValidationError({"name": f"{user.get_username()} already has a token named {name!r}; revoke it "
                                       f"first or choose another name."})


def token_revoke(*, token: ApiToken, now: datetime) -> bool:
    """Revoke ``token`` from ``now`` on; False when it was revoked already (nothing changes then)."""
    if token.revoked_at is not None:
        return False
    token.revoked_at = now
    token.save(update_fields=["revoked_at"])  # save(), not update(): the audit log records it
    return True


def token_authenticate(*, key: str, address: str | None, now: datetime) -> ApiToken:
    """The token that ``key`` is, with its user, if it may be used at ``now``; else TokenRefused saying why.

    Read from the primary database (apitokens is not one of the data apps the standby serves), so a revoked
    token is refused from the moment its revocation commits.
    """
    parts = keys.key_split(key)
    if parts is None:
        raise TokenRefused("Malformed API token: expected tsk_<prefix>_<secret>.")
    prefix, secret = parts
    token = ApiToken.objects.select_related("user").filter(prefix=prefix).first()
    # One message for "no such prefix" and "wrong secret": a caller learns nothing about which prefixes exist.
    if token is None or not keys.secret_matches(secret, token.key_hash):
        raise TokenRefused(f"Invalid API token tsk_{prefix}_…: no such token, or a wrong secret.")
    if token.revoked_at is not None:
        raise TokenRefused(f"API token tsk_{prefix}_… was revoked at {token.revoked_at:%Y-%m-%d %H:%M} UTC.",
                           token=token)
    if token.expires_at <= now:
        raise TokenRefused(f"API token tsk_{prefix}_… expired at {token.expires_at:%Y-%m-%d %H:%M} UTC.",
                           token=token)
    if not token.user.is_active:
        raise TokenRefused(f"API token tsk_{prefix}_… belongs to a deactivated user.", token=token)
    _touch(token=token, address=address, now=now)
    return token


def _touch(*, token: ApiToken, address: str | None, now: datetime) -> None:
    """Record the use, unless it was recorded less than TOUCH_EVERY ago.

    A conditional UPDATE, not save(): concurrent requests write at most once between them, and the audit
    log (which follows save()) is not filled with uses.
    """
    if token.last_used_at is not None and now - token.last_used_at < TOUCH_EVERY:
        return
    try:
        # A proxy's X-Forwarded-For entry (TIERSCOPE_PROXY_COUNT) is whatever the client wrote: kept only if it
        # is an address.
        address = str(ipaddress.ip_address(address or ""))
    except ValueError:
        address = None
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - TOUCH_EVERY)
    if ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now, last_used_address=address):
        token.last_used_at, token.last_used_address = now, address
