"""apps.core.db: reading a JSON field's key without the reference cycle Django's "field__key" path leaves."""

from __future__ import annotations

import gc

import pytest

from apps.core.db import json_key
from apps.targets.models import Target

pytestmark = pytest.mark.django_db


def test_a_json_key_reads_what_field_double_underscore_key_reads_and_leaves_nothing_for_the_collector():
    target = Target.objects.create(name="json-key", mode=Target.Mode.REPORT,
                                   capabilities={"block_size_bytes": 16384, "rac": True})
    rows = Target.objects.filter(pk=target.pk)
    list(rows.annotate(size=json_key("capabilities", "block_size_bytes")).values_list("size", flat=True))  # warm
    gc.collect()
    gc.disable()
    try:
        read = list(rows.annotate(size=json_key("capabilities", "block_size_bytes"), rac=json_key("capabilities", "rac"),
                                  missing=json_key("capabilities", "nope")).values_list("size", "rac", "missing"))
        left = gc.collect()
    finally:
        gc.enable()
    assert read == list(rows.values_list("capabilities__block_size_bytes", "capabilities__rac", "capabilities__nope"))
    assert read == [(16384, True, None)]
    assert left == 0
