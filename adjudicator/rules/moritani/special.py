"""Moritani's advanced special Karama (supplied PDF, physical p.35): after losing a battle, an unspent
native Moritani may spend one Karama card to force its winning opponent to keep and/or discard any of
the cards the winner played.

The opportunity comes before the winner's own card choice. Compulsory discards (Cheap Hero, a used
Poison Tooth, an Artillery Strike) have already happened, so a forced keep can only target a card the
winner could ordinarily keep: that precedence is the register's provisional ordering (question
moritani-special-karama-precedence). Cards left unchanged stay with the winner's ordinary choice.

Whether the opportunity opens rests on public facts alone: the advanced game, Moritani the loser, its
power unspent (it is spent in the open) and a revealed card of the winner's left to force. Moritani's
hand does not count: a Moritani without a Karama is asked all the same and can only decline, so
neither the question nor a decline tells the other players whether it holds one (the decision's
`karama` and its options are Moritani's alone).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import card_kind
from adjudicator.core.decisions import SpecialKaramaDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import MORITANI, ActionType, DecisionType
from adjudicator.rules.state import NextSnapshot, finish


def _karamas(hand: Iterable[str]) -> list[str]:
    return [c for c in hand if card_kind(c) == "karama"]


def _karama_in_hand(state: NextSnapshot) -> list[str]:
    return _karamas(state.hand(MORITANI))


def _played(weapon: str | None, defense: str | None) -> list[str]:
    return [c for c in (weapon, defense) if c is not None]


def _winner_cards(state: NextSnapshot, winner: str) -> list[str]:
    return _played(state.plan_card(winner, "weapon"), state.plan_card(winner, "defense"))


@rule("moritani.special-karama.opportunity")
def special_karama_opportunity(snapshot: Snapshot, state: NextSnapshot, winner: str | None, loser: str | None) -> bool:
    return (
        loser == MORITANI
        and winner is not None
        and not state.special_karama_used(MORITANI)
        and bool(_winner_cards(state, winner))
    )


@rule("moritani.special-karama.asked-always")
def asked_whatever_the_hand() -> None:
    pass


def special_karama_step(snapshot: Snapshot, state: NextSnapshot, winner: str | None, loser: str | None) -> bool:
    """Called by the battle resolution, after the compulsory discards: whether to open the opportunity."""
    if not snapshot.ruleset.advanced or MORITANI not in snapshot.factions or loser != MORITANI:
        return False
    if not special_karama_opportunity(snapshot, state, winner, loser):
        return False
    asked_whatever_the_hand()
    compulsory_discards_first()
    return True


@rule("moritani.special-karama.compulsory-first")
def compulsory_discards_first() -> None:
    pass


def _decision(state: NextSnapshot) -> dict[str, Any]:
    winner = state.winner
    assert winner is not None
    territory = state.battle_territory
    eligible, karama = tuple(_winner_cards(state, winner)), tuple(_karama_in_hand(state))
    record = SpecialKaramaDecision(
        owner=MORITANI, opponent=winner, territory=territory, eligible=eligible, karama=karama
    )
    return opened(MORITANI, record)


def special_karama_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """Decline, or spend one Karama with disjoint forced-keep and forced-discard sets (not both empty);
    with no Karama in hand, decline alone."""
    record = decision.as_(SpecialKaramaDecision)
    cards = list(record.eligible)
    options: list[dict[str, Any]] = [
        {"type": ActionType.FORCE_WINNER_CARDS.value, "player": MORITANI, "card": None, "keep": [], "discard": []}
    ]
    for karama in record.karama:
        for assignment in itertools.product(("keep", "discard", None), repeat=len(cards)):
            keep = [c for c, a in zip(cards, assignment, strict=True) if a == "keep"]
            discard = [c for c, a in zip(cards, assignment, strict=True) if a == "discard"]
            if keep or discard:
                options.append(
                    {
                        "type": ActionType.FORCE_WINNER_CARDS.value,
                        "player": MORITANI,
                        "card": karama,
                        "keep": keep,
                        "discard": discard,
                    }
                )
    return options


@rule("moritani.special-karama.force")
def force_winner_cards(state: NextSnapshot, winner: str, karama: str, keep: list[str], discard: list[str]) -> None:
    state.discard_from_hand(MORITANI, karama)
    state.spend_special_karama(MORITANI)
    state.event("card-discarded", "moritani.special-karama.force", faction=MORITANI, card=karama, karama=True)
    for slot in ("weapon", "defense"):
        card = state.plan_card(winner, slot)
        if card in keep:
            state.return_to_hand(winner, slot, "moritani.special-karama.force")
        elif card in discard:
            state.discard_from_plan(winner, slot, "moritani.special-karama.force")


@rule("moritani.special-karama.decline")
def decline_special_karama() -> None:
    pass


@ruled(answers(DecisionType.MORITANI_SPECIAL_KARAMA.value))
def answer_special_karama(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    winner = state.winner
    assert winner is not None
    karama = action.fields.get("card")
    keep, discard = list(action.fields.get("keep") or ()), list(action.fields.get("discard") or ())
    if karama is not None:
        force_winner_cards(state, winner, str(karama), keep, discard)
    else:
        decline_special_karama()
    state.step_done()
    if state.step == DecisionType.WINNER_CARDS.value and not _winner_cards(state, winner):
        state.step_done()  # nothing left for the winner to choose
    summary = {"special_karama": {"spent": karama, "keep": keep, "discard": discard}}
    return finish(snapshot, state, {"moritani": summary}, trace, context)


def special_karama_cards(snapshot: Snapshot) -> list[str]:
    """The Karama cards Moritani could spend on its special Karama."""
    return _karamas(snapshot.factions[MORITANI].hand)


def forceable_cards(snapshot: Snapshot, winner: str) -> list[str]:
    """The winner's played cards the special Karama can force it to keep or discard."""
    assert snapshot.battle is not None
    plan = snapshot.battle.plans[winner]
    return _played(plan.weapon, plan.defense)


DECLARED = RuleModule(
    handlers={
        ActionType.FORCE_WINNER_CARDS: answer_special_karama,
    },
    decisions={
        DecisionType.MORITANI_SPECIAL_KARAMA.value: DecisionKind(special_karama_options, self_contained=True),
    },
    steps={
        DecisionType.MORITANI_SPECIAL_KARAMA.value: _decision,
    },
    implements={
        "moritani-special-karama-precedence": ("compulsory-first",),
    },
)
