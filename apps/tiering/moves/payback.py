"""The one-off cost of a move and whether its saving pays it back: duration, redo, money, payback days.

A move (ALTER TABLE ... MOVE, ALTER INDEX ... REBUILD, a LOB's MOVE) reads the
whole segment from its current tier and writes it to the new one. What it costs,
per segment, for many segments at once (numpy arrays, one element a segment):

* **Duration** = size / read throughput of the current tier + size / write
  throughput of the new one (``Tier.throughput_mb_s``, MB = 2**20 bytes). A
  serial move reads a batch of blocks, then writes it: the two add up. A parallel
  move is faster; this is the estimate for the statement as tierscope writes it
  (no PARALLEL clause). A tier whose throughput is unknown makes the duration
  unknown (NaN), never 0.
* **Redo** ≈ the segment's size. A move is LOGGING unless the segment (or the
  statement) says NOLOGGING, and LOGGING is the default: "If you specify
  LOGGING, then the creation of a database object ... will be logged in the redo
  log file" (Oracle Database SQL Language Reference 11g R2, E41084,
  logging_clause, which lists "Moving a table (using ALTER TABLE ... MOVE)"
  among the operations it applies to). NOLOGGING cuts it to "minimal logging
  (to mark new extents INVALID and to record dictionary changes)" (the same
  reference, CREATE TABLESPACE, LOGGING | NOLOGGING), at the
  price of a backup afterwards, and FORCE LOGGING (Data Guard) ignores it. So the
  figure is the LOGGING one: the new segment's blocks, once, a little less for a
  compressed segment and a little more for block overhead.
* **Money** (one-off, USD) = the tier set's DBA cost per move
  (``TierSet.move_cost_usd``) + the IO's cost, and the IO costs **$0**: on owned
  devices (purchase sets) its reads and writes run on devices already paid for
  (they take time, which the duration shows, not money); the cloud volumes of
  the presets (EBS st1/gp3/io2, OCI block volumes) bill GB-months and
  provisioned IOPS or throughput, not requests, so the copy adds nothing to the
  bill beyond the destination's GB, which the saving already counts from the
  next month. Redo is counted in bytes, not priced.
* **Payback** (days) = one-off cost / saving per month × :data:`DAYS_PER_MONTH`;
  none (NaN) when the move saves nothing.

A move is worth making (:func:`worth_moving`) when it saves at least the set's
minimum per month (``TierSet.min_saving_usd_per_month``) and pays back within its
horizon (``TierSet.payback_horizon_months``).

Pure: standard library and numpy only, no Django, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import numpy as np

#: A month as the payback counts it (a year of 365.25 days over 12): 30.4375 days.
DAYS_PER_MONTH = 365.25 / 12
#: The unit of ``Tier.throughput_mb_s``.
MB = 1024**2


@dataclass(frozen=True)
class MovePolicy:
    """A tier set's terms for a move: the DBA's cost per move (USD), the payback horizon (months) and the
    least saving per month (USD) worth a move."""

    dba_cost_usd: Decimal = Decimal(0)
    horizon_months: Decimal = Decimal(3)
    min_saving_usd_per_month: Decimal = Decimal(1)

    def __post_init__(self) -> None:
        for name in ("dba_cost_usd", "horizon_months", "min_saving_usd_per_month"):
            if not Decimal(getattr(self, name)) >= 0:
                raise ValueError(f"MovePolicy.{name} must be >= 0, got {getattr(self, name)!r}")


@dataclass(frozen=True)
class MoveCosts:
    """The one-off cost of each segment's move, one element a segment.

    ``seconds`` NaN: a tier's throughput unknown; ``redo_bytes`` NaN: size
    unknown; ``cost_usd`` one-off USD; ``saving_usd_per_month`` what the move
    saves a month; ``payback_days`` NaN: it never pays back (saves nothing);
    ``worth``: worth making under the policy.
    """

    seconds: np.ndarray
    redo_bytes: np.ndarray
    cost_usd: np.ndarray
    saving_usd_per_month: np.ndarray
    payback_days: np.ndarray
    worth: np.ndarray


def move_seconds(size_bytes: np.ndarray, read_mb_s: np.ndarray, write_mb_s: np.ndarray) -> np.ndarray:
    """Seconds to read ``size_bytes`` at ``read_mb_s`` and write them at ``write_mb_s``; NaN where a
    throughput (or the size) is unknown or not positive.

    >>> move_seconds(np.array([10 * 1024**3]), np.array([40.0]), np.array([100.0])).round(1).tolist()
    [358.4]
    >>> move_seconds(np.array([10 * 1024**3]), np.array([np.nan]), np.array([100.0])).tolist()
    [nan]
    """
    size_mb = np.asarray(size_bytes, dtype=np.float64) / MB
    read, write = (np.asarray(t, dtype=np.float64) for t in (read_mb_s, write_mb_s))
    known = (read > 0) & (write > 0) & (size_mb >= 0)  # NaN compares False
    seconds = np.full(size_mb.shape, np.nan)
    np.divide(size_mb, read, out=seconds, where=known)
    seconds[known] += size_mb[known] / write[known]
    return seconds


def move_redo_bytes(size_bytes: np.ndarray) -> np.ndarray:
    """The redo a LOGGING move writes: about the segment's size (module docstring); NaN where unknown."""
    size = np.asarray(size_bytes, dtype=np.float64)
    return np.where(size >= 0, size, np.nan)


def payback_days(cost_usd: np.ndarray, saving_usd_per_month: np.ndarray) -> np.ndarray:
    """Days the saving takes to repay the one-off cost; NaN where it saves nothing (never pays back).

    >>> payback_days(np.array([50.0, 0.0, 10.0]), np.array([25.0, 3.0, 0.0])).tolist()
    [60.875, 0.0, nan]
    """
    cost, saving = np.asarray(cost_usd, dtype=np.float64), np.asarray(saving_usd_per_month, dtype=np.float64)
    days = np.full(saving.shape, np.nan)
    np.divide(cost * DAYS_PER_MONTH, saving, out=days, where=saving > 0)
    return days


def worth_moving(cost_usd: np.ndarray, saving_usd_per_month: np.ndarray, policy: MovePolicy) -> np.ndarray:
    """True where a move saves something, at least the minimum a month, and pays back within the horizon
    (cost <= saving x horizon months: the payback compared in months, without rounding days).

    >>> worth_moving(np.array([0.0, 0.0, 100.0]), np.array([0.5, 2.0, 20.0]), MovePolicy()).tolist()
    [False, True, False]
    """
    saving = np.asarray(saving_usd_per_month, dtype=np.float64)
    cost = np.asarray(cost_usd, dtype=np.float64)
    return ((saving > 0) & (saving >= float(policy.min_saving_usd_per_month))
            & (cost <= saving * float(policy.horizon_months)))


def move_costs(*, size_bytes: np.ndarray, read_mb_s: np.ndarray, write_mb_s: np.ndarray,
               saving_usd_per_month: np.ndarray, policy: MovePolicy) -> MoveCosts:
    """Every segment's move as :class:`MoveCosts`: the IO priced at $0 and the DBA's cost per move
    (module docstring), so the money is the same for every move of a set.

    >>> costs = move_costs(size_bytes=np.array([2 * 1024**3]), read_mb_s=np.array([40.0]),
    ...                    write_mb_s=np.array([100.0]), saving_usd_per_month=np.array([30.0]),
    ...                    policy=MovePolicy(dba_cost_usd=Decimal(50)))
    >>> costs.seconds.round(1).tolist(), costs.cost_usd.tolist(), costs.payback_days.round(1).tolist()
    ([71.7], [50.0], [50.7])
    """
    saving = np.asarray(saving_usd_per_month, dtype=np.float64)
    cost = np.full(saving.shape, float(policy.dba_cost_usd))  # + $0 of IO: see the module docstring
    return MoveCosts(
        seconds=move_seconds(size_bytes, read_mb_s, write_mb_s), redo_bytes=move_redo_bytes(size_bytes),
        cost_usd=cost, saving_usd_per_month=saving, payback_days=payback_days(cost, saving),
        worth=worth_moving(cost, saving, policy),
    )
