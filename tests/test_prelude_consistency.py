"""A decision open before a battle's plans belongs to the step at the head of `battle.prelude`.

Every decision before the plans (a face-up Mentat's question and its answer, the Voice, Prescience,
its answer, the Karama windows on either and on the later powers) is sent with every shape of
`battle.prelude` (absent, empty, each ordered choice of its steps, a repeated step) and answered with
each of its actions: no request gets a 5xx, a prelude whose head is not the decision's step is refused
at `/snapshot/battle/prelude`, and one whose head is its step is never refused there. The working
state ends the step it is told, and only that one.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator import load_snapshot
from adjudicator.rules.state import NextSnapshot

from .conftest import base_snapshot

STEPS = ("mentat-question", "voice", "prescience", "battle-karama")
VOICE = {"player": "bene-gesserit", "target": "atreides", "command": "play", "subject": "poison-weapon"}
ASKED = {"player": "atreides", "target": "harkonnen", "element": "weapon", "answer": None}
MENTAT_ASKED = {"player": "atreides", "target": "harkonnen", "weapon": "chaumas", "answered": False}

# decision -> (its step, the battle's records it needs, the decision, its answers)
DECISIONS: dict[str, tuple[str, dict[str, Any], dict[str, Any], list[dict[str, Any]]]] = {
    "mentat-question": (
        "mentat-question",
        {},
        {"type": "mentat-question", "player": "atreides", "territory": "arrakeen", "opponent": "harkonnen"},
        [
            {"type": "decline-mentat", "player": "atreides"},
            {"type": "ask-mentat", "player": "atreides", "weapon": "lasgun"},
        ],
    ),
    "mentat-answer": (
        "mentat-question",
        {"mentat": [MENTAT_ASKED]},
        {
            "type": "mentat-answer",
            "player": "harkonnen",
            "territory": "arrakeen",
            "asker": "atreides",
            "weapon": "chaumas",
        },
        [{"type": "show-mentat-card", "player": "harkonnen", "card": "chaumas"}],
    ),
    "voice": (
        "voice",
        {},
        {"type": "voice", "player": "bene-gesserit", "territory": "arrakeen", "opponent": "atreides"},
        [
            {"type": "decline-voice", "player": "bene-gesserit"},
            {"type": "use-voice", "player": "bene-gesserit", "command": "play", "subject": "lasgun"},
        ],
    ),
    "prescience": (
        "prescience",
        {},
        {"type": "prescience", "player": "atreides", "territory": "arrakeen", "opponent": "harkonnen"},
        [
            {"type": "decline-prescience", "player": "atreides"},
            {"type": "use-prescience", "player": "atreides", "element": "dial"},
        ],
    ),
    "prescience-answer": (
        "prescience",
        {"prescience": ASKED},
        {"type": "prescience-answer", "player": "harkonnen", "territory": "arrakeen", "owner": "atreides"},
        [{"type": "answer-prescience", "player": "harkonnen", "weapon": None}],
    ),
    "window-on-voice": (
        "voice",
        {"voice": VOICE},
        {
            "type": "battle-karama",
            "player": "emperor",
            "owner": "bene-gesserit",
            "power": "voice",
            "responders": [],
            "eligible": ["karama"],
        },
        [
            {"type": "karama-pass", "player": "emperor"},
            {"type": "karama-cancel", "player": "emperor", "card": "karama"},
        ],
    ),
    "window-on-prescience": (
        "prescience",
        {"prescience": ASKED},
        {
            "type": "battle-karama",
            "player": "emperor",
            "owner": "atreides",
            "power": "prescience",
            "responders": [],
            "eligible": ["karama"],
        },
        [
            {"type": "karama-pass", "player": "emperor"},
            {"type": "karama-cancel", "player": "emperor", "card": "karama"},
        ],
    ),
    "later-powers-window": (
        "battle-karama",
        {},
        {"type": "battle-karama", "player": "emperor", "owner": None, "power": None, "responders": [], "eligible": []},
        [{"type": "karama-pass", "player": "emperor"}],
    ),
}


def _preludes() -> list[list[str] | None]:
    """None (the key absent), empty, every ordered choice of the steps, and a step twice."""
    shapes: list[list[str] | None] = [None, []]
    for size in (1, 2, 3, 4):
        shapes += [list(p) for p in itertools.permutations(STEPS, size)]
    return [*shapes, ["voice", "voice"], ["prescience", "prescience", "battle-karama"]]


def _snapshot(name: str, prelude: list[str] | None) -> dict[str, Any]:
    _, records, decision, _ = DECISIONS[name]
    snapshot = base_snapshot("prelude")
    snapshot["ruleset"]["advanced"] = name == "later-powers-window"  # where Sardaukar act later
    if name.startswith("mentat"):  # the Atreides' Duncan Idaho lies face up with the Mentat card
        snapshot["ruleset"] = {"expansions": ["choam-richese"], "advanced": False, "variants": ["leader-skills"]}
        snapshot["factions"]["atreides"]["leaders"] = {
            "duncan-idaho": {"status": "available", "skill": "mentat", "skill_face_up": True}
        }
    snapshot["battle"].pop("prelude")
    if prelude is not None:
        snapshot["battle"]["prelude"] = prelude
    snapshot["battle"].update(copy.deepcopy(records))
    snapshot["pending"] = copy.deepcopy(decision)
    if decision["type"] == "prescience-answer":
        snapshot["pending"]["element"] = "weapon"
    return snapshot


def _prelude_refusal(answer: dict[str, Any]) -> bool:
    return any(
        e["path"] == "/snapshot/battle/prelude" and e["code"] == "decision-out-of-step"
        for e in answer.get("errors", [])
    )


@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_a_decision_before_the_plans_needs_its_step_at_the_head(client: FlaskClient, name: str) -> None:
    step, _, _, actions = DECISIONS[name]
    answered = 0
    for prelude in _preludes():
        snapshot = _snapshot(name, prelude)
        heads_it = bool(prelude) and prelude is not None and prelude[0] == step
        for body in [{"snapshot": snapshot}] + [{"snapshot": snapshot, "action": a} for a in actions]:
            path = "/v1/rulings" if "action" in body else "/v1/options"
            response = client.post(path, json=body)
            assert response.status_code < 500, (name, prelude, body.get("action"))
            answer = response.get_json()
            assert _prelude_refusal(answer) is not heads_it, (name, prelude, answer)
            if heads_it:
                assert response.status_code == 200, (name, prelude, answer)
                answered += 1
    assert answered  # the head case is answered, not refused for some other reason


def test_a_battle_plan_decision_waits_for_the_prelude(client: FlaskClient) -> None:
    snapshot = base_snapshot("prelude")
    snapshot["pending"] = {
        "type": "battle-plan",
        "player": "harkonnen",
        "territory": "arrakeen",
        "opponent": "atreides",
    }
    for prelude in _preludes():
        snapshot["battle"].pop("prelude", None)
        if prelude is not None:
            snapshot["battle"]["prelude"] = prelude
        response = client.post("/v1/options", json={"snapshot": snapshot})
        assert response.status_code < 500, prelude
        assert _prelude_refusal(response.get_json()) is bool(prelude), prelude
        assert (response.status_code == 200) is not bool(prelude), prelude


def test_prelude_done_ends_the_step_it_names() -> None:
    state = NextSnapshot(load_snapshot(base_snapshot("prelude")))
    with pytest.raises(AssertionError):
        state.prelude_done("prescience")  # the Voice's step is open
    state.prelude_done("voice")
    assert state.prelude_step == "prescience"
    state.prelude_done("prescience")
    state.prelude_done("battle-karama")
    assert state.prelude_step is None
    assert "prelude" not in state.as_snapshot().to_dict()["battle"]
