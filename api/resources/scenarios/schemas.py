"""Wire schemas of GET /v1/scenarios."""

from __future__ import annotations

from marshmallow import fields

from ...docs import scenario_corpus
from ...extensions import Schema
from ...fields import Choice

# The areas and tags of the served corpus (a new fixture's new tag or area changes the spec).
AREAS = sorted({s.area for s in scenario_corpus()})
TAGS = sorted({t for s in scenario_corpus() for t in s.tags})


class ScenarioQuerySchema(Schema):
    area = Choice(AREAS, metadata={"description": "only fixtures of this area (another value is a 422)"})
    tag = Choice(TAGS, metadata={"description": "only fixtures with this tag (another value is a 422)"})


class ScenarioSummarySchema(Schema):
    """A scenario fixture in summary: id, title, source, tags, the endpoint and the rules it asserts."""

    id = fields.String(required=True)
    title = fields.String(required=True)
    area = fields.String(required=True)
    source = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)
    tags = fields.List(fields.String(), required=True)
    method = fields.String(required=True)
    path = fields.String(required=True, metadata={"description": "the endpoint the fixture calls"})
    rules = fields.List(fields.String(), required=True, metadata={"description": "rule ids the fixture asserts"})


class VariantSchema(Schema):
    """The same fixture under other interpretations, with its own expectation."""

    interpretations = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    expect = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)


class ScenarioSchema(ScenarioSummarySchema):
    """A scenario fixture in full: request body, expectation and interpretation variants."""

    request = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        allow_none=True,
        metadata={"description": "the request body, fully expanded"},
    )
    expect = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        required=True,
        metadata={"description": "partial structural expectation on the response (`http_status` defaults to 200)"},
    )
    variants = fields.List(fields.Nested(VariantSchema), required=True)


class ScenarioListSchema(Schema):
    """The scenario fixture corpus, in summary."""

    scenarios = fields.List(fields.Nested(ScenarioSummarySchema), required=True)


QUERY = ScenarioQuerySchema()
SCENARIO = ScenarioSchema()
SCENARIO_LIST = ScenarioListSchema()
