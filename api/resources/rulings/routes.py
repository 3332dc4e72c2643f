"""POST /v1/rulings: adjudicate one proposed action."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from adjudicator import Action, adjudicate, load_snapshot, registers

from ...docs import BODY_ERRORS, examples_for, problem_responses, response_examples_for
from ...extensions import Blueprint
from ...responses import json_response
from .schemas import REQUEST, RESPONSE

blp = Blueprint("rulings", __name__, url_prefix="/v1", description="Adjudicate a proposed action.")


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The ruling on a loaded request body, as served."""
    snapshot = load_snapshot(body["snapshot"])
    ruling = adjudicate(
        snapshot,
        Action.from_dict(body["action"]),
        interpretations=body.get("interpretations"),
        viewer=body.get("viewer"),
    )
    return ruling.to_dict()


@blp.route("/rulings")
class Rulings(MethodView):
    @blp.arguments(REQUEST, examples=examples_for("/v1/rulings"))
    @blp.response(
        200,
        RESPONSE,
        headers={"X-Rules-Digest": {"description": "digest of the rules registers", "schema": {"type": "string"}}},
        examples=response_examples_for("/v1/rulings", REQUEST, answer),
    )
    @blp.doc(responses=problem_responses(*BODY_ERRORS))
    @blp.doc(operationId="adjudicate")
    def post(self, body: dict[str, Any]) -> Response:
        """Rule on an action: legality, options, outcome, and the cited rulings behind it.

        HTTP 200 whenever the request is well-formed, whatever the ruling (`status`).
        """
        return json_response(answer(body), headers={"X-Rules-Digest": registers().digest})
