"""A viewer's resolve-battle tells nothing of another side's hand.

Each case starts from a fixture whose revealed plan a hand-reading check would refuse (a standing
Voice broken while the side held the commanded kind, a leaderless plan while it held a Cheap Hero) and
rules resolve-battle again and again, the hidden card in a different faction's hand each time or in
nobody's; every hand keeps its size, a Worthless card standing in for the hidden one. Every viewer but
the side itself must get the very same answer, byte for byte, whoever else holds the card (its own
hand aside); the side's own view and the referee's (no viewer) do see the difference, so the
comparison is not between answers that cannot differ.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from adjudicator import Action, adjudicate, load_snapshot
from adjudicator.scenarios import load_scenarios

FILLERS = ("baliset", "la-la-la", "kulon", "trip-to-gamont", "jubba-cloak")
SIDE = "atreides"

CASES = {
    # a standing "play poison-weapon" broken: whether the side held a poison weapon
    "voice": ("battle/resolve-voice-other-viewer-not-told-the-hand", "gom-jabbar", "voice-disobeyed"),
    # a plan with neither leader nor Cheap Hero, every leader in the Tanks: whether it held a Cheap Hero
    "cheap-hero": ("battle/resolve-other-viewer-not-told-of-a-cheap-hero", "cheap-hero", "leader-required"),
}


def _base(scenario_id: str, hidden: str) -> dict[str, Any]:
    scenario = next(s for s in load_scenarios() if s.id == scenario_id)
    assert scenario.request is not None
    snapshot = copy.deepcopy(dict(scenario.request["snapshot"]))
    for faction in snapshot["factions"].values():
        faction["hand"] = [c for c in faction["hand"] if c != hidden and c not in FILLERS]
    return snapshot


def _with_holder(base: dict[str, Any], hidden: str, holder: str | None) -> dict[str, Any]:
    snapshot = copy.deepcopy(base)
    for faction, filler in zip(sorted(snapshot["factions"]), FILLERS, strict=False):
        snapshot["factions"][faction]["hand"].append(hidden if faction == holder else filler)
    return snapshot


def _answer(snapshot: dict[str, Any], viewer: str | None) -> str:
    ruling = adjudicate(load_snapshot(snapshot), Action.from_dict({"type": "resolve-battle"}), {}, viewer)
    return json.dumps(ruling.to_dict(), sort_keys=True)


@pytest.mark.parametrize("case", sorted(CASES))
def test_resolve_battle_is_the_same_for_other_viewers_whoever_holds_the_card(case: str) -> None:
    scenario_id, hidden, code = CASES[case]
    base = _base(scenario_id, hidden)
    factions = sorted(base["factions"])
    holders = (None, *factions)
    snapshots = {holder: _with_holder(base, hidden, holder) for holder in holders}
    for viewer in factions:
        if viewer == SIDE:
            continue
        # the viewer's own hand shows the card when it holds it
        seen = {holder: _answer(snapshot, viewer) for holder, snapshot in snapshots.items() if holder != viewer}
        assert len(set(seen.values())) == 1, f"{case}: {viewer} can tell who holds the {hidden}"
        assert json.loads(seen[None])["status"] == "resolved"
    # the side itself and the referee tell the two hands apart: the check does read the hand for them
    for viewer in (SIDE, None):
        held = json.loads(_answer(snapshots[SIDE], viewer))
        assert held["status"] == "illegal" and [v["code"] for v in held["violations"]] == [code], (viewer, held)
        assert json.loads(_answer(snapshots[None], viewer))["status"] == "resolved", viewer
