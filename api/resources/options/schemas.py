"""Wire schemas of POST /v1/options."""

from __future__ import annotations

from marshmallow import fields, validate

from ...extensions import Schema
from ...schemas import (
    EVIDENCE,
    ActionSchema,
    CitationSchema,
    DecisionSchema,
    ProvenanceSchema,
    RulingRecordSchema,
    SnapshotSchema,
    faction_field,
)


class OptionsRequestSchema(Schema):
    """A snapshot whose `pending` decision's options are asked for, for every player or one."""

    snapshot = fields.Nested(SnapshotSchema, required=True)
    player = faction_field(allow_none=True, metadata={"description": "only this faction's options"})


class OptionsResponseSchema(Schema):
    """The open decision's legal options, each an action that can be sent back to `/v1/rulings`."""

    decision = fields.Nested(DecisionSchema, required=True, allow_none=True)
    options = fields.List(fields.Nested(ActionSchema), required=True)
    evidence = fields.String(required=True, allow_none=True, validate=validate.OneOf(EVIDENCE))
    rulings = fields.List(fields.Nested(RulingRecordSchema), required=True)
    citations = fields.List(fields.Nested(CitationSchema), required=True)
    provenance = fields.Nested(ProvenanceSchema, required=True)


REQUEST = OptionsRequestSchema()
RESPONSE = OptionsResponseSchema()
