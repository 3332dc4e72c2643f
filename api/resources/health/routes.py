"""GET /healthz: liveness, engine version and the rules digest."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from adjudicator import ENGINE_VERSION, registers

from ...docs import problem_responses, scenario_corpus
from ...extensions import Blueprint
from .schemas import HEALTH

blp = Blueprint("health", __name__, url_prefix="", description="Liveness.")


@blp.route("/healthz")
class Health(MethodView):
    @blp.response(200, HEALTH)
    @blp.doc(responses=problem_responses(422))
    @blp.doc(operationId="health")
    def get(self) -> dict[str, Any]:
        """Liveness, engine version and a digest of the rules registers."""
        regs = registers()
        return {
            "status": "ok",
            "engine": ENGINE_VERSION,
            "rules_digest": regs.digest,
            "rules": len(regs.rules),
            "questions": len(regs.questions),
            "scenarios": len(scenario_corpus()),
        }
