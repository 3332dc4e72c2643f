"""GET /v1/rules, /v1/sources, /v1/questions: the registers behind every ruling."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from adjudicator import registers
from adjudicator.core.registers import Rule

from ...docs import problem_responses, rule_fixtures
from ...extensions import Blueprint
from ...responses import json_response
from .schemas import AREA_QUERY, QUESTION, QUESTION_LIST, RULE, RULE_LIST, SOURCE_LIST

blp = Blueprint("registers", __name__, url_prefix="/v1", description="Rules, sources and open questions.")


def _rule_dict(rule: Rule, fixtures: dict[str, list[str]]) -> dict[str, Any]:
    return {**rule.to_dict(), "fixtures": fixtures.get(rule.id, [])}


@blp.route("/rules")
class Rules(MethodView):
    @blp.arguments(AREA_QUERY, location="query")
    @blp.response(200, RULE_LIST)
    @blp.doc(responses=problem_responses(422))
    @blp.doc(operationId="listRules")
    def get(self, query: dict[str, Any]) -> Response:
        """The rule register: every rule function with its claim, evidence class, citations and fixtures."""
        fixtures = rule_fixtures()
        area = query.get("area")
        rules = [_rule_dict(r, fixtures) for r in registers().rules.values() if area is None or r.area == area]
        return json_response({"digest": registers().digest, "rules": rules})


@blp.route("/rules/<string:rule_id>")
class RuleById(MethodView):
    @blp.response(200, RULE)
    @blp.doc(responses=problem_responses(404, 422))
    @blp.doc(operationId="getRule")
    def get(self, rule_id: str) -> Response:
        """One rule of the register."""
        return json_response(_rule_dict(registers().rule(rule_id), rule_fixtures()))


@blp.route("/sources")
class Sources(MethodView):
    @blp.response(200, SOURCE_LIST)
    @blp.doc(responses=problem_responses(422))
    @blp.doc(operationId="listSources")
    def get(self) -> Response:
        """The source register: rulebooks, FAQ, designer statements and card text that citations name."""
        return json_response({"sources": [s.to_dict() for s in registers().sources.values()]})


@blp.route("/questions")
class Questions(MethodView):
    @blp.arguments(AREA_QUERY, location="query")
    @blp.response(200, QUESTION_LIST)
    @blp.doc(responses=problem_responses(422))
    @blp.doc(operationId="listQuestions")
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Rules questions the publisher never settled, each with its choices, default and reasons."""
        area = query.get("area")
        return {"questions": [q.to_dict() for q in registers().questions.values() if area is None or q.area == area]}


@blp.route("/questions/<string:question_id>")
class QuestionById(MethodView):
    @blp.response(200, QUESTION)
    @blp.doc(responses=problem_responses(404, 422))
    @blp.doc(operationId="getQuestion")
    def get(self, question_id: str) -> Response:
        """One question; send `{"interpretations": {question_id: choice_id}}` to choose."""
        return json_response(registers().question(question_id).to_dict())
