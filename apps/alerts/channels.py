"""Delivering one message to one destination: email, a generic JSON webhook, or an apprise URL.

Each transport raises :class:`DeliveryError` with a one-line reason naming the destination (its secret
parts left out) when the message was not delivered; the send task retries it.
"""

from __future__ import annotations

import json
import logging
import re
import smtplib
import urllib.error
import urllib.request

import apprise
from django.conf import settings
from django.core.mail import send_mail

from apps.alerts.models import AlertMessage

WEBHOOK_TIMEOUT_S = 10
_URL = re.compile(r"\b([a-z][a-z0-9+.-]*)://\S+", re.IGNORECASE)


def redact_urls(record: logging.LogRecord) -> bool:
    """Logging filter for apprise's logger: its messages quote the URLs they fail on, tokens and all; keep
    only each URL's scheme."""
    record.msg, record.args = _URL.sub(r"\1://…", record.getMessage()), ()
    return True


class DeliveryError(Exception):
    """The message was not delivered; ``permanent`` when retrying cannot help (a malformed URL)."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


def deliver(message: AlertMessage) -> None:
    destination = message.destination
    if destination.startswith("email:"):
        _email(message, destination.removeprefix("email:").split(","))
    elif destination.startswith(("http://", "https://")):
        _webhook(message)
    else:
        _apprise(message)


def _email(message: AlertMessage, recipients: list[str]) -> None:
    try:
        send_mail(message.subject, message.body, settings.DEFAULT_FROM_EMAIL, recipients, fail_silently=False)
    except (smtplib.SMTPException, OSError) as exc:
        raise DeliveryError(f"mail to {', '.join(recipients)} via {settings.EMAIL_HOST}:{settings.EMAIL_PORT} "
                            f"failed: {exc}") from exc


def _webhook(message: AlertMessage) -> None:
    request = urllib.request.Request(
        message.destination, data=json.dumps(message.payload).encode(), method="POST",
        headers={"Content-Type": "application/json", "User-Agent": "tierscope-alerts"})
    try:
        with urllib.request.urlopen(request, timeout=WEBHOOK_TIMEOUT_S) as response:
            response.read(1024)
    except urllib.error.HTTPError as exc:
        raise DeliveryError(f"webhook {message.destination_shown} answered HTTP {exc.code}",
                            permanent=exc.code in (400, 404, 405, 410)) from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DeliveryError(f"webhook {message.destination_shown} not reached: {reason}") from exc


def _apprise(message: AlertMessage) -> None:
    notifier = apprise.Apprise()
    if not notifier.add(message.destination):
        raise DeliveryError(f"{message.destination_shown} is not a URL apprise knows (see its list of services)",
                            permanent=True)
    if not notifier.notify(title=message.subject, body=message.body):
        raise DeliveryError(f"{message.destination_shown}: apprise could not deliver (its log says why)")
