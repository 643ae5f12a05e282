"""A target's recommendation pages: the target page (its overview), the recommendations page and its CSV,
Recompute and the refresh status the pages follow.

Modules by concern: ``views`` (the pages), ``urls`` (their routes, in the dashboard namespace), ``table`` (what
the pages share: their head, the run's figures, the filtered rows, one page of the segment table), ``forms``
(the table's filters, sort and page size), ``selectors`` (the pages' reads: filters, sorts, totals, filter
choices, cost by tier, residency, flash cache), ``keyset`` (paging by keyset with signed cursors),
``run_figures`` (a run's figures, computed once and stored), ``hidden`` (the Oracle-maintained rows folded away).
"""
