"""The ways a Smuggler's side may take its spice from several piles (question smuggler-several-piles:
smuggler-chooses): every way listed once, each within what the piles hold and totalling the amount,
and an answer accepted exactly when it is one of them."""

from __future__ import annotations

import itertools
from typing import Any

from flask.testing import FlaskClient

from adjudicator.rules.skill_steps import pile_ways

from .conftest import base_snapshot


def _every_way_by_brute_force(piles: dict[int, int], amount: int) -> list[dict[int, int]]:
    sectors = sorted(piles)
    takes = itertools.product(*(range(piles[s] + 1) for s in sectors))
    return [dict(zip(sectors, take, strict=True)) for take in takes if sum(take) == amount]


def test_the_ways_are_every_split_within_the_piles() -> None:
    for piles, amount in (({3: 3, 4: 5}, 6), ({3: 1, 4: 5, 5: 2}, 6), ({0: 4, 17: 4}, 5), ({8: 9, 9: 1, 10: 2}, 2)):
        ways = pile_ways(piles, amount)
        expected = _every_way_by_brute_force(piles, amount)
        assert sorted(map(sorted, (w.items() for w in ways))) == sorted(map(sorted, (w.items() for w in expected)))
        assert len({tuple(sorted(w.items())) for w in ways}) == len(ways)


def test_the_ways_begin_with_the_most_from_the_lowest_sector() -> None:
    assert pile_ways({3: 3, 4: 5}, 6) == [{3: 3, 4: 3}, {3: 2, 4: 4}, {3: 1, 4: 5}]


def _pending() -> dict[str, Any]:
    snapshot = base_snapshot("smuggler-collection-pending")
    snapshot["board_spice"] = [
        {"territory": "false-wall-south", "sector": 3, "amount": 1},
        {"territory": "false-wall-south", "sector": 4, "amount": 6},
    ]
    return snapshot


def test_every_listed_way_is_accepted_and_an_unlisted_map_refused(client: FlaskClient) -> None:
    snapshot = _pending()
    listed = client.post("/v1/options", json={"snapshot": snapshot}).get_json()["options"]
    assert [o["piles"] for o in listed] == [{"3": 1, "4": 5}, {"3": 0, "4": 6}]
    interpretations = {"smuggler-several-piles": "smuggler-chooses"}
    for option in listed:
        body = {"snapshot": snapshot, "action": option, "interpretations": interpretations}
        answer = client.post("/v1/rulings", json=body).get_json()
        assert answer["status"] == "resolved"
        board = {p["sector"]: p["amount"] for p in answer["outcome"]["snapshot"]["board_spice"]}
        assert board == {s: n for s, n in ((3, 1 - option["piles"]["3"]), (4, 6 - option["piles"]["4"])) if n}
    refused = {**listed[0], "piles": {"3": 1, "4": 4}}
    answer = client.post(
        "/v1/rulings", json={"snapshot": snapshot, "action": refused, "interpretations": interpretations}
    ).get_json()
    assert answer["status"] == "illegal"
    assert [v["code"] for v in answer["violations"]] == ["wrong-total"]
