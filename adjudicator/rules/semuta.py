"""Semuta Drug (a Richese cache card): take a Treachery card right after another player discards it.

In a battle's cleanup every batch of played cards one faction discards in a step is a fresh discard;
each batch gives one opportunity, offered to every faction but the discarder, one at a time in storm
order (the register's provisional ordering); the first to take a card from the batch spends its Semuta
Drug. With Moritani's ally losing, how the ally's cards form batches is the register's question
retention-semuta-batches: by default the cards it could never keep go out with the battle's first
batch and its unkept eligible cards form a later batch; the alternative reserves every played card
until its choice settles. The ally's retention pool stays the one fixed when the battle resolved.

Who holds a Semuta Drug is hidden, so the flow is built from public facts alone. The catalog says how
many copies a ruleset has (one, in the Richese cache of CHOAM & Richese, counted whenever that
expansion is in, Richese playing or not, as the snapshot checks count it); the snapshot places a card
in a hand, a battle plan or the discard pile, and records neither the deck nor the cache. Hands are
secret and a Semuta Drug is never a battle card, so the one public place of a copy is the discard
pile: a copy outside it may be in any faction's hand, the discarder's included, or in no hand at all.
An opportunity therefore opens for every batch while some copy is outside the discard pile, and asks
every faction but the discarder, holder or not; a faction without a Drug can only pass, and its
options (which show that) are its own. The batch closes when a card is taken, when the last asked
faction has passed, or when no card of the batch or no Semuta Drug is left outside the discard pile
(both public), never because the factions still to ask hold none. That an opportunity opens thus
tells nobody that anyone holds a Drug.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import card_kind
from adjudicator.core.decisions import SemutaOpportunity, opened
from adjudicator.core.records import SemutaBatch
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.state import NextSnapshot, finish

SEMUTA = "semuta-drug"


def _semuta_cards(hand: Iterable[str]) -> list[str]:
    # a plain prefix test before the catalog's
    return [c for c in hand if c.startswith(SEMUTA) and card_kind(c) == SEMUTA]


def semuta_at_large(state: NextSnapshot) -> bool:
    """Whether a Semuta Drug may be in some faction's hand, as every player can tell: a copy of the
    ruleset is outside the discard pile."""
    return state.copies_outside_discard(SEMUTA) > 0


@rule("richese.semuta.opportunity")
def semuta_opportunity(cards: tuple[str, ...]) -> bool:
    return bool(cards)


@rule("richese.semuta.asked-always")
def asked_whatever_the_hands() -> None:
    pass


@rule("richese.semuta.storm-order")
def semuta_responders(state: NextSnapshot, discarder: str) -> tuple[str, ...]:
    return tuple(f for f in state.storm_order if f != discarder)


def queue_opportunities(state: NextSnapshot) -> None:
    """After a battle step: one Semuta opportunity per fresh batch, while a Semuta Drug is at large."""
    if not semuta_at_large(state):
        state.drop_batches()
        return
    fresh = []
    for discarder, cards in state.take_batches():
        responders = semuta_responders(state, discarder) if semuta_opportunity(cards) else ()
        if responders:
            asked_whatever_the_hands()
            fresh.append(SemutaBatch(discarder, cards, responders))
    state.queue_semuta(fresh)
    if fresh:
        state.interrupt(DecisionType.SEMUTA_OPPORTUNITY.value)


def _decision(state: NextSnapshot) -> dict[str, Any]:
    head = state.semuta_queue[0]
    responder = head.responders[0]
    discard = state.discard_pile
    eligible = tuple(c for c in head.cards if c in discard)
    card = next(iter(_semuta_cards(state.hand(responder))), None)
    return opened(responder, SemutaOpportunity(owner=head.discarder, eligible=eligible, card=card))


def semuta_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    opportunity = decision.as_(SemutaOpportunity)
    takeable = opportunity.eligible if opportunity.card is not None else ()
    options: list[dict[str, Any]] = [
        {"type": ActionType.SEMUTA_TAKE.value, "player": player, "card": card} for card in takeable
    ]
    options.append({"type": ActionType.SEMUTA_PASS.value, "player": player})
    return options


@rule("richese.semuta.no-karama")
def take_stands() -> None:
    pass


@rule("richese.semuta.take")
def take_with_semuta(state: NextSnapshot, faction: str, card: str) -> None:
    take_stands()  # no Karama window follows the take
    semuta = _semuta_cards(state.hand(faction))[0]
    state.discard_from_hand(faction, semuta)
    state.take_from_discard(faction, card)
    state.event("card-taken", "richese.semuta.take", faction=faction, card=card, spent=semuta)


@rule("richese.semuta.pass")
def pass_semuta(queue: list[SemutaBatch]) -> list[SemutaBatch]:
    head, rest = queue[0], queue[1:]
    return [head.with_(responders=head.responders[1:]), *rest] if len(head.responders) > 1 else rest


@ruled(answers(DecisionType.SEMUTA_OPPORTUNITY.value))
def answer_semuta(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    state = NextSnapshot(snapshot)
    queue = list(state.semuta_queue)
    if action.type is ActionType.SEMUTA_TAKE:
        take_with_semuta(state, action.player, str(action.fields["card"]))
        queue.pop(0)
        summary: dict[str, Any] = {"taken": action.fields["card"], "by": action.player}
    else:
        queue = pass_semuta(queue)
        summary = {"passed": action.player}
    queue = _prune(state, queue)
    state.set_semuta_queue(queue)
    if not queue:
        state.step_done()
    return finish(snapshot, state, {"semuta": summary}, trace, context)


def _prune(state: NextSnapshot, queue: list[SemutaBatch]) -> list[SemutaBatch]:
    """Drop the batches closed on public facts: nobody left to ask, no card of the batch left in the
    discard pile, or no Semuta Drug left outside it. Who holds a Drug plays no part."""
    if not semuta_at_large(state):
        return []
    discard = state.discard_pile
    return [b for b in queue if b.responders and any(c in discard for c in b.cards)]


def semuta_cards(snapshot: Snapshot, faction: str) -> list[str]:
    """The Semuta Drugs a faction holds: the first is the one it would spend."""
    return _semuta_cards(snapshot.factions[faction].hand)


DECLARED = RuleModule(
    handlers={
        ActionType.SEMUTA_TAKE: answer_semuta,
        ActionType.SEMUTA_PASS: answer_semuta,
    },
    decisions={
        DecisionType.SEMUTA_OPPORTUNITY.value: DecisionKind(semuta_options, self_contained=True),
    },
    steps={
        DecisionType.SEMUTA_OPPORTUNITY.value: _decision,
    },
    after_discards=(queue_opportunities,),
)
