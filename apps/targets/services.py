"""Writes and operations on targets."""

from __future__ import annotations

from django.db import transaction

from apps.targets.base import Source
from apps.targets.models import TablespaceTier, Target

DEMO_TARGET_NAME = "demo"


def source_for(target: Target) -> Source:
    """The source that reads this target (imported lazily: a worker only loads what it uses)."""
    if target.mode == Target.Mode.DEMO:
        from apps.targets.demo.source import DemoSource

        return DemoSource(seed=target.demo_seed, db_name=target.name.upper()[:8] or "DEMO")
    if target.mode in (Target.Mode.AWR, Target.Mode.NOPACK):
        from apps.targets.oracle.source import OracleSource

        return OracleSource(dsn=target.dsn, user=target.username, password=target.get_password(), mode=target.mode)
    raise ValueError(f"Target {target.name!r} is {target.mode}: it is fed by imports, not collected.")


def target_check(*, target: Target) -> list[str]:
    """What a DBA must fix before this target can be collected (empty = ready)."""
    if not target.is_live:
        return ["report-only target: fed by imports, nothing to connect to"]
    return source_for(target).check()


def target_create(
    *, name: str, mode: str, dsn: str = "", username: str = "", password: str = "", interval_minutes: int = 60
) -> Target:
    """Create a target after validating it like the admin form does."""
    target = Target(name=name, mode=mode, dsn=dsn, username=username, interval_minutes=interval_minutes)
    target.set_password(password)
    target.full_clean()
    if mode in (Target.Mode.AWR, Target.Mode.NOPACK):
        missing = [label for label, value in (("--dsn", dsn), ("--user", username), ("password", password)) if not value]
        if missing:
            from django.core.exceptions import ValidationError

            raise ValidationError(f"A {mode} target needs {', '.join(missing)}.")
    target.save()
    return target


def target_ensure_demo() -> list[str]:
    """The built-in demo target with its tablespace → tier mapping (idempotent)."""
    from apps.targets.demo.schema import DEFAULT_TABLESPACE_TIERS
    from apps.tiering.models import Tier

    with transaction.atomic():
        target, created = Target.objects.get_or_create(
            name=DEMO_TARGET_NAME, defaults={"mode": Target.Mode.DEMO, "interval_minutes": 60}
        )
        # The demo's tablespaces sit on the seed's 2009 tiers (names compared case-insensitively).
        tiers = {tier.name.lower(): tier for tier in Tier.objects.filter(tier_set=target.tier_set)}
        for tablespace, tier_name in DEFAULT_TABLESPACE_TIERS.items():
            if tier_name.lower() in tiers:
                TablespaceTier.objects.get_or_create(
                    target=target, tablespace_name=tablespace, defaults={"tier": tiers[tier_name.lower()]}
                )
    return [f"created demo target {target.name!r}"] if created else []
