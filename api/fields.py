"""Strict marshmallow fields for JSON bodies: no string-to-number, no float truncation, no truthy strings."""

from __future__ import annotations

import math
import re
from typing import Any

from marshmallow import ValidationError, fields, validate


class StrictInteger(fields.Integer):
    """A JSON integer. `2.0` is accepted as 2; `2.5`, `"3"` and `true` are rejected."""

    default_error_messages = {"invalid": "Not a valid integer."}  # noqa: RUF012 - marshmallow's API

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        if isinstance(value, float) and not value.is_integer():
            raise self.make_error("invalid")
        # JSON numbers need no further conversion: skip the base class's string parsing.
        return int(value)


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


class Choice(fields.String):
    """A string from a closed vocabulary (the check is fused into the field: it runs on hot paths)."""

    def __init__(self, choices: list[str], **kwargs: Any) -> None:
        self.choices = tuple(choices)
        self._allowed = frozenset(choices)
        enum: list[str | None] = list(self.choices)
        if kwargs.get("allow_none"):
            enum.append(None)  # a nullable enum lists null among its values (JSON Schema)
        kwargs["metadata"] = {"enum": enum, **kwargs.get("metadata", {})}
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        if value not in self._allowed:
            raise ValidationError(f"Must be one of: {', '.join(self.choices)}.")
        return value


class Pattern(fields.String):
    """A string that matches a pattern in full (no final-newline loophole), fused for speed."""

    def __init__(self, pattern: str, max_length: int, **kwargs: Any) -> None:
        self.regex = re.compile(pattern)
        self.max_length = max_length
        kwargs["metadata"] = {"pattern": pattern, "minLength": 1, "maxLength": max_length, **kwargs.get("metadata", {})}
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if not isinstance(value, str):
            raise self.make_error("invalid")
        if not 1 <= len(value) <= self.max_length:
            raise ValidationError(f"Length must be between 1 and {self.max_length}.")
        if self.regex.fullmatch(value) is None:
            raise ValidationError(f"String does not match expected pattern {self.regex.pattern}.")
        return value


class BoundedInteger(StrictInteger):
    """A strict JSON integer within [minimum, maximum], the bounds checked in the field itself."""

    def __init__(self, minimum: int, maximum: int, **kwargs: Any) -> None:
        self.minimum, self.maximum = minimum, maximum
        kwargs["metadata"] = {"minimum": minimum, "maximum": maximum, **kwargs.get("metadata", {})}
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        number = super()._deserialize(value, attr, data, **kwargs)
        if number < self.minimum:
            raise ValidationError(f"Must be greater than or equal to {self.minimum}.")
        if number > self.maximum:
            raise ValidationError(f"Must be less than or equal to {self.maximum}.")
        return number


def _size_validators(field: fields.Field[Any]) -> list[Any]:
    """The validators of a collection field that bound its size (`validate.Length`, or one that says
    `bounds_size`): cheap on the raw value, so they can run before any item is loaded."""
    return [v for v in field.validators if isinstance(v, validate.Length) or getattr(v, "bounds_size", False)]


class SizeFirstList(fields.List[Any]):
    """A list whose size bound is checked before its items: a list over its maximum is one error at the
    list's path, and none of its items is loaded (so the answer stays small whatever the input)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list):
            for validator in _size_validators(self):
                validator(value)
        return super()._deserialize(value, attr, data, **kwargs)


class SizeFirstDict(fields.Dict):
    """A mapping whose size bound is checked before its keys and values, as `SizeFirstList`."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, dict):
            for validator in _size_validators(self):
                validator(value)
        return super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]


# The project schema (api/extensions.py) gives its plain List and Dict fields these classes when it binds them.
SIZE_FIRST: dict[type[fields.Field[Any]], type[fields.Field[Any]]] = {
    fields.List: SizeFirstList,
    fields.Dict: SizeFirstDict,
}
