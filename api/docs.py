"""OpenAPI documentation helpers: fixture-backed request and response examples, problem responses."""

from __future__ import annotations

import http
import json
import logging
import os
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import marshmallow as ma

from adjudicator.core.errors import AdjudicatorError
from adjudicator.scenarios import DEFAULT_DIRECTORY, Scenario, fixtures_by_rule, load_scenarios

log = logging.getLogger(__name__)

# The errors every POST endpoint can answer about its body (api/body.py, api/parser.py, the schemas).
BODY_ERRORS = (400, 408, 413, 415, 422)


@cache
def scenario_corpus() -> tuple[Scenario, ...]:
    """The fixture corpus, loaded once per process: the repository's scenarios/ folder (the
    installs made by the Makefile are editable), or the folder named by DUNE_SCENARIOS_DIR."""
    configured = os.environ.get("DUNE_SCENARIOS_DIR")
    directory = Path(configured) if configured else DEFAULT_DIRECTORY
    if not directory.is_dir():
        log.warning("no scenario fixtures at %s: /v1/scenarios will be empty", directory)
    return load_scenarios(directory)


@cache
def rule_fixtures() -> dict[str, list[str]]:
    """Rule id -> ids of the fixtures that assert it (computed once from the cached corpus)."""
    return fixtures_by_rule(scenario_corpus())


def _example_fixtures(path: str) -> list[Scenario]:
    return [
        scenario
        for scenario in scenario_corpus()
        if scenario.example and scenario.path == path and scenario.request is not None
    ]


def example_name(scenario: Scenario) -> str:
    return scenario.id.replace("/", ".")


def examples_for(path: str) -> dict[str, dict[str, Any]]:
    """Named request examples for an endpoint: the fixtures marked `example: true`."""
    return {
        example_name(scenario): {"summary": scenario.title, "value": scenario.request}
        for scenario in _example_fixtures(path)
    }


def response_examples_for(
    path: str, request: ma.Schema, answer: Callable[[dict[str, Any]], Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Named 200 examples for an endpoint: what `answer` (the endpoint's own computation) gives for
    the request of each fixture marked `example: true`, as JSON, under the request example's name.
    A fixture whose request is not answered 200 documents no answer."""
    examples: dict[str, dict[str, Any]] = {}
    for scenario in _example_fixtures(path):
        if scenario.expect.get("http_status", 200) != 200:
            continue
        try:
            value = answer(request.load(scenario.request))
        except (ma.ValidationError, AdjudicatorError) as exc:
            log.warning("example fixture %s is not answered 200 (%s): no response example", scenario.id, exc)
            continue
        examples[example_name(scenario)] = {"summary": scenario.title, "value": json.loads(json.dumps(value))}
    return examples


def problem_responses(*codes: int) -> dict[int, str]:
    """Problem responses (application/problem+json) by reference to the shared components; every
    operation also documents the 405 its address answers to another method and the 422 it answers to
    a query parameter it does not take."""
    return {code: http.HTTPStatus(code).name for code in sorted({*codes, 405, 422})}
