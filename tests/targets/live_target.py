"""A live target to edit, check or delete: "prod", a nopack database at dbhost1:1521/PROD read as TIERSCOPE."""

from __future__ import annotations

from apps.targets.models import Target


def live_target_create(password: str) -> Target:
    """Target "prod" (nopack mode, dbhost1:1521/PROD, user TIERSCOPE) with ``password`` stored encrypted."""
    target = Target(name="prod", mode=Target.Mode.NOPACK, dsn="dbhost1:1521/PROD", username="TIERSCOPE")
    target.set_password(password)
    target.save()
    return target
