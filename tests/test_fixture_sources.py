"""Every fixture cites something a reader can check: a registered source, or a file in this repository.

A `source` is either `{source: <id in adjudicator/data/sources.yaml>, page: N}` (or `section:` where the
source has no page numbers: card text, faction sheets) or `{doc: <path from the repository root>, ...}`.
Fixture files are also plain YAML: no anchors or aliases, so every expectation reads where it stands.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from adjudicator import registers
from adjudicator.scenarios import DEFAULT_DIRECTORY, fixture_files, load_scenarios

ROOT = DEFAULT_DIRECTORY.parent
FILES = fixture_files(DEFAULT_DIRECTORY)
SNAPSHOTS = sorted((DEFAULT_DIRECTORY / "_snapshots").glob("*.yaml"))


def _id(file: Path) -> str:
    return str(file.relative_to(DEFAULT_DIRECTORY))


def _contract_headings() -> set[str]:
    lines = (ROOT / "docs" / "contract.md").read_text(encoding="utf-8").splitlines()
    return {line.lstrip("#").strip() for line in lines if line.startswith("#")}


def source_problems(source: object) -> list[str]:
    """What is wrong with one fixture's `source` (empty when it is fine)."""
    if not isinstance(source, dict):
        return ["source is not a mapping"]
    if "source" in source and "doc" in source:
        return ["source names both a registered source and a document"]
    if "source" in source:
        known = set(registers().sources)
        if source["source"] not in known:
            return [f"source {source['source']!r} is not in adjudicator/data/sources.yaml"]
        if source.get("page") is None and not source.get("section"):
            return ["a registered source needs a page (or a section where it has no page numbers)"]
        page = source.get("page")
        if page is not None and (not isinstance(page, int) or isinstance(page, bool) or page < 1):
            return [f"page {page!r} is not a page number"]
        return []
    if "doc" in source:
        doc = source["doc"]
        if not isinstance(doc, str) or not doc or doc.startswith("/") or ".." in Path(doc).parts:
            return [f"doc {doc!r} is not a path relative to the repository root"]
        if not (ROOT / doc).is_file():
            return [f"doc {doc!r} is not a file in the repository"]
        if doc == "docs/contract.md" and source.get("section") not in _contract_headings():
            return [f"section {source.get('section')!r} is not a heading of docs/contract.md"]
        return []
    return ["source names neither a registered source ('source') nor a document ('doc')"]


@pytest.mark.parametrize("file", FILES, ids=_id)
def test_fixture_source_can_be_checked(file: Path) -> None:
    raw = yaml.safe_load(file.read_text(encoding="utf-8"))
    assert source_problems(raw.get("source")) == []


@pytest.mark.parametrize("file", FILES + SNAPSHOTS, ids=_id)
def test_fixture_has_no_yaml_anchor_or_alias(file: Path) -> None:
    found = [
        f"line {event.start_mark.line + 1}: {'alias' if isinstance(event, yaml.AliasEvent) else 'anchor'} "
        f"{event.anchor!r}"
        for event in yaml.parse(file.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        if getattr(event, "anchor", None) is not None
    ]
    assert found == [], f"{_id(file)} uses YAML anchors/aliases; write the mapping out instead"


def test_served_sources_are_the_fixtures_sources() -> None:
    scenarios = load_scenarios()
    assert len(scenarios) == len(FILES)
    for scenario in scenarios:
        assert source_problems(dict(scenario.source)) == [], scenario.id


@pytest.mark.parametrize(
    "source",
    [
        {"doc": "DESIGN.md"},
        {"doc": "/etc/hosts"},
        {"doc": "../main/README.md"},
        {"source": "no-such-source", "page": 3},
        {"source": "gf9-base"},
        {"source": "gf9-base", "page": 0},
        {"source": "gf9-base", "page": 3, "doc": "README.md"},
        {"section": "2.3 Battle plan contents"},
        {"doc": "docs/contract.md", "section": "4. Snapshot (validation)"},
    ],
)
def test_unverifiable_sources_are_caught(source: dict[str, object]) -> None:
    assert source_problems(source) != []


def test_anchors_are_caught() -> None:
    text = "a: &x {b: 1}\nc: *x\n"
    events = list(yaml.parse(text, Loader=yaml.SafeLoader))
    assert [e.anchor for e in events if getattr(e, "anchor", None)] == ["x", "x"]


def test_a_paged_fixture_source_is_a_page_its_rules_cite() -> None:
    # a fixture citing a rulebook page cites one its asserted rules (or chosen questions) cite:
    # `python -m tests.fixture_citations` lists the ones that do not
    from tests.fixture_citations import unmatched

    assert [scenario.id for scenario, _ in unmatched()] == []
