"""The working state of a ruling: the next snapshot being built, changed only through named methods.

`NextSnapshot` starts as a copy of the request's snapshot and records an event for every change; a
rule reads typed values from it (records, ids, counts) and changes it by calling its methods, never by
indexing the wire mapping it keeps. The battle's cleanup steps run in the order `CLEANUP_ORDER`
declares; `finish` opens the next one (or clears the battle) and builds the resolved ruling.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Context, Rules
from adjudicator.core.results import Adjudication, NextStep, rulings_of
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import provenance_of
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.vocabulary import DecisionType, RulingStatus
from adjudicator.rules.state.base import (
    AWAKENING_LOSSES,
    CLEANUP_ORDER,
    FOLLOW_UPS,
    INTERRUPTS,
    PRELUDE_ORDER,
    WorkingCopy,
    cleanup_order,
    duke_dies,
    duke_in_custody,
    duke_set_aside_after_battle,
    in_cleanup_order,
    kwisatz_haderach_awakens,
)
from adjudicator.rules.state.battle import BattleCardsState
from adjudicator.rules.state.custody import CustodyState
from adjudicator.rules.state.moritani import MoritaniState
from adjudicator.rules.state.richese import RicheseState

__all__ = [
    "AWAKENING_LOSSES",
    "CLEANUP_ORDER",
    "FOLLOW_UPS",
    "INTERRUPTS",
    "PRELUDE_ORDER",
    "NextSnapshot",
    "WorkingCopy",
    "cleanup_order",
    "duke_dies",
    "duke_in_custody",
    "duke_set_aside_after_battle",
    "finish",
    "in_cleanup_order",
    "kwisatz_haderach_awakens",
    "open_next_step",
]


class NextSnapshot(CustodyState, BattleCardsState, MoritaniState, RicheseState):
    """The one working state of a ruling: a copy of the wire snapshot, changed only through the named
    methods of its parts (custody, battle cards, Moritani and skills, Richese, and the core), recording an event
    for every change."""


def open_next_step(state: NextSnapshot, rulebook: Rules) -> dict[str, Any] | None:
    """Set `pending` to the battle's next decision: before its plans, the next step that applies
    (Voice, Prescience), then the plans still to make; once resolved, its next cleanup decision.
    A battle with no step left is over and cleared, and the next battle is to be chosen, if any."""
    wire = state.wire  # the working state's own module: it runs after every battle step
    battle = wire["battle"]
    if battle is not None and battle.get("resolution") is None:
        decision = _open_before_resolution(state, rulebook)
        wire["pending"] = decision
        return decision
    steps = battle["resolution"]["steps"] if battle is not None else ()
    if not steps:
        state.ended_battle = battle
        wire["battle"] = None
        choice = rulebook.steps.get(DecisionType.BATTLE_CHOICE.value)
        decision = choice(state) if choice is not None else None
        wire["pending"] = decision
        return decision
    decision = rulebook.steps[str(steps[0])](state)
    wire["pending"] = decision
    return decision


def _open_before_resolution(state: NextSnapshot, rulebook: Rules) -> dict[str, Any] | None:
    """The first step before the plans that applies (each builder answers None when it does not),
    else the next plan to make (None once both are locked: the battle awaits resolve-battle)."""
    while (step := state.prelude_step) is not None:
        builder = rulebook.steps.get(step)
        decision = builder(state) if builder is not None else None
        if decision is not None:
            return decision
        state.prelude_done(step)
    plans = rulebook.steps.get(DecisionType.BATTLE_PLAN.value)
    return plans(state) if plans is not None else None


def finish(
    snapshot: Snapshot, state: NextSnapshot, summary: dict[str, Any], trace: list[str], context: Context
) -> Adjudication:
    state.readings = context.interpretations
    if state.batches and state.wire["battle"] is not None:
        for hook in context.rulebook.after_discards:
            hook(state)
    decision = open_next_step(state, context.rulebook)
    # The working copy is already in wire form; the value objects are built only when listing the
    # options needs more than the decision itself.
    options: list[dict[str, Any]] = []
    if decision is not None:
        kind = context.rulebook.decisions.get(decision["type"])
        if kind is not None and kind.self_contained:
            options = kind.options(snapshot, Decision.from_dict(decision))
        else:
            options = context.rulebook.options(Snapshot.from_dict(state.wire))
    return Adjudication(
        status=RulingStatus.RESOLVED,
        outcome=MappingProxyType({"summary": summary, "events": state.events, "snapshot": state.wire}),
        next=NextStep(decision, tuple(options)),
        violations=(),
        rulings=rulings_of(trace),
        alternatives=(),
        provenance=provenance_of(context),
    )


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule()
