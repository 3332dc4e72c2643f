"""Partial structural matching of a response against a fixture's expectations (docs/contract.md, "Scenario fixtures").

- A mapping matches when each expected key is present and its value matches (extra keys are fine).
- A list matches a list of the same length element by element.
- Against a list, a mapping whose keys are among `include`, `exclude` and `length` matches when
  every `include` item matches some element, no `exclude` item matches any, and the length is equal.
- Scalars match by equality, and a boolean never equals a number.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_LIST_KEYS = frozenset({"include", "exclude", "length"})


def _where(path: str) -> str:
    return path or "/"


def mismatches(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Every way `actual` fails to match `expected`, as `path: reason` lines (empty: a match)."""
    if isinstance(expected, Mapping) and isinstance(actual, list) and expected and set(expected) <= _LIST_KEYS:
        return _list_constraints(expected, actual, path)
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{_where(path)}: expected an object, got {type(actual).__name__} {actual!r}"]
        found: list[str] = []
        for key, value in expected.items():
            child = f"{path}/{key}"
            if key not in actual:
                found.append(f"{child}: missing")
            else:
                found.extend(mismatches(value, actual[key], child))
        return found
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{_where(path)}: expected a list, got {type(actual).__name__} {actual!r}"]
        if len(expected) != len(actual):
            return [f"{_where(path)}: expected {len(expected)} items, got {len(actual)}: {actual!r}"]
        found = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found.extend(mismatches(e, a, f"{path}/{i}"))
        return found
    if isinstance(expected, bool) != isinstance(actual, bool) or expected != actual:
        return [f"{_where(path)}: expected {expected!r}, got {actual!r}"]
    return []


def _list_constraints(expected: Mapping[str, Any], actual: list[Any], path: str) -> list[str]:
    found: list[str] = []
    if "length" in expected and len(actual) != expected["length"]:
        found.append(f"{_where(path)}: expected {expected['length']} items, got {len(actual)}")
    for item in expected.get("include") or ():
        if not any(not mismatches(item, a) for a in actual):
            found.append(f"{_where(path)}: no item matches {item!r}")
    for item in expected.get("exclude") or ():
        if any(not mismatches(item, a) for a in actual):
            found.append(f"{_where(path)}: an item matches excluded {item!r}")
    return found


def check_response(expect: Mapping[str, Any], status_code: int, body: Any) -> list[str]:
    """Compare an HTTP answer with a fixture's `expect` (`http_status` defaults to 200)."""
    wanted_status = expect.get("http_status", 200)
    found = []
    if status_code != wanted_status:
        found.append(f"HTTP status: expected {wanted_status}, got {status_code}")
    body_expect = {k: v for k, v in expect.items() if k != "http_status"}
    found.extend(mismatches(body_expect, body))
    return found
