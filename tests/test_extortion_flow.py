"""Extortion driven end to end through HTTP: reveal, the Mentat Pause, every payer declining, the
placement of the recovered token, and the turn's end, each answer's snapshot fed back in; bribe spice
waiting through the payment window; and the bribe order asked of public facts alone."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from .conftest import base_snapshot

ORDER = {"extortion-mentat-order": "recovery-first"}


def _spice(snapshot: dict[str, Any]) -> int:
    waiting = (
        snapshot["extortion"]["credit"] if snapshot.get("extortion") and not snapshot["extortion"]["collected"] else 0
    )
    return sum(f["spice"] for f in snapshot["factions"].values()) + waiting


def _tokens(snapshot: dict[str, Any]) -> list[str]:
    terror = snapshot["terror"]
    kinds = [t["kind"] for t in (*terror["supply"], *terror["placed"], *terror.get("out_of_play", []))]
    return sorted(kinds + (["extortion"] if snapshot.get("extortion") else []))


def test_extortion_from_reveal_to_the_next_turn(client: FlaskClient) -> None:
    def rule(current: dict[str, Any], action: dict[str, Any], viewer: str | None = None) -> dict[str, Any]:
        body = {"snapshot": current, "action": action, "interpretations": ORDER}
        if viewer is not None:
            body["viewer"] = viewer
        answer: dict[str, Any] = client.post("/v1/rulings", json=body).get_json()
        assert answer["status"] == "resolved", answer.get("violations")
        return answer

    snapshot = base_snapshot("extortion-placed")
    tokens = _tokens(snapshot)
    start_spice = _spice(snapshot)

    answer = rule(
        snapshot, {"type": "reveal-extortion", "player": "moritani", "territory": "carthag", "entrant": "atreides"}
    )
    revealed = answer["outcome"]["snapshot"]
    assert _spice(revealed) == start_spice + 5  # from the bank, waiting in front of the shield
    assert revealed["factions"]["moritani"]["spice"] == snapshot["factions"]["moritani"]["spice"]
    assert _tokens(revealed) == tokens

    revealed["phase"] = "mentat-pause"  # the turn goes on to its Mentat Pause
    answer = rule(revealed, {"type": "start-mentat-pause"})
    current = answer["outcome"]["snapshot"]
    assert current["factions"]["moritani"]["spice"] == snapshot["factions"]["moritani"]["spice"] + 5
    assert _spice(current) == start_spice + 5

    asked = []
    while answer["next"]["decision"]["type"] == "extortion-payment":
        payer = answer["next"]["decision"]["player"]
        asked.append(payer)
        answer = rule(current, {"type": "decline-extortion", "player": payer})
        current = answer["outcome"]["snapshot"]
        assert _spice(current) == start_spice + 5  # nothing paid twice, nothing paid at all
    assert asked == ["atreides", "harkonnen", "ecaz"]
    assert "extortion" not in current and _tokens(current) == tokens
    assert "terror-6" not in {t["id"] for t in current["terror"]["supply"]}

    decision = answer["next"]["decision"]
    assert decision["type"] == "terror-placement"
    extortion = next(t["id"] for t in current["terror"]["supply"] if t["kind"] == "extortion")
    answer = rule(
        current, {"type": "place-terror-token", "player": "moritani", "token": extortion, "territory": "carthag"}
    )
    current = answer["outcome"]["snapshot"]
    assert current["pending"] is None and current["mentat"] == {"steps": [], "order": "recovery-first"}
    view = client.post("/v1/views", json={"snapshot": current, "viewer": "atreides"}).get_json()["snapshot"]
    assert view["terror"]["placed"] == [{"id": extortion, "kind": None, "territory": "carthag"}]

    answer = rule(current, {"type": "end-turn"})
    assert "mentat" not in answer["outcome"]["snapshot"] and _tokens(answer["outcome"]["snapshot"]) == tokens


def _waiting_bribes(snapshot: dict[str, Any]) -> int:
    return sum(f.get("bribe_spice", 0) for f in snapshot["factions"].values())


def test_bribes_wait_through_a_payment_first_window_and_are_collected_once(client: FlaskClient) -> None:
    readings = {**ORDER, "extortion-bribe-order": "payment-first"}

    def rule(current: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        body = {"snapshot": current, "action": action, "interpretations": readings}
        answer: dict[str, Any] = client.post("/v1/rulings", json=body).get_json()
        assert answer["status"] == "resolved", answer.get("violations")
        return answer

    snapshot = base_snapshot("extortion-mentat")
    snapshot["factions"]["atreides"].update(spice=1, bribe_spice=2)
    snapshot["factions"]["ecaz"]["bribe_spice"] = 4
    total = _spice(snapshot) + _waiting_bribes(snapshot)

    answer = rule(snapshot, {"type": "start-mentat-pause"})
    current = answer["outcome"]["snapshot"]
    assert _waiting_bribes(current) == 6 and _spice(current) + 6 == total
    collected = []
    while answer["next"]["decision"]["type"] == "extortion-payment":
        payer = answer["next"]["decision"]["player"]
        if payer == "atreides":  # 1 spice behind the shield: its waiting bribe cannot pay
            assert answer["next"]["options"] == [{"type": "decline-extortion", "player": "atreides"}]
        answer = rule(current, {"type": "decline-extortion", "player": payer})
        current = answer["outcome"]["snapshot"]
        collected += [e for e in answer["outcome"]["events"] if e["rule"] == "bribes.collect"]
        assert _spice(current) + _waiting_bribes(current) == total  # nothing created, nothing lost
    assert [(e["faction"], e["amount"]) for e in collected] == [("atreides", 2), ("ecaz", 4)]
    assert _waiting_bribes(current) == 0 and answer["next"]["decision"]["type"] == "terror-placement"


def test_the_bribe_order_arises_whatever_the_payer_holds_behind_its_shield(client: FlaskClient) -> None:
    # another faction must get the very same answer whether the payer could pay without its bribe or not
    answers = set()
    for held in (0, 1, 2, 3, 10):
        snapshot = base_snapshot("extortion-mentat")
        snapshot["factions"]["atreides"].update(spice=held, bribe_spice=1)
        body = {"snapshot": snapshot, "action": {"type": "start-mentat-pause"}, "interpretations": ORDER}
        answer = client.post("/v1/rulings", json={**body, "viewer": "harkonnen"}).get_json()
        assert answer["status"] == "unresolved"
        answers.add(json.dumps(answer, sort_keys=True))
    assert len(answers) == 1
