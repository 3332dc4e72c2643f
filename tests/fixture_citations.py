"""Fixtures whose cited page is not a page of the rules they assert.

A fixture citing `{source: <id>, page: N}` should cite a page that one of the rules it asserts (a `rule`
key in its expectations) cites in `adjudicator/data/rules.yaml`, or that a question it chooses an
interpretation of cites; a page nobody cites, or one the register has since corrected, is listed.

    python -m tests.fixture_citations      # prints one line per such fixture; exit status 1 if any
"""

from __future__ import annotations

import sys

from adjudicator import registers
from adjudicator.scenarios import Scenario, load_scenarios


def _pages_of_questions(question_ids: set[str]) -> set[tuple[str, int]]:
    pages: set[tuple[str, int]] = set()
    questions = registers().questions
    for question_id in question_ids:
        question = questions.get(question_id)
        if question is None:
            continue
        for choice in question.choices:
            pages |= {(c.source, c.page) for c in choice.citations if c.page is not None}
    return pages


def cited_pages(scenario: Scenario) -> set[tuple[str, int]]:
    """The (source, page) pairs the fixture's asserted rules and chosen questions cite."""
    rules = registers().rules
    pages = {
        (c.source, c.page)
        for rule_id in scenario.rule_ids()
        if rule_id in rules
        for c in rules[rule_id].citations
        if c.page is not None
    }
    chosen = {q for v in scenario.variants for q in v.interpretations}
    chosen |= set((scenario.request or {}).get("interpretations") or {})
    return pages | _pages_of_questions(chosen)


def unmatched() -> list[tuple[Scenario, set[tuple[str, int]]]]:
    """Fixtures citing a registered source's page that none of their rules (or questions) cite."""
    found = []
    for scenario in load_scenarios():
        source, page = scenario.source.get("source"), scenario.source.get("page")
        if source is None or page is None or not scenario.rule_ids():
            continue
        pages = cited_pages(scenario)
        if (source, page) not in pages:
            found.append((scenario, pages))
    return found


def main() -> int:
    found = unmatched()
    for scenario, pages in found:
        cited = ", ".join(f"{s} p.{p}" for s, p in sorted(pages)) or "no paged citation"
        print(f"{scenario.id}: cites {scenario.source['source']} p.{scenario.source['page']}; its rules cite {cited}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
