"""Hidden information never leaks: property tests over generated snapshots."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import load_snapshot, view
from adjudicator.core.catalog import card_kind, catalog
from adjudicator.rules.secrecy import decision_is_private

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
    with_tleilaxu = draw(st.booleans())
    deck = draw(st.permutations(BASE_DECK))
    leaders = [
        leader.id for f in [*factions, *(["tleilaxu"] if with_tleilaxu else [])] for leader in catalog().leaders_of(f)
    ]
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
    traitor_deck = None
    if with_tleilaxu:
        # the Tleilaxu hold Face Dancers, not traitors; the leftovers form the Traitor deck
        rest = traitor_pool[len(factions) * 4 :]
        revealed = draw(st.integers(0, 2))
        state["tleilaxu"] = {
            "spice": draw(st.integers(0, 30)),
            "hand": [],
            "traitors": [],
            "face_dancers": rest[revealed:3],
            "revealed_face_dancers": rest[:revealed],
        }
        traitor_deck = rest[3 : 3 + draw(st.integers(0, 8))]
    # Leader Skills: both battling leaders may be Rihani Decipherers, whose win shows its faction two
    # Traitor deck cards in a private event
    with_skills = draw(st.booleans())
    if with_skills and traitor_deck is None:
        traitor_deck = traitor_pool[len(factions) * 4 : len(factions) * 4 + draw(st.integers(2, 8))]
    battle = None
    forces: list[dict[str, Any]] = []
    if draw(st.booleans()):
        # A locked, unrevealed battle: each side moves up to two hand cards into its plan.
        plans = {}
        for faction in factions[:2]:
            hand = state[faction]["hand"]
            # a weapon and a defense from the hand when it has them (a legal plan resolves)
            weapon = next((c for c in hand if "weapon" in catalog().cards[card_kind(c)].roles), None)
            defense = next((c for c in hand if c != weapon and "defense" in catalog().cards[card_kind(c)].roles), None)
            state[faction]["hand"] = [c for c in hand if c not in (weapon, defense)]
            if with_skills:
                leader_id = catalog().leaders_of(faction)[0].id
                state[faction]["leaders"] = (
                    {leader_id: {"status": "available", "skill": "rihani-decipherer", "skill_face_up": False}}
                    if faction == factions[0]
                    else {}
                )
            plans[faction] = {
                "leader": catalog().leaders_of(faction)[0].id,
                "dial": draw(st.integers(0, 5)),
                "weapon": weapon,
                "defense": defense,
            }
        battle = {"territory": "arrakeen", "aggressor": factions[0], "defender": factions[1], "plans": plans}
        battle["revealed"] = False
        forces = [
            {"faction": faction, "territory": "arrakeen", "sector": 9, "regular": 5, "elite": 0}
            for faction in factions[:2]
        ]
    return {
        "format": "dune-snapshot/1",
        "ruleset": {
            "expansions": [
                *(["ixians-tleilaxu"] if with_tleilaxu else []),
                *(["choam-richese"] if with_skills else []),
            ],
            "advanced": False,
            "variants": ["leader-skills"] if with_skills else [],
        },
        "turn": 2,
        "phase": "battle" if battle is not None else "bidding",
        "forces": forces,
        "storm_sector": 0,
        "storm_order": [*factions, *(["tleilaxu"] if with_tleilaxu else [])],
        "traitor_deck": traitor_deck,
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
        (visible if faction == viewer else hidden).update(
            state["hand"], state["traitors"], state.get("face_dancers", ())
        )
        visible.update(state.get("revealed_face_dancers", ()))
    hidden.update(snapshot.get("traitor_deck") or ())
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
            assert shown["spice"] == state["spice"]
        else:
            assert shown["spice"] is None


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(snapshot=snapshots())
def test_the_http_view_leaks_nothing_either(client: FlaskClient, snapshot: dict[str, Any]) -> None:
    viewer = next(iter(snapshot["factions"]))
    response = client.post("/v1/views", json={"snapshot": snapshot, "viewer": viewer})
    assert response.status_code == 200
    assert string_values(response.get_json()) & hidden_from(snapshot, viewer) == set()


def actions_for(snapshot: dict[str, Any], viewer: str) -> list[dict[str, Any]]:
    """A spread of actions, by the viewer and by others, legal or not: none may leak a hidden card."""
    others = [f for f in snapshot["factions"] if f != viewer]
    actions: list[dict[str, Any]] = [{"type": "resolve-battle"}, {"type": "end-turn"}, {"type": "start-mentat-pause"}]
    for player in (viewer, *others[:2]):
        hand = snapshot["factions"][player]["hand"]
        actions += [
            {
                "type": "lock-battle-plan",
                "player": player,
                "leader": None,
                "dial": 0,
                "weapon": hand[0] if hand else None,
            },
            {"type": "choam-cash-in", "player": player, "card": hand[0] if hand else None, "cards": hand[1:2]},
            {"type": "pay-extortion", "player": player},
            {"type": "rihani-draw", "player": player},
            {"type": "retain-card", "player": player, "card": hand[0] if hand else None},
        ]
    if "tleilaxu" in snapshot["factions"]:
        for leader in snapshot["factions"]["tleilaxu"]["face_dancers"]:
            actions.append(
                {"type": "reveal-face-dancer", "player": "tleilaxu", "leader": leader, "sector": 9, "from_reserves": 0}
            )
    return actions


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(snapshot=snapshots(), data=st.data())
def test_rulings_and_their_options_leak_nothing_to_a_viewer(
    client: FlaskClient, snapshot: dict[str, Any], data: st.DataObject
) -> None:
    viewer = data.draw(st.sampled_from(list(snapshot["factions"])))
    # resolving the battle reveals its plans legitimately: only hands, traitors, Face Dancers and the
    # Traitor deck stay secret
    public_plans = {
        card for plan in ((snapshot.get("battle") or {}).get("plans") or {}).values() for card in plan.values() if card
    }
    # every viewer sees the battle resolve (its cleanup decisions are someone's, and private ones must
    # reach the others without options); the drawn viewer also tries a spread of actions
    requests = [(other, {"type": "resolve-battle"}) for other in snapshot["factions"] if other != viewer]
    requests += [(viewer, action) for action in actions_for(snapshot, viewer)]
    for who, action in requests:
        secret = hidden_from({**snapshot, "battle": None}, who) - public_plans
        response = client.post("/v1/rulings", json={"snapshot": snapshot, "action": action, "viewer": who})
        assert response.status_code in (200, 422), response.get_json()
        body = response.get_json()
        leaked = string_values(without_own_secrets(body, who)) & secret
        assert leaked == set(), (who, action, leaked)
        if response.status_code == 200:
            assert_private_parts_hidden(body, who)


def without_own_secrets(body: dict[str, Any], viewer: str) -> Any:
    """The answer less what the viewer may see of its own secret draws (a Rihani inspection or draw shows
    it Traitor deck cards): events marked for it, and its own decision's and record's drawn cards."""
    body = copy.deepcopy(body)
    for outcome in [body.get("outcome"), *(a["outcome"] for a in body.get("alternatives", ()))]:
        if not outcome:
            continue
        outcome["events"] = [e for e in outcome.get("events", ()) if viewer not in e.get("visible_to", ())]
        record = (((outcome.get("snapshot") or {}).get("battle") or {}).get("resolution") or {}).get("rihani")
        if record is not None and record.get("player") == viewer:
            record["drawn"] = None
    decision = (body.get("next") or {}).get("decision")
    if decision is not None and decision.get("player") == viewer:
        decision.pop("drawn", None)
        body["next"]["options"] = []
    return body


def assert_private_parts_hidden(body: dict[str, Any], viewer: str) -> None:
    """Structural checks that need no card id: another faction's private decision comes without options
    (a Face Dancer option names a public leader, yet shows the match), and a private event keeps no card."""
    following = body["next"]
    decision = following["decision"]
    if decision is not None and decision["player"] != viewer and decision_is_private(decision, viewer):
        assert following["options"] == [], decision
    outcomes = [body["outcome"], *(alternative["outcome"] for alternative in body["alternatives"])]
    for outcome in outcomes:
        for event in (outcome or {}).get("events", ()):
            if viewer not in event.get("visible_to", (viewer,)):
                assert event.get("redacted") is True and "card" not in event and "cards" not in event, event


def test_rulings_with_a_viewer_leak_no_hand(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    request = {"snapshot": three_factions, "action": {"type": "resolve-battle"}, "viewer": "moritani"}
    body = client.post("/v1/rulings", json=request).get_json()
    assert string_values(body) & hidden_from(three_factions, "moritani") == set()


def test_a_private_event_keeps_only_what_happened_for_other_viewers() -> None:
    from adjudicator.rules.secrecy import redact_event

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


# --- spice behind the shield (rule secrecy.spice) ----------------------------------------------------

# violation codes whose answer tells whether the acting faction holds enough spice (a revealed plan's
# `support-exceeds-spice` is a public failure to pay, but its message must not count what is left)
SPICE_CODES = frozenset({"cannot-pay", "not-enough-spice"})
COUNTED = re.compile(r"\b(has|holds) \d+ spice")
# decision type -> the keys that count the deciding faction's spice
SPICE_DECISION_KEYS = {"battle-plan": ("dial_max", "spice_max")}


def _walk(tree: Any) -> Iterator[dict[str, Any]]:
    if isinstance(tree, dict):
        yield tree
        for value in tree.values():
            yield from _walk(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _walk(value)


def spice_leaks(body: dict[str, Any], viewer: str | None, actor: str | None = None) -> list[str]:
    """Every place where `viewer`'s answer shows, or lets it count, another faction's spice behind the
    shield: a snapshot's spice, a battle plan's limits, an Extortion payer's options, a spice violation."""
    leaks = []
    for part in _walk(body):
        if part.get("format") == "dune-snapshot/1":
            leaks += [f"{fid}/spice" for fid, f in part["factions"].items() if fid != viewer and f["spice"] is not None]
        if part.get("player") != viewer:
            leaks += [
                f"{part['type']}/{key}" for key in SPICE_DECISION_KEYS.get(str(part.get("type")), ()) if key in part
            ]
        if "payer" in part and ({"balance", "spice", "held"} & set(part)):
            leaks.append(f"event {part['type']} carries a balance")
    following = body.get("next") or {}
    decision = following.get("decision") or {}
    if decision.get("type") == "extortion-payment" and decision.get("player") != viewer and following["options"]:
        leaks.append("extortion-payment options")
    if actor != viewer:
        leaks += [f"violation {v['code']}" for v in body.get("violations", ()) if v["code"] in SPICE_CODES]
        leaks += [
            f"violation {v['code']} counts spice" for v in body.get("violations", ()) if COUNTED.search(v["message"])
        ]
    return leaks


def _fixture_snapshots() -> Iterator[tuple[str, str, dict[str, Any]]]:
    from adjudicator.scenarios import load_scenarios

    for scenario in load_scenarios():
        body = scenario.request_for(None)
        snapshot = body.get("snapshot") if isinstance(body, dict) else None
        if scenario.method != "GET" and isinstance(snapshot, dict) and isinstance(snapshot.get("factions"), dict):
            yield scenario.id, scenario.path, dict(body)


def test_no_fixture_answer_shows_another_factions_spice(client: FlaskClient) -> None:
    """Every fixture's snapshot as each viewer and a spectator sees it, and every ruling fixture asked by
    each faction of its game: a viewer sees its own spice, never another's, nor what would count it."""
    checked = 0
    for scenario_id, path, body in _fixture_snapshots():
        snapshot = body["snapshot"]
        viewers: list[str | None] = [None, *sorted(snapshot["factions"])]
        for viewer in viewers:
            response = client.post("/v1/views", json={"snapshot": snapshot, "viewer": viewer})
            if response.status_code != 200:  # fixtures of invalid snapshots
                continue
            answer = response.get_json()
            assert spice_leaks(answer, viewer) == [], (scenario_id, viewer)
            if viewer is not None:
                assert answer["snapshot"]["factions"][viewer]["spice"] == snapshot["factions"][viewer]["spice"]
            checked += 1
            if path != "/v1/rulings" or viewer is None:
                continue
            actor = (body.get("action") or {}).get("player")
            response = client.post(path, json={**body, "viewer": viewer})
            if response.status_code != 200:  # fixtures of malformed requests
                continue
            assert spice_leaks(response.get_json(), viewer, actor) == [], (scenario_id, viewer)
            checked += 1
    assert checked > 1000


def test_the_spice_check_finds_a_leak() -> None:
    """The check above is not vacuous: an unredacted snapshot, a plan's limits, a payer's options and
    a spice violation each count as a leak for another viewer, and none for their owner."""
    snapshot = {"format": "dune-snapshot/1", "factions": {"atreides": {"spice": 4}, "harkonnen": {"spice": None}}}
    assert spice_leaks({"snapshot": snapshot}, "harkonnen") == ["atreides/spice"]
    assert spice_leaks({"snapshot": snapshot}, "atreides") == []
    plan = {"type": "battle-plan", "player": "atreides", "dial_max": 5.5, "spice_max": 3}
    assert spice_leaks({"next": {"decision": plan, "options": []}}, "harkonnen") == [
        "battle-plan/dial_max",
        "battle-plan/spice_max",
    ]
    assert spice_leaks({"next": {"decision": plan, "options": []}}, "atreides") == []
    asked = {"type": "extortion-payment", "player": "atreides", "amount": 3}
    body = {"next": {"decision": asked, "options": [{"type": "pay-extortion", "player": "atreides"}]}}
    assert spice_leaks(body, "harkonnen") == ["extortion-payment options"]
    violation = {"code": "not-enough-spice", "message": "", "path": "/action/leader", "rule": None}
    assert spice_leaks({"violations": [violation]}, "harkonnen", actor="atreides") == ["violation not-enough-spice"]
    assert spice_leaks({"violations": [violation]}, "atreides", actor="atreides") == []
    counted = {"code": "support-exceeds-spice", "message": "atreides has 4 spice", "path": "/x", "rule": None}
    assert spice_leaks({"violations": [counted]}, "harkonnen") == ["violation support-exceeds-spice counts spice"]
