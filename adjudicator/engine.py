"""The engine's entry points: adjudicate an action, list options, view a snapshot.

Each action type has one handler; types the wire contract names but no module handles yet are
answered `illegal` with the violation `not-implemented`, never an error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from .errors import InvalidRequest, Problem
from .moritani import retention_options
from .registers import check_interpretations, get_question, tracing
from .results import Adjudication, NextStep, OptionList, Provenance, View, Violation, rulings_of
from .secrecy import (
    HIDDEN_LEGALITY,
    decision_is_private,
    private_answer_violations,
    redact,
    redact_decision,
    redact_event,
)
from .snapshot import Decision, Snapshot
from .validation import validate_snapshot
from .vocabulary import ActionType, DecisionType, RulingStatus


@dataclass(frozen=True, slots=True)
class Action:
    """A proposed action: a kebab-case type, the acting player where one acts, and its choices."""

    type: ActionType
    player: str | None = None
    fields: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Action:
        rest = {k: v for k, v in raw.items() if k not in ("type", "player")}
        return cls(ActionType(raw["type"]), raw.get("player"), MappingProxyType(rest))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type.value, "player": self.player, **self.fields}


@dataclass(frozen=True, slots=True)
class Context:
    """What a handler may consult besides the snapshot and the action."""

    interpretations: Mapping[str, str]
    viewer: str | None


Handler = Callable[[Snapshot, Action, Context], Adjudication]

# action type -> handler; the battle, Moritani, Duke Vidal, skills and Extortion modules register here.
HANDLERS: dict[ActionType, Handler] = {}

OptionLister = Callable[[Snapshot, Decision], list[dict[str, Any]]]

# decision types whose options depend only on the decision object (not on the rest of the snapshot)
DECISIONS_SELF_CONTAINED: set[str] = {DecisionType.MORITANI_RETENTION.value}

# decision type -> the function listing its options (each module registers its own decisions)
DECISION_OPTIONS: dict[str, OptionLister] = {
    DecisionType.MORITANI_RETENTION.value: lambda snapshot, decision: retention_options(decision),
}


def register_decision(decision_type: str, lister: OptionLister, self_contained: bool = False) -> None:
    DECISION_OPTIONS[decision_type] = lister
    if self_contained:
        DECISIONS_SELF_CONTAINED.add(decision_type)


def decision_options_for(snapshot: Snapshot, player: str | None = None) -> list[dict[str, Any]]:
    """The options of the snapshot's open decision (none when nothing is pending)."""
    decision = snapshot.pending
    if decision is None:
        return []
    lister = DECISION_OPTIONS.get(decision.type)
    options = lister(snapshot, decision) if lister is not None else []
    return [o for o in options if player is None or o.get("player") == player]


def load_snapshot(raw: Mapping[str, Any], root: str = "/snapshot") -> Snapshot:
    """Build a snapshot from wire data and check its consistency (raises `InvalidSnapshot`)."""
    return validate_snapshot(Snapshot.from_dict(raw), root)


def _check_faction(snapshot: Snapshot, faction: str | None, path: str, what: str) -> list[Problem]:
    if faction is None or faction in snapshot.factions:
        return []
    return [Problem(path, "faction-not-in-game", f"the {what} {faction!r} is not a faction in this game")]


def _decision_options(
    snapshot: Snapshot, player: str | None = None
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    decision = snapshot.pending
    return (None if decision is None else decision.to_dict()), decision_options_for(snapshot, player)


def adjudicate(
    snapshot: Snapshot,
    action: Action,
    interpretations: Mapping[str, str] | None = None,
    viewer: str | None = None,
) -> Adjudication:
    """Rule on one proposed action against a consistent snapshot."""
    chosen = dict(interpretations or {})
    check_interpretations(chosen)
    problems = _check_faction(snapshot, action.player, "/action/player", "player")
    problems += _check_faction(snapshot, viewer, "/viewer", "viewer")
    if problems:
        raise InvalidRequest(problems)
    unimplemented = [
        Violation(
            "not-implemented",
            f"this engine version does not implement the choice {choice!r} of {question!r}",
            f"/interpretations/{question}",
        )
        for question, choice in sorted(chosen.items())
        if not get_question(question).choice(choice).implemented  # type: ignore[union-attr]
    ]
    handler = HANDLERS.get(action.type)
    hidden: list[Violation] = []
    guarded: list[str] = []
    if viewer is not None and (snapshot.pending is not None or action.type.value in HIDDEN_LEGALITY):
        with tracing() as trace_of_guard:
            hidden = private_answer_violations(snapshot.pending, action.player, viewer, action.type.value)
        guarded = list(trace_of_guard)
    if unimplemented or hidden:
        with tracing() as trace:
            decision, options = _decision_options(snapshot)
        rule_ids = [*(guarded if hidden else []), *trace]
        return for_viewer(
            Adjudication(
                RulingStatus.ILLEGAL,
                None,
                NextStep(decision, tuple(options)),
                tuple(hidden or unimplemented),
                rulings_of(rule_ids),
                (),
                Provenance(MappingProxyType(chosen)),
            ),
            viewer,
        )
    if handler is not None:
        return for_viewer(handler(snapshot, action, Context(MappingProxyType(chosen), viewer)), viewer)
    with tracing() as trace:
        decision, options = _decision_options(snapshot)
    ruling = Adjudication(
        status=RulingStatus.ILLEGAL,
        outcome=None,
        next=NextStep(decision, tuple(options)),
        violations=(
            Violation(
                code="not-implemented",
                message=f"this engine version does not adjudicate {action.type.value!r} yet",
                path="/action/type",
            ),
        ),
        rulings=rulings_of(trace),
        alternatives=(),
        provenance=Provenance(MappingProxyType(chosen)),
    )
    return for_viewer(ruling, viewer)


def _redacted_outcome(outcome: Mapping[str, Any], viewer: str) -> Mapping[str, Any]:
    events = outcome.get("events")
    if events and any("visible_to" in e for e in events):
        outcome = {**outcome, "events": [redact_event(e, viewer) for e in events]}
    if outcome.get("snapshot") is None:
        return outcome
    wire, _ = redact(Snapshot.from_dict(outcome["snapshot"]), viewer)
    return {**outcome, "snapshot": wire}


def for_viewer(ruling: Adjudication, viewer: str | None) -> Adjudication:
    """The ruling as `viewer` may see it: every next snapshot redacted (no viewer: the referee's view)."""
    if viewer is None:
        return ruling
    with tracing() as trace:
        outcome = None if ruling.outcome is None else _redacted_outcome(ruling.outcome, viewer)
        alternatives = tuple(
            replace(alt, outcome=_redacted_outcome(alt.outcome, viewer)) for alt in ruling.alternatives
        )
        following = ruling.next
        if decision_is_private(dict(following.decision) if following.decision is not None else None, viewer):
            assert following.decision is not None
            following = NextStep(redact_decision(dict(following.decision), viewer, "/next/decision", []), ())
    known = {r.rule for r in ruling.rulings}
    extra = rulings_of([rule_id for rule_id in trace if rule_id not in known])
    return replace(ruling, outcome=outcome, alternatives=alternatives, next=following, rulings=ruling.rulings + extra)


def list_options(snapshot: Snapshot, player: str | None = None) -> OptionList:
    """The legal options at the snapshot's open decision, for every player or one."""
    problems = _check_faction(snapshot, player, "/player", "player")
    if problems:
        raise InvalidRequest(problems)
    with tracing() as trace:
        decision, options = _decision_options(snapshot, player)
    return OptionList(decision, tuple(options), rulings_of(trace), Provenance())


def view(snapshot: Snapshot, viewer: str | None) -> View:
    """The snapshot as `viewer` may see it; `None` is a spectator."""
    problems = _check_faction(snapshot, viewer, "/viewer", "viewer")
    if problems:
        raise InvalidRequest(problems)
    with tracing() as trace:
        wire, redacted = redact(snapshot, viewer)
    return View(viewer, wire, tuple(redacted), rulings_of(trace), Provenance())


# The rule modules register their handlers and decisions here; importing them last lets them import
# this module's names.
from . import rulebook  # noqa: E402, F401
