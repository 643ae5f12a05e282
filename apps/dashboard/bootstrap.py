"""First-run set-up: everything `make run` needs in the database, idempotently.

It lives in the last app of the data path because it sets up all of them:
the admin user (core), the tier presets (tiering), the demo target (targets)
with its tablespaces mapped to tiers (tiering), and the beat schedule (snapshots).
"""

from __future__ import annotations

from django.db import transaction

from apps.core.services import bootstrap_admin
from apps.snapshots.services import schedule_install
from apps.targets.models import Target
from apps.targets.services import DEMO_TARGET_NAME, target_ensure_demo
from apps.tiering.tiers import demo_tablespaces_map, tier_presets_install


def demo_ensure() -> list[str]:
    """The demo target with its tablespace → tier mapping."""
    lines = target_ensure_demo()
    demo_tablespaces_map(target=Target.objects.get(name=DEMO_TARGET_NAME))
    return lines


def bootstrap_run() -> list[str]:
    lines: list[str] = []
    with transaction.atomic():
        lines += bootstrap_admin()
        lines += tier_presets_install()
        lines += demo_ensure()
        lines += schedule_install()
    return lines
