"""Live Oracle source (python-oracledb Thin mode): awr and nopack modes.

Layout: ``sql/*.sql`` (every statement, one per file; ``pack_*.sql`` need the Diagnostics
Pack), ``queries.py`` (load, bind, run; every ``SQL_*`` and ``fetch_*`` reachable from it),
``queries_history.py`` / ``queries_samples.py`` / ``queries_catalog.py`` (the fetch functions,
mapping rows), ``features.py`` (release and pack decisions), ``connection.py`` (pool per
process, timeouts), ``errors.py`` (driver error -> SourceError), ``source.py`` (:class:`OracleSource`).
"""
