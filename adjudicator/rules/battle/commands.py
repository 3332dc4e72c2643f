"""What the Voice and Prescience bind in a plan: the kinds of card a Voice may name, whether a plan
obeys a command, and the plan fields of each Prescience element.

The commandable classes come from the catalog's card categories (one home for the fact); every
special weapon or defense of the ruleset is named by its kind. This module reads no state beyond
the catalog, so the plan checks (plans.py) and the Voice and Prescience modules share it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from adjudicator.core.catalog import card_kind, catalog, copies_in_play
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Plan, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import CardCategory

PLAY = "play"
NOT_PLAY = "not-play"
VOICE = "voice"
PRESCIENCE = "prescience"

# the card categories a Voice names as a class, by the subject's id
CLASS_SUBJECTS: Mapping[str, CardCategory] = MappingProxyType(
    {
        "poison-weapon": CardCategory.POISON_WEAPON,
        "projectile-weapon": CardCategory.PROJECTILE_WEAPON,
        "poison-defense": CardCategory.POISON_DEFENSE,
        "projectile-defense": CardCategory.PROJECTILE_DEFENSE,
        "worthless": CardCategory.WORTHLESS,
        "cheap-hero": CardCategory.LEADER_SUBSTITUTE,
    }
)
_NAMED = (CardCategory.SPECIAL_WEAPON, CardCategory.SPECIAL_DEFENSE)

# the plan fields each Prescience element discloses
ELEMENT_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"leader": ("leader", "cheap_hero"), "weapon": ("weapon",), "defense": ("defense",), "dial": ("dial",)}
)


@rule("battle.voice.subjects")
def voice_subjects(snapshot: Snapshot) -> list[str]:
    ruleset = snapshot.ruleset
    named = [
        kind.kind
        for kind in catalog().cards.values()
        if kind.category in _NAMED and copies_in_play(kind.kind, ruleset.expansions, ruleset.variants)
    ]
    return [*CLASS_SUBJECTS, *named]


def card_matches(card: str, subject: str) -> bool:
    """Whether a card is of the kind a Voice names: its class (by category) or its own kind."""
    kind = card_kind(card)
    category = CLASS_SUBJECTS.get(subject)
    if category is not None:
        return catalog().cards[kind].category is category
    return kind == subject


def obeys(plan: Plan, command: str, subject: str) -> bool:
    played = any(card_matches(card, subject) for card in plan.cards)
    return played if command == PLAY else not played


def command_slot(plan: Plan, command: str, subject: str) -> str:
    """The plan field a broken command points at: the slot holding the forbidden card, or the slot
    the commanded card would fill."""
    if command == NOT_PLAY:
        for slot in ("cheap_hero", "weapon", "defense"):
            card = getattr(plan, slot)
            if card is not None and card_matches(card, subject):
                return slot
    category = CLASS_SUBJECTS.get(subject)
    if category is CardCategory.LEADER_SUBSTITUTE:
        return "cheap_hero"
    if category in (CardCategory.POISON_DEFENSE, CardCategory.PROJECTILE_DEFENSE):
        return "defense"
    if category is None and subject in catalog().cards and "weapon" not in catalog().cards[subject].roles:
        return "defense"
    return "weapon"


def voice_in_force(battle: Battle, faction: str) -> tuple[str, str] | None:
    """The command binding this side's plan, if a Voice stands against it: (command, subject)."""
    voice = battle.voice
    if voice is None or voice.target != faction or battle.cancelled(VOICE, voice.player):
        return None
    return voice.command, voice.subject


def answer_in_force(battle: Battle, faction: str) -> Mapping[str, Any] | None:
    """The Prescience answer binding this side's plan, if one was given and stands."""
    record = battle.prescience
    if record is None or record.target != faction or record.answer is None:
        return None
    if battle.cancelled(PRESCIENCE, record.player):
        return None
    return record.answer


def element_of(plan: Plan, element: str) -> dict[str, Any]:
    """The plan's fields for one Prescience element, in their wire form."""
    wire = plan.to_dict()
    return {name: wire[name] for name in ELEMENT_FIELDS[element]}


def same_answer(plan: Plan, answer: Mapping[str, Any]) -> list[str]:
    """The plan fields that differ from a Prescience answer (a dial compared by value)."""
    wire = plan.to_dict()
    differ = []
    for name, value in answer.items():
        if name == "dial":
            if round(float(wire["dial"]) * 2) != round(float(value) * 2):
                differ.append(name)
        elif wire.get(name) != value:
            differ.append(name)
    return differ


@rule("battle.prelude.order")
def prelude_order() -> None:
    pass


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule()
