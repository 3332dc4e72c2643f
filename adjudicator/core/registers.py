"""The sources, rules and questions registers, read from the packaged YAML files.

The registers are data: which question choices the engine implements is declared by the rule modules
and supplied by the rulebook (`adjudicator.system`), never collected at import time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from adjudicator.core._data import load_yaml
from adjudicator.core.errors import Problem, RegisterError, UnknownInterpretation, UnknownRegisterEntry
from adjudicator.core.vocabulary import Evidence, PageKind, PageStatus


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a claim is found: a page (with how it is counted and whether it was read or is inferred) or
    a video timestamp."""

    source: str
    page_kind: PageKind | None = None
    page: int | None = None
    page_status: PageStatus | None = None
    timestamp: str | None = None
    section: str | None = None
    note: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Citation:
        unknown = set(raw) - {"source", "page_kind", "page", "page_status", "timestamp", "section", "note"}
        if unknown:
            raise RegisterError(f"a citation has unknown keys {sorted(map(str, unknown))}: {dict(raw)}")
        status = None if raw.get("page_status") is None else PageStatus(raw["page_status"])
        if raw.get("page") is not None and status is None:
            raise RegisterError(f"a citation with a page needs its page_status (read or inferred): {dict(raw)}")
        if raw.get("page") is None and status is not None:
            raise RegisterError(f"a citation without a page has no page_status: {dict(raw)}")
        if status is PageStatus.INFERRED and not raw.get("note"):
            raise RegisterError(f"an inferred page needs a note saying where it comes from: {dict(raw)}")
        return cls(
            source=raw["source"],
            page_kind=None if raw.get("page_kind") is None else PageKind(raw["page_kind"]),
            page=raw.get("page"),
            page_status=status,
            timestamp=None if raw.get("timestamp") is None else str(raw["timestamp"]),
            section=raw.get("section"),
            note=raw.get("note"),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.source}
        if self.page_kind is not None:
            out["page_kind"] = self.page_kind.value
        if self.page_status is not None:
            out["page_status"] = self.page_status.value
        for key in ("page", "timestamp", "section", "note"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class Source:
    id: str
    title: str
    publisher: str
    kind: str
    edition: str
    page_kind: PageKind | None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "publisher": self.publisher,
            "kind": self.kind,
            "edition": self.edition,
            "page_kind": None if self.page_kind is None else self.page_kind.value,
        }
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    area: str
    title: str
    claim: str
    evidence: Evidence
    citations: tuple[Citation, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "area": self.area,
            "title": self.title,
            "claim": self.claim,
            "evidence": self.evidence.value,
            "citations": [c.to_dict() for c in self.citations],
        }


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    label: str
    consequence: str
    citations: tuple[Citation, ...]
    implemented: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "consequence": self.consequence,
            "citations": [c.to_dict() for c in self.citations],
            "implemented": self.implemented,
        }


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    area: str
    title: str
    question: str
    origin: Mapping[str, Any]
    choices: tuple[Choice, ...]
    default: str | None
    default_evidence: Evidence | None
    why: str

    def choice(self, choice_id: str) -> Choice | None:
        return next((c for c in self.choices if c.id == choice_id), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "area": self.area,
            "title": self.title,
            "question": self.question,
            "origin": dict(self.origin),
            "choices": [c.to_dict() for c in self.choices],
            "implemented": [c.id for c in self.choices if c.implemented],
            "default": self.default,
            "default_evidence": None if self.default_evidence is None else self.default_evidence.value,
            "why": self.why,
        }


@dataclass(frozen=True, slots=True)
class Registers:
    sources: Mapping[str, Source]
    rules: Mapping[str, Rule]
    questions: Mapping[str, Question]
    digest: str = field(default="")

    def rule(self, rule_id: str) -> Rule:
        try:
            return self.rules[rule_id]
        except KeyError:
            raise UnknownRegisterEntry("rule", rule_id) from None

    def question(self, question_id: str) -> Question:
        try:
            return self.questions[question_id]
        except KeyError:
            raise UnknownRegisterEntry("question", question_id) from None


def _citations(raw: Any, where: str) -> tuple[Citation, ...]:
    if not isinstance(raw, list):
        raise RegisterError(f"{where}: citations must be a list")
    return tuple(Citation.from_dict(c) for c in raw)


def load_registers(implemented: Mapping[str, frozenset[str]]) -> Registers:
    """Build the registers; `implemented` marks the question choices some rule module implements."""
    raw_sources = load_yaml("sources.yaml")
    raw_rules = load_yaml("rules.yaml")
    raw_questions = load_yaml("questions.yaml")
    try:
        sources = {
            s["id"]: Source(
                id=s["id"],
                title=s["title"],
                publisher=s["publisher"],
                kind=s["kind"],
                edition=str(s["edition"]),
                page_kind=None if s.get("page_kind") is None else PageKind(s["page_kind"]),
                note=s.get("note"),
            )
            for s in raw_sources
        }
        rules = {
            r["id"]: Rule(
                id=r["id"],
                area=r["area"],
                title=r["title"],
                claim=r["claim"],
                evidence=Evidence(r["evidence"]),
                citations=_citations(r.get("citations"), f"rule {r['id']}"),
            )
            for r in raw_rules
        }
        questions = {
            q["id"]: Question(
                id=q["id"],
                area=q["area"],
                title=q["title"],
                question=q["question"],
                origin=MappingProxyType(dict(q.get("origin") or {})),
                choices=tuple(
                    Choice(
                        id=c["id"],
                        label=c["label"],
                        consequence=c["consequence"],
                        citations=_citations(c.get("citations"), f"question {q['id']} choice {c['id']}"),
                        implemented=c["id"] in implemented.get(q["id"], ()),
                    )
                    for c in q["choices"]
                ),
                default=q.get("default"),
                default_evidence=None if q.get("default_evidence") is None else Evidence(q["default_evidence"]),
                why=q["why"],
            )
            for q in raw_questions
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise RegisterError(f"a register file is malformed: {exc!r}") from exc
    canonical = json.dumps(
        {
            "sources": [s.to_dict() for s in sources.values()],
            "rules": [r.to_dict() for r in rules.values()],
            "questions": [q.to_dict() for q in questions.values()],
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    digest = "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return Registers(
        sources=MappingProxyType(sources),
        rules=MappingProxyType(rules),
        questions=MappingProxyType(questions),
        digest=digest,
    )


@cache
def register_data() -> Registers:
    """The registers as data (no question choice marked implemented): what a rule or a question says.
    The rulebook builds the served registers, with the implemented choices, from the same files."""
    return load_registers(MappingProxyType({}))


def get_rule(rule_id: str) -> Rule:
    return register_data().rule(rule_id)


def get_question(question_id: str) -> Question:
    return register_data().question(question_id)


def check_interpretations(interpretations: Mapping[str, str], base_path: str = "/interpretations") -> None:
    """Reject any interpretation that names an unknown question or choice (a 422 on the wire)."""
    problems: list[Problem] = []
    questions = register_data().questions
    for question_id, choice_id in sorted(interpretations.items()):
        path = f"{base_path}/{_escape(question_id)}"
        question = questions.get(question_id)
        if question is None:
            problems.append(Problem(path, "unknown-question", f"no question with id {question_id!r}"))
        elif question.choice(choice_id) is None:
            known = ", ".join(c.id for c in question.choices)
            problems.append(
                Problem(path, "unknown-choice", f"question {question_id!r} has no choice {choice_id!r} ({known})")
            )
    if problems:
        raise UnknownInterpretation(problems)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")
