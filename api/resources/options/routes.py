"""POST /v1/options: the legal options at the snapshot's open decision."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from adjudicator import list_options, load_snapshot

from ...docs import examples_for, problem_responses
from ...extensions import Blueprint
from ...responses import json_response
from .schemas import REQUEST, RESPONSE

blp = Blueprint("options", __name__, url_prefix="/v1", description="Legal options at a decision point.")


@blp.route("/options")
class Options(MethodView):
    @blp.arguments(REQUEST, examples=examples_for("/v1/options"))
    @blp.response(200, RESPONSE)
    @blp.doc(responses=problem_responses(400, 413, 415, 422))
    @blp.doc(operationId="listOptions")
    def post(self, body: dict[str, Any]) -> Response:
        """List the options of the snapshot's `pending` decision, for every player or one.

        Each option is an action object that can be sent back verbatim to `/v1/rulings`.
        """
        snapshot = load_snapshot(body["snapshot"])
        return json_response(list_options(snapshot, body.get("player")).to_dict())
