"""The window on Residual Poison and Juice of Sapho opens again, under cache-cards-battle-timing
until-plans, from public facts only.

One battle of the fixture corpus is played from its choice to its plans several times, the card in a
different faction's hand each time or in nobody's (a Worthless card standing in for it, so hand sizes
never change): the Voice and Prescience are used, every window on the cards and every Karama window
is passed. Every faction not holding the card must be shown the very same answers step by step, and
the window must have opened after the Voice and after the Prescience answer, asking both sides each
time.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

import pytest

from adjudicator import Action, adjudicate, load_snapshot
from adjudicator.engine import for_viewer
from adjudicator.scenarios import load_scenarios

UNTIL_PLANS: Mapping[str, str] = {"cache-cards-battle-timing": "until-plans"}
FILLERS = ("baliset", "la-la-la", "kulon", "trip-to-gamont")
CACHE_CARDS = ("residual-poison", "juice-of-sapho")
WINDOW = "pre-battle-cards"
CHOOSE = {
    "type": "choose-battle",
    "player": "harkonnen",
    "territory": "arrakeen",
    "sectors": None,
    "opponent": "atreides",
}


def _base() -> dict[str, Any]:
    """The cache-cards-later battle before it is chosen, neither cache card in any hand."""
    scenario = next(s for s in load_scenarios() if s.id == "battle/cache-cards-reopening-hidden-from-other-viewers")
    assert scenario.request is not None
    snapshot = copy.deepcopy(dict(scenario.request["snapshot"]))
    for faction in snapshot["factions"].values():
        faction["hand"] = [c for c in faction["hand"] if c not in (*CACHE_CARDS, *FILLERS)]
    del snapshot["battle"]
    snapshot["pending"] = {
        "type": "battle-choice",
        "player": "harkonnen",
        "battles": [{"territory": "arrakeen", "sectors": None, "factions": ["harkonnen", "atreides"]}],
    }
    return snapshot


def _with_holder(base: dict[str, Any], hidden: str, holder: str | None) -> dict[str, Any]:
    snapshot = copy.deepcopy(base)
    for faction, filler in zip(sorted(snapshot["factions"]), FILLERS, strict=True):
        snapshot["factions"][faction]["hand"].append(hidden if faction == holder else filler)
    return snapshot


def _answer_for(options: list[dict[str, Any]]) -> dict[str, Any]:
    """The same answer whoever holds the card: every window passed, the Voice and Prescience used."""
    for option in options:
        if option["type"] in ("pass-pre-battle-cards", "karama-pass"):
            return option
    assert options
    return options[0]


def _play(snapshot: dict[str, Any], interpretations: Mapping[str, str] = UNTIL_PLANS) -> list[tuple[Action, Any]]:
    action = Action.from_dict(CHOOSE)
    steps: list[tuple[Action, Any]] = []
    current = snapshot
    for _ in range(40):
        ruling = adjudicate(load_snapshot(current), action, interpretations)
        steps.append((action, ruling))
        answer = ruling.to_dict()
        assert answer["status"] == "resolved", answer["violations"]
        decision = answer["next"]["decision"]
        if decision["type"] == "battle-plan":
            return steps
        current = answer["outcome"]["snapshot"]
        action = Action.from_dict(_answer_for(answer["next"]["options"]))
    raise AssertionError("the plans were never reached")


def _seen_by(steps: list[tuple[Action, Any]], viewer: str) -> str:
    shown = [{"action": action.to_dict(), "answer": for_viewer(ruling, viewer).to_dict()} for action, ruling in steps]
    return json.dumps(shown, sort_keys=True)


def _decisions(steps: list[tuple[Action, Any]]) -> list[tuple[str, str]]:
    return [(d["type"], d["player"]) for _, ruling in steps if (d := ruling.to_dict()["next"]["decision"]) is not None]


@pytest.mark.parametrize("hidden", CACHE_CARDS)
def test_the_reopened_window_is_the_same_whoever_holds_the_card(hidden: str) -> None:
    base = _base()
    factions = sorted(base["factions"])
    played = {holder: _play(_with_holder(base, hidden, holder)) for holder in (None, *factions)}
    for viewer in factions:
        seen = {holder: _seen_by(steps, viewer) for holder, steps in played.items() if holder != viewer}
        for holder, text in seen.items():
            assert text == seen[None], f"{viewer} can tell {holder} holds the {hidden}"
    for holder, steps in played.items():
        kinds = [kind for kind, _ in _decisions(steps)]
        # first, after the Voice, after the Prescience answer: each asks the aggressor then the defender
        windows = [player for kind, player in _decisions(steps) if kind == WINDOW]
        assert windows == ["harkonnen", "atreides"] * 3, (holder, windows)
        assert kinds.index("voice") < kinds.index(WINDOW, 2) < kinds.index("prescience-answer"), (holder, kinds)
        assert kinds[-3:] == [WINDOW, WINDOW, "battle-plan"], (holder, kinds)


def test_under_before_voice_the_window_opens_once() -> None:
    steps = _play(_with_holder(_base(), "residual-poison", "atreides"), {"cache-cards-battle-timing": "before-voice"})
    windows = [player for kind, player in _decisions(steps) if kind == WINDOW]
    assert windows == ["harkonnen", "atreides"]
    assert "pre_battle_cards_after" not in steps[-1][1].to_dict()["outcome"]["snapshot"]["battle"]
