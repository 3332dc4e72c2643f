"""The cleanup decision a Suk Graduate leaves to the winner under suk-graduate-saved-forces:
owner-chooses: `suk-graduate-forces`, where a winner whose Graduate saves some of its dialed losses, with
more than one way to save them, names the forces saved and the kind of the one that stays; the others
go to the Tanks. It opens on the resolution's `suk_rescue` record, the forces lost being public."""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import SukForcesDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.battle.outcome import winner_loses_dialed
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.ixians import suboid_swap_offered
from adjudicator.rules.skill_steps import forces_saved, owner_saves, saved_forces_options
from adjudicator.rules.state import NextSnapshot, finish


@ruled(answers(DecisionType.SUK_GRADUATE_FORCES.value))
def choose_saved_forces(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and battle.resolution is not None and battle.resolution.suk_rescue is not None
    record = battle.resolution.suk_rescue
    state = NextSnapshot(snapshot)
    territory, covered = battle.territory, battle_sectors(snapshot)
    regular, elite = int(action.fields["regular"]), int(action.fields["elite"])
    rescue = owner_saves(record, regular, elite, action.fields.get("staying"))
    elite_lost = winner_loses_dialed(
        state, record.owner, territory, record.regular - regular, record.elite - elite, covered
    )
    forces_saved(state, record.owner, territory, rescue, covered)
    state.clear_resolution("suk_rescue")
    state.step_done()
    if suboid_swap_offered(state, record.owner, territory, elite_lost):
        state.update_resolution(cyborgs_lost=elite_lost)
        state.schedule_step(DecisionType.SUBOID_SWAP.value)
    summary = {"saved_forces": {"faction": record.owner, "regular": regular, "elite": elite}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


def saved_forces_decision_options(snapshot: Snapshot, decision: Any) -> list[dict[str, Any]]:
    battle = snapshot.battle
    record = battle.resolution.suk_rescue if battle is not None and battle.resolution is not None else None
    if record is None:
        return []
    return [
        {
            "type": ActionType.CHOOSE_SAVED_FORCES.value,
            "player": decision.player,
            "regular": regular,
            "elite": elite,
            "staying": staying,
        }
        for regular, elite, staying in saved_forces_options(record)
    ]


def _saved_forces_decision(state: NextSnapshot) -> dict[str, Any]:
    winner = state.winner
    assert winner is not None  # only a winner's losses are saved
    return opened(winner, SukForcesDecision(territory=state.battle_territory))


DECLARED = RuleModule(
    handlers={ActionType.CHOOSE_SAVED_FORCES: choose_saved_forces},
    decisions={DecisionType.SUK_GRADUATE_FORCES.value: DecisionKind(saved_forces_decision_options)},
    steps={DecisionType.SUK_GRADUATE_FORCES.value: _saved_forces_decision},
)
