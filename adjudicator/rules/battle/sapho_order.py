"""Juice of Sapho's turn-order use: going first or last in the Battle phase's order of aggressors.

Whether the card may do so is question sapho-battle-order, which has no default. It is reached as the
Battle phase begins (`end-shipment-movement`, after Moritani's Duke Vidal check) while the board holds
a battle and a copy of the card is outside the discard pile: the one place of a copy every player can
tell (as for Semuta Drug), so the point is reached whoever holds it, and without a choice the answer
is `unresolved`, one alternative per reading.

Under aggressor-only the phase begins with storm order's first aggressor, and the card's battle use
is the defender's in the window before the Voice (`cache_cards`). Under first-or-last one window asks
every faction in storm order, holder or not, so that it opens and whom it asks show nobody's hand; a
faction without the card can only pass, and its `eligible` cards are its own. A play discards the card
and moves its player to the front or the back of the order of aggressors, kept in the snapshot's
`aggressor_order` for the rest of the phase, and closes the window: the ruleset holds one copy (the
Richese cache), now in the discard pile, so no second play can follow. After the last pass or the play
the first aggressor of the order in force chooses its battle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import card_kind, copies_in_play
from adjudicator.core.decisions import SaphoOrderDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import found, resolved, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.battle.aggressors import SAPHO_MAY_REORDER, SAPHO_QUESTION
from adjudicator.rules.battle.cache_cards import SAPHO
from adjudicator.rules.battle.order import battle_choice
from adjudicator.rules.state import NextSnapshot

WINDOW = DecisionType.SAPHO_ORDER.value
FIRST, LAST = "first", "last"
POSITIONS = (FIRST, LAST)


def sapho_at_large(snapshot: Snapshot) -> bool:
    """Whether a Juice of Sapho may be in some faction's hand, as every player can tell: a copy of the
    ruleset is outside the discard pile."""
    rs = snapshot.ruleset
    copies = copies_in_play(SAPHO, rs.expansions, rs.variants)
    return copies > sum(1 for card in snapshot.discard if card_kind(card) == SAPHO)


@rule("richese.sapho.storm-order-stands")
def storm_order_stands() -> None:
    pass  # traced where the question is reached and read aggressor-only


def order_may_change(choice: str) -> bool:
    """Question sapho-battle-order's reading: whether the card may reorder the aggressors."""
    if choice == SAPHO_MAY_REORDER:
        return True
    storm_order_stands()
    return False


@rule("richese.sapho.order-window")
def window_responders(storm_order: tuple[str, ...]) -> tuple[str, ...]:
    return storm_order


def sapho_cards(hand: tuple[str, ...]) -> tuple[str, ...]:
    """The copies of Juice of Sapho in a hand: the cards a faction asked in the window may play."""
    return tuple(card for card in hand if card_kind(card) == SAPHO)


def _asked(state: NextSnapshot, responders: tuple[str, ...]) -> dict[str, Any]:
    player = responders[0]
    return opened(player, SaphoOrderDecision(responders=responders[1:], eligible=sapho_cards(state.hand(player))))


def battle_phase_opening(state: NextSnapshot, interpretations: Mapping[str, str]) -> dict[str, Any] | None:
    """The Battle phase's first decision: the window on the card's turn-order use where question
    sapho-battle-order is reached and read first-or-last, else the first aggressor's battle-choice
    (None: the board holds no battle)."""
    snapshot = state.as_snapshot()
    first = battle_choice(snapshot, interpretations)
    if first is None or not sapho_at_large(snapshot):
        return first
    if not order_may_change(choice_of(interpretations, SAPHO_QUESTION)):
        return first
    return _asked(state, window_responders(state.storm_order))


def moved_order(storm_order: tuple[str, ...], faction: str, position: str) -> tuple[str, ...]:
    """Storm order with `faction` moved to its front (`first`) or its back (`last`)."""
    others = tuple(f for f in storm_order if f != faction)
    return (faction, *others) if position == FIRST else (*others, faction)


def window_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """A play to go first and one to go last for each copy the asked faction holds, and a pass."""
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.PLAY_SAPHO_ORDER.value, "player": player, "card": card, "position": position}
        for card in decision.as_(SaphoOrderDecision).eligible
        for position in POSITIONS
    ]
    options.append({"type": ActionType.PASS_SAPHO_ORDER.value, "player": player})
    return options


def _window_open(snapshot: Snapshot, action: Action) -> Violation | None:
    pending = snapshot.pending
    if pending is None or pending.type != WINDOW:
        return Violation("no-such-decision", "no window on Juice of Sapho's turn order is open", "/action/type")
    if action.player != pending.player:
        return Violation("not-your-decision", f"the window asks {pending.player}", "/action/player")
    return None


def _an_option(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    assert snapshot.pending is not None
    if action.to_dict() in window_options(snapshot, snapshot.pending):
        return []
    return [Violation("not-an-option", "the answer is not one of the window's options (see next.options)", "/action")]


def _read_first_or_last(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The window opens only under first-or-last; its answers cannot be read otherwise."""
    chosen = context.interpretations.get(SAPHO_QUESTION)
    if chosen is None or chosen == SAPHO_MAY_REORDER:
        return []
    return [
        Violation(
            "interpretation-mismatch",
            f"this window opened under {SAPHO_MAY_REORDER!r}; its answers cannot read the question otherwise",
            f"/interpretations/{SAPHO_QUESTION}",
            "richese.sapho.order-window",
        )
    ]


@rule("richese.sapho.order-play")
def reorder(state: NextSnapshot, faction: str, card: str, position: str) -> tuple[str, ...]:
    state.discard_from_hand(faction, card)
    state.event("card-discarded", "richese.sapho.order-play", faction=faction, card=card)
    order = moved_order(state.storm_order, faction, position)
    state.set_aggressor_order(order)
    state.event("aggressor-order-changed", "richese.sapho.order-play", faction=faction, position=position)
    return order


@rule("richese.sapho.order-once")
def window_closes() -> None:
    pass  # one copy in every ruleset: after the play, none is left outside the discard pile


@ruled(found(_window_open), _an_option, _read_first_or_last)
def answer_order_window(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert snapshot.pending is not None and action.player is not None
    if SAPHO_QUESTION not in context.interpretations:  # the answer follows the reading the window opened under
        context = context.under({SAPHO_QUESTION: SAPHO_MAY_REORDER})
    window = snapshot.pending.as_(SaphoOrderDecision)
    state = NextSnapshot(snapshot)
    decision: dict[str, Any] | None = None
    if action.type is ActionType.PASS_SAPHO_ORDER:
        summary: dict[str, Any] = {"passed": action.player}
        if window.responders:
            decision = _asked(state, window_responders(window.responders))
    else:
        position = str(action.fields["position"])
        order = reorder(state, action.player, str(action.fields["card"]), position)
        window_closes()
        summary = {"played": action.player, "position": position, "order": list(order)}
    if decision is None:
        decision = battle_choice(state.as_snapshot(), context.interpretations)
    state.set_pending(decision)
    options = context.rulebook.options(state.as_snapshot()) if decision is not None else []
    return resolved(state.outcome({"sapho_order": summary}), decision, options, trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.PLAY_SAPHO_ORDER: answer_order_window,
        ActionType.PASS_SAPHO_ORDER: answer_order_window,
    },
    decisions={WINDOW: DecisionKind(window_options, self_contained=True)},
    implements={SAPHO_QUESTION: ("first-or-last", "aggressor-only")},
)
