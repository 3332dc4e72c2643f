"""OpenAPI documentation helpers: fixture-backed request examples and problem responses."""

from __future__ import annotations

from functools import cache
from typing import Any

from adjudicator.scenarios import Scenario, load_scenarios

_STATUS_NAMES = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    413: "REQUEST_ENTITY_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "UNPROCESSABLE_ENTITY",
}


@cache
def scenario_corpus() -> tuple[Scenario, ...]:
    """The packaged fixture corpus, loaded once per process."""
    return load_scenarios()


def examples_for(path: str) -> dict[str, dict[str, Any]]:
    """Named request examples for an endpoint: the fixtures marked `example: true`."""
    return {
        scenario.id.replace("/", "."): {"summary": scenario.title, "value": scenario.request}
        for scenario in scenario_corpus()
        if scenario.example and scenario.path == path and scenario.request is not None
    }


def problem_responses(*codes: int) -> dict[int, str]:
    """Problem responses by reference to the shared components (application/problem+json)."""
    return {code: _STATUS_NAMES[code] for code in codes}
