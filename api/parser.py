"""A stricter parser for webargs: bodies are RFC 8259 JSON only, one value per key, bounded depth; query
strings are as strict (unknown parameters are refused, and a parameter given twice is an error, where
webargs would silently take the first value)."""

from __future__ import annotations

import json
from typing import Any, NoReturn

import flask
import marshmallow as ma
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request


class InvalidJSON(ValueError):
    """The body is not acceptable JSON; the message says why."""


def _reject_constant(name: str) -> NoReturn:
    raise InvalidJSON(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise InvalidJSON(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def strict_loads(data: bytes) -> Any:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidJSON("the body is not UTF-8") from exc
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise InvalidJSON(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError as exc:
        raise InvalidJSON("the body is nested too deeply") from exc
    except InvalidJSON:
        raise
    except ValueError as exc:  # an integer literal longer than Python converts
        raise InvalidJSON("a number literal is too long") from exc


QUERY_LOCATIONS = ("query", "querystring")
REPEATED = "Given more than once: a query parameter takes one value."


class StrictJSONParser(FlaskParser):
    DEFAULT_UNKNOWN_BY_LOCATION = {  # noqa: RUF012 - webargs' API
        **FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION,
        **dict.fromkeys(QUERY_LOCATIONS, ma.RAISE),
    }

    def load_querystring(self, req: flask.Request, schema: ma.Schema) -> Any:
        """The query parameters as a plain mapping, one value each. A repeated one is an error, reported
        with whatever the schema finds wrong with the others."""
        given = dict(req.args.lists())
        single = {name: values[0] for name, values in given.items() if len(values) == 1}
        repeated: dict[str, Any] = {name: [REPEATED] for name, values in given.items() if len(values) > 1}
        if not repeated:
            return single
        try:
            schema.load(single, unknown=ma.RAISE)
        except ma.ValidationError as exc:
            if isinstance(exc.messages, dict):
                repeated.update(exc.messages)
        raise ma.ValidationError(repeated)

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)  # read, bounded and checked before routing (api/body.py)
        try:
            return strict_loads(data)
        except InvalidJSON as exc:
            abort(400, exc=exc, messages={"json": [f"Invalid JSON body: {exc}"]})
