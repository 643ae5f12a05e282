"""The records of a refresh's decision (apps.tiering.recommendations.decision_records) and the columns the store writes from them."""

from __future__ import annotations

import dataclasses
import datetime as dt

import numpy as np

from apps.tiering import rules
from apps.tiering.models import RecommendationRun
from apps.tiering.recommendations.decision_records import (
    Coded,
    Recommendations,
    RunFigures,
    SegmentArrays,
    WindowColumns,
)
from apps.tiering.recommendations.services import (
    RECOMMENDATION_COLUMNS,
    SEGMENT_ARRAY_COLUMNS,
    recommendation_columns_data,
)


def test_a_recommendation_has_a_field_for_every_column_of_the_model_but_its_run():
    fields = {field.name for field in dataclasses.fields(Recommendations)} - {"run"}
    assert fields == {column.name for column in RECOMMENDATION_COLUMNS} - {"run_id"}


def test_the_run_figures_are_fields_of_the_run():
    run_fields = {field.name for field in RecommendationRun._meta.concrete_fields}
    assert {field.name for field in dataclasses.fields(RunFigures)} <= run_fields


def test_the_segments_query_reads_every_field_of_the_segment_arrays_with_its_dtype():
    assert [name for name, _ in SEGMENT_ARRAY_COLUMNS] == [field.name for field in dataclasses.fields(SegmentArrays)]
    assert dict(SEGMENT_ARRAY_COLUMNS)["partition_position"] == "int4"
    assert dict(SEGMENT_ARRAY_COLUMNS)["latency_ms"] == "float8"


def test_segments_re_ordered_keep_every_column_together():
    n = 3
    arrays = {field.name: np.zeros(n, dtype=np.int64) for field in dataclasses.fields(SegmentArrays)}
    segments = SegmentArrays(**{**arrays, "segment_id": np.array([30, 10, 20]), "tier_id": np.array([3, 1, 2])})

    ordered = segments.take(np.argsort(segments.segment_id))

    assert ordered.segment_id.tolist() == [10, 20, 30] and ordered.tier_id.tolist() == [1, 2, 3]
    assert len(ordered) == 3 and segments.segment_id.tolist() == [30, 10, 20]


def test_a_window_without_activity_is_zeros_of_each_figure_s_dtype():
    window = WindowColumns.zeros(2, {"read_requests": np.float64})

    assert window.read_requests.dtype == np.float64 and window.write_requests.dtype == np.int64
    assert window.present.dtype == bool and not window.present.any() and window.iops.tolist() == [0.0, 0.0]


def _recommendations(**values) -> Recommendations:
    n = 2
    columns = {}
    for field in dataclasses.fields(Recommendations):
        if field.name == "run":
            columns["run"] = RunFigures(dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc), 7, dt.date(2026, 1, 1),
                                        dt.date(2026, 1, 7), "p95", False)
        elif field.name in ("flash_cache", "action", "move_group"):
            columns[field.name] = Coded(np.zeros(n, dtype=np.int64), [""])
        else:
            columns[field.name] = np.zeros(n, dtype=np.float64 if "Floats" in str(field.type) else np.int64)
    return Recommendations(**{**columns, **values})


def test_the_store_writes_null_for_unknowns_by_the_model_s_nullable_columns():
    columns = _recommendations(size_bytes=np.array([-1, 5]), current_tier_id=np.array([2, -1]),
                               findings=np.array([0, 3]), cost_now_usd=np.array([np.nan, 1234.0]),
                               action=Coded(np.array([0, 1]), rules.ACTIONS))

    data = {name: (pg_type, values, nulls) for name, pg_type, values, nulls in
            recommendation_columns_data(columns, run_id=41)}

    assert data["run_id"][1].tolist() == [41, 41] and data["run_id"][2] is None
    assert data["size_bytes"][2].tolist() == [True, False]
    assert data["current_tier_id"][2].tolist() == [False, True]
    assert data["findings"][2] is None and data["findings"][0] == "int4"  # never NULL
    assert data["cost_now_usd"][0] == "int8" and data["cost_now_usd"][1].tolist()[1] == 1234
    assert data["cost_now_usd"][2].tolist() == [True, False]
    assert data["action"][1] == (columns.action.codes, rules.ACTIONS)
    assert set(data) == {column.column for column in RECOMMENDATION_COLUMNS}
