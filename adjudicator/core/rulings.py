"""Building the answer of a ruling (resolved, unresolved or illegal), the check shared by every answer
to an open decision, and `ruled`: the one shape of an action's handler (its checks, then its effect)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context, Handler
from adjudicator.core.results import Adjudication, Alternative, NextStep, Provenance, Violation, rulings_of
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace, tracing
from adjudicator.core.vocabulary import RulingStatus


def provenance_of(context: Context) -> Provenance:
    """What produced an answer: the request's interpretations and the ruling rulebook's digest."""
    # the context's interpretations are already a read-only mapping nobody changes afterwards
    return Provenance(context.interpretations, context.rulebook.digest)


def resolved(
    outcome: Mapping[str, Any],
    decision: dict[str, Any] | None,
    options: Sequence[Mapping[str, Any]],
    trace: list[str],
    context: Context,
) -> Adjudication:
    """A resolved ruling: the outcome (summary, events, snapshot) and the decision it opens."""
    return Adjudication(
        status=RulingStatus.RESOLVED,
        outcome=MappingProxyType(dict(outcome)),
        next=NextStep(decision, tuple(options)),
        violations=(),
        rulings=rulings_of(trace),
        alternatives=(),
        provenance=provenance_of(context),
    )


def unresolved(alternatives: Sequence[Alternative], trace: list[str], context: Context) -> Adjudication:
    """An open register question without a choice: one alternative per choice (or combination)."""
    return Adjudication(
        RulingStatus.UNRESOLVED,
        None,
        NextStep(None, ()),
        (),
        rulings_of(trace),
        tuple(alternatives),
        provenance_of(context),
    )


def illegal(snapshot: Snapshot, violations: list[Violation], trace: list[str], context: Context) -> Adjudication:
    decision = None if snapshot.pending is None else snapshot.pending.to_dict()
    return Adjudication(
        status=RulingStatus.ILLEGAL,
        outcome=None,
        next=NextStep(decision, tuple(context.rulebook.options(snapshot))),
        violations=tuple(violations),
        rulings=rulings_of(trace),
        alternatives=(),
        provenance=provenance_of(context),
    )


def answer_violation(snapshot: Snapshot, action: Action, decision_type: str, context: Context) -> Violation | None:
    pending = snapshot.pending
    if pending is None or pending.type != decision_type or snapshot.battle is None:
        return Violation("no-such-decision", f"no open {decision_type} decision to answer", "/action/type")
    if action.player != pending.player:
        return Violation("not-your-decision", f"the decision is {pending.player}'s", "/action/player")
    offered = context.rulebook.options(snapshot)
    if action.to_dict() not in [dict(o) for o in offered]:
        return Violation(
            "not-an-option", "the answer is not one of the decision's options (see next.options)", "/action"
        )
    return None


# --- one pattern per action: its checks, then its effect ---------------------------------------

Check = Callable[[Snapshot, Action, Context], list[Violation]]
Effect = Callable[[Snapshot, Action, Context, Trace], Adjudication]


def ruled(*checks: Check) -> Callable[[Effect], Handler]:
    """Make an action's handler from its checks and its effect, in the spirit of PokerKit's
    verify/can/do: the rules that run are traced; the first check that finds violations answers
    `illegal` with them (and the open decision's options); otherwise the effect answers. The options
    of the decisions an action answers are listed by the decision's own lister (`DecisionKind`)."""

    def make(effect: Effect) -> Handler:
        @wraps(effect)
        def handle(snapshot: Snapshot, action: Action, context: Context) -> Adjudication:
            with tracing() as trace:
                for check in checks:
                    violations = check(snapshot, action, context)
                    if violations:
                        return illegal(snapshot, violations, trace, context)
                return effect(snapshot, action, context, trace)

        return handle

    return make


def answers(decision_type: str) -> Check:
    """The check every answer to an open decision shares: that decision is open, the actor is the one
    it asks, and the answer is one of its options."""

    def check(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
        problem = answer_violation(snapshot, action, decision_type, context)
        return [] if problem is None else [problem]

    return check


def found(find: Callable[[Snapshot, Action], Violation | list[Violation] | None]) -> Check:
    """A check from a function of the snapshot and the action that finds a violation, several, or none."""

    def check(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
        problem = find(snapshot, action)
        if problem is None:
            return []
        return [problem] if isinstance(problem, Violation) else problem

    return check
