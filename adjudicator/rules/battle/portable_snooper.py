"""Portable Snooper added to a revealed plan (a Richese cache card, a poison defense).

Besides being played as a plan's defense, the card may be added once the plans are revealed by a
side that played no defense, under the same conditions as a defense in its plan: a leader or Cheap
Hero to play it with, and no standing Voice forbidding a poison defense (or the card by name). The
snapshot lists the sides adding one in `battle.portable_snooper`, as it lists traitor calls; the
addition is made in the open, so its checks read the side's hand for any viewer. `resolve-battle`
then moves the card from the hand into the plan's defense before resolving, and from there it is a
defense like any other: it stops a poison weapon, and is discarded or kept with the plan's cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from adjudicator.core.catalog import card_kind
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.rules.battle.commands import NOT_PLAY, card_matches, voice_in_force

PORTABLE_SNOOPER = "portable-snooper"
RULE = "richese.portable-snooper.after-reveal"


def _card_of(snapshot: Snapshot, faction: str) -> str | None:
    return next((c for c in snapshot.factions[faction].hand if card_kind(c) == PORTABLE_SNOOPER), None)


@rule("richese.portable-snooper.after-reveal")
def portable_snooper_violations(snapshot: Snapshot, battle: Battle) -> list[Violation]:
    found = []
    for i, faction in enumerate(battle.portable_snooper):
        path = f"/snapshot/battle/portable_snooper/{i}"
        plan = battle.plans[faction]
        card = _card_of(snapshot, faction)
        voice = voice_in_force(battle, faction)
        if plan.defense is not None:
            found.append(Violation("defense-already-played", f"{faction} already played a defense", path, RULE))
        elif plan.leader is None and plan.cheap_hero is None:
            found.append(
                Violation(
                    "cards-without-leader", f"{faction} played no leader or Cheap Hero to play it with", path, RULE
                )
            )
        elif card is None:
            found.append(Violation("no-portable-snooper", f"{faction} holds no Portable Snooper", path, RULE))
        elif voice is not None and voice[0] == NOT_PLAY and card_matches(card, voice[1], _readings(battle)):
            found.append(
                Violation("voice-disobeyed", f"the Voice forbids {faction} this card", path, "battle.voice.obey")
            )
    return found


def _readings(battle: Battle) -> Mapping[str, str] | None:
    return None if battle.voice is None else battle.voice.readings


def with_portable_snooper(snapshot: Snapshot) -> Snapshot:
    """The request's snapshot with each listed side's Portable Snooper moved from its hand into its
    plan's defense, and the list spent: the frozen values replaced, the request itself unchanged.
    Called once the checks above found nothing."""
    battle = snapshot.battle
    if battle is None or not battle.portable_snooper:
        return snapshot
    factions = dict(snapshot.factions)
    plans = dict(battle.plans)
    for faction in battle.portable_snooper:
        card = _card_of(snapshot, faction)
        assert card is not None
        hand = list(factions[faction].hand)
        hand.remove(card)
        factions[faction] = replace(factions[faction], hand=tuple(hand))
        plans[faction] = replace(plans[faction], defense=card)
    played = replace(battle, plans=MappingProxyType(plans), portable_snooper=())
    return replace(snapshot, factions=MappingProxyType(factions), battle=played, memo={})


DECLARED = RuleModule()
