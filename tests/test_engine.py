"""The engine as a library: snapshot round trip, dispatcher, options, determinism."""

from __future__ import annotations

import dataclasses
import json
from types import MappingProxyType
from typing import Any

import pytest

from adjudicator import Action, InvalidSnapshot, adjudicate, engine, list_options, load_snapshot, registers, rulebook
from adjudicator.core.action import Context, Handler
from adjudicator.core.errors import InvalidRequest
from adjudicator.core.snapshot import Snapshot, halves_to_number
from adjudicator.core.vocabulary import ActionType, Evidence, RulingStatus

from .conftest import base_snapshot

registers()  # loads every rule module, so the handlers are registered


def test_a_complete_snapshot_round_trips_unchanged() -> None:
    raw = base_snapshot("three-factions")
    assert Snapshot.from_dict(raw).to_dict() == raw


@pytest.mark.parametrize("name", ["three-factions", "locked-battle", "retention-pending"])
def test_the_wire_form_is_a_fixed_point(name: str) -> None:
    # Omitted optional fields come back with their defaults; after that nothing changes.
    wire = Snapshot.from_dict(base_snapshot(name)).to_dict()
    assert Snapshot.from_dict(wire).to_dict() == wire


def test_half_points_are_reported_in_strength_units() -> None:
    assert halves_to_number(11) == 5.5
    assert halves_to_number(10) == 5 and isinstance(halves_to_number(10), int)
    raw = base_snapshot("locked-battle")
    raw["battle"]["plans"]["atreides"]["dial"] = 2.5
    snapshot = Snapshot.from_dict(raw)
    assert snapshot.battle is not None and snapshot.battle.plans["atreides"].dial_halves == 5
    assert snapshot.to_dict()["battle"]["plans"]["atreides"]["dial"] == 2.5


def test_inconsistent_snapshot_raises_with_every_problem() -> None:
    raw = base_snapshot("three-factions")
    raw["factions"]["harkonnen"]["hand"].append("karama")
    raw["storm_order"] = ["atreides"]
    with pytest.raises(InvalidSnapshot) as caught:
        load_snapshot(raw)
    assert {(p.code, p.path) for p in caught.value.problems} == {
        ("card-in-two-places", "/snapshot/factions/harkonnen/hand/3"),
        ("storm-order-mismatch", "/snapshot/storm_order"),
    }


def _use_handlers(monkeypatch: pytest.MonkeyPatch, handlers: dict[ActionType, Handler]) -> None:
    """Rule with a rulebook whose handlers are replaced (the engine takes its handlers from it)."""
    changed = dataclasses.replace(rulebook(), handlers=MappingProxyType(handlers))
    monkeypatch.setattr(engine, "rulebook", lambda: changed)


def test_every_action_type_has_a_handler() -> None:
    assert [a.value for a in ActionType if a not in rulebook().handlers] == []


def test_an_action_without_a_handler_is_answered_not_implemented(monkeypatch: pytest.MonkeyPatch) -> None:
    # no action type lacks a handler today; the answer for one that does (a future vocabulary entry)
    # is checked by taking one handler away
    _use_handlers(monkeypatch, {k: v for k, v in rulebook().handlers.items() if k is not ActionType.END_TURN})
    snapshot = load_snapshot(base_snapshot("three-factions"))
    ruling = adjudicate(snapshot, Action(ActionType.END_TURN, "atreides"))
    assert ruling.status is RulingStatus.ILLEGAL
    assert [(v.code, v.path) for v in ruling.violations] == [("not-implemented", "/action/type")]
    wire = ruling.to_dict()
    assert set(wire) == {
        "status",
        "evidence",
        "outcome",
        "next",
        "violations",
        "rulings",
        "citations",
        "alternatives",
        "provenance",
    }


def test_unknown_player_is_a_request_error() -> None:
    snapshot = load_snapshot(base_snapshot("three-factions"))
    with pytest.raises(InvalidRequest) as caught:
        adjudicate(snapshot, Action(ActionType.PAY_EXTORTION, "fremen"))
    assert [p.path for p in caught.value.problems] == ["/action/player"]


def test_retention_options_are_the_eligible_cards_then_decline() -> None:
    options = list_options(load_snapshot(base_snapshot("retention-pending")), "atreides")
    assert [o["card"] for o in options.options] == ["crysknife", "shield#2", None]
    assert [r.rule for r in options.rulings] == ["moritani.retention.choose-one-or-none"]
    assert options.to_dict()["evidence"] == Evidence.PRINTED_RULE.value


def test_no_pending_decision_means_no_options_and_no_rulings() -> None:
    options = list_options(load_snapshot(base_snapshot("three-factions")))
    assert options.decision is None and options.options == () and options.rulings == ()


def test_same_request_same_answer() -> None:
    def answer() -> str:
        snapshot = load_snapshot(base_snapshot("retention-pending"))
        ruling = adjudicate(snapshot, Action(ActionType.RESOLVE_BATTLE), {"extortion-mentat-order": "recovery-first"})
        return json.dumps(ruling.to_dict(), sort_keys=True)

    assert answer() == answer()


def test_results_are_frozen() -> None:
    snapshot = load_snapshot(base_snapshot("three-factions"))
    ruling = adjudicate(snapshot, Action(ActionType.RESOLVE_BATTLE))
    with pytest.raises(AttributeError):
        ruling.status = RulingStatus.RESOLVED  # type: ignore[misc]
    state: Any = snapshot.factions["atreides"]
    with pytest.raises(AttributeError):
        state.spice = 99


def test_a_viewer_gets_every_next_snapshot_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a handler returns, a ruling requested with a viewer hides other factions' cards."""
    from adjudicator.core.results import Adjudication, Alternative, NextStep, Provenance

    def handler(snapshot: Snapshot, action: Action, context: Context) -> Adjudication:
        outcome = {"summary": {}, "events": [], "snapshot": snapshot.to_dict()}
        alternative = Alternative({"extortion-mentat-order": "placement-first"}, outcome, Evidence.PROVISIONAL_ORDERING)
        return Adjudication(RulingStatus.RESOLVED, outcome, NextStep(None, ()), (), (), (alternative,), Provenance())

    _use_handlers(monkeypatch, {**rulebook().handlers, ActionType.END_SHIPMENT_MOVEMENT: handler})
    snapshot = load_snapshot(base_snapshot("three-factions"))
    seen = adjudicate(snapshot, Action(ActionType.END_SHIPMENT_MOVEMENT, "moritani"), viewer="moritani").to_dict()
    for next_snapshot in (seen["outcome"]["snapshot"], seen["alternatives"][0]["outcome"]["snapshot"]):
        assert next_snapshot["factions"]["harkonnen"]["hand"] is None
        assert next_snapshot["factions"]["moritani"]["hand"] == ["snooper", "chaumas"]
        assert next_snapshot["seed"] is None
    assert "secrecy.hands-and-traitors" in [r["rule"] for r in seen["rulings"]]
    # the handler built its provenance without the digest: the engine stamps the ruling rulebook's
    assert seen["provenance"]["rules_digest"] == rulebook().digest
    referee = adjudicate(snapshot, Action(ActionType.END_SHIPMENT_MOVEMENT, "moritani")).to_dict()
    assert referee["outcome"]["snapshot"]["factions"]["harkonnen"]["hand"] == ["lasgun", "shield#1", "baliset"]
