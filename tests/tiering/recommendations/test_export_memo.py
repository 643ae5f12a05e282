"""The export's memoized paths (per-month figures worked out once per amount, identifiers quoted once per name)
give the text the unmemoized ones give, over the demo's rows; and a run's folded LOB indexes are found through
an index of their own."""

from __future__ import annotations

from functools import partial

import pytest
from django.db import connection

from apps.tiering.ddl import base
from apps.tiering.recommendations import export
from apps.tiering.recommendations.export import export_csv, export_csv_parts, export_rows
from apps.tiering.recommendations.selectors import recommendation_list


def _unmemoized(monkeypatch) -> None:
    # Every statement builder quotes through base (DdlRequest.quoted, qualified_name): one name to replace.
    monkeypatch.setattr(base, "quote_identifier", base.quote_identifier.__wrapped__)
    monkeypatch.setattr(export, "_per_month_memo", lambda basis: partial(export._per_month, basis=basis))


@pytest.mark.django_db
def test_the_memoized_export_words_the_demo_s_rows_as_the_unmemoized_one(demo_target, collect, monkeypatch):
    collect(demo_target)
    base.quote_identifier.cache_clear()
    memoized = "".join(export_csv_parts(recommendation_list(target_id=demo_target.id), demo_target))
    assert base.quote_identifier.cache_info().hits > 0  # the memo was used
    assert "ALTER " in memoized and "USD" in memoized  # rows with DDL and money, not only keeps

    _unmemoized(monkeypatch)
    plain = "".join(export_csv_parts(recommendation_list(target_id=demo_target.id), demo_target))
    assert memoized == plain
    assert plain == export_csv(export_rows(recommendation_list(target_id=demo_target.id), demo_target))


@pytest.mark.django_db
def test_a_memoized_identifier_still_refuses_a_name_oracle_cannot_have():
    with pytest.raises(base.DdlError, match="double quotation mark"):
        base.quote_identifier('BAD"NAME')
    with pytest.raises(base.DdlError, match="double quotation mark"):
        base.quote_identifier('BAD"NAME')  # an error is not remembered as an answer


@pytest.mark.django_db
def test_a_run_s_folded_lob_indexes_are_indexed_by_run_and_lob():
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, "tiering_recommendation")
    index = constraints["reco_folded_into_idx"]
    assert index["index"] and index["columns"] == ["run_id", "folded_into_id"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'reco_folded_into_idx'")
        assert "WHERE (folded_into_id IS NOT NULL)" in cursor.fetchone()[0]
