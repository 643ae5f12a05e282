"""A segment's page (/targets/<name>/segments/<id>/): its IO and size over time, residency, recommendations and
why, its partitions, before and after a move, and the SQL driving it.

Modules by concern: ``views`` (the page), ``urls`` (its route, in the dashboard namespace), ``body`` (what the
page shows below its head), ``selectors`` (the segment's series and recommendation history), ``partitions`` (a
partitioned table's heat by age, a composite table's subpartitions), ``sql_card`` (the statements driving it).
"""
