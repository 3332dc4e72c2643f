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

# question battle-karama-redo: a cancelled Voice or Prescience may be used once more
REDO_QUESTION = "battle-karama-redo"
MAY_REDO = "may-redo"

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


# question voice-two-kind-cards: the classes a card of two kinds answers under either-class
TWO_KIND_QUESTION = "voice-two-kind-cards"
EITHER_CLASS = "either-class"
TWO_KIND_CLASSES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "poison-blade": ("poison-weapon", "projectile-weapon"),
        "shield-snooper": ("poison-defense", "projectile-defense"),
    }
)
# question voice-only-hero-forbidden: the Voice against the only hero is obeyed
HERO_QUESTION = "voice-only-hero-forbidden"
OBEY = "obey"
# question voice-play-cheap-hero-with-leaders: a side with leaders may play one instead
LEADERS_QUESTION = "voice-play-cheap-hero-with-leaders"
LEADERS_FIRST = "leaders-first"
# question prescience-cheap-hero-answer: a Cheap Hero is not the leader answer
CHEAP_HERO_ANSWER_QUESTION = "prescience-cheap-hero-answer"
NO_LEADER_ANSWER = "no-leader"


@rule("battle.voice.two-kind-cards")
def two_kind_classes(kind: str) -> tuple[str, ...]:
    return TWO_KIND_CLASSES.get(kind, ())


def card_matches(card: str, subject: str, readings: Mapping[str, str] | None = None) -> bool:
    """Whether a card is of the kind a Voice names: its class (by category) or its own kind."""
    kind = card_kind(card)
    category = CLASS_SUBJECTS.get(subject)
    if category is not None:
        if readings and readings.get(TWO_KIND_QUESTION) == EITHER_CLASS and subject in two_kind_classes(kind):
            return True
        return catalog().cards[kind].category is category
    return kind == subject


def obeys(plan: Plan, command: str, subject: str, readings: Mapping[str, str] | None = None) -> bool:
    played = any(card_matches(card, subject, readings) for card in plan.cards)
    return played if command == PLAY else not played


def command_slot(plan: Plan, command: str, subject: str, readings: Mapping[str, str] | None = None) -> str:
    """The plan field a broken command points at: the slot holding the forbidden card, or the slot
    the commanded card would fill."""
    if command == NOT_PLAY:
        for slot in ("cheap_hero", "weapon", "defense"):
            card = getattr(plan, slot)
            if card is not None and card_matches(card, subject, readings):
                return slot
    category = CLASS_SUBJECTS.get(subject)
    if category is CardCategory.LEADER_SUBSTITUTE:
        return "cheap_hero"
    if category in (CardCategory.POISON_DEFENSE, CardCategory.PROJECTILE_DEFENSE):
        return "defense"
    if category is None and subject in catalog().cards and "weapon" not in catalog().cards[subject].roles:
        return "defense"
    return "weapon"


@rule("battle.karama.redo")
def used_again() -> None:
    pass


def uses_cancelled(battle: Battle, power: str, target: str) -> int:
    """How many uses of a power Karama cards cancelled in this battle."""
    return sum(1 for use in battle.karama if use.power == power and use.target == target)


def power_available(battle: Battle, power: str, owner: str, readings: Mapping[str, str]) -> bool:
    """The Voice or Prescience not cancelled, or cancelled once where battle-karama-redo is may-redo."""
    cancelled = uses_cancelled(battle, power, owner)
    if not cancelled:
        return True
    if readings.get(REDO_QUESTION) == MAY_REDO and cancelled == 1:
        used_again()
        return True
    return False


def leader_instead(plan: Plan, command: str, subject: str, readings: Mapping[str, str]) -> bool:
    """Whether a plan playing a leader answers a command to play a Cheap Hero (recorded
    voice-play-cheap-hero-with-leaders leaders-first)."""
    return (
        readings.get(LEADERS_QUESTION) == LEADERS_FIRST
        and (command, subject) == (PLAY, "cheap-hero")
        and plan.leader is not None
    )


def voice_in_force(battle: Battle, faction: str) -> tuple[str, str] | None:
    """The command binding this side's plan, if a Voice stands against it: (command, subject)."""
    voice = battle.voice
    if voice is None or voice.target != faction:
        return None
    # a cancellation clears the record; one kept after it is a Voice used again (battle-karama-redo)
    if battle.cancelled(VOICE, voice.player) and voice.readings.get(REDO_QUESTION) != MAY_REDO:
        return None
    return voice.command, voice.subject


def hero_forbidden(battle: Battle, faction: str) -> bool:
    """Whether a standing Voice forbids this side its Cheap Hero even as its only hero
    (voice-only-hero-forbidden obey, recorded on the command)."""
    voice = battle.voice
    if voice is None or voice.readings.get(HERO_QUESTION) != OBEY:
        return False
    return voice_in_force(battle, faction) == (NOT_PLAY, "cheap-hero") and voice_obeyed_over_hero()


@rule("battle.voice.obeyed-over-hero")
def voice_obeyed_over_hero() -> bool:
    return True


def answer_in_force(battle: Battle, faction: str) -> Mapping[str, Any] | None:
    """The Prescience answers binding this side's plan, if given and standing (an earlier no-leader
    answer of the same use included)."""
    record = battle.prescience
    if record is None or record.target != faction:
        return None
    if battle.cancelled(PRESCIENCE, record.player) and record.readings.get(REDO_QUESTION) != MAY_REDO:
        return None
    if record.answer is None:
        found = None if record.earlier is None else record.earlier
    else:
        found = record.answer if record.earlier is None else {**record.earlier, **record.answer}
    if found is None or not hero_left_free(record.readings):
        return found
    # under no-leader a "no leader" answer binds the leader only: a Cheap Hero stays free
    if "leader" not in found or found["leader"] is not None:
        return found
    return {k: v for k, v in found.items() if k != "cheap_hero"}


def hero_left_free(readings: Mapping[str, str]) -> bool:
    """Whether a Cheap Hero is outside the leader answer (prescience-cheap-hero-answer no-leader,
    recorded on the Prescience)."""
    return readings.get(CHEAP_HERO_ANSWER_QUESTION) == NO_LEADER_ANSWER


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


def facing(snapshot: Snapshot, battle: Battle, faction: str) -> str | None:
    """The side a faction's battle power is used on: the opponent of the faction, or of its ally,
    when either fights this battle (None: neither does)."""
    if faction not in snapshot.factions:
        return None
    sides = (battle.aggressor, battle.defender)
    ally = snapshot.factions[faction].ally
    for friend in (faction, ally):
        if friend in sides:
            return sides[1] if friend == sides[0] else sides[0]
    return None


@rule("battle.prelude.order")
def prelude_order() -> None:
    pass


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule()
