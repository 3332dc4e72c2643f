"""Project base classes for flask-smorest: Api, Blueprint and Schema, configured once here."""

from __future__ import annotations

import http
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest
import marshmallow as ma
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter
from flask import Response
from flask_smorest.utils import prepare_response
from webargs.flaskparser import abort
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException

from .fastload import FastLoadSchema
from .fields import SIZE_FIRST
from .parser import QUERY_LOCATIONS, StrictJSONParser
from .problems import MAX_ERRORS, PROBLEM_MIMETYPE, flatten_errors, problem, strip_location

F = TypeVar("F", bound=Callable[..., Any])


class Schema(FastLoadSchema):
    """Every wire schema rejects unknown fields (and the spec says `additionalProperties: false`);
    bodies that certainly load unchanged skip marshmallow's per-field work (see `fastload`); a list or
    mapping over its size bound is one error, its items left unread (see `fields.SizeFirstList`)."""

    class Meta:
        unknown = ma.RAISE

    def on_bind_field(self, field_name: str, field_obj: ma.fields.Field[Any]) -> None:
        # marshmallow's hook for adjusting a bound field: the schemas declare plain `fields.List` and
        # `fields.Dict`, and each bound copy becomes its size-first subclass (same state, one method more).
        size_first = SIZE_FIRST.get(type(field_obj))
        if size_first is not None:
            field_obj.__class__ = size_first


class ProblemErrorSchema(Schema):
    """One problem with the request: where it is and what is wrong."""

    path = ma.fields.String(required=True, metadata={"description": "JSON pointer (RFC 6901) into the request"})
    code = ma.fields.String(required=True, metadata={"description": "stable machine-readable code"})
    message = ma.fields.String(required=True, metadata={"description": "human-readable explanation"})


class ProblemSchema(Schema):
    """RFC 9457 problem details, with one entry per problem in `errors`."""

    type = ma.fields.String(required=True, metadata={"description": "problem type URI; `about:blank` here"})
    title = ma.fields.String(required=True)
    status = ma.fields.Integer(required=True)
    detail = ma.fields.String(required=True)
    errors = ma.fields.List(
        ma.fields.Nested(ProblemErrorSchema),
        required=True,
        metadata={"description": f"the problems found, at most {MAX_ERRORS} (the first ones, in order)"},
    )
    errors_omitted = ma.fields.Integer(
        validate=ma.validate.Range(min=1),
        metadata={"description": f"how many more problems were found beyond the first {MAX_ERRORS}; absent when none"},
    )


# What each error answer means, as the spec documents it (the codes are those of `errors[].code`).
PROBLEM_ANSWERS: dict[int, str] = {
    400: "The body is not acceptable JSON (`invalid-json`: not UTF-8, a syntax error, a key twice in one "
    "object, NaN or Infinity, nested too deeply), or its HTTP framing is broken (`malformed-body`: a bad "
    "chunk size, a missing chunk end, fewer bytes than `Content-Length` said).",
    404: "No entry with this id (`errors` is empty).",
    405: "This address does not accept the method; the `Allow` header lists the methods it accepts.",
    408: "`body-timeout`: the request body did not arrive whole within the read deadline (10 seconds by "
    "default); the connection is not held any longer.",
    413: "The request body is larger than 1 MiB.",
    415: "The body is not JSON (the media type must be `application/json` or another `application/*+json` "
    "type), or it is compressed (`unsupported-content-encoding`: send it uncompressed, `identity`).",
    422: "The body (or the query string) is well-formed but not a valid request: one `errors` entry per "
    "problem, each with the JSON pointer of the offending part and a stable code.",
}
ALLOW_HEADER = {
    "description": "the methods this address accepts, comma-separated",
    "schema": {"type": "string"},
}


class _Converter(OpenAPIConverter):
    """A schema's docstring is its description in the spec."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        jsonschema: dict[str, Any] = super().schema2jsonschema(schema)
        cls = schema if isinstance(schema, type) else type(schema)
        if cls.__doc__ and "description" not in jsonschema:
            jsonschema["description"] = inspect.cleandoc(cls.__doc__)
        return jsonschema


def _property_names(self: OpenAPIConverter, field: ma.fields.Field, **kwargs: Any) -> dict[str, Any]:
    """A mapping documents the keys it accepts (`propertyNames`), as strictly as the server checks them."""
    if isinstance(field, ma.fields.Dict) and field.key_field is not None:
        names: dict[str, Any] = self.field2property(field.key_field)
        names.pop("description", None)
        return {"propertyNames": names}
    return {}


class _Plugin(MarshmallowPlugin):
    Converter = _Converter

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        assert self.converter is not None
        self.converter.add_attribute_function(_property_names)


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

    def _init_spec(self, **kwargs: Any) -> None:
        kwargs.setdefault("marshmallow_plugin", _Plugin())
        super()._init_spec(**kwargs)

    def _register_responses(self) -> None:
        # Same as flask-smorest's, but every error response is documented as problem+json, with what
        # it means here.
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": PROBLEM_ANSWERS.get(status, status.phrase)}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            if status == 405:
                response["headers"] = {"Allow": ALLOW_HEADER}
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
    """The project blueprint: request bodies and query strings go through the strict parser, and each
    operation records the query schema it takes (`query_schema`), so that one taking none refuses any."""

    ARGUMENTS_PARSER = StrictJSONParser()

    def arguments(self, schema: Any, *, location: str = "json", **kwargs: Any) -> Callable[[F], F]:
        decorator: Callable[[F], F] = super().arguments(schema, location=location, **kwargs)
        if location not in QUERY_LOCATIONS:
            return decorator

        def recording(func: F) -> F:
            wrapped = decorator(func)
            wrapped.query_schema = schema  # type: ignore[attr-defined]
            return wrapped

        return recording


def query_schema(view: Callable[..., Any], method: str) -> ma.Schema | None:
    """The query schema of the operation `method` of a class-based `view`, or None when it takes no
    query parameters (HEAD is answered by GET)."""
    view_class = getattr(view, "view_class", None)
    handler = getattr(view_class, method.lower(), None)
    if handler is None and method == "HEAD":
        handler = getattr(view_class, "get", None)
    schema: ma.Schema | None = getattr(handler, "query_schema", None)
    return schema


def refuse_unexpected_query(view: Callable[..., Any], method: str, args: MultiDict[str, str]) -> None:
    """A 422 problem naming each query parameter (at `/query/<name>`) when the operation takes none."""
    if args and query_schema(view, method) is None:
        abort(422, messages={"query": {name: ["Unknown field."] for name in args}})
