"""pytest plugin: every `scenarios/<area>/*.yaml` fixture becomes a test item per scenario and variant.

Each item sends the fixture's request through the HTTP test client and matches the answer against
`expect` (partial structural match, see `adjudicator.conformance`). It also sends the request a
second time and requires a byte-identical answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.conformance import check_response
from adjudicator.scenarios import DEFAULT_DIRECTORY, Scenario, ScenarioError, Variant, _parse, _read, is_fixture_file

_SEEN_KEY = pytest.StashKey[dict[str, Path]]()
_COUNT_KEY = pytest.StashKey[int]()
_APP: Flask | None = None


def _client() -> FlaskClient:
    global _APP
    if _APP is None:
        from api import create_app

        _APP = create_app()
    return _APP.test_client()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_SEEN_KEY] = {}
    config.stash[_COUNT_KEY] = 0
    config.addinivalue_line("markers", "scenario_tag(tag): a scenario fixture's tag")


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if is_fixture_file(DEFAULT_DIRECTORY, file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            if self.path.suffix != ".yaml":
                raise ScenarioError(self.path, "fixtures use the .yaml extension")
            if self.path.parent.resolve() == DEFAULT_DIRECTORY:
                raise ScenarioError(self.path, "a fixture lives in an area folder: scenarios/<area>/NAME.yaml")
            scenario = _parse(self.path, _read(self.path), DEFAULT_DIRECTORY)
        except ScenarioError as exc:
            raise self.CollectError(str(exc)) from exc
        seen = self.config.stash[_SEEN_KEY]
        if scenario.id in seen and seen[scenario.id] != self.path:
            raise self.CollectError(f"duplicate scenario id {scenario.id!r}: also in {seen[scenario.id]}")
        seen[scenario.id] = self.path
        self.config.stash[_COUNT_KEY] += 1
        yield ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario, variant=None)
        for variant in scenario.variants:
            label = ",".join(f"{k}={v}" for k, v in sorted(variant.interpretations.items())) or str(variant.index)
            yield ScenarioItem.from_parent(self, name=f"{scenario.id}[{label}]", scenario=scenario, variant=variant)


def _response_schemas() -> dict[str, Any]:
    from api.extensions import ProblemSchema
    from api.resources.health.schemas import HEALTH
    from api.resources.options.schemas import RESPONSE as OPTIONS
    from api.resources.registers.schemas import QUESTION, QUESTION_LIST, RULE, RULE_LIST, SOURCE_LIST
    from api.resources.rulings.schemas import RESPONSE as RULINGS
    from api.resources.views.schemas import RESPONSE as VIEWS

    return {
        "/v1/rulings": RULINGS,
        "/v1/options": OPTIONS,
        "/v1/views": VIEWS,
        "/v1/rules": RULE_LIST,
        "/v1/rules/": RULE,
        "/v1/sources": SOURCE_LIST,
        "/v1/questions": QUESTION_LIST,
        "/v1/questions/": QUESTION,
        "/healthz": HEALTH,
        "problem": ProblemSchema(),
    }


def _schema_problems(path: str, status: int, body: Any) -> list[str]:
    """The answer must load back through its documented schema with unknown fields rejected, so the
    JSON built straight from the engine never drifts from the spec."""
    import marshmallow as ma

    schemas = _response_schemas()
    base = path.split("?", 1)[0]
    if status >= 400:
        schema = schemas["problem"]
    elif base in schemas:
        schema = schemas[base]
    else:
        schema = next((v for k, v in schemas.items() if k.endswith("/") and base.startswith(k)), None)
    if schema is None:
        return []
    try:
        ma.Schema.load(schema, body)
    except ma.ValidationError as exc:
        return [f"the answer does not match its documented schema: {exc.messages}"]
    return []


class ScenarioMismatch(AssertionError):
    pass


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, variant: Variant | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.variant = variant
        for tag in scenario.tags:
            self.add_marker(pytest.mark.scenario_tag(tag))

    def _send(self) -> tuple[int, bytes, Any]:
        client = _client()
        scenario = self.scenario
        if scenario.method == "GET":
            response = client.get(scenario.path)
        else:
            response = client.post(scenario.path, json=scenario.request_for(self.variant))
        return response.status_code, response.data, json.loads(response.data) if response.data else None

    def runtest(self) -> None:
        expect = self.variant.expect if self.variant is not None else self.scenario.expect
        status, raw, body = self._send()
        problems = check_response(expect, status, body)
        again_status, again_raw, _ = self._send()
        if (again_status, again_raw) != (status, raw):
            problems.append("the same request gave a different answer the second time")
        if status >= 500:
            problems.append(f"server error {status}")
        problems += _schema_problems(self.scenario.path, status, body)
        if problems:
            raise ScenarioMismatch("\n".join(problems) + "\n\nresponse:\n" + json.dumps(body, indent=1)[:4000])

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioMismatch):
            return f"scenario {self.scenario.id} ({self.scenario.file.name}):\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.name}"


def pytest_collection_finish(session: pytest.Session) -> None:
    """A run that covers scenarios/ but found no fixture there is a failure, not a quiet pass."""
    roots = [Path(str(arg).split("::", 1)[0]).resolve() for arg in session.config.args]
    covers = any(root == DEFAULT_DIRECTORY or root in DEFAULT_DIRECTORY.parents for root in roots)
    if covers and session.config.stash[_COUNT_KEY] == 0:
        raise pytest.UsageError("no scenario fixtures were collected under scenarios/")
