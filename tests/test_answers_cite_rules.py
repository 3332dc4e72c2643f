"""Every resolved or unresolved answer names the rules that decided it.

Each fixture's request is sent as written, and every option its snapshot's open decision lists is
sent back; an answer `resolved` or `unresolved` with no rulings fails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask.testing import FlaskClient

from adjudicator.scenarios import load_scenarios


def _requests(client: FlaskClient) -> Iterator[tuple[str, dict[str, Any]]]:
    seen: set[str] = set()
    for scenario in load_scenarios():
        if scenario.method == "GET":
            continue
        for variant in (None, *scenario.variants):
            label = scenario.id if variant is None else f"{scenario.id}[{variant.index}]"
            body = scenario.request_for(variant)
            if not isinstance(body, dict) or not isinstance(body.get("snapshot"), dict):
                continue
            extra = {"interpretations": body["interpretations"]} if "interpretations" in body else {}
            if scenario.path == "/v1/rulings" and isinstance(body.get("action"), dict):
                yield label, body
            listed = client.post("/v1/options", json={"snapshot": body["snapshot"], **extra})
            if listed.status_code != 200:
                continue
            for option in listed.get_json().get("options") or []:
                request = {"snapshot": body["snapshot"], "action": option, **extra}
                key = json.dumps(request, sort_keys=True)
                if key not in seen:
                    seen.add(key)
                    yield f"{label} -> {option['type']}", request


def test_every_resolved_or_unresolved_answer_names_its_rulings(client: FlaskClient) -> None:
    uncited = []
    answered = 0
    for label, request in _requests(client):
        response = client.post("/v1/rulings", json=request)
        answer = response.get_json()
        if response.status_code != 200 or answer.get("status") not in ("resolved", "unresolved"):
            continue
        answered += 1
        if not answer.get("rulings"):
            uncited.append(f"{label}: {answer['status']} {request['action']}")
    assert answered > 100
    assert not uncited, "answers naming no rule:\n" + "\n".join(uncited)
