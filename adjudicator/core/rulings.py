"""Building the answer of a ruling: resolved, unresolved or illegal, and the check shared by every
answer to an open decision."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.results import Adjudication, Alternative, NextStep, Provenance, Violation, rulings_of
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.vocabulary import RulingStatus


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
        provenance=Provenance(MappingProxyType(dict(context.interpretations))),
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
        Provenance(MappingProxyType(dict(context.interpretations))),
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
        provenance=Provenance(MappingProxyType(dict(context.interpretations))),
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
