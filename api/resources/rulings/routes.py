"""POST /v1/rulings: adjudicate one proposed action."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from adjudicator import Action, adjudicate, load_snapshot, registers

from ...docs import examples_for, problem_responses
from ...extensions import Blueprint
from ...responses import json_response
from .schemas import REQUEST, RESPONSE

blp = Blueprint("rulings", __name__, url_prefix="/v1", description="Adjudicate a proposed action.")


@blp.route("/rulings")
class Rulings(MethodView):
    @blp.arguments(REQUEST, examples=examples_for("/v1/rulings"))
    @blp.response(
        200,
        RESPONSE,
        headers={"X-Rules-Digest": {"description": "digest of the rules registers", "schema": {"type": "string"}}},
    )
    @blp.doc(responses=problem_responses(400, 413, 415, 422))
    @blp.doc(operationId="adjudicate")
    def post(self, body: dict[str, Any]) -> Response:
        """Rule on an action: legality, options, outcome, and the cited rulings behind it.

        HTTP 200 whenever the request is well-formed, whatever the ruling (`status`).
        """
        snapshot = load_snapshot(body["snapshot"])
        ruling = adjudicate(
            snapshot,
            Action.from_dict(body["action"]),
            interpretations=body.get("interpretations"),
            viewer=body.get("viewer"),
        )
        return json_response(ruling.to_dict(), headers={"X-Rules-Digest": registers().digest})
