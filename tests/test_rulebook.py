"""The rulebook is built explicitly from the rule modules' declarations; duplicates are an error."""

from __future__ import annotations

import ast
import types
from pathlib import Path

import pytest

import adjudicator
from adjudicator import rulebook
from adjudicator.core.errors import RegisterError
from adjudicator.core.rulebook import DecisionKind, Rulebook, RuleModule
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import ActionType
from adjudicator.system import RULE_MODULES

PACKAGE = Path(adjudicator.__file__).resolve().parent


def _module(name: str, declared: RuleModule, **functions: object) -> types.ModuleType:
    module = types.ModuleType(name)
    module.DECLARED = declared  # type: ignore[attr-defined]
    for key, value in functions.items():
        setattr(module, key, value)
    return module


def _handler(*_: object) -> object:
    raise AssertionError("never called")


def test_two_modules_claiming_one_action_stop_the_build() -> None:
    one = _module("one", RuleModule(handlers={ActionType.END_TURN: _handler}))  # type: ignore[dict-item]
    two = _module("two", RuleModule(handlers={ActionType.END_TURN: _handler}))  # type: ignore[dict-item]
    with pytest.raises(RegisterError, match=r"end-turn.*one and two"):
        Rulebook.build([one, two])


def test_two_modules_claiming_one_decision_stop_the_build() -> None:
    kind = DecisionKind(lambda snapshot, decision: [])
    one = _module("one", RuleModule(decisions={"winner-cards": kind}))
    two = _module("two", RuleModule(decisions={"winner-cards": kind}))
    with pytest.raises(RegisterError, match="winner-cards"):
        Rulebook.build([one, two])


def test_two_rule_functions_with_one_id_stop_the_build() -> None:
    first = rule("battle.bounty")(lambda: 1)
    second = rule("battle.bounty")(lambda: 2)
    with pytest.raises(RegisterError, match=r"battle\.bounty"):
        Rulebook.build([_module("one", RuleModule(), a=first), _module("two", RuleModule(), b=second)])


def test_a_module_without_a_declaration_or_with_an_unknown_question_is_refused() -> None:
    with pytest.raises(RegisterError, match="declares no RuleModule"):
        Rulebook.build([types.ModuleType("bare")])
    with pytest.raises(RegisterError, match="not in the questions register"):
        Rulebook.build([_module("one", RuleModule(implements={"no-such-question": ("x",)}))])


def test_the_order_of_the_modules_decides_nothing() -> None:
    forward = Rulebook.build(RULE_MODULES)
    backward = Rulebook.build(tuple(reversed(RULE_MODULES)))
    assert dict(forward.handlers) == dict(backward.handlers)
    assert dict(forward.decisions) == dict(backward.decisions)
    assert dict(forward.steps) == dict(backward.steps)
    assert forward.implemented == backward.implemented
    assert forward.digest == backward.digest


def test_every_rule_module_of_the_package_is_in_the_rulebook() -> None:
    declared = {p for p in (PACKAGE / "rules").rglob("*.py") if "DECLARED = RuleModule(" in p.read_text()}
    listed = {Path(str(m.__file__)).resolve() for m in RULE_MODULES}
    assert declared == listed
    assert len(rulebook().modules) == len(RULE_MODULES)


def test_no_module_registers_anything_when_imported() -> None:
    """Module-level code may define names, never write into another module's tables."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            targets = node.targets if isinstance(node, ast.Assign) else []
            if any(isinstance(t, (ast.Subscript, ast.Attribute)) for t in targets):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


def test_a_rule_claim_lives_in_the_register_alone() -> None:
    """No rule function restates its claim in a docstring; the rulebook gives it the register's."""
    restated = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            marked = isinstance(node, ast.FunctionDef) and any(
                isinstance(d, ast.Call) and getattr(d.func, "id", "") == "rule" for d in node.decorator_list
            )
            if marked and ast.get_docstring(node) is not None:  # type: ignore[arg-type]
                restated.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert restated == []
    claims = {rule_id: entry.claim for rule_id, entry in rulebook().registers.rules.items()}
    assert {rule_id: f.__doc__ for rule_id, f in rulebook().rule_functions.items()} == claims


def test_rules_change_the_next_snapshot_only_through_the_working_state() -> None:
    """No rule module indexes the working state's wire mapping or takes a `wire` parameter; the working
    state (rules/state/) keeps it, and secrecy redacts wire JSON by design."""
    offenders = []
    for path in (PACKAGE / "rules").rglob("*.py"):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("rules/state/") or relative == "rules/secrecy.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "wire":
                offenders.append(f"{relative}:{node.lineno}")
            if isinstance(node, ast.arg) and node.arg == "wire":
                offenders.append(f"{relative}:{node.lineno} (parameter)")
    assert offenders == []
