"""Strict marshmallow fields for JSON bodies: no string-to-number, no float truncation, no truthy strings."""

from __future__ import annotations

import math
from typing import Any

from marshmallow import fields


class StrictInteger(fields.Integer):
    """A JSON integer. `2.0` is accepted as 2; `2.5`, `"3"` and `true` are rejected."""

    default_error_messages = {"invalid": "Not a valid integer."}  # noqa: RUF012 - marshmallow's API

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        if isinstance(value, float) and not value.is_integer():
            raise self.make_error("invalid")
        result: int = super()._deserialize(int(value), attr, data, **kwargs)
        return result


class StrictNumber(fields.Float):
    """A JSON number (not a string, not a boolean) that is a whole or half value."""

    default_error_messages = {  # noqa: RUF012 - marshmallow's API
        "invalid": "Not a valid number.",
        "not_half": "Must be a whole or half number (steps of 0.5).",
        "too_large": "Must be less than or equal to 1000000000.",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> float | int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        if not math.isfinite(value) or abs(value) > 1e9:
            raise self.make_error("too_large" if math.isfinite(value) else "invalid")
        if (value * 2) != int(value * 2):
            raise self.make_error("not_half")
        return int(value) if float(value).is_integer() else float(value)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        if value is None:
            return None
        return int(value) if float(value).is_integer() else float(value)


class StrictBoolean(fields.Boolean):
    """Only JSON `true` or `false`."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value
