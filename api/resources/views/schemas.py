"""Wire schemas of POST /v1/views."""

from __future__ import annotations

from marshmallow import fields

from ...extensions import Schema
from ...schemas import (
    CitationSchema,
    ProvenanceSchema,
    RulingRecordSchema,
    SnapshotSchema,
    ViewSnapshotSchema,
    faction_field,
)


class ViewRequestSchema(Schema):
    """A snapshot and the faction viewing it."""

    snapshot = fields.Nested(SnapshotSchema, required=True)
    viewer = faction_field(
        allow_none=True, metadata={"description": "the viewing faction; null or absent: a spectator"}
    )


class ViewResponseSchema(Schema):
    """The snapshot as the viewer may see it, with the JSON pointers of what was hidden."""

    viewer = faction_field(required=True, allow_none=True)
    snapshot = fields.Nested(ViewSnapshotSchema, required=True)
    redacted = fields.List(fields.String(), required=True, metadata={"description": "JSON pointers of hidden parts"})
    rulings = fields.List(fields.Nested(RulingRecordSchema), required=True)
    citations = fields.List(fields.Nested(CitationSchema), required=True)
    provenance = fields.Nested(ProvenanceSchema, required=True)


REQUEST = ViewRequestSchema()
RESPONSE = ViewResponseSchema()
