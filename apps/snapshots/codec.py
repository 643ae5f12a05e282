"""CounterSample <-> JSON, for keeping the last V$ sample between runs (pure)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from apps.targets.rows import CounterSample, SegmentKey


def _key_to_list(key: SegmentKey) -> list[str]:
    return list(key)


def sample_to_json(sample: CounterSample) -> dict[str, Any]:
    return {
        "instance_number": sample.instance_number,
        "startup_at": sample.startup_at.isoformat(),
        "sampled_at": sample.sampled_at.isoformat(),
        "segments": [
            [_key_to_list(key), totals, list(sample.segment_places.get(key, ("", None, None)))]
            for key, totals in sample.segment_totals.items()
        ],
        "sysstat": sample.sysstat_totals,
        "tablespaces": {name: list(values) for name, values in sample.tablespace_totals.items()},
    }


def sample_from_json(payload: dict[str, Any]) -> CounterSample:
    totals: dict[SegmentKey, dict[str, int]] = {}
    places: dict[SegmentKey, tuple[str, int | None, int | None]] = {}
    for key_list, values, place in payload.get("segments", []):
        key = SegmentKey(*key_list)
        totals[key] = {name: int(v) for name, v in values.items()}
        places[key] = (place[0], place[1], place[2])
    return CounterSample(
        instance_number=int(payload["instance_number"]),
        startup_at=dt.datetime.fromisoformat(payload["startup_at"]),
        sampled_at=dt.datetime.fromisoformat(payload["sampled_at"]),
        segment_totals=totals,
        segment_places=places,
        sysstat_totals={k: int(v) for k, v in payload.get("sysstat", {}).items()},
        tablespace_totals={k: (int(v[0]), int(v[1]), v[2]) for k, v in payload.get("tablespaces", {}).items()},
    )
