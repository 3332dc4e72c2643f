"""POST /v1/views: a snapshot as one viewer may see it."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from adjudicator import load_snapshot, view

from ...docs import BODY_ERRORS, examples_for, problem_responses, response_examples_for
from ...extensions import Blueprint
from ...responses import json_response
from .schemas import REQUEST, RESPONSE

blp = Blueprint("views", __name__, url_prefix="/v1", description="Hidden information: one viewer's view.")


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The view of a loaded request body, as served."""
    return view(load_snapshot(body["snapshot"]), body.get("viewer")).to_dict()


@blp.route("/views")
class Views(MethodView):
    @blp.arguments(REQUEST, examples=examples_for("/v1/views"))
    @blp.response(200, RESPONSE, examples=response_examples_for("/v1/views", REQUEST, answer))
    @blp.doc(responses=problem_responses(*BODY_ERRORS))
    @blp.doc(operationId="viewSnapshot")
    def post(self, body: dict[str, Any]) -> Response:
        """Redact what `viewer` may not see: other factions' hands and traitors become counts,
        face-down skills and unrevealed opposing battle plans become null."""
        return json_response(answer(body))
