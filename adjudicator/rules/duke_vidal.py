"""Duke Prad Vidal: Moritani's acquisition at the end of Shipment and Movement (E3 pp.6, 9, 16).

`end-shipment-movement` checks, once, whether Moritani faces prospective battles in at least two
distinct strongholds (battles involving Ecaz do not count). Battle eligibility composes the ordinary
battle rules: allies do not battle, advisors alone do not battle, forces the storm separates (or,
by default, forces in the storm sector) do not battle, and the Polar Sink has no battles; the Hidden
Mobile Stronghold counts as a stronghold (register question duke-hms-stronghold). If eligible,
Moritani decides whether to take the Duke from whoever holds him; taking him opens a Karama window
(Karama may prevent the acquisition) before custody changes. A Duke held captive by the Harkonnen
(duke-moritani-custody) and Moritani meeting Ecaz and its ally together (duke-ecaz-co-occupied)
are questions the register leaves open: unless the request chooses, the answer is `unresolved`
with one alternative per combination of choices. Every answer here that begins the Battle phase may
reach question sapho-battle-order (`battle/sapho_order.py`), explored the same way where it is reached.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import wraps
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context, InterpretationNeeded, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import DukeVidalAcquisition, DukeVidalKarama, opened
from adjudicator.core.results import Adjudication, Alternative, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import Effect, found, illegal, resolved, ruled, unresolved
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import (
    ECAZ,
    HMS,
    MORITANI,
    ActionType,
    DecisionType,
    DukeStatus,
    Evidence,
    FactionId,
    Phase,
    TerritoryType,
)
from adjudicator.rules.battle.preconditions import STORM_QUESTION, storm_sector_battle
from adjudicator.rules.battle.sapho_order import battle_phase_opening
from adjudicator.rules.battle.sectors import sector_groups
from adjudicator.rules.moritani.retention import held_karamas
from adjudicator.rules.state import NextSnapshot, duke_in_custody


@rule("duke-vidal.acquisition.battle-eligibility")
def battle_exclusion(snapshot: Snapshot, territory: str, opponent: str, interpretations: Any) -> str | None:
    place = catalog().territories.get(territory)
    if place is not None and place.type is TerritoryType.POLAR_SINK:
        return "polar-sink"
    if snapshot.factions[MORITANI].ally == opponent:
        return "ally"
    if place is not None and snapshot.storm_sector in place.sectors:
        sectors = {
            f: {s.sector for s in snapshot.forces if s.faction == f and s.territory == territory}
            for f in (MORITANI, opponent)
        }
        in_storm = any(snapshot.storm_sector in placed for placed in sectors.values())
        if in_storm and not storm_sector_battle(choice_of(interpretations, STORM_QUESTION)):
            return "in-storm"
        groups = sector_groups(place.sectors, snapshot.storm_sector)
        if not in_storm and not any(g & sectors[MORITANI] and g & sectors[opponent] for g in groups):
            return "storm-separated"
    return None


@rule("duke-vidal.acquisition.no-ecaz-battles")
def involves_ecaz(opponent: str) -> bool:
    return opponent == ECAZ


HMS_QUESTION = "duke-hms-stronghold"
HMS_EXCLUDED = "hms-excluded"


@rule("duke-vidal.acquisition.hms")
def hms_counts(choice: str) -> bool:
    return choice != HMS_EXCLUDED


def _is_stronghold(territory: str, interpretations: Mapping[str, str]) -> bool:
    place = catalog().territories.get(territory)
    if place is None or place.type is not TerritoryType.STRONGHOLD:
        return False
    return hms_counts(choice_of(interpretations, HMS_QUESTION)) if territory == HMS else True


def prospective_battles(snapshot: Snapshot, interpretations: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Moritani's prospective battles after movement: (qualifying, excluded with reasons)."""
    qualifying: list[dict[str, Any]] = []
    excluded: list[dict[str, Any]] = []
    territories = sorted({s.territory for s in snapshot.forces if s.faction == MORITANI})
    for territory in territories:
        present = sorted({s.faction for s in snapshot.forces if s.territory == territory and s.faction != MORITANI})
        for opponent in present:
            reason = battle_exclusion(snapshot, territory, opponent, interpretations)
            if reason is None and involves_ecaz(opponent):
                reason = "ecaz"
            shared = reason is None and ECAZ in present and snapshot.factions[ECAZ].ally == opponent
            if shared and ally_battle_involves_ecaz(interpretations[CO_OCCUPIED_QUESTION]):
                reason = "ecaz-co-occupied"
            if reason is None and not _is_stronghold(territory, interpretations):
                reason = "not-a-stronghold"
            entry = {"territory": territory, "factions": [MORITANI, opponent]}
            if reason is None:
                qualifying.append(entry)
            else:
                excluded.append({**entry, "reason": reason})
        if not present and any(a.territory == territory for a in snapshot.advisors):
            excluded.append(
                {
                    "territory": territory,
                    "factions": [MORITANI, FactionId.BENE_GESSERIT.value],
                    "reason": "advisors-only",
                }
            )
    return qualifying, excluded


CUSTODY_QUESTION = "duke-moritani-custody"


@rule("duke-vidal.acquisition.captured")
def captive_takeable(choice: str | None) -> bool:
    return choice == "any-controller"


def captive_take_violation(snapshot: Snapshot, context: Context) -> Violation | None:
    """Taking a captive Duke rests on the any-controller reading of duke-moritani-custody; every step
    of the acquisition must be asked under it (the ruling is provisional), never under the other."""
    duke = snapshot.duke_vidal
    if duke is None or duke.status is not DukeStatus.CAPTURED:
        return None
    choice = context.interpretations.get(CUSTODY_QUESTION)
    if captive_takeable(choice):
        return None
    if choice is None:
        return Violation(
            "interpretation-required",
            "taking a captive Duke Vidal needs the any-controller reading of this question",
            f"/interpretations/{CUSTODY_QUESTION}",
        )
    return Violation(
        "duke-not-takeable",
        f"under {choice!r} Moritani cannot take a captive Duke Vidal",
        f"/interpretations/{CUSTODY_QUESTION}",
    )


@rule("duke-vidal.acquisition.two-strongholds")
def acquisition_check(
    snapshot: Snapshot, qualifying: list[dict[str, Any]], custody_choice: str | None = None
) -> tuple[bool, str | None]:
    duke = snapshot.duke_vidal
    if duke is None:
        return False, "no-duke-vidal"
    if duke.status is DukeStatus.TANKS:
        return False, "duke-in-tanks"
    if duke.status is DukeStatus.CAPTURED and not captive_takeable(custody_choice):
        return False, "captured"
    if duke.status is DukeStatus.HELD and duke.controller == MORITANI:
        return False, "already-held"
    if duke.acquired_turn == snapshot.turn:
        return False, "already-taken-this-turn"
    if len({b["territory"] for b in qualifying}) < 2:
        return False, "fewer-than-two-strongholds"
    return True, None


def co_occupied(snapshot: Snapshot) -> list[str]:
    """Strongholds where Moritani meets Ecaz and Ecaz's ally together (question duke-ecaz-co-occupied)."""
    ecaz = snapshot.factions.get(ECAZ)
    if ecaz is None or ecaz.ally is None or ecaz.ally == MORITANI:
        return []
    places = []
    for territory in sorted({s.territory for s in snapshot.forces if s.faction == MORITANI}):
        present = {s.faction for s in snapshot.forces if s.territory == territory}
        if {ECAZ, ecaz.ally} <= present:
            places.append(territory)
    return places


CO_OCCUPIED_QUESTION = "duke-ecaz-co-occupied"


def begin_battle_phase(state: NextSnapshot, interpretations: Mapping[str, str]) -> dict[str, Any] | None:
    """Shipment and Movement is over: the Battle phase begins with its first decision, if any (the
    window on Juice of Sapho's turn-order use, or the first battle to choose)."""
    state.enter_phase(Phase.BATTLE)
    decision = battle_phase_opening(state, interpretations)
    state.set_pending(decision)
    return decision


def _exploring(effect: Effect) -> Effect:
    """The effect of a handler that may begin the Battle phase: where it reaches a question with
    neither a choice nor a default (sapho-battle-order), the answer is `unresolved`, one alternative
    per implemented choice."""

    @wraps(effect)
    def explored(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
        try:
            return effect(snapshot, action, context, trace)
        except InterpretationNeeded:
            found = _alternatives(lambda under: effect(snapshot, action, under, trace).outcome, context, {})
            return unresolved(found, trace, context)

    return explored


def _alternatives(
    run: Callable[[Context], Mapping[str, Any] | None], context: Context, chosen: dict[str, str]
) -> list[Alternative]:
    """The outcome under `chosen`, or, where it reaches another open question, one per its choices."""
    try:
        outcome = run(context.under(chosen))
    except InterpretationNeeded as needed:
        return [
            alternative
            for choice in context.rulebook.implemented_choices(needed.question)
            for alternative in _alternatives(run, context, {**chosen, needed.question: choice})
        ]
    assert outcome is not None, "an alternative is ruled as the request would be"
    return [Alternative(MappingProxyType(chosen), outcome, Evidence.PROVISIONAL_ORDERING)]


@rule("duke-vidal.acquisition.ecaz-co-occupied")
def ally_battle_involves_ecaz(choice: str) -> bool:
    return choice == "participation-excludes"


def _answer(
    state: NextSnapshot,
    summary: dict[str, Any],
    decision: dict[str, Any] | None,
    trace: list[str],
    context: Context,
) -> Adjudication:
    state.set_pending(decision)
    if decision is None:
        decision = begin_battle_phase(state, context.interpretations)
    options = context.rulebook.options(state.as_snapshot()) if decision is not None else []
    return resolved(state.outcome({"duke_vidal": summary}), decision, options, trace, context)


@ruled()
@_exploring
def end_shipment_movement(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    """`end-shipment-movement`: Moritani's Duke Vidal check, once, then the Battle phase."""
    if snapshot.phase is not Phase.SHIPMENT_MOVEMENT:
        return illegal(
            snapshot,
            [Violation("wrong-phase", "Shipment and Movement is not under way", "/snapshot/phase")],
            trace,
            context,
        )
    if snapshot.pending is not None:
        return illegal(
            snapshot,
            [Violation("decision-pending", "answer the open decision first", "/snapshot/pending")],
            trace,
            context,
        )
    state = NextSnapshot(snapshot)
    moritani_playing = MORITANI in snapshot.factions and "ecaz-moritani" in snapshot.ruleset.expansions
    if not moritani_playing or snapshot.duke_vidal is None:
        return _answer(state, {"eligible": False, "qualifying_battles": [], "reasons": []}, None, trace, context)
    duke = snapshot.duke_vidal
    open_questions: list[tuple[str, tuple[str, ...]]] = []
    if duke.status is DukeStatus.CAPTURED and CUSTODY_QUESTION not in context.interpretations:
        open_questions.append((CUSTODY_QUESTION, ("any-controller", "ecaz-exclusions")))
    if co_occupied(snapshot) and CO_OCCUPIED_QUESTION not in context.interpretations:
        open_questions.append((CO_OCCUPIED_QUESTION, ("participation-excludes", "fighter-only")))
    if open_questions:
        # one alternative per combination of the open questions' choices
        combinations = itertools.product(*[[(q, c) for c in choices] for q, choices in open_questions])
        alternatives = [
            alternative
            for chosen in combinations
            for alternative in _alternatives(
                lambda under: _acquisition_outcome(snapshot, under.interpretations)[1], context, dict(chosen)
            )
        ]
        return unresolved(alternatives, trace, context)
    state, outcome = _acquisition_outcome(snapshot, context.interpretations)
    decision = state.pending
    options = context.rulebook.options(state.as_snapshot()) if decision is not None else []
    return resolved(outcome, decision, options, trace, context)


def _acquisition_outcome(snapshot: Snapshot, interpretations: Mapping[str, str]) -> tuple[NextSnapshot, dict[str, Any]]:
    """The check's next state and outcome (summary, events, next snapshot) under the given readings of
    open questions."""
    state = NextSnapshot(snapshot)
    duke = snapshot.duke_vidal
    custody_choice = interpretations.get(CUSTODY_QUESTION) if duke and duke.status is DukeStatus.CAPTURED else None
    qualifying, excluded = prospective_battles(snapshot, interpretations)
    eligible, why = acquisition_check(snapshot, qualifying, custody_choice)
    summary: dict[str, Any] = {"eligible": eligible, "qualifying_battles": qualifying, "reasons": excluded}
    if why is not None:
        summary["not_eligible"] = why
    decision = None
    if eligible:
        duke = snapshot.duke_vidal
        assert duke is not None
        holder = duke.controller if duke.status is DukeStatus.HELD else duke.by
        decision = opened(MORITANI, DukeVidalAcquisition(owner=holder))
        state.event("duke-vidal-available", "duke-vidal.acquisition.two-strongholds", holder=holder)
    state.set_pending(decision)
    if decision is None:
        begin_battle_phase(state, interpretations)
    return state, state.outcome({"duke_vidal": summary})


def acquisition_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    return [
        {"type": ActionType.ACQUIRE_DUKE_VIDAL.value, "player": MORITANI},
        {"type": ActionType.DECLINE_DUKE_VIDAL.value, "player": MORITANI},
    ]


def _window_decision(state: NextSnapshot, responders: list[str]) -> dict[str, Any]:
    """The Karama window's decision for the next faction asked, the others queued behind it."""
    # the retention module's helper still reads the wire form
    eligible = tuple(held_karamas(state, responders[0]))
    return opened(responders[0], DukeVidalKarama(owner=MORITANI, responders=tuple(responders[1:]), eligible=eligible))


def _responders(snapshot: Snapshot) -> list[str]:
    """Every faction but Moritani is asked, holder or not, so the window reveals nobody's hand."""
    return [f for f in snapshot.storm_order if f != MORITANI]


@rule("duke-vidal.acquisition.take")
def take_duke(state: NextSnapshot, turn: int) -> None:
    previous = state.duke
    assert previous is not None, "a Duke Vidal to take"
    # his deaths carry over; the turn taken is this one
    state.set_duke(replace(duke_in_custody(previous, DukeStatus.HELD, MORITANI), acquired_turn=turn))
    # from a holder, or a captor
    state.event(
        "duke-vidal-acquired",
        "duke-vidal.acquisition.take",
        by=MORITANI,
        **{"from": previous.controller or previous.by},
    )


def _acquisition_open(snapshot: Snapshot, action: Action) -> Violation | None:
    """Moritani answers the open acquisition decision."""
    pending = snapshot.pending
    if pending is None or pending.type != DecisionType.DUKE_VIDAL_ACQUISITION.value:
        return Violation("no-such-decision", "no Duke Vidal acquisition is open", "/action/type")
    if action.player != MORITANI:
        return Violation("not-your-decision", "the acquisition is Moritani's", "/action/player")
    return None


def _captive_may_be_taken(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    if action.type is not ActionType.ACQUIRE_DUKE_VIDAL:
        return []
    problem = captive_take_violation(snapshot, context)
    return [] if problem is None else [problem]


@ruled(found(_acquisition_open), _captive_may_be_taken)
@_exploring
def answer_acquisition(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    if action.type is ActionType.DECLINE_DUKE_VIDAL:
        decline_duke()
        return _answer(state, {"acquired": False}, None, trace, context)
    responders = karama_window(_responders(snapshot))
    if responders:
        decision = _window_decision(state, responders)
        return _answer(state, {"declared": True}, decision, trace, context)
    take_duke(state, snapshot.turn)
    return _answer(state, {"acquired": True}, None, trace, context)


@rule("duke-vidal.acquisition.decline")
def decline_duke() -> None:
    pass


@rule("duke-vidal.acquisition.karama-pass")
def pass_duke_karama(window: DukeVidalKarama) -> list[str]:
    return list(window.responders)


@rule("duke-vidal.acquisition.karama-window")
def karama_window(responders: list[str]) -> list[str]:
    return responders  # the factions still to be asked, in the window's order


@rule("duke-vidal.acquisition.prevented")
def prevent(state: NextSnapshot, faction: str, card: str) -> None:
    state.discard_from_hand(faction, card)
    state.event("card-discarded", "duke-vidal.acquisition.prevented", faction=faction, card=card, karama=True)


@ruled()
@_exploring
def answer_karama(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    assert pending is not None
    if action.player != pending.player:
        return illegal(
            snapshot,
            [Violation("not-your-decision", f"the Karama window asks {pending.player}", "/action/player")],
            trace,
            context,
        )
    offered = [dict(o) for o in context.rulebook.options(snapshot)]
    if action.to_dict() not in offered:
        return illegal(
            snapshot,
            [Violation("not-an-option", "the answer is not one of the options", "/action")],
            trace,
            context,
        )
    state = NextSnapshot(snapshot)
    window = pending.as_(DukeVidalKarama)
    if action.type is ActionType.KARAMA_CANCEL:
        karama_window([str(action.player), *window.responders])  # the window's order brought the card in
        prevent(state, str(action.player), str(action.fields["card"]))
        return _answer(state, {"acquired": False, "prevented_by": action.player}, None, trace, context)
    rest = karama_window(pass_duke_karama(window))
    problem = captive_take_violation(snapshot, context)
    if problem is not None:
        return illegal(snapshot, [problem], trace, context)
    if rest:
        decision = _window_decision(state, rest)
        return _answer(state, {"declared": True}, decision, trace, context)
    take_duke(state, snapshot.turn)
    return _answer(state, {"acquired": True}, None, trace, context)


@rule("duke-vidal.acquisition.karama")
def karama_prevents(decision: Decision) -> list[dict[str, Any]]:
    return [
        {"type": ActionType.KARAMA_CANCEL.value, "player": decision.player, "card": card}
        for card in decision.as_(DukeVidalKarama).eligible
    ]


def karama_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    options = karama_prevents(decision)
    options.append({"type": ActionType.KARAMA_PASS.value, "player": decision.player})
    return options


DECLARED = RuleModule(
    handlers={
        ActionType.END_SHIPMENT_MOVEMENT: end_shipment_movement,
        ActionType.ACQUIRE_DUKE_VIDAL: answer_acquisition,
        ActionType.DECLINE_DUKE_VIDAL: answer_acquisition,
    },
    decisions={
        DecisionType.DUKE_VIDAL_ACQUISITION.value: DecisionKind(acquisition_options, self_contained=True),
        DecisionType.DUKE_VIDAL_KARAMA.value: DecisionKind(karama_options, self_contained=True),
    },
    implements={
        HMS_QUESTION: ("hms-counts", HMS_EXCLUDED),
        CUSTODY_QUESTION: ("any-controller", "ecaz-exclusions"),
        CO_OCCUPIED_QUESTION: ("participation-excludes", "fighter-only"),
    },
)
