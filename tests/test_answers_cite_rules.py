"""Every resolved or unresolved answer names the rules that decided it.

Each fixture's request is adjudicated as written, and every option its snapshot's open decision
lists is sent back; from each resolved answer, the options of the decision it opens are sent back
too, a few steps deep. An answer `resolved` or `unresolved` with no rulings fails.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from adjudicator.core.action import Action
from adjudicator.core.errors import AdjudicatorError
from adjudicator.engine import adjudicate, list_options, load_snapshot
from adjudicator.scenarios import load_scenarios
from api.resources.options.schemas import REQUEST as OPTIONS_REQUEST
from api.resources.rulings.schemas import REQUEST as RULINGS_REQUEST

DEPTH = 3  # decisions followed past the fixture's own


def _options(snapshot: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        listed = list_options(load_snapshot(snapshot))
    except AdjudicatorError:
        return []
    return [dict(option) for option in listed.options]


def _starts() -> Iterator[tuple[str, dict[str, Any]]]:
    for scenario in load_scenarios():
        if scenario.method == "GET":
            continue
        for variant in (None, *scenario.variants):
            label = scenario.id if variant is None else f"{scenario.id}[{variant.index}]"
            body = scenario.request_for(variant)
            if not isinstance(body, dict) or not isinstance(body.get("snapshot"), dict):
                continue
            if OPTIONS_REQUEST.validate({"snapshot": body["snapshot"]}):
                continue  # a malformed snapshot: a 4xx problem, not a ruling
            extra = {"interpretations": body["interpretations"]} if "interpretations" in body else {}
            well_formed = not RULINGS_REQUEST.validate({k: v for k, v in body.items() if k != "viewer"})
            if scenario.path == "/v1/rulings" and well_formed:
                yield label, {"snapshot": body["snapshot"], "action": body["action"], **extra}
            for option in _options(body["snapshot"]):
                yield f"{label} -> {option['type']}", {"snapshot": body["snapshot"], "action": option, **extra}


def _answer(request: dict[str, Any]) -> dict[str, Any] | None:
    try:
        ruling = adjudicate(
            load_snapshot(request["snapshot"]),
            Action.from_dict(request["action"]),
            request.get("interpretations"),
        )
    except AdjudicatorError:
        return None
    answer: dict[str, Any] = json.loads(json.dumps(ruling.to_dict()))
    return answer


def test_every_resolved_or_unresolved_answer_names_its_rulings() -> None:
    seen: set[str] = set()
    uncited: list[str] = []
    answered = 0
    work = [(label, request, 0) for label, request in _starts()]
    while work:
        label, request, depth = work.pop()
        key = json.dumps(request, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        answer = _answer(request)
        if answer is None or answer.get("status") not in ("resolved", "unresolved"):
            continue
        answered += 1
        if not answer.get("rulings"):
            uncited.append(f"{label}: {answer['status']} {request['action']}")
        following = (answer.get("outcome") or {}).get("snapshot")
        if answer["status"] == "resolved" and depth < DEPTH and isinstance(following, dict):
            extra = {k: v for k, v in request.items() if k == "interpretations"}
            for option in (answer.get("next") or {}).get("options") or []:
                step = {"snapshot": following, "action": option, **extra}
                work.append((f"{label} -> {option['type']}", step, depth + 1))
    assert answered > 100
    assert not uncited, "answers naming no rule:\n" + "\n".join(uncited)
