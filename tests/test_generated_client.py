"""A Python client generated from the committed spec by openapi-python-client, run against the real
server: every fixture whose request is well-formed goes through the client's typed models and must
match its expectations. The generation must not warn (a warning means a dropped operation or model)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from adjudicator.conformance import check_response
from adjudicator.scenarios import load_scenarios

SPEC = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
ENDPOINTS = {
    "/v1/rulings": ("rulings.adjudicate", "RulingRequest"),
    "/v1/options": ("options.list_options", "OptionsRequest"),
    "/v1/views": ("views.view_snapshot", "ViewRequest"),
}


@pytest.fixture(scope="module")
def generated_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    folder = tmp_path_factory.mktemp("client")
    tool = Path(sys.executable).with_name("openapi-python-client")
    env = {**os.environ, "PATH": f"{tool.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    run = subprocess.run(
        [str(tool), "generate", "--path", str(SPEC), "--meta", "none", "--output-path", str(folder / "dune_client")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "warning" not in output.lower(), output
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("dune_client")
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == "dune_client" or n.startswith("dune_client.")]:
            del sys.modules[name]


def test_fixtures_through_the_generated_client(generated_client: ModuleType, live_server: str) -> None:
    client = generated_client.Client(base_url=live_server, raise_on_unexpected_status=False)
    models = importlib.import_module("dune_client.models")
    ran: list[str] = []
    failures: list[str] = []
    for scenario in load_scenarios():
        if scenario.method != "POST" or scenario.expect.get("http_status", 200) != 200:
            continue  # a malformed request is what a typed client cannot send
        operation, request_model = ENDPOINTS[scenario.path]
        endpoint = importlib.import_module(f"dune_client.api.{operation}")
        for variant in (None, *scenario.variants):
            body: Any = getattr(models, request_model).from_dict(dict(scenario.request_for(variant) or {}))
            response = endpoint.sync_detailed(client=client, body=body)
            parsed = None if response.parsed is None else response.parsed.to_dict()
            expect = scenario.expect if variant is None else variant.expect
            problems = check_response(expect, response.status_code, parsed)
            ran.append(scenario.id)
            if problems:
                failures.append(f"{scenario.id}: {problems[0]}")
    assert len(ran) >= 10
    assert failures == []
