"""Juice of Sapho's turn-order use (question sapho-battle-order, first-or-last).

The window as the Battle phase begins must open, ask and close on public facts alone: played out with
the card in each faction's hand in turn, or in nobody's, every pass taken, each faction not holding it
sees the very same answers. Once a faction has played it, every battle of the phase is chosen by the
first faction of the order it set with a battle left, until no battle is left, and the order stays in
every snapshot of the phase.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from adjudicator import Action, adjudicate, load_snapshot
from adjudicator.engine import for_viewer
from tests.test_battle_properties import card_places, force_totals

BOARD = Path(__file__).resolve().parent.parent / "scenarios" / "_snapshots" / "sapho-board.yaml"
FIRST_OR_LAST = {"sapho-battle-order": "first-or-last"}
SAPHO = "juice-of-sapho"
# one Worthless card a faction; the holder's gives way to the card, so hand sizes never change
FILLERS = {"atreides": "baliset", "harkonnen": "la-la-la", "emperor": "kulon"}
STEP_LIMIT = 300


def _board(holder: str | None) -> dict[str, Any]:
    snapshot: dict[str, Any] = yaml.safe_load(BOARD.read_text(encoding="utf-8"))
    for faction, state in snapshot["factions"].items():
        state["hand"] = [c for c in state["hand"] if c != SAPHO]
        state["hand"].append(SAPHO if faction == holder else FILLERS[faction])
    return snapshot


def _rule(snapshot: dict[str, Any], action: dict[str, Any]) -> Any:
    return adjudicate(load_snapshot(snapshot), Action.from_dict(action), FIRST_OR_LAST)


def _window_passed(holder: str | None) -> list[tuple[dict[str, Any], Any]]:
    """The phase begun and the window answered with a pass by each faction asked."""
    action: dict[str, Any] = {"type": "end-shipment-movement"}
    current = _board(holder)
    steps = []
    for _ in range(10):
        ruling = _rule(current, action)
        steps.append((action, ruling))
        answer = ruling.to_dict()
        assert answer["status"] == "resolved", answer["violations"]
        decision = answer["next"]["decision"]
        if decision["type"] != "sapho-order":
            return steps
        current = answer["outcome"]["snapshot"]
        action = {"type": "pass-sapho-order", "player": decision["player"]}
    raise AssertionError("the window did not close")


def _seen_by(steps: list[tuple[dict[str, Any], Any]], viewer: str) -> str:
    shown = [{"action": action, "answer": for_viewer(ruling, viewer).to_dict()} for action, ruling in steps]
    return json.dumps(shown, sort_keys=True)


def test_the_window_is_the_same_whoever_holds_the_card() -> None:
    played = {holder: _window_passed(holder) for holder in (None, *FILLERS)}
    for holder, steps in played.items():
        asked = [ruling.to_dict()["next"]["decision"]["player"] for _, ruling in steps[:-1]]
        assert asked == ["atreides", "harkonnen", "emperor"], holder  # every faction, in storm order
    for viewer in FILLERS:
        seen = {holder: _seen_by(steps, viewer) for holder, steps in played.items() if holder != viewer}
        assert len(set(seen.values())) == 1, f"{viewer} can tell who holds the Juice of Sapho"


def test_the_open_question_is_the_same_whoever_holds_the_card() -> None:
    """Without a choice the answer is unresolved, and its alternatives show nobody's hand either."""
    action = {"type": "end-shipment-movement"}
    answers = {
        holder: adjudicate(load_snapshot(_board(holder)), Action.from_dict(action)) for holder in (None, *FILLERS)
    }
    assert all(ruling.to_dict()["status"] == "unresolved" for ruling in answers.values())
    for viewer in FILLERS:
        seen = {
            holder: json.dumps(for_viewer(ruling, viewer).to_dict(), sort_keys=True)
            for holder, ruling in answers.items()
            if holder != viewer
        }
        assert len(set(seen.values())) == 1, f"{viewer} can tell who holds the Juice of Sapho"


def _play_out(snapshot: dict[str, Any], action: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """Play the phase on from `action`, every option drawn at random; the snapshots along the way."""
    rng = random.Random(seed)
    cards, forces = card_places(snapshot), force_totals(snapshot)
    seen = []
    for _ in range(STEP_LIMIT):
        answer = _rule(snapshot, action).to_dict()
        assert answer["status"] == "resolved", (action, answer["violations"])
        snapshot = answer["outcome"]["snapshot"]
        assert card_places(snapshot) == cards and force_totals(snapshot) == forces
        seen.append(snapshot)
        decision, options = answer["next"]["decision"], answer["next"]["options"]
        if decision is not None:
            action = dict(rng.choice(options))
        elif snapshot["battle"] is not None:
            action = {"type": "resolve-battle"}
        else:
            return seen
    raise AssertionError("the Battle phase did not end")


@pytest.mark.parametrize(("holder", "position"), [("emperor", "first"), ("atreides", "last"), ("harkonnen", "last")])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_battle_of_the_phase_follows_the_order_the_card_set(holder: str, position: str, seed: int) -> None:
    board = _board(holder)
    storm = list(board["storm_order"])
    order = (
        [holder, *(f for f in storm if f != holder)]
        if position == "first"
        else [*(f for f in storm if f != holder), holder]
    )
    # the window asks the factions before the holder, who pass
    current, action = board, {"type": "end-shipment-movement"}
    while True:
        answer = _rule(current, action).to_dict()
        current, decision = answer["outcome"]["snapshot"], answer["next"]["decision"]
        if decision["player"] == holder:
            break
        action = {"type": "pass-sapho-order", "player": decision["player"]}
    play = {"type": "play-sapho-order", "player": holder, "card": SAPHO, "position": position}
    seen = _play_out(current, play, seed)
    choices = 0
    for snapshot in seen:
        assert snapshot["aggressor_order"] == order  # kept for the whole phase
        pending = snapshot["pending"]
        if pending is not None and pending["type"] == "battle-choice":
            with_battles = {f for b in pending["battles"] for f in b["factions"]}
            assert pending["player"] == next(f for f in order if f in with_battles)
            choices += 1
    assert choices >= 2  # the comparison is not between empty runs


def test_the_card_played_first_by_the_first_faction_changes_nothing_but_is_recorded() -> None:
    board = _board("atreides")
    answer = _rule(board, {"type": "end-shipment-movement"}).to_dict()
    window = copy.deepcopy(answer["outcome"]["snapshot"])
    play = {"type": "play-sapho-order", "player": "atreides", "card": SAPHO, "position": "first"}
    after = _rule(window, play).to_dict()
    assert after["outcome"]["snapshot"]["aggressor_order"] == window["storm_order"]
    assert after["next"]["decision"]["player"] == "atreides"
