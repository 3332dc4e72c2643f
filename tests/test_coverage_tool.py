"""`make coverage` (bench/coverage.py) on a small fixed sample: the generator makes only snapshots the
engine accepts, the driver finds no engine inconsistency in any ruleset, and its counts add up."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from adjudicator import load_snapshot
from adjudicator.core.results import Adjudication

SAMPLE = 15
SEED = 7


def _load_tool() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "coverage.py"
    spec = importlib.util.spec_from_file_location("bench_coverage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


tool = _load_tool()
NAMES = [rs.name for rs in tool.RULESETS]


@pytest.fixture(scope="module")
def reports() -> dict[str, Any]:
    return {rs.name: tool.run_ruleset(rs, SAMPLE, SEED) for rs in tool.RULESETS}


@pytest.mark.parametrize("name", NAMES)
def test_every_generated_snapshot_validates(name: str) -> None:
    ruleset = next(rs for rs in tool.RULESETS if rs.name == name)
    for i in range(SAMPLE):
        wire = tool.generate(ruleset, random.Random(f"{SEED}:{name}:{i}"))
        load_snapshot(wire)  # raises InvalidSnapshot on a generator defect
        assert tool.SNAPSHOT_SCHEMA.validate(wire) == {}
        assert 2 <= len(wire["factions"]) <= 6


@pytest.mark.parametrize("name", NAMES)
def test_no_ruleset_shows_an_inconsistency(reports: dict[str, Any], name: str) -> None:
    report = reports[name]
    assert sum(report.rejects.values()) == 0, report.rejects
    assert report.phases == SAMPLE
    # a refused listed option, an exception or an invalid next snapshot is an engine bug
    assert report.outcomes["inconsistent"] == 0, report.reproducers[:1]


@pytest.mark.parametrize("name", NAMES)
def test_classification_counts_add_up(reports: dict[str, Any], name: str) -> None:
    report = reports[name]
    body = report.to_dict()
    assert body["ruled"] + body["not_implemented"] + body["inconsistent"] == body["phases"]
    assert sum(report.reasons.values()) == body["not_implemented"] + body["inconsistent"]
    assert body["ruled_share"] == round(100 * body["ruled"] / body["phases"], 1)
    assert body["battles"] >= body["battles_opened_by_driver"] - body["not_implemented"] - body["inconsistent"]
    if name.startswith("base"):
        assert body["battles"] >= SAMPLE  # every base phase fights at least one battle
        assert body["decisions_answered"]["battle-plan"] >= 2 * body["battles"]


def test_the_same_seed_gives_the_same_report() -> None:
    ruleset = next(rs for rs in tool.RULESETS if rs.name == "ecaz-moritani")
    first = tool.run_ruleset(ruleset, 5, SEED).to_dict()
    again = tool.run_ruleset(ruleset, 5, SEED).to_dict()
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)


def test_reasons_are_normalised() -> None:
    message = "this engine version does not adjudicate the mentat leader skill in battle (gurney-halleck) yet"
    assert tool.reason_of(message) == "the {skill} leader skill in battle ({leader})"
    assert tool.reason_of("this engine version does not resolve 2 karama#3 in a battle yet") == (
        "{n} {card} in a battle"
    )


def test_a_refused_listed_option_counts_as_inconsistent(monkeypatch: pytest.MonkeyPatch) -> None:
    """The classifier itself: an engine that refuses every battle plan it lists is reported."""
    real = tool.adjudicate

    def refusing(snapshot: Any, action: Any, *args: Any, **kwargs: Any) -> Adjudication:
        answer = real(snapshot, action, *args, **kwargs)
        if action.type.value == "lock-battle-plan":
            return real(snapshot, tool.Action.from_dict({"type": "keep-cards", "player": action.player, "cards": []}))
        return answer

    monkeypatch.setattr(tool, "adjudicate", refusing)
    ruleset = next(rs for rs in tool.RULESETS if rs.name == "base-basic")
    report = tool.run_ruleset(ruleset, 3, SEED)
    assert report.outcomes["inconsistent"] == 3
    assert all(r.startswith("refused listed option lock-battle-plan") for r in report.inconsistent)


@pytest.mark.parametrize("name", ["base-basic", "base-advanced"])
def test_the_base_game_is_ruled_end_to_end(reports: dict[str, Any], name: str) -> None:
    assert reports[name].share == 100.0


@pytest.mark.parametrize("name", ["base-advanced", "all-expansions"])
def test_the_fallback_opens_a_battle_the_engine_would_list(name: str) -> None:
    """Where no battle choice opens, the driver opens the battle itself: its snapshot validates, the
    aggressor's plan decision lists options, and the battle is one the engine's battle choice lists."""
    ruleset = next(rs for rs in tool.RULESETS if rs.name == name)
    checked = 0
    for i in range(SAMPLE):
        wire = tool.generate(ruleset, random.Random(f"{SEED}:{name}:fallback:{i}"))
        # read so that Juice of Sapho, in play with CHOAM & Richese, leaves the phase to the battle choice
        readings = {"sapho-battle-order": "aggressor-only"}
        answer = tool.adjudicate(
            load_snapshot(wire), tool.Action.from_dict({"type": "end-shipment-movement"}), readings
        )
        opened = answer.to_dict()
        if opened["status"] != "resolved" or opened["next"]["decision"] is None:
            continue
        if opened["next"]["decision"]["type"] != "battle-choice":
            continue
        battle_phase = {**opened["outcome"]["snapshot"], "pending": None}
        following = tool.open_fallback_battle(battle_phase, random.Random(i))
        assert following is not None
        snapshot = load_snapshot(following)
        assert tool.list_options(snapshot).options, following["pending"]
        battle = following["battle"]
        listed = [(o["player"], o["territory"], o["opponent"], o["sectors"]) for o in opened["next"]["options"]]
        assert (battle["aggressor"], battle["territory"], battle["defender"], battle.get("sectors")) in listed
        checked += 1
    assert checked >= SAMPLE // 2


def test_random_readings_pick_implemented_choices() -> None:
    from adjudicator import rulebook

    readings = tool.random_readings(random.Random(SEED))
    assert readings
    assert all(rulebook().is_implemented(question, choice) for question, choice in readings.items())
