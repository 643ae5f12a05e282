"""Column lists derived from a model's _meta and from a record's annotations (apps.core.columns)."""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt
import pytest

from apps.core.columns import array_columns, model_columns
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from apps.tiering.plans.models import PlanStep


def test_a_model_s_columns_are_its_fields_by_attribute_with_the_copy_type_and_nullability():
    columns = {column.name: column for column in model_columns(Recommendation)}

    assert list(columns)[:3] == ["run_id", "segment_id", "iops"]  # a foreign key by its attname, in field order
    assert "pk" not in columns  # the composite primary key has no column of its own
    assert [(columns[name].pg_type, columns[name].null) for name in (
        "segment_id", "iops", "measured", "size_bytes", "cost_now_usd", "findings", "action", "current_tier_id")] == [
        ("int8", False), ("float8", True), ("bool", False), ("int8", True), ("int8", True), ("int4", False),
        ("text", False), ("int8", True)]
    assert columns["current_tier_id"].column == "current_tier_id"


def test_named_fields_come_in_the_order_asked_by_name_or_attname():
    columns = model_columns(PlanStep, ("segment", "plan_id", "ddl"))

    assert [(c.name, c.column, c.pg_type) for c in columns] == [
        ("segment_id", "segment_id", "int8"), ("plan_id", "plan_id", "int8"), ("ddl", "ddl", "text")]


def test_a_name_without_a_column_of_its_own_is_refused_by_name():
    with pytest.raises(ValueError, match=r"targets\.Target\.runs: no column of its own"):
        model_columns(Target, ("name", "runs"))  # the runs' foreign key to the target, seen from the target


def test_a_field_without_a_binary_copy_form_is_refused_by_name():
    with pytest.raises(ValueError, match=r"targets\.Target\.capabilities: database type 'jsonb'"):
        model_columns(Target, ("name", "capabilities"))


@dataclasses.dataclass(frozen=True)
class _Typed:
    ids: npt.NDArray[np.int64]
    share: npt.NDArray[np.float64]
    flag: npt.NDArray[np.bool_]
    code: npt.NDArray[np.int16]


@dataclasses.dataclass(frozen=True)
class _Untyped:
    ids: npt.NDArray[np.int64]
    loose: np.ndarray


def test_a_record_s_columns_come_from_its_dtype_annotations_in_field_order():
    assert array_columns(_Typed) == (("ids", "int8"), ("share", "float8"), ("flag", "bool"), ("code", "int2"))


def test_a_record_field_without_a_dtype_is_refused_by_name():
    with pytest.raises(TypeError, match=r"_Untyped\.loose: annotated"):
        array_columns(_Untyped)
