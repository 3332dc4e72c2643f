"""The engine's entry points: adjudicate an action, list options, view a snapshot.

Each action type has one handler; types the wire contract names but no module handles yet are
answered `illegal` with the violation `not-implemented`, never an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.errors import InvalidRequest, Problem
from adjudicator.core.registers import check_interpretations
from adjudicator.core.results import Adjudication, NextStep, OptionList, Provenance, View, Violation, rulings_of
from adjudicator.core.rulebook import Rulebook
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import tracing
from adjudicator.core.vocabulary import RulingStatus
from adjudicator.rules.secrecy import (
    HIDDEN_LEGALITY,
    decision_is_private,
    private_answer_violations,
    redact,
    redact_decision,
    redact_event,
    resumed_for,
)
from adjudicator.system import rulebook
from adjudicator.validation import validate_snapshot


def _decision_options(
    snapshot: Snapshot, rules: Rulebook, player: str | None = None
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    decision = snapshot.pending
    return (None if decision is None else decision.to_dict()), rules.options(snapshot, player)


def load_snapshot(raw: Mapping[str, Any], root: str = "/snapshot") -> Snapshot:
    """Build a snapshot from wire data and check its consistency (raises `InvalidSnapshot`)."""
    return validate_snapshot(Snapshot.from_dict(raw), root)


def _check_faction(snapshot: Snapshot, faction: str | None, path: str, what: str) -> list[Problem]:
    if faction is None or faction in snapshot.factions:
        return []
    return [Problem(path, "faction-not-in-game", f"the {what} {faction!r} is not a faction in this game")]


def _kept_readings(snapshot: Snapshot, rules: Rulebook, chosen: dict[str, str]) -> list[Violation]:
    """A snapshot reached under a reading it shows (a record only that reading makes) is ruled under it:
    the reading is added to `chosen` where the request names none, and naming another is refused."""
    violations = []
    for kept in rules.kept_readings:
        found = kept(snapshot)
        if found is None:
            continue
        question, choice, rule_id = found
        if chosen.setdefault(question, choice) != choice:
            message = f"this snapshot was reached under {choice!r} of {question!r}; it cannot be ruled otherwise"
            violations.append(Violation("interpretation-mismatch", message, f"/interpretations/{question}", rule_id))
    return violations


def adjudicate(
    snapshot: Snapshot,
    action: Action,
    interpretations: Mapping[str, str] | None = None,
    viewer: str | None = None,
) -> Adjudication:
    """Rule on one proposed action against a consistent snapshot."""
    rules = rulebook()
    chosen = dict(interpretations or {})
    check_interpretations(chosen)
    problems = _check_faction(snapshot, action.player, "/action/player", "player")
    problems += _check_faction(snapshot, viewer, "/viewer", "viewer")
    if problems:
        raise InvalidRequest(problems)
    mismatched = _kept_readings(snapshot, rules, chosen)
    unimplemented = mismatched + [
        Violation(
            "not-implemented",
            f"this engine version does not implement the choice {choice!r} of {question!r}",
            f"/interpretations/{question}",
        )
        for question, choice in sorted(chosen.items())
        if not rules.is_implemented(question, choice)
    ]
    handler = rules.handlers.get(action.type)
    hidden: list[Violation] = []
    guarded: list[str] = []
    if viewer is not None and (snapshot.pending is not None or action.type.value in HIDDEN_LEGALITY):
        with tracing() as trace_of_guard:
            hidden = private_answer_violations(snapshot.pending, action.player, viewer, action.type.value)
        guarded = list(trace_of_guard)
    if unimplemented or hidden:
        with tracing() as trace:
            decision, options = _decision_options(snapshot, rules)
        rule_ids = [*(guarded if hidden else []), *trace]
        return for_viewer(
            Adjudication(
                RulingStatus.ILLEGAL,
                None,
                NextStep(decision, tuple(options)),
                tuple(hidden or unimplemented),
                rulings_of(rule_ids),
                (),
                Provenance(MappingProxyType(chosen), rules.digest),
            ),
            viewer,
        )
    if handler is not None:
        ruling = handler(snapshot, action, Context(MappingProxyType(chosen), viewer, rules))
        if ruling.provenance.rules_digest != rules.digest:  # a handler that built its own provenance
            ruling = replace(ruling, provenance=replace(ruling.provenance, rules_digest=rules.digest))
        return for_viewer(ruling, viewer)
    with tracing() as trace:
        decision, options = _decision_options(snapshot, rules)
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
        provenance=Provenance(MappingProxyType(chosen), rules.digest),
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
        elif following.decision is not None and "resumes" in following.decision:
            decision = resumed_for(dict(following.decision), viewer, "/next/decision", [])
            following = NextStep(decision, following.options)
    known = {r.rule for r in ruling.rulings}
    extra = rulings_of([rule_id for rule_id in trace if rule_id not in known])
    return replace(ruling, outcome=outcome, alternatives=alternatives, next=following, rulings=ruling.rulings + extra)


def list_options(snapshot: Snapshot, player: str | None = None) -> OptionList:
    """The legal options at the snapshot's open decision, for every player or one."""
    problems = _check_faction(snapshot, player, "/player", "player")
    if problems:
        raise InvalidRequest(problems)
    rules = rulebook()
    with tracing() as trace:
        decision, options = _decision_options(snapshot, rules, player)
    return OptionList(decision, tuple(options), rulings_of(trace), Provenance(rules_digest=rules.digest))


def view(snapshot: Snapshot, viewer: str | None) -> View:
    """The snapshot as `viewer` may see it; `None` is a spectator."""
    problems = _check_faction(snapshot, viewer, "/viewer", "viewer")
    if problems:
        raise InvalidRequest(problems)
    with tracing() as trace:
        wire, redacted = redact(snapshot, viewer)
    return View(viewer, wire, tuple(redacted), rulings_of(trace), Provenance(rules_digest=rulebook().digest))
