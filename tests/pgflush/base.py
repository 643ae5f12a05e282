"""The test settings' database backend: Django's PostgreSQL backend, whose flush deletes rows instead of truncating.

Every transactional test (a live server, a real worker, committed locks) ends with Django's ``flush``, which on
PostgreSQL is one TRUNCATE of every model table. A TRUNCATE gives each table, index and TOAST table a new file
(some 350 here), and took 1.1-1.8 s on this project's schema however few rows the test left; a DELETE of
each table took 0.04-0.09 s. Django's foreign keys on PostgreSQL are DEFERRABLE INITIALLY DEFERRED, so the
tables can be emptied in any order within the flush's transaction. The product never flushes: this is the
backend of config.settings.test only. A flush that resets sequences or cascades to tables outside its list
(``reset_sequences``, ``available_apps``: no test of ours sets them) keeps Django's TRUNCATE.
"""

from __future__ import annotations

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return super().sql_flush(style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        # SET CONSTRAINTS names only deferrable constraints: a non-deferrable key fails the flush loudly.
        return ["SET CONSTRAINTS ALL DEFERRED;",
                *(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};" for table in tables)]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
