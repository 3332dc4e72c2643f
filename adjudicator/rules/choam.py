"""CHOAM's advanced special Karama: discard Treachery cards from its hand for 3 spice each.

Every faction's special Karama power is used once per game by discarding a Karama card (base
rulebook, advanced Karama). CHOAM's turns the cards it names into 3 spice each from the bank. Cards
reserved for Moritani's ally's retention choice cannot be cashed in.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import card_kind
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId
from adjudicator.rules.battle.plan_decision import kept_face_up, plan_decision
from adjudicator.rules.battle.plans import TRAITS_QUESTION
from adjudicator.rules.moritani.retention import held_karamas, reservation_violation, reserved_cards
from adjudicator.rules.state import NextSnapshot

CHOAM = FactionId.CHOAM.value
PRICE = 3


@rule("choam.special-karama.cash-in")
def cash_in(state: NextSnapshot, karama: str, cards: list[str]) -> int:
    for card in (karama, *cards):
        state.discard_from_hand(CHOAM, card)
        state.event("card-discarded", "choam.special-karama.cash-in", faction=CHOAM, card=card, karama=card == karama)
    state.spend_special_karama(CHOAM)
    state.pay_from_bank(CHOAM, PRICE * len(cards), "choam.special-karama.cash-in", "cards cashed in")
    return PRICE * len(cards)


def _refreshed_decision(state: NextSnapshot, context: Context) -> dict[str, Any] | None:
    """The open decision rebuilt from the new hands: a window or Semuta opportunity may have named a card
    CHOAM has just cashed in."""
    pending = state.pending
    if pending is None:
        return None
    step = state.step
    if step is not None:
        return context.rulebook.step_decision(step, state)
    if pending.get("type") == DecisionType.BATTLE_PLAN.value:
        # its limits count the decider's spice, which the cash-in may have raised
        following = state.as_snapshot()
        if following.battle is not None:
            traits = context.choice(TRAITS_QUESTION)
            return plan_decision(following, following.battle, pending["player"], traits, kept_face_up(pending))
    if pending.get("type") in (DecisionType.DUKE_VIDAL_KARAMA.value, DecisionType.BATTLE_KARAMA.value):
        return {**pending, "eligible": held_karamas(state, pending["player"])}
    return dict(pending)


@ruled()
def choam_cash_in(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    cards = [str(c) for c in action.fields.get("cards") or ()]
    karama = action.fields.get("card")
    owner, reserved = reserved_cards(snapshot)
    problems: list[Violation] = []
    rule_id = "choam.special-karama.cash-in"
    if action.player != CHOAM or CHOAM not in snapshot.factions:
        problems.append(Violation("not-choam", "only CHOAM has this power", "/action/player", rule_id))
    elif not snapshot.ruleset.advanced:
        problems.append(Violation("advanced-only", "special Karama powers are advanced rules", "/action/type", rule_id))
    elif snapshot.factions[CHOAM].special_karama_used:
        problems.append(
            Violation("special-karama-spent", "CHOAM's special Karama is used once per game", "/action/type", rule_id)
        )
    else:
        hand = snapshot.factions[CHOAM].hand
        if karama is None or card_kind(str(karama)) != "karama" or karama not in hand:
            problems.append(
                Violation(
                    "no-karama",
                    "the power is used by discarding a Karama card from the hand",
                    "/action/card",
                    rule_id,
                )
            )
        if not cards:
            problems.append(Violation("no-cards", "name at least one card to cash in", "/action/cards", rule_id))
        for i, card in enumerate(cards):
            if owner == CHOAM and card in reserved:
                problems.append(reservation_violation(owner, card, f"/action/cards/{i}"))
            elif card not in hand or card == karama or cards.count(card) > 1:
                problems.append(
                    Violation(
                        "card-not-in-hand", f"CHOAM does not hold {card} to cash in", f"/action/cards/{i}", rule_id
                    )
                )
    if problems:
        return illegal(snapshot, problems, trace, context)
    state = NextSnapshot(snapshot)
    paid = cash_in(state, str(karama), cards)
    pending = _refreshed_decision(state, context)
    state.set_pending(pending)
    following = state.as_snapshot()
    outcome = state.outcome({"choam": {"cashed_in": cards, "spice": paid}})
    return resolved(outcome, pending, context.rulebook.options(following), trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.CHOAM_CASH_IN: choam_cash_in,
    },
)
