"""Project base classes for flask-smorest: Api, Blueprint and Schema, configured once here."""

from __future__ import annotations

import http
from typing import Any

import flask_smorest
import marshmallow as ma
from flask import Response
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from .fastload import FastLoadSchema
from .parser import StrictJSONParser
from .problems import PROBLEM_MIMETYPE, flatten_errors, problem, strip_location


class Schema(FastLoadSchema):
    """Every wire schema rejects unknown fields (and the spec says `additionalProperties: false`);
    bodies that certainly load unchanged skip marshmallow's per-field work (see `fastload`)."""

    class Meta:
        unknown = ma.RAISE


class ProblemErrorSchema(Schema):
    path = ma.fields.String(required=True, metadata={"description": "JSON pointer (RFC 6901) into the request"})
    code = ma.fields.String(required=True, metadata={"description": "stable machine-readable code"})
    message = ma.fields.String(required=True, metadata={"description": "human-readable explanation"})


class ProblemSchema(Schema):
    """RFC 9457 problem details, with one entry per problem in `errors`."""

    type = ma.fields.String(required=True, metadata={"description": "problem type URI; `about:blank` here"})
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True)
    errors = ma.fields.List(ma.fields.Nested(ProblemErrorSchema), required=True)


_TITLES = {
    400: ("Bad Request", "The request body is not valid JSON."),
    404: ("Not Found", "No resource at this address."),
    405: ("Method Not Allowed", "This address does not accept that method."),
    408: ("Request Timeout", "The request body did not arrive in time."),
    413: ("Content Too Large", "The request body is larger than 1 MiB."),
    415: ("Unsupported Media Type", "Send the request body as application/json."),
    422: ("Unprocessable Content", "The request is well-formed JSON but not a valid request."),
    500: ("Internal Server Error", "The server failed to answer this request."),
}


class Api(flask_smorest.Api):
    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        # Same as flask-smorest's, but every error response is documented as problem+json.
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_MIMETYPE)
            self.spec.components.response(status.name, response, lazy=True)
        default: dict[str, Any] = {"description": "Problem details (RFC 9457)", "schema": self.ERROR_SCHEMA}
        prepare_response(default, self.spec, PROBLEM_MIMETYPE)
        self.spec.components.response("DEFAULT_ERROR", default, lazy=True)

    def _register_pagination_header(self) -> None:
        # Nothing here is paginated: no pagination header or schema in the spec.
        pass

    def handle_http_exception(self, error: HTTPException) -> Response:  # type: ignore[override]
        code = error.code or 500
        title, detail = _TITLES.get(code, (error.name, error.description or error.name))
        data = getattr(error, "data", None) or {}
        errors: list[dict[str, str]] = []
        messages = data.get("errors") or data.get("messages")
        if isinstance(messages, dict):
            errors = flatten_errors(strip_location(messages))
            if code == 400:
                errors = [{**e, "code": "invalid-json", "path": ""} for e in errors]
        headers: dict[str, str] = {}
        problem_code = getattr(error, "problem_code", None)
        if problem_code is not None:  # a body the client sent wrong (api/body.py): one error, its own code
            detail = error.description or detail
            errors = [{"path": "", "code": problem_code, "message": detail}]
        if code == 405:
            # flask-smorest drops werkzeug's Allow header; clients (and HTTP) need it.
            allowed = getattr(error, "valid_methods", None) or []
            headers["Allow"] = ", ".join(sorted(allowed))
        if code == 422 and errors:
            detail = f"{len(errors)} problem(s) in the request; see errors."
        if code >= 500:
            errors = []
        return problem(code, title, detail, errors, headers)


class Blueprint(flask_smorest.Blueprint):
    """The project blueprint: request bodies go through the strict JSON parser."""

    ARGUMENTS_PARSER = StrictJSONParser()
