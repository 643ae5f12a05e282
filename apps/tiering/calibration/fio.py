"""fio's JSON output (``fio --output-format=json``), fio 2.x and 3.x.

What we read, per job entry of ``jobs`` (or of ``client_stats`` in client/server mode):

* ``read`` / ``write``: ``iops``; ``bw`` in KiB/s (``bw_bytes`` in bytes/s where fio 3 gives it);
  ``total_ios`` (fio >= 2.2) or else iops x ``runtime`` (ms) for the number of IOs; the completion
  latency ``clat_ns`` (fio 3, nanoseconds) or ``clat`` (fio 2, microseconds). fio 2's ``io_bytes`` is
  in KiB, not bytes, so we never count IOs from it. ``trim`` is not a tier's read or write: ignored.
* ``groupid``: jobs of one group ran at the same time (their IOPS and MB/s add up); groups separated by
  ``stonewall`` ran one after the other. A direction's IOPS are those of the group that did the most of
  that direction (a file with a 1 MiB sequential group and an 8 KiB random group gives the random
  group's IOPS and the sequential group's MB/s, as ORION's "maximum small IOPS" and "maximum large
  MBPS" do). With ``group_reporting`` one entry already sums its group.
* Latency: the mean of the jobs' mean completion latencies, weighted by each job's IOs. A job whose
  latency fio did not measure (``gtod_reduce``, ``disable_clat``: mean 0 or N 0) is left out; when no
  job measured it, the latency is null.
* Block size: ``bs``/``blocksize`` of the job options, else of the global options, of the group the
  IOPS come from; null when absent or when the group's jobs (or the read and write sizes) differ.
* Jobs: the job entries that did IO, each counted ``numjobs`` times when ``group_reporting`` merged them.
* When: ``timestamp`` (seconds since 1970, UTC), else ``time`` (the host's clock, taken as UTC).

A direction with no IOs in any job is null, never 0. Lines before the JSON (fio's warnings, the
command line) and after it are tolerated.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from apps.tiering.calibration.base import (
    MIB,
    CalibrationError,
    CalibrationFigures,
    CalibrationReading,
    finite,
    positive,
    rounded,
    size_bytes,
)

DIRECTIONS = ("read", "write")


@dataclass(frozen=True)
class _Direction:
    """One job's figures in one direction."""

    group: int
    iops: float
    mbps: float | None
    ios: float
    latency_ms: float | None


def looks_like_fio(text: str) -> bool:
    """A JSON object with fio's keys, possibly after some lines of text."""
    return "{" in text and ('"fio version"' in text or '"jobs"' in text or '"client_stats"' in text)


def parse_fio(text: str, *, file_name: str) -> CalibrationReading:
    """The figures of fio's JSON output (see the module docstring for what is read and how)."""
    document = _json_document(text, file_name=file_name)
    global_options = _options(document.get("global options"))
    entries = _job_entries(document, file_name=file_name)
    per_direction: dict[str, list[_Direction]] = {direction: [] for direction in DIRECTIONS}
    jobs = 0
    for index, entry in enumerate(entries):
        options = {**global_options, **_options(entry.get("job options"))}
        groupid = entry.get("groupid")
        group = groupid if isinstance(groupid, int) else index
        measured = [(d, m) for d in DIRECTIONS if (m := _direction(entry.get(d), group=group)) is not None]
        for direction, found in measured:
            per_direction[direction].append(found)
        if measured:
            jobs += _job_count(options)
    if not jobs:
        if any(isinstance(entry.get("mixed"), dict) for entry in entries):
            raise CalibrationError(file_name, "fio reported reads and writes together "
                                              "(unified_rw_reporting); run it again without that option")
        raise CalibrationError(file_name, "fio JSON whose jobs neither read nor wrote")
    figures = CalibrationFigures(
        source="fio",
        read_iops=rounded(_best(per_direction["read"], "iops")),
        write_iops=rounded(_best(per_direction["write"], "iops")),
        read_mbps=rounded(_best(per_direction["read"], "mbps")),
        write_mbps=rounded(_best(per_direction["write"], "mbps")),
        read_latency_ms=rounded(_weighted_latency(per_direction["read"]), 6),
        write_latency_ms=rounded(_weighted_latency(per_direction["write"]), 6),
        block_size_bytes=_block_size(entries, global_options, per_direction),
        jobs=jobs,
    )
    return CalibrationReading(figures=figures, measured_at=_measured_at(document))


def _json_document(text: str, *, file_name: str) -> dict[str, Any]:
    # The JSON starts at the first line that starts with "{"; fio's warnings or a shell prompt may come
    # first, and raw_decode ignores whatever follows the object.
    offset = None
    position = 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("{"):
            offset = position + (len(line) - len(line.lstrip()))
            break
        position += len(line)
    if offset is None:
        raise CalibrationError(file_name, "not fio JSON: no line starts a JSON object")
    try:
        document, _ = json.JSONDecoder().raw_decode(text, offset)
    except json.JSONDecodeError as error:
        raise CalibrationError(file_name, f"not fio JSON: {error.msg} at line {error.lineno} "
                                          f"column {error.colno}") from None
    except RecursionError:
        raise CalibrationError(file_name, "not fio JSON: nested too deeply") from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise CalibrationError(file_name, f"not fio JSON: {error}") from None
    if not isinstance(document, dict):
        raise CalibrationError(file_name, "not fio JSON: the JSON is not an object")
    return document


def _job_entries(document: dict[str, Any], *, file_name: str) -> list[dict[str, Any]]:
    entries = document.get("jobs")
    if entries is None and isinstance(document.get("client_stats"), list):
        # Client/server mode: one entry per client job, plus an "All clients" sum we must not add again.
        entries = [e for e in document["client_stats"]
                   if not (isinstance(e, dict) and e.get("jobname") == "All clients")]
    if not isinstance(entries, list):
        raise CalibrationError(file_name, 'not fio JSON: no "jobs" list')
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise CalibrationError(file_name, f"not fio JSON: job {number} is not an object")
    return entries


def _options(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(key): str(option) for key, option in value.items() if isinstance(option, str | int | float)}


def _direction(section: Any, *, group: int) -> _Direction | None:
    """One job's read or write figures; None when it did no IO in that direction."""
    if not isinstance(section, dict):
        return None
    iops = positive(section.get("iops"))
    if iops is None:
        return None
    bw_bytes, bw_kib = positive(section.get("bw_bytes")), positive(section.get("bw"))
    mbps = bw_bytes / MIB if bw_bytes is not None else (bw_kib / 1024 if bw_kib is not None else None)
    ios = positive(section.get("total_ios"))
    if ios is None:
        runtime_ms = positive(section.get("runtime"))
        ios = iops * runtime_ms / 1000 if runtime_ms is not None else iops
    return _Direction(group=group, iops=iops, mbps=mbps, ios=ios, latency_ms=_latency_ms(section))


def _latency_ms(section: dict[str, Any]) -> float | None:
    for key, per_ms in (("clat_ns", 1e6), ("clat", 1e3)):
        stats = section.get(key)
        if isinstance(stats, dict):
            if "N" in stats and not positive(stats.get("N")):
                return None  # fio counted no latency samples (gtod_reduce)
            mean = positive(stats.get("mean"))
            return mean / per_ms if mean is not None else None
    return None


def _job_count(options: dict[str, str]) -> int:
    reporting = options.get("group_reporting")
    if reporting is None or reporting.strip() == "0":
        return 1
    numjobs = finite(options.get("numjobs"))
    return int(numjobs) if numjobs is not None and numjobs >= 1 else 1


def _group_sums(figures: list[_Direction], attribute: str) -> dict[int, float]:
    sums: dict[int, float] = defaultdict(float)
    for job in figures:
        value = getattr(job, attribute)
        if value is not None:
            sums[job.group] += value
    return sums


def _best(figures: list[_Direction], attribute: str) -> float | None:
    """The group that did most of it: its jobs ran together, so their figures add up."""
    sums = _group_sums(figures, attribute)
    return max(sums.values()) if sums else None


def _best_group(figures: list[_Direction]) -> int | None:
    sums = _group_sums(figures, "iops")
    return max(sums, key=lambda group: sums[group]) if sums else None


def _weighted_latency(figures: list[_Direction]) -> float | None:
    timed = [job for job in figures if job.latency_ms is not None]
    total_ios = sum(job.ios for job in timed)
    if not timed or total_ios <= 0:
        return None
    return sum((job.latency_ms or 0.0) * job.ios for job in timed) / total_ios


def _block_size(entries: list[dict[str, Any]], global_options: dict[str, str],
                per_direction: dict[str, list[_Direction]]) -> int | None:
    """The block size the IOPS were measured with: of the reads' best group, else the writes'."""
    group = _best_group(per_direction["read"])
    if group is None:
        group = _best_group(per_direction["write"])
    sizes = set()
    for index, entry in enumerate(entries):
        entry_group = entry.get("groupid") if isinstance(entry.get("groupid"), int) else index
        if entry_group != group:
            continue
        options = {**global_options, **_options(entry.get("job options"))}
        stated = options.get("bs") or options.get("blocksize")
        sizes.add(size_bytes(stated) if stated else None)
    return sizes.pop() if len(sizes) == 1 else None


def _measured_at(document: dict[str, Any]) -> dt.datetime | None:
    timestamp = finite(document.get("timestamp"))
    # Between 1990 and 2100: anything else is not a run's date (and would overflow datetime).
    if timestamp is not None and 631152000 <= timestamp <= 4102444800:
        return dt.datetime.fromtimestamp(timestamp, tz=dt.UTC)
    text = document.get("time")
    if isinstance(text, str):
        try:
            return dt.datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y").replace(tzinfo=dt.UTC)
        except ValueError:
            return None
    return None
