"""Wire schema of GET /healthz."""

from __future__ import annotations

from marshmallow import fields

from ...extensions import Schema


class HealthSchema(Schema):
    """Liveness: the engine version and a digest and counts of the registers."""

    status = fields.String(required=True, metadata={"description": "`ok` when the engine and registers loaded"})
    engine = fields.String(required=True)
    rules_digest = fields.String(required=True)
    rules = fields.Integer(required=True)
    questions = fields.Integer(required=True)
    scenarios = fields.Integer(required=True)


HEALTH = HealthSchema()
