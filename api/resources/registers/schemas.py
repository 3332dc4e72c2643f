"""Wire schemas of the register endpoints: rules, sources, questions."""

from __future__ import annotations

from marshmallow import fields, validate

from adjudicator import registers

from ...extensions import Schema
from ...fields import Choice
from ...schemas import EVIDENCE, CitationSchema

# The rules areas: those of the rule and question registers (a known area may have no questions).
AREAS = sorted({r.area for r in registers().rules.values()} | {q.area for q in registers().questions.values()})


class AreaQuerySchema(Schema):
    area = Choice(AREAS, metadata={"description": "only this rules area (another value is a 422)"})


class RuleSchema(Schema):
    """A rule of the register: its claim, evidence class, citations and the fixtures asserting it."""

    id = fields.String(required=True)
    area = fields.String(required=True)
    title = fields.String(required=True)
    claim = fields.String(required=True)
    evidence = fields.String(required=True, validate=validate.OneOf(EVIDENCE))
    citations = fields.List(fields.Nested(CitationSchema), required=True)
    fixtures = fields.List(fields.String(), required=True, metadata={"description": "scenario ids asserting this rule"})


class RuleListSchema(Schema):
    """The rule register, with its digest."""

    digest = fields.String(required=True)
    rules = fields.List(fields.Nested(RuleSchema), required=True)


class SourceSchema(Schema):
    """A publication that citations name: rulebook, FAQ, designer statement or card text."""

    id = fields.String(required=True)
    title = fields.String(required=True)
    publisher = fields.String(required=True)
    kind = fields.String(required=True)
    edition = fields.String(required=True)
    page_kind = fields.String(
        required=True, allow_none=True, metadata={"description": "how page citations count pages; null for a video"}
    )
    note = fields.String()


class SourceListSchema(Schema):
    """The source register."""

    sources = fields.List(fields.Nested(SourceSchema), required=True)


class ChoiceSchema(Schema):
    """One possible reading of an open question, with its consequence and citations."""

    id = fields.String(required=True)
    label = fields.String(required=True)
    consequence = fields.String(required=True)
    citations = fields.List(fields.Nested(CitationSchema), required=True)
    implemented = fields.Boolean(required=True)


class QuestionSchema(Schema):
    """A rules question the publisher never settled: its choices, default and reasons."""

    id = fields.String(required=True)
    area = fields.String(required=True)
    title = fields.String(required=True)
    question = fields.String(required=True)
    origin = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True)
    choices = fields.List(fields.Nested(ChoiceSchema), required=True)
    implemented = fields.List(fields.String(), required=True)
    default = fields.String(required=True, allow_none=True)
    default_evidence = fields.String(required=True, allow_none=True, validate=validate.OneOf(EVIDENCE))
    why = fields.String(required=True)


class QuestionListSchema(Schema):
    """The register of open rules questions."""

    questions = fields.List(fields.Nested(QuestionSchema), required=True)


AREA_QUERY = AreaQuerySchema()
RULE = RuleSchema()
RULE_LIST = RuleListSchema()
SOURCE_LIST = SourceListSchema()
QUESTION = QuestionSchema()
QUESTION_LIST = QuestionListSchema()
