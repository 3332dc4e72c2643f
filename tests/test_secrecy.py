"""Hidden information never leaks: property tests over generated snapshots."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import load_snapshot, view
from adjudicator.catalog import catalog

BASE_FACTIONS = ["atreides", "harkonnen", "emperor", "guild", "fremen", "bene-gesserit"]
BASE_DECK = [
    f"{kind.kind}#{n}"
    for kind in catalog().cards.values()
    for n in range(1, kind.copies_in(frozenset()) + 1)
    if kind.deck == "treachery"
]


@st.composite
def snapshots(draw: st.DrawFn) -> dict[str, Any]:
    factions = draw(st.lists(st.sampled_from(BASE_FACTIONS), min_size=2, max_size=6, unique=True))
    deck = draw(st.permutations(BASE_DECK))
    leaders = [leader.id for f in factions for leader in catalog().leaders_of(f)]
    traitor_pool = draw(st.permutations(leaders))
    state: dict[str, Any] = {}
    for i, faction in enumerate(factions):
        hand_size = draw(st.integers(0, 4))
        traitor_count = draw(st.integers(0, 4 if faction == "harkonnen" else 1))
        state[faction] = {
            "spice": draw(st.integers(0, 30)),
            "hand": deck[i * 4 : i * 4 + hand_size],
            "traitors": traitor_pool[i * 4 : i * 4 + traitor_count],
        }
    discard = deck[len(factions) * 4 : len(factions) * 4 + draw(st.integers(0, 5))]
    battle = None
    if draw(st.booleans()):
        # A locked, unrevealed battle: each side moves up to two hand cards into its plan.
        plans = {}
        for faction in factions[:2]:
            hand = state[faction]["hand"]
            committed, state[faction]["hand"] = hand[:2], hand[2:]
            plans[faction] = {
                "leader": catalog().leaders_of(faction)[0].id,
                "dial": draw(st.integers(0, 5)),
                "weapon": committed[0] if committed else None,
                "defense": committed[1] if len(committed) > 1 else None,
            }
        battle = {"territory": "arrakeen", "aggressor": factions[0], "defender": factions[1], "plans": plans}
        battle["revealed"] = False
    return {
        "format": "dune-snapshot/1",
        "ruleset": {"expansions": [], "advanced": False, "variants": []},
        "turn": 2,
        "phase": "bidding",
        "storm_sector": 0,
        "storm_order": factions,
        "seed": draw(st.integers(0, 2**31)),
        "factions": state,
        "discard": discard,
        "battle": battle,
    }


def string_values(tree: Any) -> set[str]:
    if isinstance(tree, str):
        return {tree}
    if isinstance(tree, dict):
        return set().union(*(string_values(v) for v in tree.values())) if tree else set()
    if isinstance(tree, list):
        return set().union(*(string_values(v) for v in tree)) if tree else set()
    return set()


def hidden_from(snapshot: dict[str, Any], viewer: str | None) -> set[str]:
    """Ids only other factions may know, less any the viewer legitimately sees elsewhere (a leader's
    id is also its Traitor card's id)."""
    hidden: set[str] = set()
    visible: set[str] = set()
    for faction, state in snapshot["factions"].items():
        (visible if faction == viewer else hidden).update(state["hand"], state["traitors"])
    battle = snapshot.get("battle")
    if battle is not None:
        for faction, plan in battle["plans"].items():
            contents = {card for card in (plan["weapon"], plan["defense"], plan["leader"]) if card is not None}
            public = faction == viewer or battle.get("revealed", True)
            (visible if public else hidden).update(contents)
    return hidden - visible


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(snapshot=snapshots(), data=st.data())
def test_a_view_contains_no_card_of_another_faction(snapshot: dict[str, Any], data: st.DataObject) -> None:
    viewer = data.draw(st.sampled_from([None, *snapshot["factions"]]))
    answer = view(load_snapshot(snapshot), viewer).to_dict()
    assert string_values(answer) & hidden_from(snapshot, viewer) == set()
    for faction, state in snapshot["factions"].items():
        shown = answer["snapshot"]["factions"][faction]
        assert shown["hand_count"] == len(state["hand"])
        assert shown["traitor_count"] == len(state["traitors"])
        if faction == viewer:
            assert shown["hand"] == state["hand"] and shown["traitors"] == state["traitors"]


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(snapshot=snapshots())
def test_the_http_view_leaks_nothing_either(client: FlaskClient, snapshot: dict[str, Any]) -> None:
    viewer = next(iter(snapshot["factions"]))
    response = client.post("/v1/views", json={"snapshot": snapshot, "viewer": viewer})
    assert response.status_code == 200
    assert string_values(response.get_json()) & hidden_from(snapshot, viewer) == set()


def test_rulings_with_a_viewer_leak_no_hand(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    request = {"snapshot": three_factions, "action": {"type": "resolve-battle"}, "viewer": "moritani"}
    body = client.post("/v1/rulings", json=request).get_json()
    assert string_values(body) & hidden_from(three_factions, "moritani") == set()


def test_a_private_event_keeps_only_what_happened_for_other_viewers() -> None:
    from adjudicator.secrecy import redact_event

    event = {
        "type": "traitor-kept",
        "faction": "harkonnen",
        "card": "captain-iakin-nefud",
        "visible_to": ["harkonnen"],
        "rule": "skills.rihani.exchange",
    }
    assert redact_event(event, "harkonnen") == event
    hidden = redact_event(event, "atreides")
    assert hidden == {
        "type": "traitor-kept",
        "faction": "harkonnen",
        "visible_to": ["harkonnen"],
        "rule": "skills.rihani.exchange",
        "redacted": True,
    }
    public = {"type": "traitor-returned", "faction": "harkonnen", "card": "bashar", "rule": "skills.rihani.exchange"}
    assert redact_event(public, "atreides") == public
