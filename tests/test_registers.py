"""The registers are complete: every rule cited and exercised, every question answerable."""

from __future__ import annotations

import pytest

from adjudicator import registers, rulebook
from adjudicator.core._data import load_yaml
from adjudicator.core.errors import RegisterError, UnknownInterpretation
from adjudicator.core.registers import Citation, check_interpretations
from adjudicator.core.vocabulary import Evidence, PageKind, PageStatus
from adjudicator.scenarios import fixtures_by_rule, load_scenarios

REGS = registers()
SCENARIOS = load_scenarios()
# Points the audits leave open that the register must carry (issue: service foundation, point 4).
REQUIRED_QUESTIONS = {
    "duke-moritani-custody",
    "duke-harkonnen-capture",
    "duke-capture-return",
    "duke-loan-expiry",
    "duke-ecaz-co-occupied",
    "duke-revival-shared-ambassador",
    "extortion-mentat-order",
    "extortion-self-payment",
    "retention-semuta-batches",
    "retention-karama-timing",
    "moritani-special-karama-precedence",
    "sandmaster-several-piles",
    "rihani-band-order",
    "retention-traitor-mandatory-cards",
    "battle-under-storm",
}


# printed components without page numbers, cited by name
UNPAGED_SOURCES = {"gf9-cards", "gf9-faction-sheets"}


def _citation_problems(citations: tuple, where: str, pages_required: bool) -> list[str]:
    """A citation locates its passage: a page (with page_kind), a timestamp, or for printed card text and
    faction sheets the card's or sheet's name; question choices may also cite a named section whose page
    is not recorded."""
    problems = []
    if not citations:
        problems.append(f"{where}: no citation")
    for c in citations:
        source = REGS.sources.get(c.source)
        if source is None:
            problems.append(f"{where}: unknown source {c.source!r}")
            continue
        if c.page is not None and c.timestamp is not None:
            problems.append(f"{where}: a citation gives a page or a timestamp, not both")
        located = c.page is not None or c.timestamp is not None or (c.source in UNPAGED_SOURCES and c.section)
        if not located and (pages_required or not c.section):
            problems.append(f"{where}: the citation does not locate its passage")
        if c.page is not None and c.page_kind is None:
            problems.append(f"{where}: a page needs its page_kind")
        if c.page_kind is not source.page_kind and (c.page is not None or c.page_kind is not None):
            problems.append(f"{where}: {c.source} is cited by {source.page_kind} pages, not {c.page_kind}")
        if c.timestamp is not None and (source.page_kind is not None or c.page_kind is not None):
            problems.append(f"{where}: only a video source is cited by timestamp")
        if (c.page is None) != (c.page_status is None):
            problems.append(f"{where}: a page, and only a page, has its page_status")
        if c.page_status is PageStatus.INFERRED and not (c.note or "").strip():
            problems.append(f"{where}: an inferred page needs a note saying where it comes from")
    return problems


def _all_citations() -> list[tuple[str, Citation]]:
    cited = [(rule.id, c) for rule in REGS.rules.values() for c in rule.citations]
    for question in REGS.questions.values():
        cited += [(f"{question.id}/{choice.id}", c) for choice in question.choices for c in choice.citations]
    return cited


def test_every_paged_citation_says_whether_its_page_was_read() -> None:
    paged = [(where, c) for where, c in _all_citations() if c.page is not None]
    assert paged
    assert [where for where, c in paged if not isinstance(c.page_status, PageStatus)] == []
    assert [where for where, c in paged if c.page_status is PageStatus.INFERRED and not (c.note or "").strip()] == []
    # both marks are in use: the register does not silently call every page read
    assert {c.page_status for _, c in paged} == set(PageStatus)


def test_a_question_origin_with_a_page_says_whether_it_was_read() -> None:
    for question in load_yaml("questions.yaml"):
        origin = question.get("origin") or {}
        if "page" in origin:
            assert origin.get("page_status") in {s.value for s in PageStatus}, question["id"]
        if origin.get("page_status") == PageStatus.INFERRED.value:
            assert (origin.get("note") or "").strip(), f"{question['id']}: an inferred origin page needs a note"


def test_a_page_and_section_are_read_or_inferred_alike_everywhere() -> None:
    # the same passage of the same page is not read in one citation and inferred in another
    marks: dict[tuple[str, int, str | None], set[PageStatus]] = {}
    cited = [c for _, c in _all_citations() if c.page is not None]
    for c in cited:
        marks.setdefault((c.source, c.page, c.section), set()).add(c.page_status)
    for question in load_yaml("questions.yaml"):
        origin = question.get("origin") or {}
        if "source" in origin and "page" in origin:
            key = (origin["source"], origin["page"], origin.get("section"))
            marks.setdefault(key, set()).add(PageStatus(origin["page_status"]))
    assert {key: marks[key] for key in marks if len(marks[key]) > 1} == {}


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"source": "gf9-base", "page": 11, "page_kind": "printed"}, "needs its page_status"),
        ({"source": "gf9-base", "page": 11, "page_kind": "printed", "page_status": "inferred"}, "needs a note"),
        ({"source": "gf9-cards", "section": "Lasgun", "page_status": "read"}, "without a page"),
    ],
)
def test_a_citation_is_refused_without_an_honest_page_status(raw: dict[str, object], problem: str) -> None:
    with pytest.raises(RegisterError, match=problem):
        Citation.from_dict(raw)


def test_an_unknown_page_status_is_refused() -> None:
    with pytest.raises(ValueError):
        Citation.from_dict({"source": "gf9-base", "page": 11, "page_kind": "printed", "page_status": "guessed"})


def test_page_status_is_served_with_the_citation() -> None:
    rule = REGS.rules["battle.traitor.single"]
    assert rule.to_dict()["citations"] == [
        {"source": "gf9-base", "page_kind": "printed", "page_status": "read", "page": 11, "section": "Traitors"}
    ]


@pytest.mark.parametrize("rule_id", sorted(REGS.rules))
def test_every_rule_has_claim_evidence_and_a_registered_citation(rule_id: str) -> None:
    rule = REGS.rules[rule_id]
    assert rule.claim.strip() and rule.title.strip()
    assert isinstance(rule.evidence, Evidence)
    assert rule.evidence is not Evidence.UNRESOLVED, "an unresolved point is a question, not a rule"
    assert _citation_problems(rule.citations, rule_id, pages_required=False) == []
    located = [c for c in rule.citations if not _citation_problems((c,), rule_id, pages_required=True)]
    assert located, "at least one citation gives a page, a timestamp or a named card"


def test_every_rule_function_is_registered_and_every_rule_has_a_function() -> None:
    assert set(rulebook().rule_functions) == set(REGS.rules)


def test_every_rule_is_asserted_by_at_least_one_fixture() -> None:
    covered = fixtures_by_rule(SCENARIOS)
    assert sorted(set(REGS.rules) - set(covered)) == []


def test_fixtures_only_name_registered_rules() -> None:
    assert sorted(set(fixtures_by_rule(SCENARIOS)) - set(REGS.rules)) == []


@pytest.mark.parametrize("question_id", sorted(REGS.questions))
def test_every_question_has_two_cited_choices_and_a_reasoned_default(question_id: str) -> None:
    question = REGS.questions[question_id]
    assert len(question.choices) >= 2
    assert len({c.id for c in question.choices}) == len(question.choices)
    for choice in question.choices:
        assert choice.label.strip() and choice.consequence.strip()
        assert _citation_problems(choice.citations, f"{question_id}/{choice.id}", pages_required=False) == []
    assert question.why.strip()
    if question.default is None:
        assert question.default_evidence is None
    else:
        assert question.choice(question.default) is not None
        # An unsettled point's default is never stronger than a composition.
        assert question.default_evidence in (Evidence.COMPOSITION, Evidence.PROVISIONAL_ORDERING)


def test_the_audits_open_points_are_all_in_the_register() -> None:
    assert sorted(REQUIRED_QUESTIONS - set(REGS.questions)) == []


def test_extortion_mentat_order_has_the_contract_choices_and_no_default() -> None:
    question = REGS.questions["extortion-mentat-order"]
    assert {c.id for c in question.choices} >= {"placement-first", "recovery-first"}
    assert question.default is None


def test_sources_are_the_contract_ids() -> None:
    assert set(REGS.sources) == {
        "gf9-base",
        "gf9-faq-2020-11",
        "gf9-ixians-tleilaxu",
        "gf9-choam-richese",
        "gf9-ecaz-moritani",
        "gf9-ecaz-moritani-supplied-pdf",
        "gf9-designer-walkthrough",
        "gf9-cards",
        # added after the first design: the printed faction sheets, where the Tleilaxu Face Dancers are described
        "gf9-faction-sheets",
        # the publisher's earlier Q&A, where bribe spice is collected at the start of the Mentat Pause
        "gf9-qa-early",
    }
    assert REGS.sources["gf9-ecaz-moritani-supplied-pdf"].page_kind is PageKind.PHYSICAL


def test_digest_is_a_sha256_of_the_registers() -> None:
    assert REGS.digest.startswith("sha256:") and len(REGS.digest) == len("sha256:") + 64


def test_interpretations_are_checked_against_the_register() -> None:
    check_interpretations({"extortion-mentat-order": "placement-first"})
    with pytest.raises(UnknownInterpretation) as caught:
        check_interpretations({"extortion-mentat-order": "nope", "nope": "x"})
    assert sorted((p.path, p.code) for p in caught.value.problems) == [
        ("/interpretations/extortion-mentat-order", "unknown-choice"),
        ("/interpretations/nope", "unknown-question"),
    ]
