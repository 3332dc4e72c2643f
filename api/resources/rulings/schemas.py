"""Wire schemas of POST /v1/rulings."""

from __future__ import annotations

from marshmallow import fields, validate

from ...extensions import Schema
from ...schemas import ActionSchema, PropertyCount, RulingResponseSchema, SnapshotSchema, faction_field


class RulingRequestSchema(Schema):
    """A snapshot and the action proposed in it, with optional interpretations and viewer."""

    snapshot = fields.Nested(SnapshotSchema, required=True)
    action = fields.Nested(ActionSchema, required=True)
    interpretations = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=80)),
        values=fields.String(validate=validate.Length(min=1, max=80)),
        validate=PropertyCount(0, 50),
        metadata={"description": "question id -> chosen choice id (see /v1/questions)", "maxProperties": 50},
    )
    viewer = faction_field(
        allow_none=True, metadata={"description": "answer as this faction may see it (hidden cards redacted)"}
    )
    explain = fields.String(
        validate=validate.OneOf(["summary"]),
        metadata={"description": "level of explanation; v1 gives each ruling's claim and citations ('summary')"},
    )


REQUEST = RulingRequestSchema()
RESPONSE = RulingResponseSchema()
