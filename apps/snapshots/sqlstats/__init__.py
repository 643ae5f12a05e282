"""Which SQL drives a segment: stored per target, segment and window (models), written from a Collection
(services), read for the segment page (selectors). The judgement of tuning against moving is
apps.tiering.moves.sqldrive."""
