"""Question skill-face-up-leader-required under must-commit, through the flow: a faction whose only
leader lies face up with its skill plays it, the card goes behind the shield as the plans are revealed
(not before: the plan is private), and the battle resolves on that snapshot whatever a later request
reads; a Prescience keeps the reading only where it changes what the side may answer."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from .conftest import base_snapshot

MUST_COMMIT = {"skill-face-up-leader-required": "must-commit"}
TANKS = {"status": "tanks"}


def _post(client: FlaskClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def _awaiting_atreides(hand: list[str]) -> dict[str, Any]:
    """The skills duel before its plans: Duncan Idaho, a face-up Warmaster, is the only Atreides leader
    that could fight, and the Atreides plan first under a decision kept under must-commit."""
    snapshot = base_snapshot("skills-duel")
    atreides = snapshot["factions"]["atreides"]
    atreides["hand"] = hand
    atreides["leaders"] = {
        "duncan-idaho": {"status": "available", "skill": "warmaster", "skill_face_up": True},
        **{leader: TANKS for leader in ("thufir-hawat", "lady-jessica", "gurney-halleck", "dr-wellington-yueh")},
    }
    snapshot["battle"]["plans"] = {}
    snapshot["battle"]["revealed"] = False
    snapshot["pending"] = {
        "type": "battle-plan",
        "player": "atreides",
        "territory": "arrakeen",
        "opponent": "harkonnen",
        "dial_max": 10,
        "spice_max": 0,
        "face_up_leader": "must-commit",
    }
    return snapshot


def _plan(leader: str | None, hero: str | None, defense: str | None) -> dict[str, Any]:
    return {
        "type": "lock-battle-plan",
        "player": "atreides",
        "leader": leader,
        "cheap_hero": hero,
        "weapon": None,
        "defense": defense,
        "dial": 5,
        "spice": 0,
        "kwisatz_haderach": False,
    }


def test_a_battle_played_under_must_commit_resolves_whatever_later_requests_read(client: FlaskClient) -> None:
    snapshot = _awaiting_atreides(["baliset"])
    options = _post(client, "/v1/options", {"snapshot": snapshot})["options"]
    assert {(o["leader"], o["cheap_hero"]) for o in options} == {("duncan-idaho", None)}
    locked = _post(
        client,
        "/v1/rulings",
        {"snapshot": snapshot, "action": _plan("duncan-idaho", None, "baliset"), "interpretations": MUST_COMMIT},
    )
    assert locked["status"] == "resolved"
    first = locked["outcome"]["snapshot"]
    assert first["factions"]["atreides"]["leaders"]["duncan-idaho"]["skill_face_up"] is True
    # the Harkonnen plan, and the resolution, are asked with no reading at all
    harkonnen = _post(client, "/v1/options", {"snapshot": first})["options"][0]
    revealed = _post(client, "/v1/rulings", {"snapshot": first, "action": harkonnen})
    assert [e["type"] for e in revealed["outcome"]["events"]] == ["plan-locked", "skill-committed"]
    second = revealed["outcome"]["snapshot"]
    assert second["factions"]["atreides"]["leaders"]["duncan-idaho"]["skill_face_up"] is False
    resolved = _post(client, "/v1/rulings", {"snapshot": second, "action": {"type": "resolve-battle"}})
    assert resolved["status"] == "resolved", resolved["violations"]
    quote = resolved["outcome"]["summary"]["battle"]["quote"]["atreides"]
    assert {"part": "skill", "skill": "warmaster", "value": 3, "rule": "skills.card-bonus"} in quote
    after = resolved["outcome"]["snapshot"]["factions"]["atreides"]["leaders"]["duncan-idaho"]
    assert after["skill_face_up"] is True
    assert "skill-committed" not in [e["type"] for e in resolved["outcome"]["events"]]


def test_the_locked_plan_shows_nothing_before_the_reveal(client: FlaskClient) -> None:
    """Under must-commit the Atreides may play Duncan Idaho or their Cheap Hero: which one, the Harkonnen
    learn only from the reveal (the card stays face up while the plan is hidden). Each plan takes one
    card from the hand, whose size is public."""
    snapshot = _awaiting_atreides(["cheap-hero", "baliset"])
    seen = []
    for leader, hero, defense in (("duncan-idaho", None, "baliset"), (None, "cheap-hero", None)):
        body = {"snapshot": snapshot, "action": _plan(leader, hero, defense), "interpretations": MUST_COMMIT}
        following = _post(client, "/v1/rulings", body)["outcome"]["snapshot"]
        view = _post(client, "/v1/views", {"snapshot": following, "viewer": "harkonnen"})
        options = _post(client, "/v1/options", {"snapshot": following, "player": "harkonnen"})
        seen.append((view["snapshot"], view["redacted"], options["decision"], options["options"]))
    assert seen[0] == seen[1]


def _prescience_asked(client: FlaskClient, face_up_only: bool) -> dict[str, Any]:
    snapshot = base_snapshot("prelude")
    snapshot["ruleset"] = {"expansions": ["choam-richese"], "advanced": False, "variants": ["leader-skills"]}
    leaders: dict[str, Any] = {"feyd-rautha": {"status": "available", "skill": "bureaucrat", "skill_face_up": True}}
    if face_up_only:
        others = ("beast-rabban", "piter-de-vries", "captain-iakin-nefud", "umman-kudu")
        leaders.update({leader: TANKS for leader in others})
    snapshot["factions"]["harkonnen"]["leaders"] = leaders
    snapshot["battle"]["prelude"] = ["prescience", "battle-karama"]
    snapshot["pending"] = {"type": "prescience", "player": "atreides", "territory": "arrakeen", "opponent": "harkonnen"}
    action = {"type": "use-prescience", "player": "atreides", "element": "leader"}
    answer = _post(client, "/v1/rulings", {"snapshot": snapshot, "action": action, "interpretations": MUST_COMMIT})
    record: dict[str, Any] = answer["outcome"]["snapshot"]["battle"]["prescience"]
    return record


def test_a_prescience_keeps_must_commit_only_where_every_leader_lies_face_up(client: FlaskClient) -> None:
    assert _prescience_asked(client, face_up_only=True)["readings"] == MUST_COMMIT
    assert "readings" not in _prescience_asked(client, face_up_only=False)
