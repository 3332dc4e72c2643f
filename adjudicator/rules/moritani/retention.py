"""Moritani's alliance power: the defeated ally keeps one played card (E3 p.6; FAQ Nov 2020 pp.7-8).

When Moritani's ally loses a battle that has a winner, its played cards stay reserved in its plan
(not discarded) while the winner's cleanup runs; then the ally may keep one card that a winner could
have kept. Declaring a card opens a Karama window: Karama can stop an alliance ability, so any other
holder of a Karama card (and, in the advanced game, the Bene Gesserit with a Worthless card) may
cancel it, asked one at a time in storm order; Moritani cannot cancel its own power. Declined or
cancelled, every played card is discarded once; otherwise the kept card returns to the ally's hand.

Two orderings are the register's questions. retention-karama-timing: by default the ally names its
card and the window follows (declining opens none); under karama-before-declaration the window opens
first, whenever the ally could keep a card (a public fact, so whether it opens tells nothing of the
ally's intent or anyone's hand), a cancellation discards everything before any card is named, and
once it closes unstopped the ally's choice settles at once. The record keeps that reading
(`karama_timing`), so a saved snapshot goes on as it began. retention-continuation-order: by default
the retention comes before the Harkonnen capture and a Face Dancer reveal of the same battle; under
continuations-first it comes after them, the played cards staying reserved meanwhile. CHOAM's share of
the support is paid as the battle resolves under either reading, and technology transfer is not
modelled (Tech Tokens are not), so neither moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.decisions import RetentionDecision, RetentionKaramaDecision, opened
from adjudicator.core.records import RetentionRecord
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, found, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import MORITANI, ActionType, CardCategory, DecisionType, FactionId
from adjudicator.rules.cards import can_retain_battle_card
from adjudicator.rules.semuta import semuta_at_large
from adjudicator.rules.state import NextSnapshot, finish

TRAITOR_QUESTION = "retention-traitor-mandatory-cards"
SEMUTA_QUESTION = "retention-semuta-batches"
TIMING_QUESTION = "retention-karama-timing"
KARAMA_FIRST = "karama-before-declaration"
CONTINUATION_QUESTION = "retention-continuation-order"
CONTINUATIONS_FIRST = "continuations-first"


@rule("moritani.retention.opportunity")
def retention_opportunity(snapshot: Snapshot, winner: str | None, loser: str | None) -> bool:
    if winner is None or loser is None or loser == MORITANI:
        return False
    return snapshot.factions[loser].ally == MORITANI


def _applies(snapshot: Snapshot, winner: str | None, loser: str | None) -> bool:
    """Whether to run (and record) the opportunity rule at all: only where Moritani is allied."""
    moritani = snapshot.factions.get(MORITANI)
    if moritani is None or moritani.ally is None or "ecaz-moritani" not in snapshot.ruleset.expansions:
        return False
    return retention_opportunity(snapshot, winner, loser)


@rule("moritani.retention.eligible-cards")
def eligible_cards(played: list[str], used: set[str], decided_by_traitor: bool, choice: str) -> list[str]:
    eligible = []
    for card in played:
        if decided_by_traitor and card_kind(card) in ("poison-tooth", "artillery-strike"):
            if choice == "always-ineligible":
                continue
            if can_retain_battle_card(card, used=card in used, decided_by_traitor=True):
                eligible.append(traitor_exception_for_ally(card))
            continue
        if can_retain_battle_card(card, used=card in used, decided_by_traitor=decided_by_traitor):
            eligible.append(card)
    return eligible


@rule("moritani.retention.traitor-exception")
def traitor_exception_for_ally(card: str) -> str:
    return card


def retention_step(
    snapshot: Snapshot,
    state: NextSnapshot,
    winner: str | None,
    loser: str | None,
    used: set[str],
    decided_by_traitor: bool,
    interpretations: dict[str, str],
) -> RetentionRecord | None:
    """Called by the battle resolution: the retention record, or None when there is no opportunity."""
    if not _applies(snapshot, winner, loser):
        return None
    assert loser is not None
    slots = ("cheap_hero", "weapon", "defense")
    plan = {slot: state.plan_card(loser, slot) for slot in slots}
    played = [c for c in plan.values() if c is not None]
    choice = choice_of(interpretations, TRAITOR_QUESTION)
    eligible = eligible_cards(played, used, decided_by_traitor, choice) if played else []
    if not eligible:
        return None  # nothing it could keep: its cards are discarded as any loser's
    ineligible = [c for c in played if c not in eligible]
    batches = choice_of(interpretations, SEMUTA_QUESTION)
    # Without a Semuta Drug at large (none in the ruleset, or every copy in the discard pile: public
    # facts, never who holds one) the discard timing changes nothing: the never-keepable cards go with
    # the battle's discards. With one, the batch they join is the register's open ordering.
    early = ineligible if ineligible and (not semuta_at_large(state) or initial_batch(batches)) else []
    for slot in slots:
        if plan[slot] in early:
            state.discard_from_plan(loser, slot, "battle.cards.loser-discards")
    reserved = [c for c in played if c not in early]
    state.event("cards-reserved", "moritani.retention.opportunity", faction=loser, cards=reserved)
    # the declared card is recorded (as none yet) from the start
    record = RetentionRecord(loser, tuple(played), tuple(eligible)).with_(card=None)
    if choice_of(interpretations, TIMING_QUESTION) == KARAMA_FIRST:
        record = karama_before_declaration(state, record)
    return record


def karama_before_declaration(state: NextSnapshot, record: RetentionRecord) -> RetentionRecord:
    """The window is set to ask everyone before any card is named; the record keeps the reading."""
    window_before_declaration()
    return record.with_(responders=tuple(retention_window(_responders(state))), karama_timing=KARAMA_FIRST)


@rule("moritani.retention.karama-before-declaration")
def window_before_declaration() -> None:
    pass


def opening_step(record: RetentionRecord) -> str:
    """The retention's first cleanup step: the ally's choice, or its Karama window when that comes first."""
    if record.karama_timing == KARAMA_FIRST:
        return DecisionType.RETENTION_KARAMA.value
    return DecisionType.MORITANI_RETENTION.value


def retention_last(interpretations: Mapping[str, str]) -> bool:
    """Whether the retention follows the capture and the Face Dancer reveal (question
    retention-continuation-order); the rule it rests on is traced where both meet (`continuation_order`)."""
    return choice_of(interpretations, CONTINUATION_QUESTION) == CONTINUATIONS_FIRST


def continuation_order(last: bool) -> None:
    """The retention meets a capture or a Face Dancer reveal of the same battle: the rule of its place."""
    if last:
        retention_after_continuations()
    else:
        retention_before_capture()


@rule("moritani.retention.before-continuations")
def retention_before_capture() -> None:
    pass


@rule("moritani.retention.after-continuations")
def retention_after_continuations() -> None:
    pass


@rule("moritani.retention.semuta-batches")
def initial_batch(choice: str) -> bool:
    return choice == "split-batches"


def _retention(state: NextSnapshot) -> RetentionRecord:
    record = state.retention
    assert record is not None
    return record


def _retention_decision(state: NextSnapshot) -> dict[str, Any]:
    record = _retention(state)
    return opened(record.player, RetentionDecision(owner=MORITANI, played=record.played, eligible=record.eligible))


def _window_decision(state: NextSnapshot) -> dict[str, Any]:
    record = _retention(state)
    responder = record.responders[0]
    eligible = tuple(held_karamas(state, responder))
    return opened(
        responder, RetentionKaramaDecision(owner=MORITANI, ally=record.player, card=record.card, eligible=eligible)
    )


def usable_as_karama(hand: Sequence[str], faction: str, advanced: bool) -> list[str]:
    """Cards of this hand the faction can play as a Karama: Karama cards, and for the advanced Bene
    Gesserit Worthless cards too."""
    usable = [c for c in hand if card_kind(c) == "karama"]
    if faction == FactionId.BENE_GESSERIT.value and advanced:
        usable += [c for c in hand if catalog().cards[card_kind(c)].category is CardCategory.WORTHLESS]
    return usable


def held_karamas(state: NextSnapshot, faction: str) -> list[str]:
    """The cards a faction can play as a Karama in the next snapshot."""
    return usable_as_karama(state.hand(faction), faction, state.advanced)


def _responders(state: NextSnapshot) -> list[str]:
    """Every faction but Moritani is asked, holder or not, so the window reveals nobody's hand."""
    return [f for f in state.storm_order if f != MORITANI]


KEPT_BY_CHOICE = "moritani.retention.choose-one-or-none"
# a card kept once its Karama window has passed rests on the window's provisional ordering
KEPT_AFTER_WINDOW = "moritani.retention.karama-pass"
# a card named after the window closed (karama-before-declaration) rests on that reading
KEPT_AFTER_EARLY_WINDOW = "moritani.retention.karama-before-declaration"


@rule("moritani.retention.discard-unkept")
def discard_unkept(state: NextSnapshot, ally: str, keep: str | None, kept_by: str = KEPT_BY_CHOICE) -> None:
    for slot in ("cheap_hero", "weapon", "defense"):
        card = state.plan_card(ally, slot)
        if card is not None and card == keep:
            state.return_to_hand(ally, slot, kept_by)
        else:
            state.discard_from_plan(ally, slot, "moritani.retention.discard-unkept")


def _settle(state: NextSnapshot, record: RetentionRecord, keep: str | None, kept_by: str = KEPT_BY_CHOICE) -> None:
    discard_unkept(state, record.player, keep, kept_by)
    state.step_done()


@ruled(answers(DecisionType.MORITANI_RETENTION.value))
def retain_card(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    card = action.fields.get("card")
    record = _retention(state)
    if record.karama_timing == KARAMA_FIRST:
        return _choose_after_window(snapshot, state, record, card, context, trace)
    if card is None:
        _settle(state, record, None)
        return finish(
            snapshot,
            state,
            {"moritani": {"retention": {"faction": record.player, "kept": None}}},
            trace,
            context,
        )
    record = record.with_(card=card)
    responders = declare_retention(state, card)
    if not responders:
        state.set_retention(record)
        _settle(state, record, card)
        summary = {"retention": {"faction": record.player, "kept": card}}
    else:
        state.set_retention(record.with_(responders=tuple(responders)))
        state.step_becomes(DecisionType.RETENTION_KARAMA.value)
        summary = {"retention": {"faction": record.player, "declared": card}}
    return finish(snapshot, state, {"moritani": summary}, trace, context)


def _choose_after_window(
    snapshot: Snapshot, state: NextSnapshot, record: RetentionRecord, card: str | None, context: Context, trace: Trace
) -> Adjudication:
    """Under karama-before-declaration the window has closed unstopped: the named card (or none) is
    settled at once, with no window of its own."""
    window_before_declaration()
    chosen = record.with_(card=card)
    state.set_retention(chosen)
    _settle(state, chosen, card, KEPT_AFTER_EARLY_WINDOW)
    summary = {"retention": {"faction": record.player, "kept": card}}
    return finish(snapshot, state, {"moritani": summary}, trace, context)


@rule("moritani.retention.karama-window")
def retention_window(responders: list[str]) -> list[str]:
    return responders  # the factions still to be asked, in the window's order


def declare_retention(state: NextSnapshot, card: str) -> list[str]:
    responders = retention_window(_responders(state))
    state.event("retention-declared", "moritani.retention.karama-window", card=card, responders=responders)
    return responders


@rule("moritani.retention.karama-cancels")
def cancel_retention(state: NextSnapshot, faction: str, karama: str) -> None:
    state.discard_from_hand(faction, karama)
    state.event("card-discarded", "moritani.retention.karama-cancels", faction=faction, card=karama, karama=True)
    state.add_to_batch(faction, karama)  # a fresh discard, before the ally's cards


def reserved_cards(snapshot: Snapshot) -> tuple[str | None, list[str]]:
    """The faction whose played cards are reserved for its retention choice, and those cards."""
    battle = snapshot.battle
    record = battle.resolution.retention if battle is not None and battle.resolution is not None else None
    if record is None:
        return None, []
    owner = record.player
    plan = battle.plans.get(owner or "") if battle is not None else None
    in_plan = set(plan.cards) if plan is not None else set()
    # reserved while they wait in the plan for the choice; settled cards are ordinary cards again
    return owner, [c for c in record.played if c in in_plan]


@rule("moritani.retention.reserved")
def reservation_violation(faction: str | None, card: str, path: str) -> Violation:
    return Violation(
        "card-reserved",
        f"{card} is reserved for {faction}'s retention choice until it settles",
        path,
        "moritani.retention.reserved",
    )


def _reserved_karama(snapshot: Snapshot, action: Action) -> Violation | None:
    """A Karama reserved for the retention itself cannot cancel it."""
    owner, reserved = reserved_cards(snapshot)
    card = action.fields.get("card")
    if action.type is ActionType.KARAMA_CANCEL and card in reserved:
        return reservation_violation(owner, str(card), "/action/card")
    return None


@rule("moritani.retention.karama-pass")
def pass_retention_karama(record: RetentionRecord) -> RetentionRecord:
    return record.with_(responders=record.responders[1:])


@ruled(found(_reserved_karama), answers(DecisionType.RETENTION_KARAMA.value))
def karama_response(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    state = NextSnapshot(snapshot)
    record = _retention(state)
    if action.type is ActionType.KARAMA_CANCEL:
        retention_window(list(record.responders))  # the window's order brought the card in
        if record.karama_timing == KARAMA_FIRST:
            window_before_declaration()  # cancelled before any card is named
        cancel_retention(state, action.player, str(action.fields["card"]))
        _settle(state, record, None)
        summary = {"retention": {"faction": record.player, "kept": None, "cancelled_by": action.player}}
    else:
        record = pass_retention_karama(record)
        retention_window(list(record.responders))
        state.set_retention(record)
        if record.responders:
            summary = {"retention": {"faction": record.player, "declared": record.card, "passed": action.player}}
        elif record.karama_timing == KARAMA_FIRST:
            window_closed_before_declaration(state)
            summary = {"retention": {"faction": record.player, "declared": None, "passed": action.player}}
        else:
            _settle(state, record, record.card, KEPT_AFTER_WINDOW)
            summary = {"retention": {"faction": record.player, "kept": record.card}}
    return finish(snapshot, state, {"moritani": summary}, trace, context)


def window_closed_before_declaration(state: NextSnapshot) -> None:
    window_before_declaration()
    state.step_becomes(DecisionType.MORITANI_RETENTION.value)  # the ally now names its card, or none


def window_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.KARAMA_CANCEL.value, "player": player, "card": card}
        for card in decision.as_(RetentionKaramaDecision).eligible
    ]
    options.append({"type": ActionType.KARAMA_PASS.value, "player": player})
    return options


@rule("moritani.retention.choose-one-or-none")
def retention_options(decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.RETAIN_CARD.value, "player": player, "card": card}
        for card in decision.as_(RetentionDecision).eligible
    ]
    options.append({"type": ActionType.RETAIN_CARD.value, "player": player, "card": None})
    return options


def karama_cards(snapshot: Snapshot, faction: str) -> list[str]:
    """The cards a faction can play as a Karama now (the advanced Bene Gesserit's Worthless cards too)."""
    return usable_as_karama(snapshot.factions[faction].hand, faction, snapshot.ruleset.advanced)


DECLARED = RuleModule(
    handlers={
        ActionType.RETAIN_CARD: retain_card,
    },
    decisions={
        DecisionType.MORITANI_RETENTION.value: DecisionKind(
            lambda snapshot, decision: retention_options(decision), self_contained=True
        ),
        DecisionType.RETENTION_KARAMA.value: DecisionKind(window_options, self_contained=True),
    },
    steps={
        DecisionType.MORITANI_RETENTION.value: _retention_decision,
        DecisionType.RETENTION_KARAMA.value: _window_decision,
    },
    implements={
        SEMUTA_QUESTION: ("split-batches", "single-batch"),
        TRAITOR_QUESTION: ("apply-traitor-exception", "always-ineligible"),
        TIMING_QUESTION: ("declare-then-karama", KARAMA_FIRST),
        CONTINUATION_QUESTION: ("retention-first", CONTINUATIONS_FIRST),
    },
)
