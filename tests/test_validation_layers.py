"""The consistency checks sit above the rules: they ask the rule modules' public functions for anything
rule-shaped, and no rule or core module depends on them."""

from __future__ import annotations

import ast
from pathlib import Path

import adjudicator

PACKAGE = Path(adjudicator.__file__).resolve().parent


def _imports(path: Path) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.extend((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((alias.name, "") for alias in node.names)
    return found


def test_validation_asks_rule_modules_only_through_public_names() -> None:
    private = {
        f"{path.name}: {module}.{name}"
        for path in (PACKAGE / "validation").glob("*.py")
        for module, name in _imports(path)
        if module.startswith("adjudicator.rules") and name.startswith("_")
    }
    assert private == set()


def test_no_rule_or_core_module_imports_validation() -> None:
    offenders = {
        str(path.relative_to(PACKAGE))
        for folder in ("core", "rules")
        for path in (PACKAGE / folder).rglob("*.py")
        for module, _ in _imports(path)
        if module.startswith("adjudicator.validation")
    }
    assert offenders == set()
