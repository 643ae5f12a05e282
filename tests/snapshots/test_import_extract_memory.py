"""`manage.py import_extract` streams an extract's segment statistics into storage: its peak memory does not
grow with the extract (an extract of 10 GB unpacked imports in ≤ 300 MB), measured on a subprocess."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

SINGLE = ROOT / "tests" / "targets" / "extract" / "fixtures" / "single"
PEAK_LIMIT_BYTES = 300 * 1024 * 1024
SNAPSHOTS = 120  # hourly, from snap 101 (the fixture's pack_*.csv rows name snaps 101-103)
SEGMENTS = 2000  # 240,000 seg_stat.csv rows, about 29 MB unpacked: the reader held them all (600 MB)


def big_extract(directory: Path, *, snapshots: int = SNAPSHOTS, segments: int = SEGMENTS) -> int:
    """The ``single`` fixture with ``snapshots`` hourly snapshots of ``segments`` segments each; its size in bytes."""
    shutil.copytree(SINGLE, directory)
    start = dt.datetime(2024, 5, 2, 10)
    stamp = "%Y-%m-%dT%H:%M:%S.000"
    with (directory / "snapshots.csv").open("w") as out:
        out.write("DBID,INSTANCE_NUMBER,SNAP_ID,STARTUP_TIME,BEGIN_INTERVAL_TIME,END_INTERVAL_TIME,SNAP_TZ_OFFSET_MIN,"
                  "ERROR_COUNT,SNAP_FLAG\n")
        for n in range(snapshots):
            begin, end = start + dt.timedelta(hours=n), start + dt.timedelta(hours=n + 1)
            out.write(f'"1234567890","1","{101 + n}","2024-05-01T08:00:00","{begin:{stamp}}","{end:{stamp}}",'
                      '"120","0","0"\n')
    with (directory / "seg_stat.csv").open("w") as out:
        out.write((SINGLE / "seg_stat.csv").read_text().splitlines()[0] + "\n")
        for n in range(snapshots):
            out.writelines(
                f'"1","{101 + n}","APP","T{s:05d}","","TABLE","USERS","{80000 + s}","{80000 + s}","{n + s}","{s}",'
                f'"{n + s + 1}","{s + 1}","0","0","{s % 7}","{10 * s}","{3 * s}","0","{1048576 * (1 + s % 50)}"\n'
                for s in range(segments))
    return sum(path.stat().st_size for path in directory.iterdir())


#: Runs manage.py in this process and, at exit, writes the process's VmHWM (the high-water mark of the memory
#: this program mapped) to the file named by argv[1]. The rusage ru_maxrss of a child is no measure: Linux keeps
#: the largest RSS across exec, so a child forked from a pytest process that has grown to 350 MB reports 350 MB
#: whatever the command does; VmHWM belongs to the address space exec made.
_MEASURED = """
import atexit, runpy, sys
out = sys.argv[1]
def peak():
    with open("/proc/self/status") as status, open(out, "w") as written:
        written.write(next(line for line in status if line.startswith("VmHWM:")).split()[1])
atexit.register(peak)
sys.argv = ["manage.py", *sys.argv[2:]]
runpy.run_path("manage.py", run_name="__main__")
"""


def _import_peak_rss(path: Path, target: str) -> tuple[subprocess.CompletedProcess, int]:
    """Run the command as a DBA does, in its own process; its exit and its peak resident memory (bytes)."""
    from django.db import connection

    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
    peak_file = path.parent / "peak_kib"
    done = subprocess.run([sys.executable, "-c", _MEASURED, str(peak_file), "import_extract", str(path), "--target",
                           target], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    return done, int(peak_file.read_text()) * 1024


@pytest.mark.django_db(transaction=True)
def test_a_large_extract_imports_in_bounded_memory(tmp_path, seed_tiers):
    from apps.snapshots.models import SegmentStat, Snapshot
    from apps.targets.models import Target

    size = big_extract(tmp_path / "extract")
    target = Target.objects.create(name="big", mode=Target.Mode.REPORT)

    done, peak = _import_peak_rss(tmp_path / "extract", "big")

    assert done.returncode == 0, done.stderr
    assert size > 25 * 1024 * 1024
    assert f"{SNAPSHOTS} snapshot(s)" in done.stdout
    assert Snapshot.objects.filter(target=target).count() == SNAPSHOTS
    assert SegmentStat.objects.filter(snapshot__target=target).count() == SNAPSHOTS * SEGMENTS
    assert peak <= PEAK_LIMIT_BYTES, f"peak RSS {peak / 2**20:.0f} MB for {size / 2**20:.0f} MB unpacked"
