"""The rulebook: what each rule module declares, and the frozen whole built from those declarations.

A rule module declares its handlers, the decisions it opens (with their option listers), the battle
cleanup steps it builds, its hooks and the question choices it implements in one `RuleModule` value.
The composition root (`adjudicator.system`) builds the one `Rulebook` from a fixed list of modules;
two modules claiming the same key is an error there, never a question of import order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any

from adjudicator.core.action import Handler, OptionLister, StepBuilder
from adjudicator.core.errors import RegisterError
from adjudicator.core.registers import Registers, load_registers
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.vocabulary import ActionType

# called with the working state when a battle step has discarded cards (typed `Any`: the working
# state lives with the rules, above this module)
DiscardHook = Callable[[Any], None]
# a reading a snapshot shows it was reached under (question, choice, the rule that records it), or None:
# a later request continuing it is ruled under that choice and cannot name another
KeptReading = Callable[[Snapshot], tuple[str, str, str] | None]


@dataclass(frozen=True, slots=True)
class DecisionKind:
    """How a decision's options are listed; `self_contained` when they depend on the decision alone."""

    options: OptionLister
    self_contained: bool = False


@dataclass(frozen=True)
class RuleModule:
    """What one rule module contributes to the rulebook."""

    handlers: Mapping[ActionType, Handler] = field(default_factory=dict)
    decisions: Mapping[str, DecisionKind] = field(default_factory=dict)
    steps: Mapping[str, StepBuilder] = field(default_factory=dict)
    after_discards: tuple[DiscardHook, ...] = ()
    implements: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    kept_readings: tuple[KeptReading, ...] = ()


def _merge(target: dict[Any, Any], owners: dict[Any, str], items: Mapping[Any, Any], what: str, name: str) -> None:
    for key, value in items.items():
        if key in target:
            label = getattr(key, "value", key)
            raise RegisterError(f"{what} {label!r} is declared by both {owners[key]} and {name}")
        target[key] = value
        owners[key] = name


@dataclass(frozen=True)
class Rulebook:
    """Every handler, decision, cleanup step, hook and implemented question choice, and the registers."""

    handlers: Mapping[ActionType, Handler]
    decisions: Mapping[str, DecisionKind]
    steps: Mapping[str, StepBuilder]
    after_discards: tuple[DiscardHook, ...]
    kept_readings: tuple[KeptReading, ...]
    implemented: Mapping[str, frozenset[str]]
    rule_functions: Mapping[str, Callable[..., Any]]
    registers: Registers
    modules: tuple[str, ...]
    digest: str  # the served registers' digest, stamped on every answer

    @classmethod
    def build(cls, modules: Iterable[ModuleType]) -> Rulebook:
        """The rulebook of `modules`, each declaring its contribution as `DECLARED = RuleModule(...)`."""
        handlers: dict[ActionType, Handler] = {}
        decisions: dict[str, DecisionKind] = {}
        steps: dict[str, StepBuilder] = {}
        hooks: list[DiscardHook] = []
        kept: list[KeptReading] = []
        implemented: dict[str, set[str]] = {}
        functions: dict[str, Callable[..., Any]] = {}
        owners: dict[str, dict[Any, str]] = {"action": {}, "decision": {}, "step": {}}
        names: list[str] = []
        for module in modules:
            name = module.__name__
            declared = getattr(module, "DECLARED", None)
            if not isinstance(declared, RuleModule):
                raise RegisterError(f"{name} declares no RuleModule as DECLARED")
            names.append(name)
            _merge(handlers, owners["action"], declared.handlers, "the action", name)
            _merge(decisions, owners["decision"], declared.decisions, "the decision", name)
            _merge(steps, owners["step"], declared.steps, "the cleanup step", name)
            hooks.extend(declared.after_discards)
            kept.extend(declared.kept_readings)
            for question, choices in declared.implements.items():
                implemented.setdefault(question, set()).update(choices)
            for value in vars(module).values():
                rule_id = getattr(value, "rule_id", None)
                if not isinstance(rule_id, str):
                    continue
                known = functions.get(rule_id)
                if known is not None and known is not value:
                    raise RegisterError(f"two rule functions claim id {rule_id!r}")
                functions[rule_id] = value
        frozen = MappingProxyType({q: frozenset(c) for q, c in implemented.items()})
        registers = load_registers(frozen)
        for question in frozen:
            if question not in registers.questions:
                raise RegisterError(f"a module implements {question!r}, which is not in the questions register")
        missing = sorted(set(functions) - set(registers.rules))
        if missing:
            raise RegisterError(f"rule functions missing from the rules register: {missing}")
        for rule_id, function in functions.items():
            # the register is the claim's one home; help() on a rule function shows it from there
            function.__doc__ = registers.rules[rule_id].claim
        return cls(
            handlers=MappingProxyType(handlers),
            decisions=MappingProxyType(decisions),
            steps=MappingProxyType(steps),
            after_discards=tuple(hooks),
            kept_readings=tuple(kept),
            implemented=frozen,
            rule_functions=MappingProxyType(functions),
            registers=registers,
            modules=tuple(names),
            digest=registers.digest,
        )

    def implemented_choices(self, question_id: str) -> tuple[str, ...]:
        """The implemented choices of a question, in the register's order."""
        chosen = self.implemented.get(question_id, frozenset())
        return tuple(c.id for c in self.registers.questions[question_id].choices if c.id in chosen)

    def is_implemented(self, question_id: str, choice_id: str) -> bool:
        return choice_id in self.implemented.get(question_id, frozenset())

    def options(self, snapshot: Snapshot, player: str | None = None) -> list[dict[str, Any]]:
        """The options of the snapshot's open decision (none when nothing is pending)."""
        decision = snapshot.pending
        if decision is None:
            return []
        kind = self.decisions.get(decision.type)
        options = kind.options(snapshot, decision) if kind is not None else []
        return [o for o in options if player is None or o.get("player") == player]

    def options_of(self, snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
        """The options of `decision` as opened on `snapshot`'s successor, when they depend on it alone."""
        return self.decisions[decision.type].options(snapshot, decision)

    def is_self_contained(self, decision_type: str) -> bool:
        kind = self.decisions.get(decision_type)
        return kind is not None and kind.self_contained

    def step_decision(self, step: str, state: Any) -> dict[str, Any] | None:
        """The decision that opens cleanup step `step` of the working state's battle."""
        return self.steps[step](state)
