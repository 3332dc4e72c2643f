"""Fair turns between the connections of one gevent worker.

A kept-alive connection whose client sends its next request at once never waits on its next read,
so its greenlet never yields and the worker's other connections starve: `make soak` measured a p99
of about 330 ms at 8 connections on 2 workers (against 6 ms with sync workers). So after each
request the greenlet waits until the event loop is idle, letting every other connection's pending
read run first, and requests are computed one at a time per worker in arrival order (rulings are
CPU-bound and gain nothing from interleaving). The gate is taken once the body has been read
(api/body.py), so a slow sender never holds it. Outside gevent (sync workers, the test client) both
are no-ops.
"""

from __future__ import annotations

import sys
from collections import deque
from typing import Any


def _under_gevent() -> bool:
    if "gevent" not in sys.modules:
        return False
    from gevent import monkey

    return bool(monkey.is_module_patched("socket"))


class ArrivalOrderGate:
    """A lock handed to its waiters in the order they asked for it."""

    def __init__(self) -> None:
        self._held = False
        self._waiting: deque[Any] = deque()

    def acquire(self) -> None:
        if not self._held:
            self._held = True
            return
        from gevent.event import Event

        turn = Event()
        self._waiting.append(turn)
        turn.wait()  # the releaser hands the gate over: it stays held

    def release(self) -> None:
        if self._waiting:
            self._waiting.popleft().set()
        else:
            self._held = False


GATE = ArrivalOrderGate()
ENVIRON_KEY = "dune.arrival-order"


def enter(environ: dict[str, Any]) -> None:
    if _under_gevent() and not environ.get(ENVIRON_KEY):
        GATE.acquire()
        environ[ENVIRON_KEY] = True


def leave(environ: dict[str, Any]) -> None:
    if environ.pop(ENVIRON_KEY, False):
        GATE.release()
        import gevent

        # Let the other connections' reads run before this one reads its next request: on a kept-alive
        # connection whose client answers at once, the next read never waits, so it never yields.
        gevent.idle()
