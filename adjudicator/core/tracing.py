"""The tracing of rules that ran.

Every rule function is decorated with `@rule("dotted.id")`, which only marks it: the rulebook finds the
marked functions of the modules it is built from. Calling one inside `tracing()` records its id, so a
response's `rulings` are exactly the rules that actually ran, in the order they first ran.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import ParamSpec, TypeVar


class Trace(list[str]):
    """The ids of the rules that ran, in first-run order (with a set for cheap membership tests)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()

    def record(self, rule_id: str) -> None:
        if rule_id not in self.seen:
            self.seen.add(rule_id)
            self.append(rule_id)


_TRACE: ContextVar[Trace | None] = ContextVar("adjudicator_trace", default=None)
_get_trace = _TRACE.get

P = ParamSpec("P")
R = TypeVar("R")


def rule(rule_id: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a rule function with its stable id; calls inside `tracing()` are recorded."""

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        @wraps(func)
        def traced(*args: P.args, **kwargs: P.kwargs) -> R:
            trace = _get_trace()
            # inlined Trace.record: this wrapper runs a few dozen times per ruling
            if trace is not None and rule_id not in trace.seen:
                trace.seen.add(rule_id)
                trace.append(rule_id)
            return func(*args, **kwargs)

        traced.rule_id = rule_id  # type: ignore[attr-defined]
        return traced

    return decorate


class tracing:
    """Collect the ids of the rule functions called inside the block. A plain class rather than a
    generator-based context manager: it opens once per ruling and costs a third as much."""

    __slots__ = ("_token", "_trace")

    def __enter__(self) -> Trace:
        self._trace = Trace()
        self._token = _TRACE.set(self._trace)
        return self._trace

    def __exit__(self, *exc_info: object) -> None:
        _TRACE.reset(self._token)
