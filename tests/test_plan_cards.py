"""The CHOAM & Richese cache's battle weapons and the New Treachery Cards are offered in battle plans
(so the coverage generator, which plays the listed options, plays them), and the driver names the
Stone Burner's choice."""

from __future__ import annotations

import random

from adjudicator import load_snapshot
from adjudicator.rules.battle.plan_decision import legal_plans
from adjudicator.rules.battle.plans import ALLY_TRAITS, plan_combinations
from adjudicator.rules.skills import FACE_UP_EXCUSED

from .conftest import base_snapshot
from .test_coverage_tool import tool

CARDS = ("mirror-weapon", "stone-burner", "reinforcements", "harass-and-withdraw")


def _duel(reserves: int) -> dict:
    wire = base_snapshot("duel")
    wire["ruleset"] = {
        "expansions": ["ixians-tleilaxu", "choam-richese", "ecaz-moritani"],
        "advanced": False,
        "variants": ["ecaz-moritani-treachery-cards"],
    }
    wire["factions"]["atreides"]["hand"] = list(CARDS)
    wire["factions"]["atreides"]["reserves"] = {"regular": reserves, "elite": 0}
    return wire


def test_plan_combinations_offer_each_card_in_its_slots() -> None:
    snapshot = load_snapshot(_duel(10))
    assert snapshot.battle is not None
    combos = plan_combinations(snapshot, snapshot.battle, "atreides")
    weapons = {weapon for _, _, weapon, _ in combos}
    defenses = {defense for _, _, _, defense in combos}
    assert set(CARDS) <= weapons
    assert {"reinforcements", "harass-and-withdraw"} <= defenses
    assert not {"mirror-weapon", "stone-burner"} & defenses


def test_listed_plans_keep_reinforcements_to_sides_with_three_reserve_forces() -> None:
    for reserves, offered in ((3, True), (2, False)):
        snapshot = load_snapshot(_duel(reserves))
        assert snapshot.battle is not None
        options = legal_plans(snapshot, snapshot.battle, "atreides", ALLY_TRAITS, FACE_UP_EXCUSED)
        cards = {o["weapon"] for o in options} | {o["defense"] for o in options}
        assert ("reinforcements" in cards) is offered
        assert {"mirror-weapon", "stone-burner", "harass-and-withdraw"} <= cards


def test_the_driver_names_the_stone_burner_choice() -> None:
    wire = base_snapshot("duel")
    wire["battle"]["plans"]["atreides"]["weapon"] = "stone-burner"
    tool.traitor_calls(wire, random.Random(1))
    assert wire["battle"]["stone_burner"] in ("kill-leaders", "zero-leaders")
    plain = base_snapshot("duel")
    tool.traitor_calls(plain, random.Random(1))
    assert "stone_burner" not in plain["battle"]
