"""What the single-period and the compare-period readers share once sections are read: refusing a truncated
report unless its Segment Statistics are complete, and one segment per printed key with its figures summed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from apps.targets.awr_report.bounds import SegmentKeyTuple
from apps.targets.awr_report.model import AwrReportError, AwrSegment, SegmentFigure
from apps.targets.awr_report.sections import section_kind


def check_complete(
    titles: Sequence[tuple[str, int]], has_end: bool, *, filename: str, end_line: int
) -> None:
    """Refuse a truncated report unless its Segment Statistics are complete (see module doc)."""
    if has_end:
        return
    if not titles:
        raise AwrReportError(
            "report is truncated: it ends in the report header, before the Segment Statistics",
            filename=filename,
            line=end_line,
        )
    segment_positions = [
        index
        for index, (title, _) in enumerate(titles)
        if section_kind(title) in ("segments", "global_segments", "compare_segments")
    ]
    last_title, last_line = titles[-1]
    if not segment_positions:
        raise AwrReportError(
            f"report is truncated: it ends in section {last_title!r} (from line {last_line}), "
            "before the Segment Statistics",
            filename=filename,
            line=end_line,
        )
    if segment_positions[-1] == len(titles) - 1:
        raise AwrReportError(
            f"report is truncated: it ends inside section {last_title!r} (from line {last_line}) "
            "of the Segment Statistics",
            filename=filename,
            line=end_line,
        )


def merge_segments(
    figures: Iterable[SegmentFigure], uppers: dict[tuple[SegmentKeyTuple, str], int | None] | None = None
) -> tuple[AwrSegment, ...]:
    """One :class:`AwrSegment` per printed key, in order of first appearance; figures summed.

    A sum with an unknown (``#####``) part is unknown: None, never the known part alone; its upper
    bound, when ``uppers`` (bounds.overflow_uppers) gives one, is kept in ``bounds``. A name cut in
    any row is marked cut.
    """
    stats_by_key: dict[SegmentKeyTuple, dict[str, int | None]] = {}
    instances_by_key: dict[SegmentKeyTuple, set[int]] = {}
    cut_by_key: dict[SegmentKeyTuple, set[str]] = {}
    for figure in figures:
        cut_by_key.setdefault(figure.key, set()).update(figure.truncated_fields)
        stats = stats_by_key.setdefault(figure.key, {})
        if figure.statistic not in stats:
            stats[figure.statistic] = figure.value
        else:
            known = stats[figure.statistic]
            stats[figure.statistic] = None if known is None or figure.value is None else known + figure.value
        instances = instances_by_key.setdefault(figure.key, set())
        if figure.instance_number is not None:
            instances.add(figure.instance_number)
    return tuple(
        AwrSegment(
            owner=key[0],
            tablespace_name=key[1],
            object_name=key[2],
            subobject_name=key[3],
            object_type=key[4],
            stats=stats,
            instance_numbers=tuple(sorted(instances_by_key[key])),
            bounds={statistic: (uppers or {}).get((key, statistic)) for statistic, value in stats.items()
                    if value is None},
            truncated_fields=tuple(sorted(cut_by_key[key])),
            container=key[5],
        )
        for key, stats in stats_by_key.items()
    )
