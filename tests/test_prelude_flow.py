"""A battle's steps before its plans driven end to end through HTTP, each action taken from the
options listed: the Voice and its Karama window, Prescience, its window and answer, then plans that
obey both, and what a faction outside the battle sees of the answer."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from .conftest import base_snapshot


def test_voice_then_prescience_bind_the_plans(client: FlaskClient) -> None:
    snapshot = base_snapshot("prelude")
    seen: list[str] = []

    def rule(action: dict[str, Any]) -> dict[str, Any]:
        nonlocal snapshot
        body: dict[str, Any] = {"snapshot": snapshot, "action": action}
        answer = client.post("/v1/rulings", json=body).get_json()
        assert answer["status"] == "resolved", answer["violations"]
        snapshot = answer["outcome"]["snapshot"]
        decision = answer["next"]["decision"]
        seen.append(decision["type"] if decision else "none")
        return answer

    def listed(answer: dict[str, Any], **fields: Any) -> dict[str, Any]:
        return next(o for o in answer["next"]["options"] if all(o.get(k) == v for k, v in fields.items()))

    options = client.post("/v1/options", json={"snapshot": snapshot}).get_json()
    voice = next(o for o in options["options"] if o.get("subject") == "projectile-weapon" and o["command"] == "play")
    answer = rule(voice)
    asked = []
    while answer["next"]["decision"]["type"] == "battle-karama":
        decision = answer["next"]["decision"]
        asked.append(decision["player"])
        answer = rule(listed(answer, type="karama-pass"))
    assert asked == ["harkonnen", "atreides", "emperor"]  # every faction but the user, holder or not
    assert answer["next"]["decision"]["type"] == "prescience"
    answer = rule(listed(answer, element="weapon"))
    while answer["next"]["decision"]["type"] == "battle-karama":
        answer = rule(listed(answer, type="karama-pass"))
    assert answer["next"]["decision"] == {
        "type": "prescience-answer",
        "player": "harkonnen",
        "territory": "arrakeen",
        "owner": "atreides",
        "element": "weapon",
    }
    refused = client.post(
        "/v1/rulings", json={"snapshot": snapshot, "action": listed(answer, weapon="chaumas"), "viewer": "emperor"}
    ).get_json()
    assert [v["code"] for v in refused["violations"]] == ["hidden-from-viewer"]  # the asked side's decision
    answer = rule(listed(answer, weapon="chaumas"))
    assert snapshot["battle"]["prescience"]["answer"] == {"weapon": "chaumas"}
    for viewer, shown in (("emperor", None), ("bene-gesserit", None), ("atreides", {"weapon": "chaumas"})):
        view = client.post("/v1/views", json={"snapshot": snapshot, "viewer": viewer}).get_json()
        assert view["snapshot"]["battle"]["prescience"]["answer"] == shown
    assert answer["next"]["decision"]["type"] == "battle-plan"
    assert answer["next"]["options"] and all(o["weapon"] == "chaumas" for o in answer["next"]["options"])
    answer = rule({**listed(answer, leader="feyd-rautha", defense="snooper"), "dial": 3})
    assert answer["next"]["decision"]["player"] == "atreides"
    weapons = {o["weapon"] for o in answer["next"]["options"]}
    assert weapons == {"crysknife"}  # the Voice commands the projectile weapon it holds
    answer = rule({**listed(answer, leader="thufir-hawat", defense="shield"), "dial": 5})
    assert snapshot["battle"]["revealed"] is True and answer["next"]["decision"] is None
    assert seen[-1] == "none"
