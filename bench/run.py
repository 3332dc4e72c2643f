"""`make bench`: median timings of the engine and of in-process requests (a measurement, not a test).

Prints one line per measurement: the median and the 90th percentile of many runs, in microseconds.
"""

from __future__ import annotations

import copy
import dataclasses
import gc
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

from marshmallow import Schema  # noqa: E402

from adjudicator import Action, adjudicate, list_options, load_snapshot, view  # noqa: E402
from adjudicator.core.vocabulary import ActionType  # noqa: E402
from adjudicator.scenarios import DEFAULT_DIRECTORY, _expand_snapshot  # noqa: E402
from api import create_app  # noqa: E402
from api.resources.rulings.schemas import REQUEST as RULING_REQUEST  # noqa: E402


def shared(name: str) -> dict[str, Any]:
    expanded: dict[str, Any] = _expand_snapshot({"$extends": name}, DEFAULT_DIRECTORY, Path(name))
    return copy.deepcopy(expanded)


def measure(label: str, func: Callable[[], object], runs: int = 2000) -> None:
    gc.collect()  # start each measurement without garbage left by the previous one
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


def realistic_battle() -> dict[str, Any]:
    """Six factions, 25 force stacks, 30 cards, a locked Arrakeen battle between two of them."""
    factions = ["atreides", "harkonnen", "emperor", "guild", "fremen", "bene-gesserit"]
    places = [
        ("carthag", 10),
        ("tueks-sietch", 4),
        ("sietch-tabr", 13),
        ("habbanya-sietch", 16),
        ("imperial-basin", 9),
        ("false-wall-east", 6),
        ("pasty-mesa", 5),
        ("shield-wall", 7),
        ("plastic-basin", 12),
        ("false-wall-west", 16),
        ("the-great-flat", 14),
        ("funeral-plain", 14),
        ("red-chasm", 6),
        ("south-mesa", 4),
        ("old-gap", 9),
        ("rim-wall-west", 8),
        ("hagga-basin", 12),
        ("wind-pass", 15),
        ("cielago-north", 1),
        ("meridian", 0),
        ("broken-land", 11),
        ("tsimpo", 11),
        ("arsunt", 10),
    ]
    forces = [
        {"faction": "atreides", "territory": "arrakeen", "sector": 9, "regular": 6, "elite": 0},
        {"faction": "harkonnen", "territory": "arrakeen", "sector": 9, "regular": 5, "elite": 0},
    ]
    board = {f: 11 if f in ("atreides", "harkonnen") else 0 for f in factions}
    for i, (territory, sector) in enumerate(places):
        faction = factions[(i + 2) % len(factions)]
        forces.append({"faction": faction, "territory": territory, "sector": sector, "regular": 2, "elite": 0})
        board[faction] += 2
    deck = [
        "crysknife",
        "maula-pistol",
        "slip-tip",
        "stunner",
        "chaumas",
        "chaumurky",
        "ellaca-drug",
        "gom-jabbar",
        "shield#1",
        "shield#2",
        "shield#3",
        "snooper#1",
        "snooper#2",
        "snooper#3",
        "cheap-hero#1",
        "baliset",
        "jubba-cloak",
        "kulon",
        "la-la-la",
        "trip-to-gamont",
        "tleilaxu-ghola",
        "family-atomics",
        "hajr",
        "karama#1",
        "truthtrance#1",
        "weather-control",
    ]
    state = {}
    for i, faction in enumerate(factions):
        state[faction] = {
            "spice": 10 + i,
            "reserves": {"regular": 20 - board[faction], "elite": 0},
            "tanks": {"regular": 0, "elite": 0},
            "hand": deck[i * 4 : i * 4 + 4],
            "traitors": [],
        }
    return {
        "format": "dune-snapshot/1",
        "ruleset": {"expansions": ["ixians-tleilaxu"], "advanced": True, "variants": []},
        "turn": 4,
        "phase": "battle",
        "storm_sector": 2,
        "storm_order": factions,
        "seed": 11,
        "factions": state,
        "forces": forces,
        "advisors": [],
        "board_spice": [],
        "discard": ["lasgun", "karama#2"],
        "battle": {
            "territory": "arrakeen",
            "aggressor": "atreides",
            "defender": "harkonnen",
            "plans": {
                "atreides": {
                    "leader": "duncan-idaho",
                    "dial": 4,
                    "weapon": "poison-blade",
                    "defense": "shield-snooper",
                    "spice": 4,
                },
                "harkonnen": {
                    "leader": "feyd-rautha",
                    "dial": 3,
                    "weapon": "hunter-seeker",
                    "defense": "snooper#4",
                    "spice": 2,
                },
            },
            "traitor_calls": [],
            "poison_tooth_withheld": [],
        },
    }


def main() -> None:
    retention = shared("retention-pending")
    locked = shared("locked-battle")
    snapshot = load_snapshot(retention)
    body = json.dumps(retention).encode()
    print(f"snapshot: retention-pending, {len(body)} bytes of JSON, {len(retention['forces'])} force stacks")

    # In-process requests first, on a fresh heap, as a server worker would run them.
    client = create_app().test_client()
    ruling_body = {"snapshot": locked, "action": {"type": "resolve-battle"}}
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

    measure("engine: load_snapshot (build + consistency checks)", lambda: load_snapshot(retention))
    measure("engine: list_options (moritani-retention)", lambda: list_options(snapshot))
    measure("engine: view for one viewer", lambda: view(snapshot, "atreides"))
    measure(
        "engine: adjudicate (an illegal answer: battle already resolved)",
        lambda: adjudicate(snapshot, Action(ActionType.RESOLVE_BATTLE)),
    )
    ruling_body = {"snapshot": locked, "action": {"type": "resolve-battle"}}
    measure("wire: load of a /v1/rulings body (compiled fast check)", lambda: RULING_REQUEST.load(ruling_body))
    measure("wire: the same body through marshmallow's full load", lambda: Schema.load(RULING_REQUEST, ruling_body))

    battle = realistic_battle()
    battle_snapshot = load_snapshot(battle)
    cards = sum(len(f["hand"]) for f in battle["factions"].values()) + len(battle["discard"]) + 4
    print(
        f"realistic battle: 6 factions, {len(battle['forces'])} force stacks, {cards} cards, "
        f"{len(json.dumps(battle))} bytes of JSON"
    )
    resolve = Action(ActionType.RESOLVE_BATTLE)
    # a fresh memo each run, as for a snapshot loaded by a request (replace costs about 2 µs)
    measure(
        "engine: resolve-battle on a loaded snapshot",
        lambda: adjudicate(dataclasses.replace(battle_snapshot, memo={}), resolve),
    )
    measure("engine: load_snapshot + resolve-battle", lambda: adjudicate(load_snapshot(battle), resolve))
    battle_body = json.dumps({"snapshot": battle, "action": {"type": "resolve-battle"}}).encode()
    measure(
        "http in-process: POST /v1/rulings resolve-battle",
        lambda: client.post("/v1/rulings", data=battle_body, headers=headers),
        500,
    )

    movement = shared("movement-end")
    movement_snapshot = load_snapshot(movement)
    end_movement = Action(ActionType.END_SHIPMENT_MOVEMENT)
    measure(
        "engine: end-shipment-movement (Duke Vidal check, eligible)",
        lambda: adjudicate(movement_snapshot, end_movement),
    )
    captive = load_snapshot({**movement, "duke_vidal": {"status": "captured", "controller": None, "by": "harkonnen"}})
    measure("engine: end-shipment-movement, unresolved (two alternatives)", lambda: adjudicate(captive, end_movement))

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
