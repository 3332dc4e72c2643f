"""The served spec is the committed one; the docs UI is served from local assets only."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask.testing import FlaskClient

from adjudicator.scenarios import load_scenarios

COMMITTED = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
EXTERNAL_ADDRESS = re.compile(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", re.IGNORECASE)


def test_served_spec_matches_the_committed_file(client: FlaskClient) -> None:
    served = client.get("/openapi.json").get_json()
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert served == committed, "the API changed: run `make openapi` and commit openapi/openapi.json"


def test_every_contract_endpoint_is_documented(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]
    assert set(paths) >= {
        "/v1/rulings",
        "/v1/options",
        "/v1/views",
        "/v1/rules",
        "/v1/rules/{rule_id}",
        "/v1/sources",
        "/v1/questions",
        "/v1/questions/{question_id}",
        "/v1/scenarios",
        "/v1/scenarios/{scenario_id}",
        "/healthz",
    }


def test_error_responses_are_documented_as_problem_json(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    for name in ("UNPROCESSABLE_ENTITY", "BAD_REQUEST", "DEFAULT_ERROR"):
        assert list(spec["components"]["responses"][name]["content"]) == ["application/problem+json"]


def test_response_schemas_are_closed(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    for name in ("RulingResponse", "Snapshot", "ViewSnapshot", "OptionsResponse", "ViewResponse", "Rule", "Question"):
        assert schemas[name]["additionalProperties"] is False, name


def test_citations_document_their_page_status(client: FlaskClient) -> None:
    citation = client.get("/openapi.json").get_json()["components"]["schemas"]["Citation"]
    assert citation["properties"]["page_status"]["enum"] == ["read", "inferred"]
    served = client.get("/v1/rules/battle.traitor.single").get_json()["citations"]
    assert all(c["page_status"] in ("read", "inferred") for c in served if "page" in c)


def test_fixtures_marked_as_examples_are_attached_to_the_spec(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").get_json()
    marked = [s for s in load_scenarios() if s.example]
    assert marked, "at least one fixture should document an endpoint"
    for scenario in marked:
        body = spec["paths"][scenario.path]["post"]["requestBody"]["content"]["application/json"]
        assert body["examples"][scenario.id.replace("/", ".")]["value"] == scenario.request


def test_docs_page_uses_local_assets_only(client: FlaskClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert EXTERNAL_ADDRESS.findall(html) == []
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets, "the page loads Swagger UI's script and style"
    for asset in assets:
        assert asset.startswith("/docs/assets/")
        assert client.get(asset).status_code == 200


def test_the_readme_example_is_a_fixture_request_and_answers_with_options(client: FlaskClient) -> None:
    example = json.loads((COMMITTED.parent.parent / "examples" / "retention-options.json").read_text(encoding="utf-8"))
    fixture = {s.id: s for s in load_scenarios()}["moritani/retention-options-each-eligible-or-none"]
    assert example == fixture.request
    answer = client.post("/v1/options", json=example).get_json()
    assert [o["card"] for o in answer["options"]] == ["crysknife", "shield#2", None]
