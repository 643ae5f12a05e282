"""python-oracledb errors -> SourceError (permanent or not, with what to do), on real exceptions."""

from __future__ import annotations

import unittest

from oracledb import errors as oracledb_errors

from apps.targets.base import SourceError
from apps.targets.oracle.errors import error_info, grant_object, source_error_from

from .oracle_errors import dpy, ora

DSN = "db7.example.com:1521/SALES"


def mapped(exc: Exception, **where: object) -> SourceError:
    return source_error_from(exc, dsn=DSN, user="TIERSCOPE", **where)  # type: ignore[arg-type]


class ErrorMappingTests(unittest.TestCase):
    def test_it_reads_real_oracledb_exceptions(self) -> None:
        info = error_info(ora(942, "table or view does not exist"))
        self.assertEqual((info.full_code, info.code, info.message),
                         ("ORA-00942", 942, "ORA-00942: table or view does not exist"))

    def test_it_reports_bad_credentials_as_permanent(self) -> None:
        error = mapped(ora(1017, "invalid username/password; logon denied"))
        self.assertTrue(error.permanent)
        self.assertEqual(error.code, "ORA-01017")
        self.assertIn("TIERSCOPE", str(error))

    def test_it_names_views_and_grants_for_a_missing_privilege(self) -> None:
        for code in (942, 1031):
            with self.subTest(code=code):
                error = mapped(ora(code, "no access"), statement="seg_stat",
                               views=("DBA_HIST_SEG_STAT", "DBA_HIST_SNAPSHOT", "DBA_HIST_SEG_STAT_OBJ"))
                self.assertTrue(error.permanent)
                for named in ("statement seg_stat", "GRANT SELECT ON SYS.DBA_HIST_SEG_STAT TO TIERSCOPE",
                              "GRANT SELECT ON SYS.DBA_HIST_SEG_STAT_OBJ TO TIERSCOPE", "SELECT_CATALOG_ROLE",
                              "scripts/oracle/create_monitor_user.sql"):
                    self.assertIn(named, str(error))

    def test_it_grants_on_the_v_underscore_view_not_the_synonym(self) -> None:
        error = mapped(ora(942, "table or view does not exist"), statement="residency_rac", views=("GV$BH",))
        self.assertIn("GRANT SELECT ON SYS.GV_$BH TO TIERSCOPE", str(error))
        self.assertEqual(grant_object("V$SYSSTAT"), "SYS.V_$SYSSTAT")
        self.assertEqual(grant_object("DBA_SEGMENTS"), "SYS.DBA_SEGMENTS")

    def test_it_reports_unreachable_databases_as_transient(self) -> None:
        cases = {
            "DPY-6005": dpy(oracledb_errors.ERR_CONNECTION_FAILED, connection_id="x"),
            "DPY-6001": dpy(oracledb_errors.ERR_INVALID_SERVICE_NAME, service_name="SALES", host="db7", port=1521),
            "ORA-12541": ora(12541, "TNS:no listener"),
            "ORA-12514": ora(12514, "TNS:listener does not currently know of service requested"),
        }
        for code, exc in cases.items():
            with self.subTest(code=code):
                error = mapped(exc)
                self.assertFalse(error.permanent)
                self.assertEqual(error.code, code)
                self.assertIn(DSN, str(error))

    def test_it_retries_timeouts_and_dropped_connections(self) -> None:
        for exc, code in ((dpy(oracledb_errors.ERR_CALL_TIMEOUT_EXCEEDED, timeout=120000), "DPY-4024"),
                          (dpy(oracledb_errors.ERR_CONNECTION_CLOSED), "DPY-4011"),
                          (ora(3113, "end-of-file on communication channel"), "DPY-4011")):
            with self.subTest(code=code):
                error = mapped(exc, statement="segments")
                self.assertFalse(error.permanent)
                self.assertEqual(error.code, code)

    def test_it_sends_11g_targets_to_the_offline_extract(self) -> None:
        error = mapped(dpy(oracledb_errors.ERR_SERVER_VERSION_NOT_SUPPORTED))
        message = str(error)
        self.assertTrue(error.permanent)
        self.assertEqual(error.code, "DPY-3010")
        self.assertIn("scripts/oracle/tierscope_extract.sql", message)
        self.assertIn("manage.py import_extract", message)
        self.assertIn("12.1", message)

    def test_it_names_the_statement_for_a_missing_column(self) -> None:
        error = mapped(ora(904, '"SS"."CON_DBID": invalid identifier'), statement="seg_stat")
        self.assertTrue(error.permanent)
        self.assertIn("seg_stat", str(error))
        self.assertIn("CON_DBID", str(error))

    def test_it_treats_unknown_errors_as_transient_and_keeps_the_text(self) -> None:
        error = mapped(ora(1555, "snapshot too old"), statement="segments")
        self.assertFalse(error.permanent)
        self.assertIn("ORA-01555", str(error))
        self.assertIn("segments", str(error))


class TimeoutMappingTests(unittest.TestCase):
    def test_it_says_a_silent_listener_accepted_but_did_not_answer(self) -> None:
        from apps.targets.oracle.connection import OracleTimeout
        from apps.targets.oracle.errors import source_error_from_timeout

        error = source_error_from_timeout(OracleTimeout("connect", 20), dsn=DSN, target="sales")
        self.assertFalse(error.permanent)
        self.assertEqual(error.code, "CONNECT-TIMEOUT")
        self.assertIn(f"{DSN} accepted the connection but did not answer within 20 s — listener hung", str(error))

    def test_it_names_the_target_and_the_limit_when_a_run_passes_its_deadline(self) -> None:
        from apps.targets.oracle.connection import OracleTimeout
        from apps.targets.oracle.errors import source_error_from_timeout

        error = source_error_from_timeout(OracleTimeout("run", 600), dsn=DSN, target="sales")
        self.assertFalse(error.permanent)
        self.assertIn("The collection of sales stopped", str(error))
        self.assertIn("whole-run limit of 600 s (COLLECT_RUN_TIMEOUT_S)", str(error))

    def test_it_says_a_refused_connection_is_refused(self) -> None:
        refused = dpy(oracledb_errors.ERR_CONNECTION_FAILED, connection_id="x")
        refused.__cause__ = ConnectionRefusedError(111, "Connection refused")
        error = mapped(refused)
        self.assertFalse(error.permanent)
        self.assertIn(f"{DSN} refused the connection", str(error))
