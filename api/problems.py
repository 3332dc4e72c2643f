"""RFC 9457 problem responses, and marshmallow error trees flattened to JSON pointers."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from flask import Response

PROBLEM_MIMETYPE = "application/problem+json"
# A problem answer lists at most this many errors, and counts the rest in `errors_omitted`.
MAX_ERRORS = 100

_CODES = (
    ("Unknown field", "unknown-field"),
    ("Missing data for required field", "required"),
    ("Field may not be null", "null-not-allowed"),
    ("Must be one of", "unknown-value"),
    ("Must be greater than or equal", "out-of-range"),
    ("Must be less than or equal", "out-of-range"),
    ("Must be greater than", "out-of-range"),
    ("Must be less than", "out-of-range"),
    ("Length must be", "invalid-length"),
    ("Shorter than minimum length", "invalid-length"),
    ("Longer than maximum length", "invalid-length"),
    ("Must be a whole or half number", "not-half-step"),
    ("Must be equal to", "unsupported-format"),
    ("Invalid JSON", "invalid-json"),
    ("Given more than once", "repeated-parameter"),
    ("Not a valid", "invalid-type"),
    ("Invalid type", "invalid-type"),
    ("Invalid input type", "invalid-type"),
    ("String does not match expected pattern", "invalid-format"),
)


def code_for(message: str) -> str:
    for prefix, code in _CODES:
        if message.startswith(prefix):
            return code
    return "invalid"


def _escape(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def flatten_errors(messages: Any, path: str = "") -> list[dict[str, str]]:
    """Turn a marshmallow error tree into `{path, code, message}` entries with JSON pointers.

    marshmallow nests Dict-field errors under `key` and `value`; our schemas have no fields of
    those names, so those two keys are read as that wrapper.
    """
    out: list[dict[str, str]] = []
    if isinstance(messages, str):
        out.append({"path": path, "code": code_for(messages), "message": messages})
    elif isinstance(messages, list | tuple):
        for item in messages:
            out.extend(flatten_errors(item, path))
    elif isinstance(messages, Mapping):
        keys = set(messages)
        if keys and keys <= {"key", "value"}:
            for key in ("key", "value"):
                if key in messages:
                    out.extend(flatten_errors(messages[key], path))
            return out
        for key, value in messages.items():
            child = path if key == "_schema" else f"{path}/{_escape(key)}"
            out.extend(flatten_errors(value, child))
    return out


def strip_location(messages: Mapping[str, Any]) -> Any:
    """webargs keys errors by location (`json`, `query`, ...): the body's errors are the body's paths,
    a query parameter's are `/query/<name>`."""
    if "json" in messages and len(messages) == 1:
        return messages["json"]
    return messages


def problem(
    status: int,
    title: str,
    detail: str,
    errors: Sequence[Mapping[str, str]] = (),
    headers: Mapping[str, str] | None = None,
    omitted: int = 0,
) -> Response:
    """A problem+json answer. Of `errors`, the first `MAX_ERRORS` are listed; the rest, with the
    `omitted` ones the caller already left out, are counted in `errors_omitted`."""
    body: dict[str, Any] = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    body["errors"] = [dict(e) for e in errors[:MAX_ERRORS]]
    omitted += max(0, len(errors) - MAX_ERRORS)
    if omitted:
        body["errors_omitted"] = omitted
    response = Response(json.dumps(body, sort_keys=True), status=status, mimetype=PROBLEM_MIMETYPE)
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response
