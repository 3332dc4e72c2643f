"""The arrival-order gate of api/fairness.py, driven by real gevent greenlets."""

from __future__ import annotations

import gevent

from api.fairness import ENVIRON_KEY, ArrivalOrderGate, enter, leave


def test_the_gate_is_handed_over_in_arrival_order() -> None:
    gate = ArrivalOrderGate()
    served: list[int] = []

    def request(number: int) -> None:
        gate.acquire()
        served.append(number)
        gevent.sleep(0.001)  # while it computes, later requests arrive and queue
        gate.release()

    gate.acquire()  # a request in progress
    waiters = [gevent.spawn(request, n) for n in range(5)]
    gevent.sleep(0.01)
    assert served == []  # nobody passes a held gate
    gate.release()
    gevent.joinall(waiters, timeout=5)
    assert served == [0, 1, 2, 3, 4]


def test_a_released_gate_with_nobody_waiting_is_free() -> None:
    gate = ArrivalOrderGate()
    gate.acquire()
    gate.release()
    finished = gevent.spawn(lambda: (gate.acquire(), gate.release()))
    finished.join(timeout=1)
    assert finished.successful()


def test_outside_gevent_workers_nothing_is_gated() -> None:
    # the test process has no monkey-patched socket: enter and leave leave the request alone
    environ: dict[str, object] = {}
    enter(environ)
    assert ENVIRON_KEY not in environ
    leave(environ)
