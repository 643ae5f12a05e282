"""The targets page for admins (/manage/targets/): list, add, edit, test the connection, delete.

Modules by concern: ``views`` (the pages), ``urls`` (their routes, in the dashboard namespace), ``forms``
(the target form and the delete confirmation), ``selectors`` (one row per target, its schedule, what
deleting it takes). A target's own pages are apps.dashboard.recommendations' (overview, recommendations) and
apps.dashboard.segment's.
"""
