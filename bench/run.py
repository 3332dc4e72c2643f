"""`make bench`: median timings of the engine and of in-process requests (a measurement, not a test).

Prints one line per measurement: the median and the 90th percentile of many runs, in microseconds.
"""

from __future__ import annotations

import copy
import json
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator import Action, adjudicate, list_options, load_snapshot, view  # noqa: E402
from adjudicator.scenarios import DEFAULT_DIRECTORY, _expand_snapshot  # noqa: E402
from adjudicator.vocabulary import ActionType  # noqa: E402
from api import create_app  # noqa: E402
from api.resources.rulings.schemas import REQUEST as RULING_REQUEST  # noqa: E402


def shared(name: str) -> dict[str, Any]:
    expanded: dict[str, Any] = _expand_snapshot({"$extends": name}, DEFAULT_DIRECTORY, Path(name))
    return copy.deepcopy(expanded)


def measure(label: str, func: Callable[[], object], runs: int = 2000) -> None:
    for _ in range(min(200, runs)):  # warm-up
        func()
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        func()
        samples.append(time.perf_counter_ns() - start)
    samples.sort()
    median = statistics.median(samples) / 1000
    p90 = samples[int(len(samples) * 0.9)] / 1000
    print(f"{label:<58} median {median:8.1f} µs   p90 {p90:8.1f} µs")


def main() -> None:
    retention = shared("retention-pending")
    locked = shared("locked-battle")
    snapshot = load_snapshot(retention)
    body = json.dumps(retention).encode()
    print(f"snapshot: retention-pending, {len(body)} bytes of JSON, {len(retention['forces'])} force stacks")

    measure("engine: load_snapshot (build + consistency checks)", lambda: load_snapshot(retention))
    measure("engine: list_options (moritani-retention)", lambda: list_options(snapshot))
    measure("engine: view for one viewer", lambda: view(snapshot, "atreides"))
    measure(
        "engine: adjudicate (not-implemented answer)", lambda: adjudicate(snapshot, Action(ActionType.RESOLVE_BATTLE))
    )
    ruling_body = {"snapshot": locked, "action": {"type": "resolve-battle"}}
    measure("wire: marshmallow load of a /v1/rulings body", lambda: RULING_REQUEST.load(ruling_body))

    client = create_app().test_client()
    options_body = json.dumps({"snapshot": retention}).encode()
    view_body = json.dumps({"snapshot": retention, "viewer": "atreides"}).encode()
    rulings_body = json.dumps(ruling_body).encode()
    headers = {"Content-Type": "application/json"}
    measure(
        "http in-process: POST /v1/options", lambda: client.post("/v1/options", data=options_body, headers=headers), 500
    )
    measure("http in-process: POST /v1/views", lambda: client.post("/v1/views", data=view_body, headers=headers), 500)
    measure(
        "http in-process: POST /v1/rulings", lambda: client.post("/v1/rulings", data=rulings_body, headers=headers), 500
    )
    measure("http in-process: GET /v1/rules", lambda: client.get("/v1/rules"), 500)

    tracemalloc.start()
    for _ in range(200):
        client.post("/v1/views", data=view_body, headers=headers)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"memory: 200 POST /v1/views requests, traced peak {peak / 1024:.0f} KiB, still held {current / 1024:.0f} KiB"
    )


if __name__ == "__main__":
    main()
