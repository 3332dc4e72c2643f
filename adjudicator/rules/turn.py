"""The end of a turn (after the Mentat Pause): what this engine models of the turn-end cleanup.

Leaders that fought this turn return to their pools, the Kwisatz Haderach may join a battle again,
and a Duke Vidal that Moritani took but did not use is set aside (E3 p.9). Bribe spice that a Mentat
Pause never started (no Terror in the game) left in front of a shield is collected as the Pause
closes. Where an unused loaned Duke goes is the register's question duke-loan-expiry: `unresolved`
with both outcomes unless the request chooses. The next turn starts in the Storm phase.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.results import Adjudication, Alternative, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import found, resolved, ruled, unresolved
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DukeStatus, Evidence, FactionId, LeaderStatus, Phase
from adjudicator.rules.bribes import bribes_waiting, collect_bribes
from adjudicator.rules.harkonnen import LOAN_EXPIRY_QUESTION
from adjudicator.rules.moritani.assassination import awaiting_redraw, redraw_traitors, redraw_violation
from adjudicator.rules.skill_steps import banker_collects
from adjudicator.rules.state import NextSnapshot, duke_in_custody


@rule("turn.end.leaders-return")
def leaders_return(state: NextSnapshot) -> list[str]:
    returned = []
    for faction, leader_id in state.leaders_in(LeaderStatus.USED):
        state.leader_returns_to_pool(faction, leader_id)
        returned.append(leader_id)
    for faction in state.faction_ids:
        state.free_kwisatz_haderach(faction)
    return returned


@rule("duke-vidal.tenure.turn-end")
def unused_duke_set_aside(state: NextSnapshot) -> None:
    duke = state.duke
    assert duke is not None, "a Duke Vidal Moritani holds"
    state.set_duke(duke_in_custody(duke, DukeStatus.SET_ASIDE))
    state.event("duke-vidal-set-aside", "duke-vidal.tenure.turn-end")


@rule("turn.end.after-extortion")
def mentat_unfinished(snapshot: Snapshot) -> Violation:
    return Violation(
        "extortion-pending",
        "the Mentat Pause is unfinished: start it (start-mentat-pause) and answer its decisions first",
        "/snapshot/extortion" if snapshot.extortion is not None else "/snapshot/mentat",
        "turn.end.after-extortion",
    )


def _turn_can_end(snapshot: Snapshot, action: Action) -> list[Violation]:
    """A turn ends after its Mentat Pause, with no decision open and nothing of the Pause left."""
    problems = []
    if snapshot.phase is not Phase.MENTAT_PAUSE:
        problems.append(Violation("wrong-phase", "a turn ends after the Mentat Pause", "/snapshot/phase"))
    if snapshot.pending is not None or snapshot.battle is not None:
        problems.append(Violation("decision-pending", "answer the open decision first", "/snapshot/pending"))
    unstarted = snapshot.terror is not None and snapshot.mentat is None
    if snapshot.extortion is not None or unstarted or (snapshot.mentat is not None and snapshot.mentat.steps):
        problems.append(mentat_unfinished(snapshot))
    if not problems:
        deck = redraw_violation(snapshot)
        if deck is not None:
            problems.append(deck)
    return problems


@ruled(found(_turn_can_end))
def end_turn(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    duke = snapshot.duke_vidal
    loaned = duke is not None and duke.status is DukeStatus.HELD and duke.loaned_by is not None
    if loaned and LOAN_EXPIRY_QUESTION not in context.interpretations:
        alternatives = [
            Alternative(
                MappingProxyType({LOAN_EXPIRY_QUESTION: choice}),
                _turn_end(snapshot, choice, context),
                Evidence.PROVISIONAL_ORDERING,
            )
            for choice in context.rulebook.implemented_choices(LOAN_EXPIRY_QUESTION)
        ]
        return unresolved(alternatives, trace, context)
    outcome = _turn_end(snapshot, context.interpretations.get(LOAN_EXPIRY_QUESTION) if loaned else None, context)
    return resolved(outcome, None, (), trace, context)


def _turn_end(snapshot: Snapshot, loan_choice: str | None, context: Context) -> dict[str, Any]:
    """The end of the turn's outcome; `loan_choice` answers duke-loan-expiry when a loan lapses."""
    state = NextSnapshot(snapshot)
    state.clear_mentat_pause()
    if bribes_waiting(snapshot):
        collect_bribes(state)
    banker_collects(snapshot, state, context)
    state.clear_bureaucrat_uses()
    returned = leaders_return(state)
    if awaiting_redraw(snapshot):
        redraw_traitors(snapshot, state)
    duke = snapshot.duke_vidal
    if (
        duke is not None
        and duke.status is DukeStatus.HELD
        and duke.controller == FactionId.MORITANI.value
        and duke.loaned_by is None  # a loan lapses by its own rule, below
    ):
        unused_duke_set_aside(state)
    if loan_choice is not None:
        loan_expires(state, loan_choice)
    state.start_turn(snapshot.turn + 1)
    return state.outcome({"turn": {"ended": snapshot.turn, "leaders_returned": returned}})


@rule("duke-vidal.loan.expiry")
def loan_expires(state: NextSnapshot, choice: str) -> None:
    duke = state.duke
    assert duke is not None, "a loaned Duke Vidal"
    if choice == "return-to-ecaz":
        after = duke_in_custody(duke, DukeStatus.HELD, duke.loaned_by)
    else:
        after = duke_in_custody(duke, DukeStatus.SET_ASIDE)
    state.set_duke(after)
    state.event("duke-vidal-loan-ended", "duke-vidal.loan.expiry", to=after.controller)


DECLARED = RuleModule(
    handlers={
        ActionType.END_TURN: end_turn,
    },
    implements={
        LOAN_EXPIRY_QUESTION: ("return-to-ecaz", "set-aside"),
    },
)
