"""Alert rules (per target or global), the state each alert is in, and the messages sent (an outbox)."""

from __future__ import annotations

from django.db import models


class AlertRule(models.Model):
    """Who hears what: a target's own rule, or a global one (no target) for every target without its own."""

    name = models.CharField(max_length=100)
    target = models.ForeignKey("targets.Target", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="alert_rules", help_text="blank: every target without a rule of its own")
    enabled = models.BooleanField(default=True)
    failures_in_a_row = models.PositiveIntegerField(
        null=True, blank=True, default=3, help_text="alert when this many collections fail in a row (blank: never)")
    missed_intervals = models.PositiveIntegerField(
        null=True, blank=True, default=3,
        help_text="alert when a live target has not collected for this many of its intervals (blank: never)")
    heartbeats = models.BooleanField(
        default=True, help_text="alert when the Celery worker or beat stops giving signs of life (global rules)")
    new_moves_usd_per_month = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True, help_text="alert when a refresh finds new moves saving more than this per month "
                                         "(USD; blank: never)")
    plan_changes = models.BooleanField(default=True, help_text="tell when a move plan changes state")
    email_to = models.TextField(blank=True, help_text="addresses, comma or newline separated (Django's EMAIL_* "
                                                      "settings send them)")
    webhooks = models.TextField(
        blank=True, help_text="one URL a line: http(s):// gets a JSON POST; any other scheme is an apprise URL "
                              "(slack://, msteams://, pagerduty://, ...)")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.target or 'every target'})"

    @property
    def destinations(self) -> list[str]:
        """"email:" plus the addresses (one destination for all), then each webhook URL."""
        emails = [part.strip() for part in self.email_to.replace("\n", ",").split(",") if part.strip()]
        urls = [line.strip() for line in self.webhooks.splitlines() if line.strip()]
        return ([f"email:{','.join(emails)}"] if emails else []) + urls


class AlertState(models.Model):
    """The last known state of one alert of one rule (``key``: failing:<target id>, stale:<target id>,
    heartbeat:<process>, moves:<target id>, plan:<id>:<state>): a message goes out only when it changes."""

    rule = models.ForeignKey(AlertRule, on_delete=models.CASCADE, related_name="states")
    key = models.CharField(max_length=100)
    firing = models.BooleanField(default=False)
    changed_at = models.DateTimeField()
    detail = models.TextField(blank=True)
    memo = models.JSONField(default=list, blank=True, help_text="moves: the segment ids already told about")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rule", "key"], name="alertstate_rule_key_uniq")]

    def __str__(self) -> str:
        return f"{self.key}: {'firing' if self.firing else 'ok'}"


class AlertMessage(models.Model):
    """One message to one destination: kept with its attempts and last error, so none is lost silently."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"

    rule = models.ForeignKey(AlertRule, null=True, on_delete=models.SET_NULL, related_name="messages")
    destination = models.CharField(max_length=1000)
    subject = models.CharField(max_length=300)
    body = models.TextField()
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.IntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The rate check: a rule's messages of the last hour.
            models.Index(fields=["rule", "-created_at"], name="alertmessage_rule_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.subject} -> {self.destination_shown} ({self.status})"

    @property
    def destination_shown(self) -> str:
        """The destination without what may be a secret: a webhook's host only (tokens sit in its path or
        query), an apprise URL's scheme only (its tokens are its "host" and path)."""
        if self.destination.startswith("email:"):
            return self.destination
        scheme, _, rest = self.destination.partition("://")
        if scheme in ("http", "https"):
            return f"{scheme}://{rest.split('/', 1)[0].rsplit('@', 1)[-1]}/…"
        return f"{scheme}://…"
