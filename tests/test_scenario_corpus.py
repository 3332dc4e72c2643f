"""The fixture corpus and its harness: loading, expansion, matching, and failure on bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.conformance import check_response, mismatches
from adjudicator.scenarios import ScenarioError, load_scenarios, merge_patch

GOOD = """\
id: demo/ok
title: ok
source: {doc: docs/contract.md, section: Endpoints}
method: GET
path: /healthz
expect: {status: ok}
"""


def _write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_corpus_is_not_empty_and_ids_are_unique() -> None:
    scenarios = load_scenarios()
    assert len(scenarios) >= 50
    assert len({s.id for s in scenarios}) == len(scenarios)
    assert {s.area for s in scenarios} >= {"snapshot", "views", "moritani", "rulings", "registers"}


def test_duplicate_ids_are_rejected(tmp_path: Path) -> None:
    _write(tmp_path, "demo/a.yaml", GOOD)
    _write(tmp_path, "demo/b.yaml", GOOD)
    with pytest.raises(ScenarioError, match="duplicate id"):
        load_scenarios(tmp_path)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("id: demo/ok\ntitle: t\nsource: {doc: D}\n", "missing 'expect'"),
        (GOOD.replace("id: demo/ok", "id: Demo Ok"), "must be 'area/kebab-name'"),
        (GOOD.replace("id: demo/ok", "id: other/ok"), "must live under scenarios/other/"),
        (GOOD + "surprise: 1\n", "unknown keys"),
        (GOOD.replace("method: GET", "method: POST"), "needs a 'request'"),
        ("id: [unclosed\n", "not valid YAML"),
    ],
)
def test_malformed_fixtures_are_rejected(tmp_path: Path, text: str, reason: str) -> None:
    _write(tmp_path, "demo/a.yaml", text)
    with pytest.raises(ScenarioError, match=reason):
        load_scenarios(tmp_path)


def test_nested_fixtures_are_found_and_misplaced_files_rejected(tmp_path: Path) -> None:
    _write(tmp_path, "demo/deeper/a.yaml", GOOD)
    _write(tmp_path, "_snapshots/base.yaml", "format: dune-snapshot/1\n")
    assert [s.id for s in load_scenarios(tmp_path)] == ["demo/ok"]
    _write(tmp_path, "demo/b.yml", GOOD.replace("demo/ok", "demo/other"))
    with pytest.raises(ScenarioError, match=r"\.yaml extension"):
        load_scenarios(tmp_path)


def test_a_fixture_outside_an_area_folder_is_rejected(tmp_path: Path) -> None:
    _write(tmp_path, "loose.yaml", GOOD)
    with pytest.raises(ScenarioError, match="area folder"):
        load_scenarios(tmp_path)


def test_missing_shared_snapshot_is_rejected(tmp_path: Path) -> None:
    text = "id: demo/x\ntitle: t\nsource: {doc: D}\nrequest: {snapshot: {$extends: nowhere}}\nexpect: {}\n"
    _write(tmp_path, "demo/x.yaml", text)
    with pytest.raises(ScenarioError, match="nowhere"):
        load_scenarios(tmp_path)


def test_merge_patch_follows_rfc_7396() -> None:
    target = {"a": {"b": 1, "c": 2}, "l": [1, 2], "k": 1}
    assert merge_patch(target, {"a": {"b": None, "d": 4}, "l": [3], "k": None}) == {"a": {"c": 2, "d": 4}, "l": [3]}
    assert target == {"a": {"b": 1, "c": 2}, "l": [1, 2], "k": 1}


def test_partial_matching() -> None:
    actual = {"a": 1, "b": [{"x": 1, "y": 2}, {"x": 3}], "c": True, "d": None}
    assert mismatches({"a": 1, "b": [{"x": 1}, {"x": 3}]}, actual) == []
    assert mismatches({"b": {"include": [{"x": 3}], "length": 2}}, actual) == []
    assert mismatches({"b": {"exclude": [{"x": 9}]}}, actual) == []
    assert mismatches({"d": None}, actual) == []
    assert mismatches({"b": [{"x": 1}]}, actual) != []  # list length is exact
    assert mismatches({"b": {"include": [{"x": 9}]}}, actual) != []
    assert mismatches({"b": {"exclude": [{"x": 1}]}}, actual) != []
    assert mismatches({"c": 1}, actual) != []  # a boolean is not a number
    assert mismatches({"e": None}, actual) == ["/e: missing"]


def test_http_status_is_part_of_the_expectation() -> None:
    assert check_response({"http_status": 422}, 200, {}) == ["HTTP status: expected 422, got 200"]
    assert check_response({}, 200, {}) == []
