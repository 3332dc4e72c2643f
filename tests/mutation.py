"""Mutation testing of the rule modules: how many small, plausible bugs does the fast suite catch?

    python -m tests.mutation --sample 40 --seed 1            # from the repository root
    python -m tests.mutation --list                           # every mutation point, no run

The rule modules under `adjudicator/` (any depth, so a module moved into a subpackage is still
covered) are parsed with `ast`; each mutation point is one small change:

- a comparison operator swapped (`<` -> `<=`, `>=` -> `>`, `==` -> `!=`, `in` -> `not in`, `is` -> `is not`, ...);
- `and` <-> `or`;
- a `not` removed;
- an integer constant plus or minus one;
- the `return` of a guard clause (`if ...: ... return X`) replaced by `pass`, so the guard falls through;
- an `if cond:` turned into `if not cond:`.

A seeded sample of the points (deterministic for a given seed and source tree) is applied one at a
time to a temporary COPY of the repository (the working tree is never touched), and the fast part of
the suite runs there (`pytest -x -q -p no:cacheprovider` over `scenarios/` and the engine, flow,
secrecy, property, register and consistency tests; the live-server, schemathesis, generated-client,
CLI and fast-load tests are skipped). A mutant whose run fails or times out is killed; one whose run
passes survived. A mutant that does not change the unparsed module, or whose package no longer
imports, is unviable and not counted. The last lines are `mutation score: K/N (P%)` and the
survivors (file:line and the change).
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "adjudicator"
# Modules that are infrastructure rather than rules: loading, registers, result records, the
# fixture corpus, the vocabulary. Matched by file name at any depth of the package.
NOT_RULES = frozenset(
    {
        "__init__.py",
        "_data.py",
        "catalog.py",
        "conformance.py",
        "errors.py",
        "registers.py",
        "results.py",
        "rulebook.py",
        "scenarios.py",
        "snapshot.py",
        "vocabulary.py",
    }
)
SLOW_TESTS = frozenset(
    {
        "test_live_server.py",
        "test_schemathesis.py",
        "test_generated_client.py",
        "test_cli.py",
        "test_fastload.py",
    }
)
_COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "__pycache__", "node_modules", ".mypy_cache", ".ruff_cache", ".pytest_cache", "*.pyc"
)

_CMP_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_CMP_TEXT = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}


@dataclass(frozen=True)
class Point:
    """One mutation: the `index`-th candidate node (in `ast.walk` order) of `file`, changed by `kind`."""

    file: str  # relative to the repository root
    index: int
    kind: str  # cmp:<op index>, boolop, not, int+1, int-1, guard-return, negate-if
    line: int
    change: str

    def label(self) -> str:
        return f"{self.file}:{self.line}: {self.change}"


def rule_modules(root: Path) -> list[Path]:
    package = root / PACKAGE
    return sorted(
        p
        for p in package.rglob("*.py")
        if p.name not in NOT_RULES and "__pycache__" not in p.parts and "data" not in p.relative_to(package).parts[:-1]
    )


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """Nodes inside annotations (never evaluated under `from __future__ import annotations`)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        annotations: list[ast.AST | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations.append(node.returns)
            args = node.args
            for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg):
                if a is not None:
                    annotations.append(a.annotation)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for ann in annotations:
            if ann is not None:
                found.update(id(n) for n in ast.walk(ann))
    return found


def _is_guard(node: ast.If) -> bool:
    return bool(node.body) and isinstance(node.body[-1], ast.Return)


def _candidates(tree: ast.AST) -> Iterator[tuple[int, ast.AST, str, str]]:
    """(index, node, kind, change) for every mutation point of a module, in a stable order."""
    skip = _docstring_nodes(tree) | _annotation_nodes(tree)
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                swapped = _CMP_SWAP.get(type(op))
                if swapped is not None:
                    yield index, node, f"cmp:{i}", f"{_CMP_TEXT[type(op)]} -> {_CMP_TEXT[swapped]}"
        elif isinstance(node, ast.BoolOp):
            new = "or" if isinstance(node.op, ast.And) else "and"
            old = "and" if new == "or" else "or"
            yield index, node, "boolop", f"{old} -> {new}"
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield index, node, "not", "not removed"
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            yield index, node, "int+1", f"{node.value} -> {node.value + 1}"
            yield index, node, "int-1", f"{node.value} -> {node.value - 1}"
        elif isinstance(node, ast.If):
            if _is_guard(node):
                yield index, node, "guard-return", "guard clause's return -> pass"
            yield index, node, "negate-if", "if cond -> if not cond"


class _Apply(ast.NodeTransformer):
    def __init__(self, index: int, kind: str) -> None:
        self.target_index = index
        self.kind = kind
        self.target: ast.AST | None = None

    def mutate(self, tree: ast.AST) -> ast.AST:
        for i, node in enumerate(ast.walk(tree)):
            if i == self.target_index:
                self.target = node
                break
        return self.visit(tree)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if node is not self.target:
            return node
        kind = self.kind
        if kind.startswith("cmp:") and isinstance(node, ast.Compare):
            i = int(kind.split(":", 1)[1])
            node.ops[i] = _CMP_SWAP[type(node.ops[i])]()
            return node
        if kind == "boolop" and isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            return node
        if kind == "not" and isinstance(node, ast.UnaryOp):
            return node.operand
        if kind in ("int+1", "int-1") and isinstance(node, ast.Constant):
            return ast.copy_location(ast.Constant(node.value + (1 if kind == "int+1" else -1)), node)
        if kind == "guard-return" and isinstance(node, ast.If):
            node.body[-1] = ast.copy_location(ast.Pass(), node.body[-1])
            return node
        if kind == "negate-if" and isinstance(node, ast.If):
            node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)
            return node
        raise ValueError(f"mutation {kind} does not apply to {type(node).__name__}")


def enumerate_points(root: Path) -> list[Point]:
    points: list[Point] = []
    for path in rule_modules(root):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(root).as_posix()
        for index, node, kind, change in _candidates(tree):
            points.append(Point(rel, index, kind, getattr(node, "lineno", 0), change))
    return points


def mutated_source(root: Path, point: Point) -> tuple[str, str]:
    """(original unparsed, mutated unparsed) source of the point's module."""
    text = (root / point.file).read_text(encoding="utf-8")
    tree = ast.parse(text)
    original = ast.unparse(tree)
    mutant = _Apply(point.index, point.kind).mutate(copy.deepcopy(tree))
    ast.fix_missing_locations(mutant)
    return original, ast.unparse(mutant)


def suite_targets(root: Path) -> list[str]:
    tests = sorted(
        p.relative_to(root).as_posix() for p in (root / "tests").glob("test_*.py") if p.name not in SLOW_TESTS
    )
    return ["scenarios", *tests]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"
    env.pop("PYTHONPATH", None)
    return env


def _run_suite(workdir: Path, targets: list[str], timeout: float) -> tuple[str, float]:
    """'passed', 'failed' or 'timeout', and the seconds taken."""
    start = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *targets],
            cwd=workdir,
            env=_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - start
    return ("passed" if proc.returncode == 0 else "failed"), time.monotonic() - start


def _imports(workdir: Path) -> bool:
    code = (
        "import sys, pathlib, adjudicator, api\n"
        "assert pathlib.Path(adjudicator.__file__).resolve().is_relative_to(pathlib.Path.cwd().resolve())\n"
        "api.create_app()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=workdir,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    return proc.returncode == 0


def _copy_repository(source: Path, into: Path) -> Path:
    target = into / "repo"
    shutil.copytree(source, target, ignore=_COPY_IGNORE, symlinks=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--sample", type=int, default=40, help="how many mutants to draw (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--timeout", type=float, default=0, help="seconds per mutant (default: 5x the clean run, at least 60)"
    )
    parser.add_argument(
        "--source", type=Path, default=ROOT, help="the repository to copy and mutate (default: this one)"
    )
    parser.add_argument("--list", action="store_true", help="list the mutation points and exit")
    args = parser.parse_args(argv)

    source = args.source.resolve()
    points = enumerate_points(source)
    if args.list:
        for p in points:
            print(p.label())
        print(f"mutation points: {len(points)}")
        return 0
    rng = random.Random(args.seed)
    sample = points if args.sample <= 0 or args.sample >= len(points) else rng.sample(points, args.sample)
    print(
        f"mutation points: {len(points)} in {len(rule_modules(source))} modules; sample {len(sample)}, seed {args.seed}"
    )

    with tempfile.TemporaryDirectory(prefix="dune-mutation-") as tmp:
        work = _copy_repository(source, Path(tmp))
        targets = suite_targets(work)
        if not _imports(work):
            print("the unmutated copy does not import from itself; aborting", file=sys.stderr)
            return 2
        clean, clean_seconds = _run_suite(work, targets, timeout=900)
        if clean != "passed":
            print(f"the unmutated suite does not pass in the copy ({clean}); aborting", file=sys.stderr)
            return 2
        timeout = args.timeout or max(60.0, 5 * clean_seconds)
        print(f"clean run: {clean_seconds:.1f}s over {len(targets)} targets; timeout per mutant {timeout:.0f}s")

        killed: list[Point] = []
        survived: list[Point] = []
        unviable: list[tuple[Point, str]] = []
        for n, point in enumerate(sample, 1):
            path = work / point.file
            pristine = path.read_bytes()
            original, mutant = mutated_source(work, point)
            if mutant == original:
                unviable.append((point, "identical after unparse"))
                print(f"[{n}/{len(sample)}] unviable  {point.label()} (identical)")
                continue
            try:
                path.write_text(mutant + "\n", encoding="utf-8")
                try:
                    compile(mutant, str(path), "exec")
                except SyntaxError:
                    unviable.append((point, "does not compile"))
                    print(f"[{n}/{len(sample)}] unviable  {point.label()} (syntax)")
                    continue
                if not _imports(work):
                    unviable.append((point, "does not import"))
                    print(f"[{n}/{len(sample)}] unviable  {point.label()} (import)")
                    continue
                result, seconds = _run_suite(work, targets, timeout)
            finally:
                path.write_bytes(pristine)
            (killed if result in ("failed", "timeout") else survived).append(point)
            verdict = {"failed": "killed", "timeout": "killed (timeout)", "passed": "SURVIVED"}[result]
            print(f"[{n}/{len(sample)}] {verdict:16} {point.label()} ({seconds:.1f}s)", flush=True)

    counted = len(killed) + len(survived)
    pct = 100.0 * len(killed) / counted if counted else 0.0
    print(f"killed: {len(killed)}, survived: {len(survived)}, equivalent-or-unviable (not counted): {len(unviable)}")
    for point, why in unviable:
        print(f"  unviable: {point.label()} ({why})")
    print(f"mutation score: {len(killed)}/{counted} ({pct:.1f}%)")
    if survived:
        print("survivors:")
        for point in survived:
            print(f"  {point.label()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
