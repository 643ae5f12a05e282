"""manage.py calibration: the figures of a file (no database), and --tier storing them on a tier."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from apps.tiering.calibration import FIGURE_KEYS

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "calibration"
# A fresh interpreter whose database and broker point at closed ports: reading a file must not need them.
NO_DATABASE = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SECRET_KEY": "x", "LOG_LEVEL": "WARNING",
               "DATABASE_URL": "postgres://u:p@127.0.0.1:9/none", "REDIS_URL": "redis://127.0.0.1:9/0",
               "TIERSCOPE_ENV_FILE": "/nonexistent", "TIERSCOPE_FERNET_KEY": "A" * 43 + "="}


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("calibration", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def run_cold(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", "calibration", *args], cwd=ROOT, env=NO_DATABASE,
                          capture_output=True, text=True, timeout=120)


class CalibrationCommandTests:
    # No django_db mark: pytest-django fails any query, so these also prove the file path touches no database.
    def test_it_prints_exactly_the_figure_keys_as_json(self):
        out, _ = run(str(SAMPLES / "fio2_pkb_read_write_groups.json"), "--format", "json")

        figures = json.loads(out)
        assert tuple(figures) == FIGURE_KEYS
        assert figures["source"] == "fio" and figures["read_iops"] == 8086.674 and figures["jobs"] == 4

    def test_its_json_says_null_for_what_the_file_does_not_measure(self):
        figures = json.loads(run(str(SAMPLES / "calibrate_io_dbms_output.txt"), "--format", "json")[0])

        assert figures["write_iops"] is None and figures["block_size_bytes"] is None and figures["jobs"] is None

    def test_its_table_names_each_figure_and_when_it_was_measured(self):
        out, _ = run(str(SAMPLES / "orion_19c_simple.txt"))

        lines = dict(line.split(None, 1) for line in out.splitlines())
        assert lines["source"] == "orion" and lines["read_iops"] == "58778.0" and lines["write_iops"] == "—"
        assert lines["measured_at"] == "2021-11-13T18:09:00+00:00"

    def test_a_bad_file_is_one_line_naming_it(self, tmp_path):
        bad = tmp_path / "garbage.json"
        bad.write_bytes(b'{"jobs": [1, ')

        with pytest.raises(CommandError) as raised:
            run(str(bad))

        assert "\n" not in str(raised.value)
        assert str(raised.value).startswith(f"{bad}: not fio JSON")

    def test_it_needs_no_database(self):
        result = run_cold(str(SAMPLES / "fio3_randrw_gtod_reduce.txt"), "--format", "json")

        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["write_iops"] == 56839.645

    def test_storing_with_the_database_away_is_one_line_naming_it_not_a_traceback(self):
        result = run_cold(str(SAMPLES / "calibrate_io_dbms_output.txt"), "--tier", "flash")

        assert result.returncode == 1
        assert result.stderr.splitlines() == [result.stderr.strip()], result.stderr
        assert result.stderr.startswith("calibration: the database at 127.0.0.1:9 (none) did not answer: ")
        assert "Traceback" not in result.stderr

    def test_a_bad_file_exits_non_zero_with_one_line_on_stderr(self, tmp_path):
        bad = tmp_path / "latin1.txt"
        bad.write_bytes("max_iops = 3 µs".encode("latin-1"))

        result = run_cold(str(bad))

        assert result.returncode != 0
        assert result.stdout == ""
        assert result.stderr.strip().splitlines() == [f"CommandError: {bad}: not UTF-8 text (byte 0xb5 at offset 13)"]


@pytest.mark.django_db
class CalibrationStoreCommandTests:
    def test_it_stores_the_measurement_and_sets_the_tiers_figures_through_the_audit_log(self, seed_tiers):
        from apps.core.models import AuditLogEntry
        from apps.tiering.models import Tier

        _, err = run(str(SAMPLES / "fio3_randread_fioplot.json"), "--tier", "flash", "--tier-set", "seed-2009")

        flash = Tier.objects.get(name="flash")
        calibration = flash.calibrations.get()
        # The tier now has what was measured; the row keeps what it had.
        assert (flash.device_iops, flash.read_latency_ms) == (6614.073, 0.135557)
        assert (calibration.nominal_device_iops, calibration.nominal_read_latency_ms) == (30000, 0.2)
        assert (calibration.set_device_iops, calibration.set_read_latency_ms) == (6614.073, 0.135557)
        assert calibration.file_name == "fio3_randread_fioplot.json" and len(calibration.file_sha256) == 64
        assert calibration.measured_at.isoformat() == "2019-08-04T08:39:30+00:00"
        assert calibration.uploaded_by is None
        assert "device IOPS 30,000 → 6,614" in err
        # The tier's change is logged with its old and new values, by the command; the upload as an action.
        change = AuditLogEntry.objects.get(object_pk=str(flash.pk), action=AuditLogEntry.Action.UPDATE)
        assert change.changes_dict["device_iops"] == ["30000.0", "6614.073"]
        assert change.actor_name.startswith("manage.py calibration (os user ")
        action = AuditLogEntry.objects.get(action=AuditLogEntry.Action.ACCESS)
        assert action.additional_data["action"] == "tier calibration"
        assert "tier flash: fio3_randread_fioplot.json (fio" in action.additional_data["detail"]

    def test_a_second_measurement_keeps_the_first_nominal_figures(self, seed_tiers):
        from apps.tiering.models import Tier

        run(str(SAMPLES / "fio3_randread_fioplot.json"), "--tier", "flash")
        run(str(SAMPLES / "orion_19c_simple.txt"), "--tier", "flash")

        flash = Tier.objects.get(name="flash")
        latest = flash.calibrations.first()
        assert latest.source == "orion" and flash.device_iops == 58778.0
        assert (latest.nominal_device_iops, latest.nominal_read_latency_ms) == (30000, 0.2)

    def test_a_missing_direction_leaves_the_nominal_figure_and_says_so(self, seed_tiers):
        from apps.tiering.models import Tier

        _, err = run(str(SAMPLES / "fio3_randrw_gtod_reduce.txt"), "--tier", "fast disk")

        disk = Tier.objects.get(name="fast disk")
        assert disk.read_latency_ms == 7.0  # gtod_reduce: no latency measured
        assert disk.device_iops == round(170075.741 + 56839.645, 3)
        assert "Kept read latency 7 ms (the file measured no read latency)" in err

    def test_a_tier_not_priced_per_device_keeps_its_device_iops(self, seed_tiers):
        from apps.tiering.models import Tier

        _, err = run(str(SAMPLES / "calibrate_io_dbms_output.txt"), "--tier", "EBS gp3")

        gp3 = Tier.objects.get(name="EBS gp3")
        assert gp3.device_iops is None and gp3.read_latency_ms == 10.868
        assert gp3.calibrations.get().set_device_iops is None
        assert "pricing does not use a device's IOPS" in err

    def test_an_unknown_tier_stores_nothing(self, seed_tiers):
        from apps.tiering.models import TierCalibration

        with pytest.raises(CommandError, match="no tier 'flash' in set 'aws-ebs'"):
            run(str(SAMPLES / "fio3_randread_fioplot.json"), "--tier", "flash", "--tier-set", "aws-ebs")

        assert not TierCalibration.objects.exists()
