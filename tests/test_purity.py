"""The engine is a pure library: nothing in adjudicator/ imports a web or schema framework."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import adjudicator

FORBIDDEN = {"flask", "flask_smorest", "marshmallow", "webargs", "werkzeug", "apispec", "gunicorn"}
PACKAGE = Path(adjudicator.__file__).resolve().parent


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_module_of_the_engine_imports_a_framework() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): sorted(imported_roots(path) & FORBIDDEN) for path in PACKAGE.rglob("*.py")
    }
    assert {k: v for k, v in offenders.items() if v} == {}


def test_importing_and_using_the_engine_loads_no_framework() -> None:
    code = (
        "import sys, adjudicator\n"
        "adjudicator.registers(); adjudicator.catalog()\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
