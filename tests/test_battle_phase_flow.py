"""Whole Battle phases played from the listed options, from the end of Shipment and Movement until no
battle is left.

Each board holds several battles: a territory three factions share, a territory the storm divides,
the Polar Sink shared by several factions, and, in the advanced game, Bene Gesserit advisors beside
other factions. Every action taken is one of the options the previous answer listed (a battle plan's
dial may be raised within `dial_max`); `resolve-battle` is sent when both plans are locked and nothing
is pending, and an `unresolved` answer is asked again under the reading of its first alternative.
Every answer must be resolved, every next snapshot consistent, and cards and forces conserved; at the
end no territory outside the Polar Sink holds two factions that are not allies.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from adjudicator import Action, adjudicate, load_snapshot, registers
from adjudicator.core.catalog import catalog
from adjudicator.core.vocabulary import ActionType, RulingStatus, TerritoryType
from tests.test_battle_properties import card_places, force_totals

registers()

STEP_LIMIT = 400


def _stack(faction: str, territory: str, sector: int | None, regular: int, elite: int = 0) -> dict[str, Any]:
    return {"faction": faction, "territory": territory, "sector": sector, "regular": regular, "elite": elite}


def _faction(spice: int, reserves: int, hand: list[str], traitors: list[str], elite: int = 0) -> dict[str, Any]:
    return {
        "spice": spice,
        "reserves": {"regular": reserves, "elite": elite},
        "tanks": {"regular": 0, "elite": 0},
        "hand": hand,
        "traitors": traitors,
        "ally": None,
    }


def five_factions() -> dict[str, Any]:
    """Three factions in Arrakeen, the storm dividing False Wall East, Harkonnen and the Bene Gesserit
    in Carthag, the Emperor and the Fremen in the Polar Sink."""
    return {
        "format": "dune-snapshot/1",
        "ruleset": {"expansions": [], "advanced": False, "variants": []},
        "turn": 2,
        "phase": "shipment-movement",
        "storm_sector": 6,
        "storm_order": ["atreides", "harkonnen", "emperor", "fremen", "bene-gesserit"],
        "seed": 11,
        "factions": {
            "atreides": _faction(10, 15, ["crysknife", "baliset"], ["piter-de-vries"]),
            "harkonnen": _faction(10, 8, ["chaumas", "shield#1", "lasgun"], ["thufir-hawat", "bashar"]),
            "emperor": _faction(10, 8, ["snooper#1"], ["duncan-idaho"], elite=4),
            "fremen": _faction(3, 11, ["stunner", "cheap-hero"], ["alia"], elite=3),
            "bene-gesserit": _faction(5, 18, ["maula-pistol"], ["beast-rabban"]),
        },
        "forces": [
            _stack("atreides", "arrakeen", 9, 5),
            _stack("harkonnen", "arrakeen", 9, 4),
            _stack("emperor", "arrakeen", 9, 3),
            _stack("harkonnen", "false-wall-east", 4, 2),
            _stack("fremen", "false-wall-east", 5, 2),
            _stack("harkonnen", "false-wall-east", 8, 2),
            _stack("fremen", "false-wall-east", 7, 1),
            _stack("harkonnen", "carthag", 10, 4),
            _stack("bene-gesserit", "carthag", 10, 2),
            _stack("emperor", "polar-sink", None, 4, 1),
            _stack("fremen", "polar-sink", None, 3),
        ],
        "advisors": [],
        "board_spice": [],
        "discard": [],
        "battle": None,
        "pending": None,
    }


def advanced_with_advisors() -> dict[str, Any]:
    """The advanced game: support is paid, the Emperor and the Fremen are allies sharing Sietch Tabr
    with the Atreides, and Bene Gesserit advisors sit beside the Atreides in Tuek's Sietch."""
    raw = five_factions()
    raw["ruleset"]["advanced"] = True
    raw["factions"]["emperor"]["ally"] = "fremen"
    raw["factions"]["fremen"]["ally"] = "emperor"
    raw["factions"]["bene-gesserit"]["reserves"]["regular"] = 15
    raw["factions"]["atreides"]["reserves"]["regular"] = 11
    raw["forces"] += [
        _stack("atreides", "sietch-tabr", 13, 2),
        _stack("emperor", "sietch-tabr", 13, 2),
        _stack("fremen", "sietch-tabr", 13, 2),
        _stack("atreides", "tueks-sietch", 4, 2),
    ]
    raw["factions"]["emperor"]["reserves"]["regular"] = 6
    raw["factions"]["fremen"]["reserves"]["regular"] = 9
    raw["advisors"] = [{"territory": "tueks-sietch", "sector": 4, "count": 3}]
    return raw


def three_factions() -> dict[str, Any]:
    """Three factions, two of them meeting in two territories and all three in one."""
    raw = five_factions()
    for faction in ("fremen", "bene-gesserit"):
        del raw["factions"][faction]
    raw["storm_order"] = ["emperor", "harkonnen", "atreides"]
    raw["storm_sector"] = 1
    raw["forces"] = [
        _stack("atreides", "arrakeen", 9, 5),
        _stack("harkonnen", "arrakeen", 9, 4),
        _stack("emperor", "arrakeen", 9, 3),
        _stack("harkonnen", "carthag", 10, 4),
        _stack("atreides", "carthag", 10, 3),
        _stack("emperor", "polar-sink", None, 4, 1),
        _stack("atreides", "polar-sink", None, 2),
    ]
    raw["factions"]["atreides"]["reserves"]["regular"] = 10
    return raw


def _battle_left(wire: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Pairs of factions that are not allies sharing a territory outside the Polar Sink, whatever the
    storm (so the count is only a bound where the storm divides a territory)."""
    present: dict[str, set[str]] = {}
    for stack in wire["forces"]:
        if stack["regular"] + stack["elite"] > 0:
            present.setdefault(stack["territory"], set()).add(stack["faction"])
    pairs = []
    for territory, factions in present.items():
        place = catalog().territories.get(territory)
        if place is not None and place.type is TerritoryType.POLAR_SINK:
            continue
        ordered = sorted(factions)
        for i, one in enumerate(ordered):
            for other in ordered[i + 1 :]:
                if wire["factions"][one]["ally"] != other:
                    pairs.append((territory, one, other))
    return pairs


def _sectors_of(wire: dict[str, Any], faction: str, territory: str) -> set[int]:
    return {
        s["sector"]
        for s in wire["forces"]
        if s["faction"] == faction and s["territory"] == territory and s["regular"] + s["elite"] > 0
    }


def _sides(sectors: tuple[int, ...], storm: int) -> list[set[int]]:
    """A territory's runs of neighbouring sectors outside the storm (17 and 0 touch)."""
    sides: list[set[int]] = []
    for sector in (s for s in sectors if s != storm):
        if sides and (sector - 1) % 18 in sides[-1]:
            sides[-1].add(sector)
        else:
            sides.append({sector})
    if len(sides) > 1 and (min(sides[0]) - 1) % 18 in sides[-1]:
        sides[0] |= sides.pop()
    return sides


def _contested(wire: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The pairs still to battle, the storm's sides counted apart (sectors under the storm do not
    battle, the default reading)."""
    storm = wire["storm_sector"]
    found = []
    for territory, one, other in _battle_left(wire):
        place = catalog().territories[territory]
        if storm not in place.sectors:
            found.append((territory, one, other))
            continue
        mine, theirs = _sectors_of(wire, one, territory), _sectors_of(wire, other, territory)
        if any(side & mine and side & theirs for side in _sides(place.sectors, storm)):
            found.append((territory, one, other))
    return found


def _resolved(snapshot: dict[str, Any], action: dict[str, Any], readings: dict[str, str]) -> dict[str, Any]:
    """The answer to an action, asked again under an alternative's reading while it is unresolved."""
    for _ in range(6):
        answer = adjudicate(load_snapshot(snapshot), Action.from_dict(action), readings).to_dict()
        if answer["status"] != RulingStatus.UNRESOLVED.value:
            break
        readings = {**readings, **answer["alternatives"][0]["interpretations"]}
    assert answer["status"] == RulingStatus.RESOLVED.value, (action, answer["violations"])
    return answer


def _choose(rng: random.Random, decision: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    option = dict(rng.choice(options))
    if decision["type"] == "battle-plan" and decision.get("dial_max") is not None and rng.random() < 0.5:
        # the highest dial, with the most support it needs (advanced)
        option["dial"] = decision["dial_max"]
        if decision.get("spice_max") is not None and "spice" in option:
            option["spice"] = decision["spice_max"]
    return option


def play_battle_phase(raw: dict[str, Any], seed: int) -> tuple[int, dict[str, Any]]:
    """Play the phase from end-shipment-movement; the battles fought and the last snapshot."""
    rng = random.Random(seed)
    readings: dict[str, str] = {}
    wire = load_snapshot(raw).to_dict()
    cards, forces = card_places(wire), force_totals(wire)
    answer = _resolved(wire, {"type": ActionType.END_SHIPMENT_MOVEMENT.value}, readings)
    fought = 0
    for _ in range(STEP_LIMIT):
        after = answer["outcome"]["snapshot"]
        load_snapshot(after)  # every next snapshot is consistent
        assert card_places(after) == cards
        assert force_totals(after) == forces
        if answer["outcome"]["summary"].get("battle_chosen"):
            fought += 1
        decision, options = answer["next"]["decision"], answer["next"]["options"]
        if decision is not None:
            assert options, decision
            action = _choose(rng, decision, options)
        elif after["battle"] is not None and after["battle"].get("resolution") is None:
            action = {"type": ActionType.RESOLVE_BATTLE.value}
        else:
            assert after["battle"] is None and after["pending"] is None
            return fought, after
        answer = _resolved(after, action, readings)
    raise AssertionError("the Battle phase did not end")


BOARDS = {
    "five-factions": (five_factions, 5),
    "advanced-with-advisors": (advanced_with_advisors, 7),
    "three-factions": (three_factions, 3),
}


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_battle_phase_from_the_listed_options(board: str, seed: int) -> None:
    build, most = BOARDS[board]
    raw = build()
    before = _contested(load_snapshot(raw).to_dict())
    assert before, "the board holds battles"
    fought, last = play_battle_phase(raw, seed)
    assert _contested(last) == []
    # factions may stay together only where the storm separates them
    assert all(last["storm_sector"] in catalog().territories[t].sectors for t, _, _ in _battle_left(last))
    territories = {territory for territory, _, _ in before}
    assert len(territories) <= fought <= most


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_five_faction_phase_fights_each_separate_battle(seed: int) -> None:
    """Carthag and each side of False Wall East are battles of their own (three); Arrakeen, with three
    factions, is one battle or two (the winner of the first meets the third faction if it has forces
    left)."""
    fought, last = play_battle_phase(five_factions(), seed)
    assert fought in (4, 5)
    assert not any(s["territory"] == "polar-sink" for s in last["forces"] if s["faction"] == "atreides")
    assert {s["faction"] for s in last["forces"] if s["territory"] == "polar-sink"} == {"emperor", "fremen"}
