"""A fast acceptance check compiled from the marshmallow schemas themselves.

marshmallow spends a few microseconds on every field; a 4 KB snapshot has some three hundred of
them. `compile_check(schema)` turns a schema into a tree of plain closures that answers one question:
would `schema.load(data)` succeed and return `data` unchanged? When the answer is a certain yes, the
request body is used as it is; otherwise the ordinary marshmallow load runs and reports every
problem with its path. The check is derived from the same field declarations (no second copy of the
rules), and any field type it does not know makes it answer no, so it can only ever skip work, never
accept something the schema would reject.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from .fields import BoundedInteger, Choice, Pattern, StrictBoolean, StrictInteger, StrictNumber

Check = Callable[[Any], bool]


def _never(_: Any) -> bool:
    return False


def _with_validators(field: fields.Field, check: Check) -> Check:
    validators = list(field.validators)
    if not validators:
        return check

    def checked(value: Any) -> bool:
        if not check(value):
            return False
        try:
            for validator in validators:
                validator(value)
        except ma.ValidationError:
            return False
        return True

    return checked


def _field_check(field: fields.Field) -> Check:
    check = _value_check(field)
    check = _with_validators(field, check)
    if field.allow_none:
        inner = check
        return lambda value: value is None or inner(value)
    return lambda value: value is not None and check(value)


def _value_check(field: fields.Field) -> Check:
    # Order matters: the project's strict subclasses before the marshmallow base classes.
    if isinstance(field, Choice):
        allowed = field._allowed
        return lambda value: isinstance(value, str) and value in allowed
    if isinstance(field, Pattern):
        regex, longest = field.regex, field.max_length
        return lambda value: isinstance(value, str) and 0 < len(value) <= longest and regex.fullmatch(value) is not None
    if isinstance(field, BoundedInteger):
        low, high = field.minimum, field.maximum
        return lambda value: type(value) is int and low <= value <= high
    if isinstance(field, StrictInteger):
        return lambda value: type(value) is int
    if isinstance(field, StrictNumber):
        return lambda value: (
            (type(value) is int or type(value) is float)
            and abs(value) <= 1e9
            and (value * 2) == int(value * 2)
            and (type(value) is int or not float(value).is_integer())
        )
    if isinstance(field, StrictBoolean):
        return lambda value: value is True or value is False
    if isinstance(field, fields.Nested):
        nested = field.schema
        if field.many:
            return _never
        return compile_check(nested)
    if isinstance(field, fields.List):
        item = _field_check(field.inner)
        # the size bound first, as the load does: an oversize list is refused without a look at its items
        maxima = [v.max for v in field.validators if isinstance(v, validate.Length) and v.max is not None]
        if maxima:
            longest = min(maxima)
            return lambda value: isinstance(value, list) and len(value) <= longest and all(item(v) for v in value)
        return lambda value: isinstance(value, list) and all(item(v) for v in value)
    if isinstance(field, fields.Dict):
        key = _field_check(field.key_field) if field.key_field is not None else None
        val = _field_check(field.value_field) if field.value_field is not None else None
        if key is None or val is None:
            return _never
        return lambda value: isinstance(value, dict) and all(key(k) and val(v) for k, v in value.items())
    if type(field) is fields.String:
        return lambda value: isinstance(value, str)
    return _never  # a field type this check does not understand: always take the full load


def compile_check(schema: ma.Schema) -> Check:
    """A closure answering: does `schema.load(data)` certainly succeed and return `data` unchanged?"""
    cached: Check | None = getattr(schema, "_fast_check", None)
    if cached is not None:
        return cached
    # marshmallow's `_hooks` is a defaultdict: a full load leaves empty entries behind, so look for a hook
    if schema.many or schema.unknown != ma.RAISE or any(schema._hooks.values()):  # type: ignore[attr-defined]
        return _never
    checks: dict[str, Check] = {}
    required: list[str] = []
    for name, field in schema.fields.items():
        if field.load_only is False and field.dump_only:
            continue
        if field.data_key is not None and field.data_key != name:
            return _never
        if field.load_default is not ma.missing:
            return _never  # loading would add a key: the result would not be `data` unchanged
        checks[name] = _field_check(field)
        if field.required:
            required.append(name)
    allowed = frozenset(checks)

    def check(value: Any) -> bool:
        if not isinstance(value, dict) or not allowed.issuperset(value):
            return False
        for name in required:
            if name not in value:
                return False
        return all(checks[name](item) for name, item in value.items())

    schema._fast_check = check  # type: ignore[attr-defined]
    return check


class FastLoadSchema(ma.Schema):
    """A schema whose `load` skips marshmallow's field machinery for bodies the compiled check accepts."""

    def load(self, data: Any, *args: Any, **kwargs: Any) -> Any:
        if not args and not kwargs and compile_check(self)(data):
            return data
        return super().load(data, *args, **kwargs)
