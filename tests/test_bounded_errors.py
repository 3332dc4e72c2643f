"""Problem answers stay small whatever the input: every request list and mapping has a maximum that is
checked before its items, and the errors listed are capped with a count of the rest."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator import load_snapshot
from adjudicator.core.errors import MAX_PROBLEMS, InvalidSnapshot
from adjudicator.core.snapshot import Snapshot
from adjudicator.validation import snapshot_problems
from api.problems import MAX_ERRORS

SPEC = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
PROBLEM = "application/problem+json"
SMALL = 20 * 1024  # bytes: a bounded problem answer fits in this whatever the request


def _post(client: FlaskClient, path: str, body: dict[str, Any]) -> tuple[Any, dict[str, Any], float]:
    data = json.dumps(body, separators=(",", ":"))
    started = time.perf_counter()
    response = client.post(path, data=data, content_type="application/json")
    elapsed = time.perf_counter() - started
    return response, json.loads(response.get_data()), elapsed


def _ruling(snapshot: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"snapshot": snapshot, "action": {"type": "resolve-battle"}, **extra}


def _errors(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["path"], e["code"]) for e in body["errors"]]


# --- every list and mapping of a request has a maximum, documented in the spec ----------------------


def _resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = spec["components"]["schemas"][name]
    return node


def _unbounded(spec: dict[str, Any], node: dict[str, Any], path: str, seen: set[str], out: list[str]) -> None:
    if "$ref" in node:
        if node["$ref"] in seen:
            return
        seen = seen | {node["$ref"]}
    node = _resolve(spec, node)
    for branch in node.get("anyOf", []) + node.get("allOf", []) + node.get("oneOf", []):
        _unbounded(spec, branch, path, seen, out)
    kind = node.get("type")
    if kind == "array" or (isinstance(kind, list) and "array" in kind):  # OpenAPI 3.0 or 3.1
        if "maxItems" not in node:
            out.append(path)
        _unbounded(spec, node.get("items", {}), path + "/[]", seen, out)
    for name, child in node.get("properties", {}).items():
        _unbounded(spec, child, f"{path}/{name}", seen, out)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        if "maxProperties" not in node:
            out.append(path)
        _unbounded(spec, extra, path + "/{}", seen, out)


def test_every_list_and_mapping_of_a_request_body_has_a_documented_maximum() -> None:
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    bodies = 0
    unbounded: list[str] = []
    for address, operations in spec["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body is None:
                continue
            bodies += 1
            schema = body["content"]["application/json"]["schema"]
            _unbounded(spec, schema, f"{method.upper()} {address}", set(), unbounded)
    assert bodies == 3
    assert unbounded == []


# --- a list over its maximum is one error, its items unread -----------------------------------------


def test_100000_malformed_items_get_a_small_answer_quickly(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    three_factions["discard"] = [1] * 100_000
    response, body, elapsed = _post(client, "/v1/rulings", _ruling(three_factions))
    assert response.status_code == 422
    assert response.mimetype == PROBLEM
    assert len(response.get_data()) < SMALL
    assert elapsed < 2.0  # some 15 ms on a laptop; 1.1 s and 9.5 MB when each item was reported
    assert _errors(body) == [("/snapshot/discard", "invalid-length")]


def test_100000_malformed_objects_get_a_small_answer(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    three_factions["forces"] = [{"faction": 1}] * 60_000  # as many as fit in a 1 MiB body
    response, body, _ = _post(client, "/v1/views", {"snapshot": three_factions})
    assert response.status_code == 422
    assert len(response.get_data()) < SMALL
    assert _errors(body) == [("/snapshot/forces", "invalid-length")]


@pytest.mark.parametrize(
    ("where", "maximum"),
    [
        (("factions", "atreides", "hand"), 40),
        (("factions", "atreides", "traitors"), 20),
        (("discard",), 100),
        (("storm_order",), 12),
    ],
)
def test_a_list_one_over_its_maximum_is_one_error_at_its_path(
    client: FlaskClient, three_factions: dict[str, Any], where: tuple[str, ...], maximum: int
) -> None:
    parent = three_factions
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = [1] * (maximum + 1)  # each item malformed too: none of them is reported
    response, body, _ = _post(client, "/v1/views", {"snapshot": three_factions})
    assert response.status_code == 422
    assert _errors(body) == [("/snapshot/" + "/".join(where), "invalid-length")]


def test_a_list_at_its_maximum_has_its_items_checked(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    three_factions["factions"]["atreides"]["hand"] = [1] * 40
    response, body, _ = _post(client, "/v1/views", {"snapshot": three_factions})
    assert response.status_code == 422
    assert _errors(body) == [(f"/snapshot/factions/atreides/hand/{i}", "invalid-type") for i in range(40)]


def test_a_list_of_objects_over_its_maximum_is_one_error(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    three_factions["battle"] = {
        "territory": "arrakeen",
        "aggressor": "atreides",
        "defender": "harkonnen",
        "plans": {},
        "resolution": {
            "result": "aggressor-wins",
            "winner": "atreides",
            "loser": "harkonnen",
            "decided_by_traitor": False,
            "steps": [],
            "semuta": [{"discarder": 1}] * 21,
        },
    }
    response, body, _ = _post(client, "/v1/views", {"snapshot": three_factions})
    assert response.status_code == 422
    assert ("/snapshot/battle/resolution/semuta", "invalid-length") in _errors(body)
    assert not any(path.startswith("/snapshot/battle/resolution/semuta/") for path, _ in _errors(body))


def test_a_mapping_over_its_maximum_is_one_error(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    interpretations = {f"question-{i}": 1 for i in range(51)}  # values malformed too
    response, body, _ = _post(client, "/v1/rulings", _ruling(three_factions, interpretations=interpretations))
    assert response.status_code == 422
    assert _errors(body) == [("/interpretations", "invalid-length")]


# --- the errors listed are capped, the rest counted -----------------------------------------------


def test_errors_beyond_the_cap_are_counted(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    three_factions["forces"] = [{}] * 300  # within the maximum of 600; each stack misses faction and territory
    response, body, _ = _post(client, "/v1/views", {"snapshot": three_factions})
    assert response.status_code == 422
    assert len(body["errors"]) == MAX_ERRORS == 100
    assert body["errors_omitted"] == 600 - MAX_ERRORS
    assert body["detail"] == "600 problem(s) in the request; see errors."
    # the first ones, in the order they were found
    assert _errors(body)[:2] == [
        ("/snapshot/forces/0/faction", "required"),
        ("/snapshot/forces/0/territory", "required"),
    ]
    assert len(response.get_data()) < SMALL


def test_unknown_fields_beyond_the_cap_are_counted(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    extra = {f"field-{i}": 0 for i in range(50_000)}
    response, body, _ = _post(client, "/v1/rulings", _ruling(three_factions, **extra))
    assert response.status_code == 422
    assert len(body["errors"]) == MAX_ERRORS
    assert body["errors_omitted"] == 50_000 - MAX_ERRORS
    assert {code for _, code in _errors(body)} == {"unknown-field"}
    assert len(response.get_data()) < SMALL


def test_an_answer_within_the_cap_has_no_count(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    three_factions["forces"] = [{}] * 50
    response, body, _ = _post(client, "/v1/views", {"snapshot": three_factions})
    assert response.status_code == 422
    assert len(body["errors"]) == 100
    assert "errors_omitted" not in body


def _far_flung(snapshot: dict[str, Any], stacks: int) -> dict[str, Any]:
    snapshot["forces"] = [
        {"faction": "atreides", "territory": f"nowhere-{i}", "sector": None, "regular": 1} for i in range(stacks)
    ]
    return snapshot


def test_the_engine_keeps_the_first_problems_and_counts_the_rest(three_factions: dict[str, Any]) -> None:
    raw = _far_flung(three_factions, 150)
    found = snapshot_problems(Snapshot.from_dict(raw))
    assert len(found) > MAX_PROBLEMS
    with pytest.raises(InvalidSnapshot) as caught:
        load_snapshot(raw)
    assert MAX_PROBLEMS == 100
    assert caught.value.problems == tuple(found[:MAX_PROBLEMS])
    assert caught.value.omitted == len(found) - MAX_PROBLEMS
    assert str(caught.value).endswith(f"; and {len(found) - MAX_PROBLEMS} more")


def test_the_engine_cap_reaches_the_answer(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    raw = _far_flung(three_factions, 600)
    found = snapshot_problems(Snapshot.from_dict(raw))
    total = len(found)
    response, body, _ = _post(client, "/v1/rulings", _ruling(raw))
    assert response.status_code == 422
    assert len(body["errors"]) == MAX_ERRORS
    assert body["errors_omitted"] == total - MAX_ERRORS
    assert body["detail"] == f"{total} problem(s) in the request; see errors."
    assert body["errors"] == [p.to_dict() for p in found[:MAX_ERRORS]]
    assert ("/snapshot/forces/0/territory", "unknown-territory") in _errors(body)
    assert len(response.get_data()) < SMALL


def test_the_problem_schema_documents_the_count(client: FlaskClient) -> None:
    problem = client.get("/openapi.json").get_json()["components"]["schemas"]["Problem"]
    assert problem["properties"]["errors_omitted"]["type"] == "integer"
    assert "errors_omitted" not in problem.get("required", [])
