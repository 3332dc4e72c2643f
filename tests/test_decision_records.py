"""The typed decision records: one per decision type, built from any wire the schema accepts."""

from __future__ import annotations

import pytest

from adjudicator.core.decisions import (
    DECISION_RECORDS,
    FaceDancerReveal,
    RetentionDecision,
    WinnerCardsDecision,
    opened,
)
from adjudicator.core.snapshot import Decision
from adjudicator.core.vocabulary import DecisionType


def test_every_decision_type_has_its_record() -> None:
    assert set(DECISION_RECORDS) == {t.value for t in DecisionType}
    assert all(kind.TYPE.value == name for name, kind in DECISION_RECORDS.items())


def test_odd_fields_stay_on_the_envelope_and_missing_ones_take_defaults() -> None:
    wire = {"type": "moritani-retention", "player": "atreides", "strength": 3, "eligible": ["lasgun"], "played": None}
    decision = Decision.from_dict(wire)
    assert decision.as_(RetentionDecision) == RetentionDecision(eligible=("lasgun",))
    assert decision.to_dict() == wire


def test_the_record_is_built_once_and_checked_against_the_type() -> None:
    decision = Decision.from_dict({"type": "face-dancer-reveal", "player": "tleilaxu", "leader": "feyd"})
    assert decision.as_(FaceDancerReveal) is decision.as_(FaceDancerReveal)
    with pytest.raises(TypeError):
        decision.as_(RetentionDecision)


def test_a_fresh_decision_writes_every_field_in_order() -> None:
    record = WinnerCardsDecision(territory="arrakeen", eligible=("lasgun", "shield"))
    wire = opened("atreides", record)
    assert list(wire) == ["type", "player", "territory", "eligible"]
    assert wire["eligible"] == ["lasgun", "shield"]
    assert Decision.from_dict(wire).as_(WinnerCardsDecision) == record
