"""gunicorn settings for make run (scripts/dev/supervisord.conf): workers die with their master.

A master killed with SIGKILL cannot stop its workers, and they keep the listening
socket: the master supervisord starts next cannot bind the port until they notice
(up to the worker timeout). PR_SET_PDEATHSIG has the kernel send each worker
SIGTERM when its master dies. Under systemd and compose the cgroup/container does
the same, so only make run needs this file.
"""

from __future__ import annotations

import ctypes
import signal
import sys

PR_SET_PDEATHSIG = 1


def post_fork(server, worker):
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
