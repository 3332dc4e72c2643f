"""Every violation and problem code the engine can emit is asserted by some fixture's `expect`.

The engine's codes are found by parsing every module under `adjudicator/` (at any depth, so a code
still counts when its module moves into a subpackage): the code argument of `Violation(...)`,
`Problem(...)`, any call with `code=...`, and the snapshot checker's `add(code, message, ...)`. A
code argument is followed through conditional expressions, local variables and, one level up, the
parameters of the enclosing function (the constants its callers pass); an f-string becomes a
pattern that some asserted code must match.

A code counts as asserted only as the value of a `code:` key in a fixture's expectations (its own
or a variant's), never from a mention elsewhere.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator import Action, adjudicate, load_snapshot
from adjudicator.core.errors import InvalidSnapshot
from adjudicator.scenarios import load_scenarios

from .conftest import base_snapshot

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"
# the position of the code among the positional arguments
_POSITION = {"Violation": 0, "Problem": 1, "add": 0}
_CODE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

# Codes the engine can construct but no HTTP request can reach, each with the reason.
UNREACHABLE: dict[str, str] = {
    "unknown-terror-token": (
        "the request schema lists the six Terror token kinds, so an unknown kind is refused first with"
        " unknown-value (fixture snapshot/terror-token-kind-must-exist); only a caller of the library's"
        " load_snapshot reaches this check (test_unknown_terror_kind_is_refused_by_the_library)"
    ),
    "banker-spice-exceeds-three": (
        "the request schema bounds a plan's banker_spice to 0-3, so more is refused first with a 422"
        " (fixture skills/malformed-banker-spice); only a caller of the library reaches this check"
        " (test_banker_spice_beyond_three_is_refused_by_the_library)"
    ),
}


def _call_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


class _Module:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        self.parent: dict[int, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[id(child)] = node

    def enclosing_function(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        current = self.parent.get(id(node))
        while current is not None and not isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef)):
            current = self.parent.get(id(current))
        return current


class _Scan:
    def __init__(self, package: Path) -> None:
        self.modules = [_Module(p) for p in sorted(package.rglob("*.py")) if "__pycache__" not in p.parts]
        self.codes: dict[str, set[str]] = {}  # code -> where (file:line)
        self.patterns: dict[str, set[str]] = {}  # regex -> where

    def run(self) -> _Scan:
        for module in self.modules:
            for node in ast.walk(module.tree):
                if not isinstance(node, ast.Call):
                    continue
                arg = self._code_argument(node)
                if arg is not None:
                    where = f"{module.path.relative_to(PACKAGE.parent)}:{node.lineno}"
                    self._resolve(module, arg, where, depth=0)
        return self

    @staticmethod
    def _code_argument(node: ast.Call) -> ast.expr | None:
        for keyword in node.keywords:
            if keyword.arg == "code":
                return keyword.value
        name = _call_name(node)
        if name not in _POSITION:
            return None
        if name == "add" and len(node.args) < 2:  # set.add(x), not the checker's add(code, message, ...)
            return None
        position = _POSITION[name]
        return node.args[position] if len(node.args) > position else None

    def _resolve(self, module: _Module, expr: ast.expr, where: str, depth: int) -> None:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            if _CODE.match(expr.value):
                self.codes.setdefault(expr.value, set()).add(where)
        elif isinstance(expr, ast.IfExp):
            self._resolve(module, expr.body, where, depth)
            self._resolve(module, expr.orelse, where, depth)
        elif isinstance(expr, ast.BoolOp):
            for value in expr.values:
                self._resolve(module, value, where, depth)
        elif isinstance(expr, ast.JoinedStr):
            parts = [re.escape(v.value) if isinstance(v, ast.Constant) else "[a-z0-9-]+" for v in expr.values]
            self.patterns.setdefault("^" + "".join(parts) + "$", set()).add(where)
        elif isinstance(expr, ast.Name) and depth < 2:
            self._resolve_name(module, expr, where, depth)
        # anything else (an attribute such as `v.code`) passes an existing code along

    def _resolve_name(self, module: _Module, name: ast.Name, where: str, depth: int) -> None:
        function = module.enclosing_function(name)
        if function is None:
            return
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name.id for t in node.targets):
                self._resolve(module, node.value, where, depth + 1)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                target = node.target
                if isinstance(target, ast.Name) and target.id == name.id and node.value is not None:
                    self._resolve(module, node.value, where, depth + 1)
        args = function.args
        positional = [a.arg for a in (*args.posonlyargs, *args.args)]
        if name.id not in positional and name.id not in [a.arg for a in args.kwonlyargs]:
            return
        index = positional.index(name.id) if name.id in positional else None
        if index is not None and positional and positional[0] in ("self", "cls"):
            index -= 1
        required = len(positional) - len(args.defaults) - (1 if positional and positional[0] in ("self", "cls") else 0)
        for other in self.modules:
            for node in ast.walk(other.tree):
                if (
                    isinstance(node, ast.Call)
                    and _call_name(node) == function.name
                    and len(node.args) + len(node.keywords) >= required
                ):
                    for keyword in node.keywords:
                        if keyword.arg == name.id:
                            self._resolve(other, keyword.value, where, depth + 1)
                    if index is not None and len(node.args) > index:
                        self._resolve(other, node.args[index], where, depth + 1)


def _asserted_codes(tree: Any) -> Iterator[str]:
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key == "code" and isinstance(value, str):
                yield value
            else:
                yield from _asserted_codes(value)
    elif isinstance(tree, list):
        for item in tree:
            yield from _asserted_codes(item)


@pytest.fixture(scope="module")
def scan() -> _Scan:
    return _Scan(PACKAGE).run()


@pytest.fixture(scope="module")
def asserted() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for scenario in load_scenarios():
        for expect in (scenario.expect, *(v.expect for v in scenario.variants)):
            for code in _asserted_codes(expect):
                found.setdefault(code, []).append(scenario.id)
    return found


def test_the_scan_finds_the_engine_codes(scan: _Scan) -> None:
    """A scan that silently stops finding codes (a renamed class, a moved module) must not pass."""
    assert len(scan.codes) >= 160, sorted(scan.codes)
    for code in ("not-implemented", "wrong-phase", "decision-pending", "duplicate", "support-exceeds-spice"):
        assert code in scan.codes, code
    # codes chosen through a conditional expression and through a variable
    assert {"already-revealed", "not-a-face-dancer"} <= set(scan.codes)
    assert any(re.match(p, "no-ecaz-ambassador") for p in scan.patterns)


def test_every_emitted_code_is_asserted_by_a_fixture(scan: _Scan, asserted: dict[str, list[str]]) -> None:
    missing = {
        code: sorted(where) for code, where in scan.codes.items() if code not in asserted and code not in UNREACHABLE
    }
    assert not missing, "codes the engine emits that no fixture's expect asserts (code: where):\n" + "\n".join(
        f"  {code}: {', '.join(where)}" for code, where in sorted(missing.items())
    )


def test_every_code_pattern_is_matched_by_an_asserted_code(scan: _Scan, asserted: dict[str, list[str]]) -> None:
    missing = {p: sorted(w) for p, w in scan.patterns.items() if not any(re.match(p, c) for c in asserted)}
    assert not missing, f"code patterns no fixture asserts: {missing}"


def test_documented_exceptions_are_still_unreachable_codes(scan: _Scan, asserted: dict[str, list[str]]) -> None:
    for code in UNREACHABLE:
        assert code in scan.codes, f"{code} is no longer emitted: drop it from UNREACHABLE"
        assert code not in asserted, f"{code} is asserted by {asserted[code]}: drop it from UNREACHABLE"


def test_unknown_terror_kind_is_refused_by_the_library() -> None:
    snapshot = base_snapshot("extortion-placed")
    snapshot["terror"]["supply"][4]["kind"] = "blackmail"
    with pytest.raises(InvalidSnapshot) as raised:
        load_snapshot(snapshot)
    assert [(p.path, p.code) for p in raised.value.problems] == [
        ("/snapshot/terror/supply/4/kind", "unknown-terror-token")
    ]


def test_banker_spice_beyond_three_is_refused_by_the_library() -> None:
    snapshot = base_snapshot("skills-duel")
    snapshot["factions"]["atreides"]["leaders"]["duncan-idaho"] = {
        "status": "available",
        "skill": "spice-banker",
        "skill_face_up": False,
    }
    snapshot["battle"]["plans"]["atreides"]["banker_spice"] = 4
    answer = adjudicate(load_snapshot(snapshot), Action.from_dict({"type": "resolve-battle"})).to_dict()
    assert answer["status"] == "illegal"
    assert [(v["code"], v["path"], v["rule"]) for v in answer["violations"]] == [
        ("banker-spice-exceeds-three", "/snapshot/battle/plans/atreides/banker_spice", "skills.spice-banker.plan")
    ]
