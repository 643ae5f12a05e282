"""Reads of the fleet budget: the tiers a budget can be of, its candidates from the current recommendations of
every target that has the tier (one query), and the budget run of the tier remembered last.

Which segments compete, from each target's current recommendation (so that payback, hysteresis, the seed
rules' flash vetoes, movability and unmeasured figures are honoured as the refresh decided them):

* off the tier: those whose recommendation is a move onto it (``move``; never ``place_ahead``: an empty
  partition saves nothing per GB yet);
* on it: every segment, free to leave unless its recommendation holds it (not movable, IO not measured,
  a move back held by hysteresis, an empty partition placed ahead of its month with its table's hot one);
* a segment whose IOPS or size is unknown is never a candidate; it is counted (and on the tier, kept).

A segment's value is its cost on its best other tier of its set minus its cost on the tier
(costmodel.cost_matrix over its stored IOPS and size, pooled as the refresh prices it), per month in its
set's billing basis.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt
from django.db import connection

from apps.core.columns import array_columns
from apps.core.pgcopy import fetch_arrays, fetch_bytes
from apps.targets.models import Target
from apps.tiering import costmodel, rules
from apps.tiering import sql as pg
from apps.tiering.budget.models import ID_DTYPE, BudgetRun
from apps.tiering.budget.outcomes import GB
from apps.tiering.models import RecommendationRun, Tier
from apps.tiering.moves import payback
from apps.tiering.tiers import tier_to_model

_BIT = {code: 1 << rules.FINDING_CODES.index(code) for code in ("held_back", "partition_lifecycle")}
_MOVE = rules.ACTIONS.index(rules.ACTION_MOVE)
_NOT_MOVABLE = rules.ACTIONS.index(rules.ACTION_NOT_MOVABLE)


@dataclasses.dataclass(frozen=True)
class _Rows:
    """apps.tiering.sql.BUDGET_ROWS' columns, in its order: one element per recommendation row."""

    target_id: npt.NDArray[np.int64]
    segment_id: npt.NDArray[np.int64]
    size_bytes: npt.NDArray[np.int64]  # -1: unknown
    iops: npt.NDArray[np.float64]  # NaN: not all measured
    on_tier: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int16]  # an index into rules.ACTIONS
    findings: npt.NDArray[np.int64]
    savings_c: npt.NDArray[np.int64]
    recommended_tier_id: npt.NDArray[np.int64]  # -1: none
    measured: npt.NDArray[np.bool_]
    idle: npt.NDArray[np.bool_]  # no read or write request in the window
    move_cost_c: npt.NDArray[np.int64]  # -1: none


def budget_tier_names() -> list[str]:
    """The tiers a budget can be of: those of the tier sets of the enabled targets, by name."""
    sets = Target.objects.filter(enabled=True).values("tier_set_id")
    return list(Tier.objects.filter(tier_set_id__in=sets).order_by("name").values_list("name", flat=True))


def budget_candidates(*, targets: tuple[Target, ...], tier: Tier, set_tiers: list[Tier], divisor: int,
                      policy: payback.MovePolicy) -> dict[str, np.ndarray]:
    """The candidates' arrays, ordered by target then segment id, with their costs per month and the one-off
    cost (and duration) of their move."""
    params = {"tier": tier.pk, "actions": list(rules.ACTIONS), "current": RecommendationRun.State.CURRENT.value,
              "targets": [t.pk for t in targets], "move": rules.ACTION_MOVE}
    with connection.cursor() as cursor:
        raw = _Rows(**fetch_arrays(cursor.cursor, pg.BUDGET_ROWS, params, array_columns(_Rows)))
    pks = np.array([t.pk for t in targets], dtype=np.int64)
    by_pk = np.argsort(pks)
    target = by_pk[np.searchsorted(pks[by_pk], raw.target_id)]  # each row's index in ``targets``
    order = np.lexsort((raw.segment_id, target))
    raw = _Rows(**{field.name: getattr(raw, field.name)[order] for field in dataclasses.fields(raw)})
    target = target[order]
    known = (raw.size_bytes >= 0) & np.isfinite(raw.iops) & raw.measured
    on_tier, elsewhere, elsewhere_id = _costs(raw, known, tier, set_tiers, divisor)
    moves_rec = raw.action == _MOVE
    holds = ((raw.findings & _BIT["held_back"]) != 0) | (((raw.findings & _BIT["partition_lifecycle"]) != 0)
                                                         & raw.idle)
    may_move = np.where(raw.on_tier, (raw.action != _NOT_MOVABLE) & ~holds,
                        moves_rec & (raw.recommended_tier_id == tier.pk)) & known
    stored = raw.savings_c / 100.0 / divisor
    # A move the recommendation makes keeps its own stored saving (the figure its payback was judged on).
    saving = np.where(moves_rec, stored, on_tier - elsewhere)
    # A move out of the tier (to the best other tier) priced as the refresh prices a move; a move the
    # recommendation makes keeps its own one-off cost too.
    throughput = {t.pk: np.nan if t.throughput_mb_s is None else float(t.throughput_mb_s) for t in set_tiers}
    out = payback.move_costs(
        size_bytes=raw.size_bytes, read_mb_s=np.full(target.size, throughput.get(tier.pk, np.nan)),
        write_mb_s=_lookup(throughput, elsewhere_id),
        saving_usd_per_month=np.nan_to_num(saving), policy=policy)
    recommended_cost = moves_rec & (raw.move_cost_c >= 0)
    return {"target": target, "segment_id": raw.segment_id, "size_bytes": raw.size_bytes,
            "on_tier": raw.on_tier, "may_move": may_move, "cost_on_tier": on_tier, "cost_elsewhere": elsewhere,
            "elsewhere_tier_id": elsewhere_id, "saving": saving, "value": elsewhere - on_tier,
            "move_cost": np.where(recommended_cost, raw.move_cost_c / 100.0, out.cost_usd),
            "move_out_seconds": out.seconds}


def _lookup(by_id: dict[int, float], ids: np.ndarray) -> np.ndarray:
    """``by_id[id]`` for each of ``ids`` (NaN: none), without a Python step per id."""
    keys = np.array(sorted(by_id), dtype=np.int64)
    if not keys.size:
        return np.full(ids.shape, np.nan)
    values = np.array([by_id[key] for key in keys.tolist()], dtype=np.float64)
    at = np.minimum(np.searchsorted(keys, ids), keys.size - 1)
    return np.where(keys[at] == ids, values[at], np.nan)


def _costs(raw: _Rows, known: np.ndarray, tier: Tier, set_tiers: list[Tier],
           divisor: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each known item's cost a month on the tier and on its best other tier of the set (NaN: unknown), and
    that tier's id (-1)."""
    n = raw.segment_id.size
    on_tier, elsewhere = np.full(n, np.nan), np.full(n, np.nan)
    elsewhere_id = np.full(n, -1, dtype=np.int64)
    others = [t for t in set_tiers if t.pk != tier.pk]
    rows = np.flatnonzero(known)
    if not rows.size or not others:
        return on_tier, elsewhere, elsewhere_id
    models = [tier_to_model(t) for t in (tier, *others)]
    costs = costmodel.cost_matrix(models, raw.iops[rows], raw.size_bytes[rows] / GB, pooled=True) / divisor
    best = costs[:, 1:].argmin(axis=1)
    on_tier[rows] = costs[:, 0]
    elsewhere[rows] = costs[np.arange(rows.size), best + 1]
    elsewhere_id[rows] = np.array([t.pk for t in others], dtype=np.int64)[best]
    return on_tier, elsewhere, elsewhere_id


def budget_run_latest(*, tier_id: int) -> BudgetRun | None:
    """The tier's budget run remembered last (its chosen ids left unread: budget_run_chosen reads them)."""
    return (BudgetRun.objects.filter(tier_id=tier_id).defer("chosen_segment_ids").order_by("-made_at", "-id")
            .first())


def budget_run_chosen(*, run: BudgetRun) -> np.ndarray:
    """The segment ids the run placed on the tier, sorted; read as binary (a million ids are 8 MB, which the
    text form would double)."""
    with connection.cursor() as cursor:
        data = fetch_bytes(cursor.cursor, pg.BUDGET_CHOSEN, [run.pk])
    return np.frombuffer(bytes(data or b""), dtype=ID_DTYPE).astype(np.int64)
