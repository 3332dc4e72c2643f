"""Bad input gets a precise problem+json answer, never a 5xx, and strict JSON types."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient

from api import create_app

PROBLEM = "application/problem+json"


def _ruling(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {"snapshot": snapshot, "action": {"type": "resolve-battle"}}


def _assert_problem(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status
    assert response.mimetype == PROBLEM
    body: dict[str, Any] = response.get_json(force=True)
    assert set(body) == {"type", "title", "status", "detail", "errors"}
    assert body["status"] == status
    assert "Traceback" not in response.get_data(as_text=True)
    return body


def test_invalid_json_is_400(client: FlaskClient) -> None:
    body = _assert_problem(client.post("/v1/rulings", data="{not json", content_type="application/json"), 400)
    assert body["errors"][0]["code"] == "invalid-json"


def test_unknown_address_is_404(client: FlaskClient) -> None:
    _assert_problem(client.get("/v1/nothing-here"), 404)


def test_wrong_method_is_405_with_allow(client: FlaskClient) -> None:
    response = client.get("/v1/rulings")
    _assert_problem(response, 405)
    assert "POST" in response.headers["Allow"]
    response = client.delete("/v1/rules")
    _assert_problem(response, 405)
    assert "GET" in response.headers["Allow"]


def test_body_over_one_mebibyte_is_413(client: FlaskClient) -> None:
    big = b'{"x": "' + b"a" * (1024 * 1024) + b'"}'
    _assert_problem(client.post("/v1/rulings", data=big, content_type="application/json"), 413)


def test_body_of_exactly_one_mebibyte_is_read(client: FlaskClient) -> None:
    padding = 1024 * 1024 - len(b'{"x": ""}')
    body = b'{"x": "' + b"a" * padding + b'"}'
    assert len(body) == 1024 * 1024
    response = client.post("/v1/views", data=body, content_type="application/json")
    _assert_problem(response, 422)  # read and rejected for its content, not its size


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_non_json_body_is_415(client: FlaskClient, content_type: str) -> None:
    _assert_problem(client.post("/v1/rulings", data="a=1", content_type=content_type), 415)


def test_json_suffix_media_types_are_accepted(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    import json

    response = client.post(
        "/v1/views", data=json.dumps({"snapshot": three_factions}), content_type="application/vnd.dune+json"
    )
    assert response.status_code == 200


def test_body_that_is_not_an_object_is_422(client: FlaskClient) -> None:
    body = _assert_problem(client.post("/v1/rulings", json=[1, 2]), 422)
    assert body["errors"][0]["path"] == ""


@pytest.mark.parametrize(
    ("mutate", "path", "code"),
    [
        (lambda s: s.update(turn="3"), "/snapshot/turn", "invalid-type"),
        (lambda s: s.update(turn=2.5), "/snapshot/turn", "invalid-type"),
        (lambda s: s.update(turn=True), "/snapshot/turn", "invalid-type"),
        (lambda s: s["ruleset"].update(advanced="yes"), "/snapshot/ruleset/advanced", "invalid-type"),
        (lambda s: s["ruleset"].update(advanced=1), "/snapshot/ruleset/advanced", "invalid-type"),
        (lambda s: s.update(phase="lunch"), "/snapshot/phase", "unknown-value"),
        (lambda s: s.update(extra=1), "/snapshot/extra", "unknown-field"),
        (lambda s: s.pop("seed"), "/snapshot/seed", "required"),
        (lambda s: s["factions"]["atreides"].update(hand=None), "/snapshot/factions/atreides/hand", "null-not-allowed"),
        (lambda s: s["forces"][0].update(regular=-3), "/snapshot/forces/0/regular", "out-of-range"),
    ],
)
def test_strict_types_and_json_pointer_paths(
    client: FlaskClient, three_factions: dict[str, Any], mutate: Any, path: str, code: str
) -> None:
    snapshot = copy.deepcopy(three_factions)
    mutate(snapshot)
    body = _assert_problem(client.post("/v1/rulings", json=_ruling(snapshot)), 422)
    assert {"path": path, "code": code} in [{"path": e["path"], "code": e["code"]} for e in body["errors"]]


def test_whole_floats_are_integers(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    three_factions["turn"] = 3.0
    response = client.post("/v1/views", json={"snapshot": three_factions})
    assert response.status_code == 200
    assert response.get_json()["snapshot"]["turn"] == 3
    assert isinstance(response.get_json()["snapshot"]["turn"], int)


def test_json_pointer_escapes_slash_and_tilde(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    request = _ruling(three_factions) | {"interpretations": {"a/b~c": "x"}}
    body = _assert_problem(client.post("/v1/rulings", json=request), 422)
    assert body["errors"] == [
        {"path": "/interpretations/a~1b~0c", "code": "unknown-question", "message": "no question with id 'a/b~c'"}
    ]


def test_an_unexpected_error_is_a_500_problem_without_internals() -> None:
    app = create_app()

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("secret internals")

    response = app.test_client().get("/boom")
    body = _assert_problem(response, 500)
    assert "secret" not in response.get_data(as_text=True)
    assert body["errors"] == []


def test_rejected_requests_change_nothing(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    before = copy.deepcopy(three_factions)
    client.post("/v1/rulings", json=_ruling(three_factions) | {"interpretations": {"x": "y"}})
    client.post("/v1/views", json={"snapshot": three_factions, "viewer": "atreides"})
    assert three_factions == before


def test_rulings_carry_the_rules_digest_header(client: FlaskClient, three_factions: dict[str, Any]) -> None:
    response = client.post("/v1/rulings", json=_ruling(three_factions))
    health = client.get("/healthz").get_json()
    assert response.headers["X-Rules-Digest"] == health["rules_digest"]
    assert response.get_json()["provenance"]["rules_digest"] == health["rules_digest"]


@pytest.mark.parametrize("encoding", ["gzip", "br", "x-custom"])
def test_a_content_encoding_not_decoded_here_is_415(client: FlaskClient, encoding: str) -> None:
    answer = client.post(
        "/v1/rulings", data=b"{}", content_type="application/json", headers={"Content-Encoding": encoding}
    )
    assert answer.status_code == 415
    assert answer.mimetype == "application/problem+json"
    assert [e["code"] for e in answer.get_json()["errors"]] == ["unsupported-content-encoding"]


def test_identity_encoding_is_read_as_is(client: FlaskClient) -> None:
    answer = client.post(
        "/v1/rulings", data=b"{}", content_type="application/json", headers={"Content-Encoding": "identity"}
    )
    assert answer.status_code == 422  # read, then refused for what it says, not for how it came


def test_a_body_shorter_than_its_content_length_is_400(client: FlaskClient) -> None:
    answer = client.post(
        "/v1/rulings", data=b"{}", content_type="application/json", environ_overrides={"CONTENT_LENGTH": "100"}
    )
    assert answer.status_code == 400
    assert [e["code"] for e in answer.get_json()["errors"]] == ["malformed-body"]
