"""A stricter JSON body parser for webargs: RFC 8259 JSON only, one value per key, bounded depth."""

from __future__ import annotations

import json
from typing import Any, NoReturn

import flask
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


class StrictJSONParser(FlaskParser):
    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return core.missing
        data = req.get_data(cache=True)  # read, bounded and checked before routing (api/body.py)
        try:
            return strict_loads(data)
        except InvalidJSON as exc:
            abort(400, exc=exc, messages={"json": [f"Invalid JSON body: {exc}"]})
