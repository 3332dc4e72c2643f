"""COMPLIANCE.md is generated; the committed file must be what the registers and fixtures make now."""

from __future__ import annotations

from api.compliance import COMPLIANCE_FILE, render


def test_the_committed_compliance_statement_is_current() -> None:
    assert COMPLIANCE_FILE.read_text(encoding="utf-8") == render(), (
        "COMPLIANCE.md is stale: run `make compliance` and commit it"
    )
