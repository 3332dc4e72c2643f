"""The Auditor's inspection played through: every answer listed is accepted and ends the battle, the
draw follows the seed alone, and nobody but the payer (and CHOAM, once it looks) learns its cards."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .conftest import base_snapshot

VIEWERS = ("choam", "emperor", "fremen")
READINGS = [
    {},
    {"auditor-payment-scope": "per-card"},
    {"auditor-payment-timing": "after-draw"},
    {"auditor-payment-timing": "after-draw", "auditor-payment-scope": "per-card"},
]


def rule(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/rulings", json=body)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def opened(client: FlaskClient, readings: dict[str, str]) -> dict[str, Any]:
    answer = rule(
        client,
        {"snapshot": base_snapshot("auditor-duel"), "action": {"type": "resolve-battle"}, "interpretations": readings},
    )
    assert answer["status"] == "resolved"
    assert answer["next"]["decision"]["type"] == "audit-payment"
    return answer


@pytest.mark.parametrize("readings", READINGS)
def test_every_option_ends_the_battle_and_sees_what_was_not_paid_for(
    client: FlaskClient, readings: dict[str, str]
) -> None:
    answer = opened(client, readings)
    snapshot = answer["outcome"]["snapshot"]
    for option in answer["next"]["options"]:
        body = {"snapshot": snapshot, "action": option, "interpretations": readings}
        done = rule(client, body)
        assert done["status"] == "resolved", done
        assert rule(client, body) == done  # the same request gives the same answer
        paid = sum(e["amount"] for e in done["outcome"]["events"] if e["type"] == "spice-paid")
        seen = [c for e in done["outcome"]["events"] if e["type"] == "hand-audited" for c in e["cards"]]
        prevented = option.get("count", 0)
        assert paid == prevented
        assert len(seen) == 2 - prevented
        assert not set(seen) & set(option.get("cards") or ())
        assert set(seen) <= {"lasgun", "karama", "baliset"}
        assert done["outcome"]["snapshot"]["battle"] is None


@pytest.mark.parametrize("readings", READINGS)
def test_only_the_payer_sees_the_decision_in_full(client: FlaskClient, readings: dict[str, str]) -> None:
    referee = opened(client, readings)
    drawn = referee["next"]["decision"]["drawn"]
    assert (drawn != []) == (readings.get("auditor-payment-timing") == "after-draw")
    for viewer in VIEWERS:
        body = {
            "snapshot": base_snapshot("auditor-duel"),
            "action": {"type": "resolve-battle"},
            "interpretations": readings,
            "viewer": viewer,
        }
        seen = rule(client, body)
        decision = seen["next"]["decision"]
        assert decision["count"] == 2
        if viewer == "emperor":
            assert decision["drawn"] == drawn
            assert seen["next"]["options"] == referee["next"]["options"]
        else:
            assert "drawn" not in decision
            assert seen["next"]["options"] == []
            for card in ("lasgun", "karama", "baliset"):
                assert card not in str(seen["next"]) and card not in str(seen["outcome"]["snapshot"]["pending"])


def test_the_cards_seen_are_for_choam_alone(client: FlaskClient) -> None:
    answer = opened(client, {})
    snapshot = answer["outcome"]["snapshot"]
    accept = {"type": "accept-audit", "player": "emperor"}
    referee = rule(client, {"snapshot": snapshot, "action": accept})
    [event] = [e for e in referee["outcome"]["events"] if e["type"] == "hand-audited"]
    assert event["visible_to"] == ["choam"] and len(event["cards"]) == 2
    mine = rule(client, {"snapshot": snapshot, "action": accept, "viewer": "emperor"})
    [hidden] = [e for e in mine["outcome"]["events"] if e["type"] == "hand-audited"]
    assert hidden.get("redacted") is True and "cards" not in hidden and hidden["count"] == 2
