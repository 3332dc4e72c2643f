"""GET /v1/scenarios: the fixture corpus as documentation examples."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from adjudicator.core.errors import UnknownRegisterEntry

from ...docs import problem_responses, scenario_corpus
from ...extensions import Blueprint
from .schemas import QUERY, SCENARIO, SCENARIO_LIST

blp = Blueprint(
    "scenarios", __name__, url_prefix="/v1", description="Scenario fixtures: examples and conformance suite."
)


@blp.route("/scenarios")
class Scenarios(MethodView):
    @blp.arguments(QUERY, location="query")
    @blp.response(200, SCENARIO_LIST)
    @blp.doc(responses=problem_responses(422))
    @blp.doc(operationId="listScenarios")
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Every scenario fixture (summary), optionally by area or tag."""
        area, tag = query.get("area"), query.get("tag")
        return {
            "scenarios": [
                s.to_dict(full=False)
                for s in scenario_corpus()
                if (area is None or s.area == area) and (tag is None or tag in s.tags)
            ]
        }


@blp.route("/scenarios/<path:scenario_id>")
class ScenarioById(MethodView):
    @blp.response(200, SCENARIO)
    @blp.doc(responses=problem_responses(404, 422))
    @blp.doc(operationId="getScenario")
    def get(self, scenario_id: str) -> dict[str, Any]:
        """One fixture in full: request body, expectations and interpretation variants."""
        for scenario in scenario_corpus():
            if scenario.id == scenario_id:
                return scenario.to_dict()
        raise UnknownRegisterEntry("scenario", scenario_id)
