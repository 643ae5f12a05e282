"""Local TCP listeners that misbehave like a broken Oracle listener, for tests with the real driver.

HungListener accepts connections and never answers (a hung listener, or a firewall that lets the
SYN through and drops what follows). It closes what it accepted after ``hold_s`` so that code
without a time limit fails late instead of hanging the suite for ever.
"""

from __future__ import annotations

import socket
import threading
from types import TracebackType


class HungListener:
    def __init__(self, *, hold_s: float = 30.0) -> None:
        self._server = socket.create_server(("127.0.0.1", 0), backlog=16)
        self.port: int = self._server.getsockname()[1]
        self.dsn = f"127.0.0.1:{self.port}/HUNG"
        self._hold_s = hold_s
        self._accepted: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="hung-listener", daemon=True)

    def _serve(self) -> None:
        self._server.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._accepted.append(conn)
        # Past hold_s (or on exit) everything accepted is closed: a client without limits fails late.
        for conn in self._accepted:
            conn.close()

    def accepted(self) -> int:
        return len(self._accepted)

    def peer_closed(self) -> bool:
        """True when every accepted connection was closed by the client (recv returns b'')."""
        for conn in self._accepted:
            conn.settimeout(1.0)
            try:
                while conn.recv(65536):
                    pass
            except (TimeoutError, OSError):
                return False
        return True

    def __enter__(self) -> HungListener:
        self._thread.start()
        self._stop_timer = threading.Timer(self._hold_s, self._stop.set)
        self._stop_timer.daemon = True
        self._stop_timer.start()
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self._stop_timer.cancel()
        self._stop.set()
        self._thread.join(timeout=5)
        self._server.close()


def closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.create_server(("127.0.0.1", 0)) as sock:
        return sock.getsockname()[1]
