"""What a rule is asked: the proposed action, and the context it is ruled in."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any, Protocol

from adjudicator.core.registers import get_question
from adjudicator.core.results import Adjudication
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.vocabulary import ActionType


@dataclass(frozen=True, slots=True)
class Action:
    """A proposed action: a kebab-case type, the acting player where one acts, and its choices."""

    type: ActionType
    player: str | None = None
    fields: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Action:
        rest = {k: v for k, v in raw.items() if k not in ("type", "player")}
        return cls(ActionType(raw["type"]), raw.get("player"), MappingProxyType(rest))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type.value, "player": self.player, **self.fields}


class InterpretationNeeded(Exception):
    """Raised where a ruling reaches an open register question the request did not answer and the
    register gives no default; the handler then answers `unresolved`, running each implemented choice
    in turn (`Rules.implemented_choices`)."""

    def __init__(self, question: str) -> None:
        super().__init__(question)
        self.question = question


@cache
def _default_of(question_id: str) -> str | None:
    return get_question(question_id).default


def choice_of(interpretations: Mapping[str, str], question_id: str) -> str:
    """The request's choice for a question, or the register's default; with neither, the signal to
    answer `unresolved` (`InterpretationNeeded`). The one helper for every question a rule reaches."""
    chosen = interpretations.get(question_id)
    if chosen:
        return chosen
    default = _default_of(question_id)
    if default is not None:
        return default
    raise InterpretationNeeded(question_id)


class Rules(Protocol):
    """What a rule may ask of the rulebook it is ruled by (`adjudicator.core.rulebook.Rulebook`)."""

    @property
    def after_discards(self) -> tuple[Callable[[Any], None], ...]: ...

    @property
    def digest(self) -> str: ...

    @property
    def steps(self) -> Mapping[str, StepBuilder]: ...

    @property
    def decisions(self) -> Mapping[str, Any]: ...  # decision type -> its DecisionKind

    def options(self, snapshot: Snapshot, player: str | None = None) -> list[dict[str, Any]]: ...

    def options_of(self, snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]: ...

    def is_self_contained(self, decision_type: str) -> bool: ...

    def step_decision(self, step: str, state: Any) -> dict[str, Any] | None: ...

    def implemented_choices(self, question_id: str) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class Context:
    """What a handler may consult besides the snapshot and the action: the request's interpretations,
    its viewer, and the rulebook it is ruled by (for the options of the decisions it opens)."""

    interpretations: Mapping[str, str]
    viewer: str | None
    rulebook: Rules

    def choice(self, question_id: str) -> str:
        """The request's choice for a question, or its default, or `InterpretationNeeded` (`choice_of`)."""
        chosen = self.interpretations.get(question_id)
        if chosen:
            return chosen
        default = _default_of(question_id)  # choice_of, written out: rules ask this on every battle
        if default is not None:
            return default
        raise InterpretationNeeded(question_id)

    def under(self, chosen: Mapping[str, str]) -> Context:
        """The same context with further interpretations chosen (to explore an alternative)."""
        return Context(MappingProxyType({**self.interpretations, **chosen}), self.viewer, self.rulebook)


Handler = Callable[[Snapshot, Action, Context], Adjudication]
OptionLister = Callable[[Snapshot, Decision], list[dict[str, Any]]]
# builds the pending decision of a battle's next cleanup step from the working state (typed `Any`
# here: the working state, `adjudicator.rules.state.NextSnapshot`, lives with the rules)
# a battle step's decision from the working state; a step before the plans, or the next battle, may
# not apply (None)
StepBuilder = Callable[[Any], dict[str, Any] | None]
