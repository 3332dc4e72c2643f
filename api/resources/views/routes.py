"""POST /v1/views: a snapshot as one viewer may see it."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from adjudicator import load_snapshot, view

from ...docs import examples_for, problem_responses
from ...extensions import Blueprint
from ...responses import json_response
from .schemas import REQUEST, RESPONSE

blp = Blueprint("views", __name__, url_prefix="/v1", description="Hidden information: one viewer's view.")


@blp.route("/views")
class Views(MethodView):
    @blp.arguments(REQUEST, examples=examples_for("/v1/views"))
    @blp.response(200, RESPONSE)
    @blp.doc(responses=problem_responses(400, 413, 415, 422))
    @blp.doc(operationId="viewSnapshot")
    def post(self, body: dict[str, Any]) -> Response:
        """Redact what `viewer` may not see: other factions' hands and traitors become counts,
        face-down skills and unrevealed opposing battle plans become null."""
        snapshot = load_snapshot(body["snapshot"])
        return json_response(view(snapshot, body.get("viewer")).to_dict())
