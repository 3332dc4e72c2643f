"""Every question of the register and every one of its choices has a scenario fixture.

For each question: some fixture (or a variant of one) names `interpretations: {question: choice}`
for each choice, asserting the structured outcome of an implemented choice and the `not-implemented`
answer of one the engine does not implement; and some fixture reaches the question without naming it,
its expectations showing that it did:

- the `alternatives` it expects carry the question in their `interpretations`, every implemented
  choice among them (an `unresolved` answer), or a violation it expects sits at
  `/interpretations/<question>` (`interpretation-required`);
- or, for a question with a default, the fixture also names the question in a variant and asserts a
  rule whose register claim names the question; the answer without a choice must then be the
  default's answer, and each other implemented choice must answer differently in such a fixture.

Every expectation naming a choice states the answer's `status` (or the `http_status` of a problem).

A question no request can reach (its module is not modelled, so the engine answers `not-implemented`
before the point arises) is listed in `LATENT` with the reason, and its register entry says so in
`why`. The check is a function of the register, the fixtures and the rule claims, so a fake question
exercises it (the self-tests below) and it cannot pass vacuously.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator import registers, rulebook
from adjudicator.core.registers import Question
from adjudicator.scenarios import Scenario, Variant, load_scenarios

REGS = registers()
RULES = rulebook()
SCENARIOS = load_scenarios()

# Questions no request can reach, each with the reason; every other question must be reached.
LATENT: Mapping[str, str] = {
    "caladan-battle-bonus": "homeworld battles are answered not-implemented",
    "salusa-two-sardaukar": "homeworld battles are answered not-implemented",
}


@dataclass(frozen=True)
class Case:
    """One request of a fixture: its base (variant None) or one of its variants."""

    scenario: Scenario
    variant: Variant | None

    @property
    def interpretations(self) -> Mapping[str, str]:
        request = self.scenario.request_for(self.variant) or {}
        return dict(request.get("interpretations") or {})

    @property
    def expect(self) -> Mapping[str, Any]:
        return self.scenario.expect if self.variant is None else self.variant.expect

    @property
    def name(self) -> str:
        return self.scenario.id if self.variant is None else f"{self.scenario.id}[{self.variant.index}]"


def _cases(scenarios: tuple[Scenario, ...]) -> Iterator[Case]:
    for scenario in scenarios:
        yield Case(scenario, None)
        for variant in scenario.variants:
            yield Case(scenario, variant)


def _walk(tree: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(tree, Mapping):
        for key, value in tree.items():
            yield str(key), value
            yield from _walk(value)
    elif isinstance(tree, list):
        for item in tree:
            yield from _walk(item)


def _answer_names(expect: Mapping[str, Any], question: str, implemented: tuple[str, ...]) -> bool:
    """The expected answer itself carries the question: a violation at its interpretation path, or
    alternatives whose interpretations cover every implemented choice of it."""
    alternatives: set[str] = set()
    for key, value in _walk(expect):
        if key == "path" and value == f"/interpretations/{question}":
            return True
        if key == "interpretations" and isinstance(value, Mapping) and question in value:
            alternatives.add(str(value[question]))
    return bool(alternatives) and alternatives >= set(implemented)


def _expects_not_implemented(expect: Mapping[str, Any], question: str) -> bool:
    """The expected answer holds the `not-implemented` violation at the question's interpretation."""
    return any(
        key == "violations"
        and isinstance(value, list)
        and any(
            isinstance(v, Mapping)
            and v.get("code") == "not-implemented"
            and v.get("path") == f"/interpretations/{question}"
            for v in value
        )
        for key, value in _walk(expect)
    )


def _provenance_readings(expect: Mapping[str, Any]) -> Mapping[str, Any]:
    """The readings the expected answer's provenance names: a snapshot reached under a reading it keeps
    is ruled under that reading, not the default, and its fixture says so there."""
    provenance = expect.get("provenance")
    readings = provenance.get("interpretations") if isinstance(provenance, Mapping) else None
    return readings if isinstance(readings, Mapping) else {}


def _asserted_rules(expect: Mapping[str, Any]) -> set[str]:
    return {value for key, value in _walk(expect) if key == "rule" and isinstance(value, str)}


def rules_naming(question: str, claims: Mapping[str, str]) -> set[str]:
    """The rules whose one-line claim names the question."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(question)}(?![\w-])")
    return {rule for rule, claim in claims.items() if pattern.search(claim)}


@dataclass(frozen=True)
class Coverage:
    unnamed_choices: list[str]  # "question/choice" that no fixture names
    wrong_assertions: list[str]  # an expectation naming a choice without its status, or not as implemented
    unreached: list[str]  # questions no fixture reaches without naming them
    reaching: dict[str, list[Case]]  # question -> the cases reaching it through a rule (default applied)
    reached: set[str]  # questions some fixture reaches without naming them, either way


def coverage(
    questions: Mapping[str, Question],
    implemented: Mapping[str, tuple[str, ...]],
    scenarios: tuple[Scenario, ...],
    claims: Mapping[str, str],
    latent: Mapping[str, str],
) -> Coverage:
    cases = list(_cases(scenarios))
    unnamed, wrong, unreached = [], [], []
    reaching: dict[str, list[Case]] = {}
    reached: set[str] = set()
    for question in questions.values():
        for choice in question.choices:
            naming = [c for c in cases if c.interpretations.get(question.id) == choice.id]
            if not naming:
                unnamed.append(f"{question.id}/{choice.id}")
            for case in naming:
                refused = _expects_not_implemented(case.expect, question.id)
                if not {"status", "http_status"} & set(case.expect) or refused == (
                    choice.id in implemented.get(question.id, ())
                ):
                    wrong.append(f"{case.name}: {question.id}/{choice.id}")
        by_answer = [
            c
            for c in cases
            if question.id not in c.interpretations
            and _answer_names(c.expect, question.id, implemented.get(question.id, ()))
        ]
        governing = rules_naming(question.id, claims)
        by_rule = [
            c
            for c in cases
            if question.default is not None
            and question.id not in c.interpretations
            and _asserted_rules(c.expect) & governing
            and any(v.interpretations.get(question.id) for v in c.scenario.variants)
            and question.id not in _provenance_readings(c.expect)
        ]
        if by_rule:
            reaching[question.id] = by_rule
        if by_answer or by_rule:
            reached.add(question.id)
        elif question.id not in latent:
            unreached.append(question.id)
    return Coverage(unnamed, wrong, unreached, reaching, reached)


def _claims() -> dict[str, str]:
    return {rule_id: rule.claim for rule_id, rule in REGS.rules.items()}


def _implemented() -> dict[str, tuple[str, ...]]:
    return {q: RULES.implemented_choices(q) for q in REGS.questions}


COVERAGE = coverage(REGS.questions, _implemented(), SCENARIOS, _claims(), LATENT)


def test_every_choice_of_every_question_is_named_by_a_fixture() -> None:
    assert COVERAGE.unnamed_choices == []


def test_a_variant_asserts_not_implemented_exactly_for_an_unimplemented_choice() -> None:
    assert COVERAGE.wrong_assertions == []


def test_every_question_is_reached_without_a_choice_or_listed_as_latent() -> None:
    assert COVERAGE.unreached == []


def test_latent_questions_are_registered_unreachable_and_say_so() -> None:
    for question_id, reason in LATENT.items():
        question = REGS.questions[question_id]
        assert reason.strip()
        assert "Not modelled yet" in question.why and "not-implemented" in question.why, question_id
        assert question_id not in COVERAGE.reached, f"{question_id} is reached: remove it from LATENT"
        assert RULES.implemented_choices(question_id) == (), f"{question_id} has an implemented choice"


@functools.cache
def _client() -> FlaskClient:
    from api import create_app

    return create_app().test_client()


def _answer(case: Case, interpretations: Mapping[str, str]) -> dict[str, Any]:
    """The answer to the fixture's request under these interpretations, without its provenance (which
    echoes them)."""
    body = dict(case.scenario.request_for(None) or {})
    body["interpretations"] = dict(interpretations)
    response = _client().post(case.scenario.path, json=body)
    answer = json.loads(response.data)
    answer.pop("provenance", None)
    return {"http": response.status_code, **answer}


@pytest.mark.parametrize("question_id", sorted(COVERAGE.reaching))
def test_the_answer_without_a_choice_is_the_defaults_and_other_choices_differ(question_id: str) -> None:
    """A fixture reaching a question through a rule answers as under its default; and for each other
    implemented choice some such fixture answers differently under it (a fixture may also show a
    combination where the choice is moot)."""
    question = REGS.questions[question_id]
    implemented = RULES.implemented_choices(question_id)
    assert question.default in implemented
    differing: set[str] = set()
    for case in COVERAGE.reaching[question_id]:
        base = dict(case.interpretations)
        without = _answer(case, base)
        assert without == _answer(case, {**base, question_id: str(question.default)}), case.name
        named = {v.interpretations.get(question_id) for v in case.scenario.variants}
        for other in set(implemented) & named - {question.default}:
            if _answer(case, {**base, question_id: other}) != without:
                differing.add(other)
    assert differing == set(implemented) - {question.default}


# Self-tests: the check reports a fake question's missing fixtures and is satisfied by a fake corpus.

_FAKE = Question(
    id="fake-question",
    area="battle",
    title="t",
    question="q",
    origin={},
    choices=(),
    default="yes",
    default_evidence=None,
    why="w",
)


def _fake(choices: tuple[str, ...], default: str | None) -> dict[str, Question]:
    from adjudicator.core.registers import Choice

    made = tuple(Choice(id=c, label=c, consequence=c, citations=()) for c in choices)
    return {"fake-question": replace(_FAKE, choices=made, default=default)}


def _scenario(expect: Mapping[str, Any], variants: list[tuple[dict[str, str], dict[str, Any]]]) -> Scenario:
    from pathlib import Path

    return Scenario(
        id="battle/fake",
        title="t",
        file=Path("fake.yaml"),
        area="battle",
        source={},
        tags=(),
        method="POST",
        path="/v1/rulings",
        request={"snapshot": {}, "action": {"type": "x"}},
        expect=expect,
        variants=tuple(Variant(i, interps, exp) for i, (interps, exp) in enumerate(variants)),
    )


NOT_IMPLEMENTED = {
    "status": "illegal",
    "violations": [{"code": "not-implemented", "path": "/interpretations/fake-question"}],
}


def test_self_test_a_question_without_fixtures_is_reported() -> None:
    found = coverage(_fake(("yes", "no"), "yes"), {"fake-question": ("yes",)}, SCENARIOS, _claims(), {})
    assert found.unnamed_choices == ["fake-question/yes", "fake-question/no"]
    assert found.unreached == ["fake-question"]
    latent = coverage(_fake(("yes", "no"), "yes"), {}, (), {}, {"fake-question": "not modelled"})
    assert latent.unreached == []
    assert latent.unnamed_choices == ["fake-question/yes", "fake-question/no"]


def test_self_test_a_complete_fake_corpus_satisfies_the_check() -> None:
    claims = {"fake.rule": "decided by question fake-question (default yes)"}
    corpus = (
        _scenario(
            {"status": "resolved", "rulings": [{"rule": "fake.rule"}]},
            [({"fake-question": "yes"}, {"status": "resolved"}), ({"fake-question": "no"}, NOT_IMPLEMENTED)],
        ),
    )
    found = coverage(_fake(("yes", "no"), "yes"), {"fake-question": ("yes",)}, corpus, claims, {})
    assert (found.unnamed_choices, found.wrong_assertions, found.unreached) == ([], [], [])
    assert [c.name for c in found.reaching["fake-question"]] == ["battle/fake"]


def test_self_test_weak_evidence_does_not_count() -> None:
    claims = {"fake.rule": "decided by question fake-question (default yes)", "other.rule": "fake-question-two"}
    # a rule naming the question, but no variant of that fixture names it: not reached
    alone = (_scenario({"rulings": [{"rule": "fake.rule"}]}, []),)
    assert coverage(_fake(("yes", "no"), "yes"), {}, alone, claims, {}).unreached == ["fake-question"]
    # without a default, only an answer carrying the question counts
    nodefault = (_scenario({"rulings": [{"rule": "fake.rule"}]}, [({"fake-question": "yes"}, {})]),)
    assert coverage(_fake(("yes", "no"), None), {}, nodefault, claims, {}).unreached == ["fake-question"]
    # a claim naming a longer id is not a claim naming this one
    assert rules_naming("fake-question", claims) == {"fake.rule"}
    unresolved = (
        _scenario({"status": "unresolved", "alternatives": [{"interpretations": {"fake-question": "yes"}}]}, []),
    )
    assert coverage(_fake(("yes", "no"), None), {}, unresolved, claims, {}).unreached == []
    both = {"fake-question": ("yes", "no")}
    assert coverage(_fake(("yes", "no"), None), both, unresolved, claims, {}).unreached == ["fake-question"]


def test_self_test_a_variant_asserting_the_wrong_kind_of_answer_is_reported() -> None:
    corpus = (
        _scenario(
            {},
            [({"fake-question": "yes"}, NOT_IMPLEMENTED), ({"fake-question": "no"}, {"status": "resolved"})],
        ),
    )
    found = coverage(_fake(("yes", "no"), "yes"), {"fake-question": ("yes",)}, corpus, {}, {})
    assert found.wrong_assertions == ["battle/fake[0]: fake-question/yes", "battle/fake[1]: fake-question/no"]
