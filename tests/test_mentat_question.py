"""The Mentat's question shows nobody's hand through the flow: whatever the side asked holds (the named
weapon, another card, nothing), the same decisions open at the same factions, and a third faction's
view of the answered battle is the same; only the asker and the side asked see the card shown."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from .conftest import base_snapshot

HANDS = ([], ["shield"], ["crysknife"], ["shield", "crysknife"])


def _post(client: FlaskClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def _answered(client: FlaskClient, hand: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Ask for the Crysknife, then show the first card the side asked may show: the ask's answer for a
    third faction and the answered snapshot."""
    snapshot = base_snapshot("mentat-prelude")
    snapshot["factions"]["harkonnen"]["hand"] = hand
    ask = {"type": "ask-mentat", "player": "atreides", "weapon": "crysknife"}
    asked = _post(client, "/v1/rulings", {"snapshot": snapshot, "action": ask, "viewer": "emperor"})
    following = _post(client, "/v1/rulings", {"snapshot": snapshot, "action": ask})["outcome"]["snapshot"]
    options = _post(client, "/v1/options", {"snapshot": following})["options"]
    shown = _post(client, "/v1/rulings", {"snapshot": following, "action": options[0]})
    return asked, shown


def test_the_flow_is_the_same_whatever_the_side_asked_holds(client: FlaskClient) -> None:
    seen = []
    for hand in HANDS:
        asked, shown = _answered(client, hand)
        after = shown["outcome"]["snapshot"]
        view = _post(client, "/v1/views", {"snapshot": after, "viewer": "emperor"})
        # the ask's answer for a third faction: the same decision, its options hidden
        assert asked["next"]["decision"]["type"] == "mentat-answer"
        assert asked["next"]["options"] == []
        view["snapshot"]["factions"]["harkonnen"].pop("hand_count")
        seen.append(
            (asked["next"]["decision"], shown["next"]["decision"], view["snapshot"]["battle"], view["redacted"])
        )
    assert all(s == seen[0] for s in seen[1:])


@pytest.mark.parametrize(
    ("hand", "card"),
    [([], None), (["shield"], "shield"), (["crysknife"], "crysknife"), (["shield", "crysknife"], "crysknife")],
)
def test_the_asker_and_the_side_asked_alone_see_the_card(
    client: FlaskClient, hand: list[str], card: str | None
) -> None:
    _, shown = _answered(client, hand)
    after = shown["outcome"]["snapshot"]
    assert after["battle"]["mentat"] == [
        {"player": "atreides", "target": "harkonnen", "weapon": "crysknife", "answered": True, "shown": card}
    ]
    for viewer, sees in (("atreides", True), ("harkonnen", True), ("emperor", False)):
        view = _post(client, "/v1/views", {"snapshot": after, "viewer": viewer})
        assert view["snapshot"]["battle"]["mentat"][0]["shown"] == (card if sees else None)
        assert ("/snapshot/battle/mentat/0/shown" in view["redacted"]) is not sees
