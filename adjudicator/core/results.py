"""Frozen result objects: what the engine answers (docs/contract.md). Each has `to_dict()` for the wire."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from adjudicator.core.errors import RegisterError, UnknownRegisterEntry
from adjudicator.core.registers import Citation, get_rule
from adjudicator.core.vocabulary import Evidence, RulingStatus

ENGINE_VERSION = "0.1.0"


@dataclass(frozen=True, slots=True)
class Violation:
    code: str
    message: str
    path: str
    rule: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "path": self.path, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class RulingRecord:
    """One rule that ran, as cited in a response."""

    rule: str
    claim: str
    evidence: Evidence
    citations: tuple[Citation, ...]

    @classmethod
    def of(cls, rule_id: str) -> RulingRecord:
        try:
            entry = get_rule(rule_id)
        except UnknownRegisterEntry as exc:  # a rule function missing from rules.yaml: a packaging defect
            raise RegisterError(f"rule {rule_id!r} ran but is not in the rules register") from exc
        return cls(entry.id, entry.claim, entry.evidence, entry.citations)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "claim": self.claim,
            "evidence": self.evidence.value,
            "citations": [c.to_dict() for c in self.citations],
        }


@cache
def _record(rule_id: str) -> RulingRecord:
    return RulingRecord.of(rule_id)  # rule entries never change within a process


def rulings_of(rule_ids: list[str]) -> tuple[RulingRecord, ...]:
    return tuple(_record(rule_id) for rule_id in rule_ids)


def weakest_evidence(rulings: tuple[RulingRecord, ...]) -> Evidence | None:
    return Evidence.weakest([r.evidence for r in rulings])


def merged_citations(rulings: tuple[RulingRecord, ...]) -> tuple[Citation, ...]:
    """Every citation of the rulings once, in first-seen order."""
    seen: dict[Citation, None] = {}
    for ruling in rulings:
        for citation in ruling.citations:
            seen.setdefault(citation, None)
    return tuple(seen)


@dataclass(frozen=True, slots=True)
class Provenance:
    """What produced an answer; the engine stamps the digest of the rulebook that ruled."""

    interpretations: Mapping[str, str] = field(default_factory=dict)
    rules_digest: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": ENGINE_VERSION,
            "rules_digest": self.rules_digest,
            "interpretations": dict(sorted(self.interpretations.items())),
        }


@dataclass(frozen=True, slots=True)
class NextStep:
    decision: Mapping[str, Any] | None
    options: tuple[Mapping[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision": None if self.decision is None else dict(self.decision),
            "options": [dict(o) for o in self.options],
        }


@dataclass(frozen=True, slots=True)
class Alternative:
    interpretations: Mapping[str, str]
    outcome: Mapping[str, Any]
    evidence: Evidence

    def to_dict(self) -> dict[str, Any]:
        return {
            "interpretations": dict(self.interpretations),
            "outcome": dict(self.outcome),
            "evidence": self.evidence.value,
        }


@dataclass(frozen=True, slots=True)
class Adjudication:
    """The answer to `POST /v1/rulings`."""

    status: RulingStatus
    outcome: Mapping[str, Any] | None
    next: NextStep
    violations: tuple[Violation, ...]
    rulings: tuple[RulingRecord, ...]
    alternatives: tuple[Alternative, ...]
    provenance: Provenance

    @property
    def evidence(self) -> Evidence | None:
        if self.status is RulingStatus.UNRESOLVED:
            return Evidence.UNRESOLVED  # the outcome waits for an interpretation the publisher never settled
        return weakest_evidence(self.rulings)

    @property
    def citations(self) -> tuple[Citation, ...]:
        return merged_citations(self.rulings)

    def to_dict(self) -> dict[str, Any]:
        evidence = self.evidence
        return {
            "status": self.status.value,
            "evidence": None if evidence is None else evidence.value,
            "outcome": None if self.outcome is None else dict(self.outcome),
            "next": self.next.to_dict(),
            "violations": [v.to_dict() for v in self.violations],
            "rulings": [r.to_dict() for r in self.rulings],
            "citations": [c.to_dict() for c in self.citations],
            "alternatives": [a.to_dict() for a in self.alternatives],
            "provenance": self.provenance.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class OptionList:
    """The answer to `POST /v1/options`."""

    decision: Mapping[str, Any] | None
    options: tuple[Mapping[str, Any], ...]
    rulings: tuple[RulingRecord, ...]
    provenance: Provenance

    def to_dict(self) -> dict[str, Any]:
        evidence = weakest_evidence(self.rulings)
        return {
            "decision": None if self.decision is None else dict(self.decision),
            "options": [dict(o) for o in self.options],
            "evidence": None if evidence is None else evidence.value,
            "rulings": [r.to_dict() for r in self.rulings],
            "citations": [c.to_dict() for c in merged_citations(self.rulings)],
            "provenance": self.provenance.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class View:
    """The answer to `POST /v1/views`: the snapshot as one viewer may see it."""

    viewer: str | None
    snapshot: Mapping[str, Any]
    redacted: tuple[str, ...]
    rulings: tuple[RulingRecord, ...]
    provenance: Provenance

    def to_dict(self) -> dict[str, Any]:
        return {
            "viewer": self.viewer,
            "snapshot": dict(self.snapshot),
            "redacted": list(self.redacted),
            "rulings": [r.to_dict() for r in self.rulings],
            "citations": [c.to_dict() for c in merged_citations(self.rulings)],
            "provenance": self.provenance.to_dict(),
        }
