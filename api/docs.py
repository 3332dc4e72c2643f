"""OpenAPI documentation helpers: fixture-backed request examples and problem responses."""

from __future__ import annotations

import logging
import os
from functools import cache
from pathlib import Path
from typing import Any

from adjudicator.scenarios import DEFAULT_DIRECTORY, Scenario, fixtures_by_rule, load_scenarios

log = logging.getLogger(__name__)

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
