"""The shape of a flow tells nobody who holds a hidden card.

Moritani's advanced special Karama and the Semuta Drug opportunity must open, ask, go on and close
from public facts only. Each case below starts from a battle of the fixture corpus and plays it out
several times, the hidden card (a Karama, a Semuta Drug) in a different faction's hand each time or in
nobody's; every hand keeps the same size, a Worthless card standing in for the hidden one. The cleanup
is answered the same way every time (every pass or decline taken, otherwise the first option), and
every faction not holding the card must see the very same answers, step by step: the next decision and
who is asked, its options, the events, the summaries and the redacted snapshots.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import Action, adjudicate, load_snapshot
from adjudicator.engine import for_viewer
from adjudicator.scenarios import load_scenarios

# one Worthless card a faction; the holder's gives way to the hidden card, so hand sizes never change
FILLERS = ("baliset", "la-la-la", "kulon", "trip-to-gamont", "jubba-cloak")
# answers that take nothing: a pass-through of the cleanup
PASSES = frozenset({"semuta-pass", "karama-pass", "decline-face-dancer", "decline-duke-vidal", "rihani-decline"})

SEMUTA_BATCHES = "retention-semuta-batches"
EARLY_WINDOW = {"retention-karama-timing": "karama-before-declaration"}
OVERRIDES = {"moritani-special-karama-precedence": "special-overrides"}
# case -> (fixture, hidden card, interpretations, the feature's decision the flow must reach)
CASES: dict[str, tuple[str, str, dict[str, str], str]] = {
    # Moritani loses an advanced battle to a winner that played two cards
    "special-karama": ("moritani/special-karama-opportunity", "karama", {}, "moritani-special-karama"),
    # the special Karama after the winner's compulsory discards, and with them held for it
    "special-karama-compulsory": (
        "moritani/special-karama-after-compulsory-discards",
        "karama",
        {},
        "moritani-special-karama",
    ),
    "special-karama-overrides": (
        "moritani/special-karama-skips-a-used-artillery-strike",
        "karama",
        OVERRIDES,
        "moritani-special-karama",
    ),
    # an ordinary battle's discards with CHOAM & Richese in play
    "semuta-ordinary": ("moritani/semuta-in-an-ordinary-battle", "semuta-drug", {}, "semuta-opportunity"),
    # Moritani's defeated ally: the initial batch, under both readings of retention-semuta-batches
    "semuta-retention-split": (
        "moritani/semuta-initial-batch",
        "semuta-drug",
        {SEMUTA_BATCHES: "split-batches"},
        "semuta-opportunity",
    ),
    "semuta-retention-single": (
        "moritani/semuta-initial-batch",
        "semuta-drug",
        {SEMUTA_BATCHES: "single-batch"},
        "semuta-opportunity",
    ),
    # the Karama window on the ally's retention before it names a card: it opens whoever holds a Karama
    "retention-window-first": (
        "moritani/retention-window-before-declaration",
        "karama",
        EARLY_WINDOW,
        "moritani-retention-karama",
    ),
}


def _base(scenario_id: str, hidden: str) -> dict[str, Any]:
    """The fixture's snapshot with the hidden card in nobody's hand and one Worthless card in each."""
    scenario = next(s for s in load_scenarios() if s.id == scenario_id)
    assert scenario.request is not None
    snapshot = copy.deepcopy(dict(scenario.request["snapshot"]))
    for faction in snapshot["factions"].values():
        faction["hand"] = [c for c in faction["hand"] if c != hidden]
    return snapshot


def _with_holder(base: dict[str, Any], hidden: str, holder: str | None) -> dict[str, Any]:
    snapshot = copy.deepcopy(base)
    for faction, filler in zip(sorted(snapshot["factions"]), FILLERS, strict=False):
        snapshot["factions"][faction]["hand"].append(hidden if faction == holder else filler)
    return snapshot


def _answer_for(decision: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    """The same answer whoever holds the card: a pass or a decline where there is one."""
    for option in options:
        if option["type"] in PASSES:
            return option
        if option["type"] == "force-winner-cards" and option["card"] is None:
            return option
    assert options, decision
    return options[0]


def _play(
    snapshot: dict[str, Any], interpretations: dict[str, str], first: dict[str, Any] | None = None
) -> list[tuple[Action, Any]]:
    """Resolve the battle (or take `first`) and answer every cleanup decision: each action with the
    referee's ruling."""
    steps: list[tuple[Action, Any]] = []
    action = Action.from_dict(first or {"type": "resolve-battle"})
    current = snapshot
    for _ in range(80):
        ruling = adjudicate(load_snapshot(current), action, interpretations)
        steps.append((action, ruling))
        answer = ruling.to_dict()
        assert answer["status"] == "resolved", answer["violations"]
        decision = answer["next"]["decision"]
        if decision is None:
            return steps
        current = answer["outcome"]["snapshot"]
        action = Action.from_dict(_answer_for(decision, answer["next"]["options"]))
    raise AssertionError("the cleanup did not end")


def _seen_by(steps: list[tuple[Action, Any]], viewer: str) -> str:
    """Everything `viewer` is shown along the way, as one canonical text."""
    shown = [{"action": action.to_dict(), "answer": for_viewer(ruling, viewer).to_dict()} for action, ruling in steps]
    return json.dumps(shown, sort_keys=True)


def _decisions(steps: list[tuple[Action, Any]]) -> list[tuple[str, str]]:
    return [(d["type"], d["player"]) for _, ruling in steps if (d := ruling.to_dict()["next"]["decision"]) is not None]


def _check(case: str, storm_order: list[str] | None) -> list[list[tuple[str, str]]]:
    scenario_id, hidden, interpretations, _ = CASES[case]
    base = _base(scenario_id, hidden)
    if storm_order is not None:
        base["storm_order"] = storm_order
    factions = sorted(base["factions"])
    played = {holder: _play(_with_holder(base, hidden, holder), interpretations) for holder in (None, *factions)}
    for viewer in factions:
        seen = {holder: _seen_by(steps, viewer) for holder, steps in played.items() if holder != viewer}
        reference = seen[None]
        for holder, text in seen.items():
            assert text == reference, f"{case}: {viewer} can tell {holder} holds the {hidden}"
    return [_decisions(steps) for steps in played.values()]


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_flow_is_the_same_whoever_holds_the_card(case: str) -> None:
    sequences = _check(case, None)
    # the flow reaches the feature's decision at all: the comparison is not between empty runs
    expected = CASES[case][3]
    assert all(any(kind == expected for kind, _ in sequence) for sequence in sequences), sequences


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(sorted(CASES)), data=st.data())
def test_the_flow_is_the_same_in_any_storm_order(case: str, data: st.DataObject) -> None:
    factions = sorted(_base(CASES[case][0], CASES[case][1])["factions"])
    _check(case, data.draw(st.permutations(factions)))


def test_a_semuta_opportunity_asks_everyone_but_the_discarder_in_storm_order() -> None:
    base = _base("moritani/semuta-in-an-ordinary-battle", "semuta-drug")
    for holder in (None, "atreides", "harkonnen", "emperor"):
        steps = _play(_with_holder(base, "semuta-drug", holder), {})
        asked = [player for kind, player in _decisions(steps) if kind == "semuta-opportunity"]
        # Atreides' crysknife, then the shield Harkonnen does not keep (first option: keep it, so none)
        assert asked == ["harkonnen", "emperor"], (holder, asked)


def test_without_a_karama_moritani_can_only_decline() -> None:
    base = _base("moritani/special-karama-opportunity", "karama")
    for holder, spendable in ((None, 0), ("harkonnen", 0), ("moritani", 1)):
        ruling = adjudicate(
            load_snapshot(_with_holder(base, "karama", holder)), Action.from_dict({"type": "resolve-battle"})
        )
        following = ruling.to_dict()["next"]
        assert following["decision"]["type"] == "moritani-special-karama"
        forcing = [o for o in following["options"] if o["card"] is not None]
        assert len({o["card"] for o in forcing}) == spendable, holder


# the Tleilaxu reveal the winner's leader under face-dancer-karama's window-after-reveal
REVEAL = {"type": "reveal-face-dancer", "player": "tleilaxu", "leader": "feyd-rautha", "sector": 9, "from_reserves": 5}
WINDOW_READING = {"face-dancer-karama": "window-after-reveal"}


def test_the_window_on_a_face_dancer_reveal_is_the_same_whoever_holds_a_karama() -> None:
    base = _base("tleilaxu/reveal-replaces-the-winners-forces", "karama")
    factions = sorted(base["factions"])
    played = {
        holder: _play(_with_holder(base, "karama", holder), WINDOW_READING, REVEAL) for holder in (None, *factions)
    }
    for viewer in factions:
        reference = _seen_by(played[None], viewer)
        for holder, steps in played.items():
            if holder != viewer:
                assert _seen_by(steps, viewer) == reference, f"{viewer} can tell {holder} holds the karama"
    # the window asks every faction but the Tleilaxu, in storm order, holder or not, and then the
    # reveal stands (every answer is a pass)
    for steps in played.values():
        asked = [player for kind, player in _decisions(steps) if kind == "face-dancer-karama"]
        assert asked == ["atreides", "harkonnen", "emperor"]
        assert steps[-1][1].to_dict()["outcome"]["summary"]["battle"]["face_dancer"]["revealed"] is True
