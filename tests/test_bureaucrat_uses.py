"""A face-up Bureaucrat acts once a phase: its faction's `bureaucrat_uses` records the phase, a second
battle of the same phase finds it spent, and the turn's end clears the record."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from .conftest import base_snapshot


def _post(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/rulings", json=body)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def _mentat_pause_with_uses() -> dict[str, Any]:
    snapshot = base_snapshot("extortion-mentat")
    snapshot["ruleset"]["variants"] = ["leader-skills"]
    snapshot["ruleset"]["expansions"] = ["ixians-tleilaxu", "ecaz-moritani", "choam-richese"]
    snapshot["extortion"] = None
    snapshot["terror"]["out_of_play"] = [{"id": "terror-6", "kind": "extortion"}]
    snapshot["mentat"] = {"steps": []}
    snapshot["factions"]["harkonnen"]["bureaucrat_uses"] = ["battle"]
    return snapshot


def test_the_turn_end_clears_every_bureaucrat_use(client: FlaskClient) -> None:
    answer = _post(client, {"snapshot": _mentat_pause_with_uses(), "action": {"type": "end-turn"}})
    assert answer["status"] == "resolved"
    factions = answer["outcome"]["snapshot"]["factions"]
    assert all("bureaucrat_uses" not in faction for faction in factions.values())


def test_a_use_before_the_turn_end_is_kept(client: FlaskClient) -> None:
    snapshot = _mentat_pause_with_uses()
    snapshot["mentat"] = None
    answer = _post(client, {"snapshot": snapshot, "action": {"type": "start-mentat-pause"}})
    kept = answer["outcome"]["snapshot"]["factions"]["harkonnen"]
    assert kept["bureaucrat_uses"] == ["battle"]
