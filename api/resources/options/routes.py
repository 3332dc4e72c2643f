"""POST /v1/options: the legal options at the snapshot's open decision."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from adjudicator import list_options, load_snapshot

from ...docs import BODY_ERRORS, examples_for, problem_responses, response_examples_for
from ...extensions import Blueprint
from ...responses import json_response
from .schemas import REQUEST, RESPONSE

blp = Blueprint("options", __name__, url_prefix="/v1", description="Legal options at a decision point.")


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The options of a loaded request body, as served."""
    return list_options(load_snapshot(body["snapshot"]), body.get("player")).to_dict()


@blp.route("/options")
class Options(MethodView):
    @blp.arguments(REQUEST, examples=examples_for("/v1/options"))
    @blp.response(200, RESPONSE, examples=response_examples_for("/v1/options", REQUEST, answer))
    @blp.doc(responses=problem_responses(*BODY_ERRORS))
    @blp.doc(operationId="listOptions")
    def post(self, body: dict[str, Any]) -> Response:
        """List the options of the snapshot's `pending` decision, for every player or one.

        Each option is an action object that can be sent back verbatim to `/v1/rulings`.
        """
        return json_response(answer(body))
