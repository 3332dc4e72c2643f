"""The plan checks of the cards played in place of a weapon or a defense (Reinforcements, Harass and
Withdraw) and the Stone Burner's choice after the reveal. Reads the snapshot only: the plan checks
(plans.py) call it, the resolution's helpers live in card_effects.py."""

from __future__ import annotations

from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Plan, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.rules.cards import HARASS_AND_WITHDRAW, REINFORCEMENTS, STONE_BURNER

REINFORCEMENTS_COST = 3  # forces it sends from the reserves to the Tanks
STONE_BURNER_CHOICES = ("kill-leaders", "zero-leaders")


def plan_slot_of(plan: Plan, kind: str) -> str | None:
    """The slot (`weapon` or `defense`) holding a card of this kind, or None."""
    for slot in ("weapon", "defense"):
        card = getattr(plan, slot)
        if card is not None and card_kind(card) == kind:
            return slot
    return None


def in_place_card_violations(snapshot: Snapshot, battle: Battle, faction: str, plan: Plan) -> list[Violation]:
    """The conditions of Reinforcements and Harass and Withdraw in a plan."""
    found: list[Violation] = []
    slot = plan_slot_of(plan, REINFORCEMENTS)
    if slot is not None:
        found += reinforcements_reserves(snapshot, faction, slot)
    slot = plan_slot_of(plan, HARASS_AND_WITHDRAW)
    if slot is not None:
        found += harass_not_on_homeworld(battle, faction, slot)
    return found


@rule("battle.card.reinforcements-reserves")
def reinforcements_reserves(snapshot: Snapshot, faction: str, slot: str) -> list[Violation]:
    reserves = snapshot.factions[faction].reserves
    if reserves.regular + reserves.elite >= REINFORCEMENTS_COST:
        return []
    return [
        Violation(
            "reinforcements-without-reserves",
            f"Reinforcements needs {REINFORCEMENTS_COST} of {faction}'s forces in its reserves",
            f"/snapshot/battle/plans/{faction}/{slot}",
            "battle.card.reinforcements-reserves",
        )
    ]


@rule("battle.card.harass-and-withdraw-homeworld")
def harass_not_on_homeworld(battle: Battle, faction: str, slot: str) -> list[Violation]:
    if catalog().factions[faction].homeworld != battle.territory:
        return []
    return [
        Violation(
            "harass-on-homeworld",
            "Harass and Withdraw is not played in a battle on its player's own homeworld",
            f"/snapshot/battle/plans/{faction}/{slot}",
            "battle.card.harass-and-withdraw-homeworld",
        )
    ]


def stone_burner_player(battle: Battle) -> str | None:
    """The side whose plan holds the Stone Burner (one copy exists), or None."""
    for faction in (battle.aggressor, battle.defender):
        plan = battle.plans.get(faction)
        if plan is not None and plan.weapon is not None and card_kind(plan.weapon) == STONE_BURNER:
            return faction
    return None


@rule("battle.card.stone-burner-choice")
def stone_burner_choice_violations(battle: Battle) -> list[Violation]:
    player = stone_burner_player(battle)
    path = "/snapshot/battle/stone_burner"
    if player is not None and battle.stone_burner is None:
        return [
            Violation(
                "stone-burner-choice-required",
                f"{player} played the Stone Burner: name its choice (kill-leaders or zero-leaders)",
                path,
                "battle.card.stone-burner-choice",
            )
        ]
    if player is None and battle.stone_burner is not None:
        return [
            Violation(
                "no-stone-burner",
                "no plan of this battle holds the Stone Burner",
                path,
                "battle.card.stone-burner-choice",
            )
        ]
    return []


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule()
