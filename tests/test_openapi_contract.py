"""The served spec says exactly what the server accepts and answers: OpenAPI 3.1, closed objects
wherever the server rejects unknown fields, a description on every schema, every error status an
operation can answer, and response examples that are the server's real answers to fixture requests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import marshmallow as ma
import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.conformance import check_response
from adjudicator.scenarios import load_scenarios

PROBLEM_REF = "#/components/schemas/Problem"
BODY_ERRORS = {400, 408, 413, 415, 422}

# Free-form response data: the server builds these objects and never reads them from a request, so
# the spec leaves their keys open (`additionalProperties: {}`). A new open object must be added here
# deliberately; none may be reachable from a request body.
OPEN_BY_DESIGN = {
    "#/components/schemas/Outcome/properties/summary",
    "#/components/schemas/Outcome/properties/events/items",
    "#/components/schemas/Question/properties/origin",
    "#/components/schemas/ScenarioSummary/properties/source",
    "#/components/schemas/Scenario/properties/source",
    "#/components/schemas/Scenario/properties/request",
    "#/components/schemas/Scenario/properties/expect",
    "#/components/schemas/Variant/properties/expect",
}


@pytest.fixture(scope="module")
def spec(app: Flask) -> dict[str, Any]:
    served: dict[str, Any] = app.test_client().get("/openapi.json").get_json()
    return served


def _nodes(node: Any, pointer: str) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield pointer, node
        for key, value in node.items():
            yield from _nodes(value, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _nodes(value, f"{pointer}/{index}")


def _is_object(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def _unconstrained_branch(branch: Any) -> bool:
    """A branch that lets an arbitrary object through: no `$ref`, no closed properties, no type
    other than object."""
    if not isinstance(branch, dict) or "$ref" in branch:
        return False
    kind = branch.get("type")
    if kind is not None and kind != "object" and not (isinstance(kind, list) and "object" in kind):
        return False
    return not ("properties" in branch and branch.get("additionalProperties") is False)


def open_schemas(document: dict[str, Any]) -> list[str]:
    """Every place of `document` where a schema admits properties the server would reject."""
    findings: list[str] = []
    for pointer, node in _nodes(document, "#"):
        if pointer.endswith(("/examples", "/example")) or "/examples/" in pointer or "/example/" in pointer:
            continue  # example values are data, not schemas
        for keyword in ("anyOf", "oneOf"):
            for index, branch in enumerate(node.get(keyword, []) if isinstance(node.get(keyword), list) else []):
                if _unconstrained_branch(branch):
                    findings.append(f"{pointer}/{keyword}/{index}: a branch admits any object")
        if "nullable" in node and not isinstance(node.get("nullable"), dict):
            findings.append(f"{pointer}: `nullable` is OpenAPI 3.0; 3.1 lists null among the types")
        if not _is_object(node) or pointer.endswith("/properties"):
            continue
        if "properties" in node:
            if node.get("additionalProperties") is not False:
                findings.append(f"{pointer}: an object with properties admits unknown ones")
        elif pointer not in OPEN_BY_DESIGN:
            values = node.get("additionalProperties")
            if not isinstance(values, dict) or values == {}:
                findings.append(f"{pointer}: a mapping whose values are unconstrained")
            if "propertyNames" not in node:
                findings.append(f"{pointer}: a mapping that does not say which keys it accepts")
    return findings


def test_the_served_spec_is_openapi_3_1(spec: dict[str, Any]) -> None:
    assert spec["openapi"] == "3.1.0"


def test_the_walk_finds_an_open_nullable_branch() -> None:
    # The 3.0 form of a nullable nested object: its first branch lets any object through.
    sample = {
        "components": {
            "schemas": {
                "Snapshot": {
                    "type": "object",
                    "properties": {
                        "pending": {"anyOf": [{"type": "object", "nullable": True}, {"$ref": "#/x"}]},
                        "plans": {"type": "object", "additionalProperties": {"$ref": "#/x"}},
                    },
                }
            }
        }
    }
    assert open_schemas(sample) == [
        "#/components/schemas/Snapshot: an object with properties admits unknown ones",
        "#/components/schemas/Snapshot/properties/pending/anyOf/0: a branch admits any object",
        "#/components/schemas/Snapshot/properties/pending/anyOf/0: `nullable` is OpenAPI 3.0; 3.1 lists null "
        "among the types",
        "#/components/schemas/Snapshot/properties/pending/anyOf/0: a mapping whose values are unconstrained",
        "#/components/schemas/Snapshot/properties/pending/anyOf/0: a mapping that does not say which keys it accepts",
        "#/components/schemas/Snapshot/properties/plans: a mapping that does not say which keys it accepts",
    ]


def test_no_schema_admits_what_the_server_rejects(spec: dict[str, Any]) -> None:
    assert open_schemas(spec) == []


def test_nullable_objects_admit_null_or_their_own_closed_schema(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    nullable = [
        (pointer, node["anyOf"])
        for pointer, node in _nodes(spec, "#")
        if isinstance(node.get("anyOf"), list) and {"type": "null"} in node["anyOf"]
    ]
    assert len(nullable) >= 20
    for pointer, branches in nullable:
        refs = [b["$ref"] for b in branches if "$ref" in b]
        assert len(branches) == 2 and len(refs) == 1, pointer
        assert schemas[refs[0].rsplit("/", 1)[1]]["additionalProperties"] is False, pointer


def test_the_open_objects_are_response_data_only(spec: dict[str, Any]) -> None:
    found = {p for p, node in _nodes(spec, "#") if node.get("additionalProperties") == {} and "/examples/" not in p}
    assert found == OPEN_BY_DESIGN
    schemas = spec["components"]["schemas"]
    reachable: set[str] = set()
    todo = [
        op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        for item in spec["paths"].values()
        for op in item.values()
        if "requestBody" in op
    ]
    while todo:
        name = todo.pop().rsplit("/", 1)[1]
        if name not in reachable:
            reachable.add(name)
            todo.extend(n["$ref"] for _, n in _nodes(schemas[name], "#") if "$ref" in n)
    assert {p.split("/")[3] for p in OPEN_BY_DESIGN} & reachable == set()


def test_every_component_schema_rejects_unknown_fields_on_the_server(app: Flask, spec: dict[str, Any]) -> None:
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    refs = api.ma_plugin.converter.refs
    assert set(refs.values()) == set(spec["components"]["schemas"])
    for key in refs:
        assert key[0]().unknown == ma.RAISE, key[0].__name__


def test_every_component_schema_has_a_description(spec: dict[str, Any]) -> None:
    undescribed = [name for name, schema in spec["components"]["schemas"].items() if not schema.get("description")]
    assert undescribed == []


METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def _expected_errors(path: str, method: str, operation: dict[str, Any]) -> set[int]:
    # every operation refuses a query parameter it does not take (422), and any other method (405)
    expected = {405, 422}
    if method == "post":
        expected |= BODY_ERRORS
    if "{" in path:
        expected.add(404)
    return expected


def _response(spec: dict[str, Any], operation: dict[str, Any], status: int) -> dict[str, Any]:
    response: dict[str, Any] = operation["responses"][str(status)]
    if "$ref" in response:
        response = spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return response


def test_every_operation_documents_the_errors_it_can_answer(spec: dict[str, Any]) -> None:
    for path, method, operation in _operations(spec):
        documented = {int(s) for s in operation["responses"] if s.isdigit() and int(s) >= 400}
        assert documented == _expected_errors(path, method, operation), (method, path)
        for status in documented:
            response = _response(spec, operation, status)
            assert response["content"] == {"application/problem+json": {"schema": {"$ref": PROBLEM_REF}}}
            assert response["description"], status
        assert _response(spec, operation, 405)["headers"]["Allow"]["schema"] == {"type": "string"}


def _provoke(client: FlaskClient, path: str, method: str) -> Iterator[tuple[str, Any]]:
    """Requests that each error answer of the operation is given for."""
    other = "put" if method == "post" else "post"
    yield "405", client.open(path, method=other.upper(), json={})
    if method == "post":
        yield "400", client.post(path, data=b"{", content_type="application/json")
        yield (
            "400",
            client.post(path, data=b"{}", content_type="application/json", environ_overrides={"CONTENT_LENGTH": "100"}),
        )
        yield "413", client.post(path, data=b" " * (1024 * 1024 + 1), content_type="application/json")
        yield "415", client.post(path, data=b"{}", content_type="text/plain")
        yield (
            "415",
            client.post(path, data=b"{}", content_type="application/json", headers={"Content-Encoding": "gzip"}),
        )
        yield "422", client.post(path, json={})


def test_the_error_answers_are_the_documented_ones(client: FlaskClient, spec: dict[str, Any]) -> None:
    problem = jsonschema_rs.Draft202012Validator({"$ref": PROBLEM_REF, "components": spec["components"]})
    answered: dict[str, set[int]] = {}
    for path, method, operation in _operations(spec):
        address = path.replace("{rule_id}", "no-such-rule").replace("{question_id}", "no-such-question")
        address = address.replace("{scenario_id}", "no/such-scenario")
        requests = list(_provoke(client, address, method))
        if "{" in path:
            requests.append(("404", client.get(address)))
        # an unknown query parameter is refused by every operation
        body = {"json": {}} if method == "post" else {}
        requests.append(("422", client.open(f"{address}?no-such-parameter=1", method=method.upper(), **body)))
        for expected, answer in requests:
            assert str(answer.status_code) == expected, (method, path, expected, answer.get_json())
            assert expected in operation["responses"], (method, path, expected)
            assert answer.mimetype == "application/problem+json"
            problem.validate(answer.get_json())
            answered.setdefault(f"{method} {path}", set()).add(answer.status_code)
        # The 408 needs a body that stalls on a real socket: tests/test_live_server.py sends one.
        assert answered[f"{method} {path}"] == _expected_errors(path, method, operation) - {408}, (method, path)


def _post_operations(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, method, operation in _operations(spec):
        if method == "post":
            yield path, operation


def test_response_examples_are_the_servers_answers_to_the_fixtures(client: FlaskClient, spec: dict[str, Any]) -> None:
    shown = 0
    for path, operation in _post_operations(spec):
        request = operation["requestBody"]["content"]["application/json"]
        answer = operation["responses"]["200"]["content"]["application/json"]
        request_schema = jsonschema_rs.Draft202012Validator({**request["schema"], "components": spec["components"]})
        answer_schema = jsonschema_rs.Draft202012Validator({**answer["schema"], "components": spec["components"]})
        assert set(answer["examples"]) == set(request["examples"]), path
        for name, example in answer["examples"].items():
            body = request["examples"][name]["value"]
            request_schema.validate(body)
            answer_schema.validate(example["value"])
            served = client.post(path, json=body)
            assert served.status_code == 200, name
            assert example["value"] == served.get_json(), f"{name}: run `make openapi`"
            assert example["summary"] == request["examples"][name]["summary"]
            shown += 1
    marked = [s for s in load_scenarios() if s.example and s.expect.get("http_status", 200) == 200]
    assert shown == len(marked) > 0


def test_each_response_example_meets_its_fixtures_expectation(client: FlaskClient, spec: dict[str, Any]) -> None:
    digest = client.get("/healthz").get_json()["rules_digest"]
    fixtures = {s.id.replace("/", "."): s for s in load_scenarios() if s.example}
    for _path, operation in _post_operations(spec):
        for name, example in operation["responses"]["200"]["content"]["application/json"]["examples"].items():
            assert check_response(fixtures[name].expect, 200, example["value"]) == [], name
            assert example["value"]["provenance"]["rules_digest"] == digest, f"{name}: run `make openapi`"
