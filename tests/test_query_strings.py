"""Query strings are as strict as bodies: unknown, repeated and out-of-vocabulary parameters are a 422
problem whose error path is `/query/<name>`, on every operation of the API."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator import registers
from api.docs import scenario_corpus

PROBLEM = "application/problem+json"

LISTINGS = {  # the operations with query parameters, and the parameters each takes
    "/v1/rules": ("area",),
    "/v1/questions": ("area",),
    "/v1/scenarios": ("area", "tag"),
}
NO_PARAMETERS = (
    "/v1/sources",
    "/v1/rules/moritani.retention.choose-one-or-none",
    "/v1/questions/extortion-mentat-order",
    "/v1/scenarios/registers/health",
    "/healthz",
)


def _errors(client: FlaskClient, url: str) -> list[tuple[str, str]]:
    response = client.get(url)
    assert response.status_code == 422, url
    assert response.mimetype == PROBLEM
    body: dict[str, Any] = response.get_json(force=True)
    return [(e["path"], e["code"]) for e in body["errors"]]


@pytest.mark.parametrize("address", list(LISTINGS))
@pytest.mark.parametrize("query", ["zzz=1", "page=2", "AREA=battle", "area[]=battle"])
def test_an_unknown_parameter_is_refused(client: FlaskClient, address: str, query: str) -> None:
    name = query.split("=")[0]
    assert _errors(client, f"{address}?{query}") == [(f"/query/{name}", "unknown-field")]


@pytest.mark.parametrize(("address", "names"), list(LISTINGS.items()))
def test_a_repeated_parameter_is_refused(client: FlaskClient, address: str, names: tuple[str, ...]) -> None:
    for name in names:
        value = "battle"
        assert _errors(client, f"{address}?{name}={value}&{name}={value}") == [(f"/query/{name}", "repeated-parameter")]


def test_the_first_of_two_values_is_not_taken_silently(client: FlaskClient) -> None:
    assert _errors(client, "/v1/rules?area=battle&area=moritani") == [("/query/area", "repeated-parameter")]


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("/v1/rules?area=no-such-area", "/query/area"),
        ("/v1/rules?area=", "/query/area"),
        ("/v1/rules?area=Battle", "/query/area"),
        ("/v1/questions?area=no-such-area", "/query/area"),
        ("/v1/scenarios?area=no-such-area", "/query/area"),
        ("/v1/scenarios?tag=no-such-tag", "/query/tag"),
    ],
)
def test_an_unknown_area_or_tag_is_refused(client: FlaskClient, url: str, path: str) -> None:
    assert _errors(client, url) == [(path, "unknown-value")]


def test_every_problem_of_the_query_is_reported_at_once(client: FlaskClient) -> None:
    errors = _errors(client, "/v1/scenarios?page=2&area=nowhere&tag=x&tag=y")
    assert sorted(errors) == [
        ("/query/area", "unknown-value"),
        ("/query/page", "unknown-field"),
        ("/query/tag", "repeated-parameter"),
    ]


@pytest.mark.parametrize("address", NO_PARAMETERS)
def test_an_operation_without_parameters_refuses_any(client: FlaskClient, address: str) -> None:
    assert client.get(address).status_code == 200
    assert _errors(client, f"{address}?x=1") == [("/query/x", "unknown-field")]
    assert _errors(client, f"{address}?x=1&x=2&y") == [("/query/x", "unknown-field"), ("/query/y", "unknown-field")]


@pytest.mark.parametrize("address", ["/v1/rulings", "/v1/options", "/v1/views"])
def test_a_post_refuses_query_parameters(client: FlaskClient, three_factions: dict[str, Any], address: str) -> None:
    body: dict[str, Any] = {"snapshot": three_factions}
    if address == "/v1/rulings":
        body["action"] = {"type": "resolve-battle"}
    assert client.post(address, json=body).status_code == 200
    response = client.post(f"{address}?explain=summary", json=body)
    assert response.status_code == 422
    assert [(e["path"], e["code"]) for e in response.get_json()["errors"]] == [("/query/explain", "unknown-field")]


def test_a_json_pointer_escapes_the_parameter_name(client: FlaskClient) -> None:
    assert _errors(client, "/v1/sources?a/b~c=1") == [("/query/a~1b~0c", "unknown-field")]


def test_routing_errors_come_first(client: FlaskClient) -> None:
    assert client.get("/v1/nothing-here?x=1").status_code == 404
    assert client.delete("/v1/rules?x=1").status_code == 405


def test_known_values_still_filter(client: FlaskClient) -> None:
    rules = client.get("/v1/rules?area=battle").get_json()["rules"]
    assert rules and {r["area"] for r in rules} == {"battle"}
    # a rules area known to the registers without questions is an empty list, not an error
    assert client.get("/v1/questions?area=richese").get_json() == {"questions": []}
    scenarios = client.get("/v1/scenarios?area=registers&tag=errors").get_json()["scenarios"]
    assert scenarios and all(s["area"] == "registers" and "errors" in s["tags"] for s in scenarios)


def _parameters(client: FlaskClient, address: str) -> dict[str, dict[str, Any]]:
    operation = client.get("/openapi.json").get_json()["paths"][address]["get"]
    return {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "query"}


def test_the_spec_lists_each_parameter_with_its_values(client: FlaskClient) -> None:
    regs = registers()
    areas = sorted({r.area for r in regs.rules.values()} | {q.area for q in regs.questions.values()})
    for address in ("/v1/rules", "/v1/questions"):
        assert set(_parameters(client, address)) == {"area"}
        assert _parameters(client, address)["area"]["schema"]["enum"] == areas
    scenarios = _parameters(client, "/v1/scenarios")
    assert set(scenarios) == {"area", "tag"}
    assert scenarios["area"]["schema"]["enum"] == sorted({s.area for s in scenario_corpus()})
    assert scenarios["tag"]["schema"]["enum"] == sorted({t for s in scenario_corpus() for t in s.tags})
    for address in NO_PARAMETERS:
        template = address
        for prefix, name in (
            ("/v1/rules/", "rule_id"),
            ("/v1/questions/", "question_id"),
            ("/v1/scenarios/", "scenario_id"),
        ):
            if address.startswith(prefix):
                template = prefix + "{" + name + "}"
        assert _parameters(client, template) == {}


def test_every_operation_documents_the_422(client: FlaskClient) -> None:
    for address, operations in client.get("/openapi.json").get_json()["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "responses" in operation:
                assert "422" in operation["responses"], f"{method} {address}"
