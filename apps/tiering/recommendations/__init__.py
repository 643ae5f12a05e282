"""A target's recommendations: the refresh that computes them, the decision it makes, the store, the export.

Modules by concern: ``refreshes`` (the refresh as a task of its own, its record, the reaper), ``services``
(window figures read as arrays, the refresh, the store and its pruning), ``decision`` with
``decision_records``, ``decision_groups`` and ``decision_partitions`` (pure: every segment decided at once as
numpy columns, the grouped payback of ``grouping``, partition skew and lifecycle), ``lobfold`` (a LOB index
counted with its LOB), ``lifecycle`` (a range table's partitions that follow its hot one), ``explain`` (a
stored recommendation's reasons and DDL in words), ``selectors`` (reads for the refresh and the pages),
``readiness`` (whether a target's recommendations are ready, for the command line); the export: ``export``
(one row per segment, a stable header), ``export_read`` (the rows read lean), ``export_cells`` (rows as CSV
text), ``export_models`` and ``export_store`` (a run's export rendered once and stored; the models registered
through apps.tiering.models).
"""
