"""The `diplomat-retreat` cleanup decision: the side that lost with its Diplomat moves some of its
undialed forces to one of the listed places (`retreat-forces`) or declines (`decline-retreat`); the
forces it leaves in the battle's territory are then lost as the loser's always are. Options and checks
are in `rules/diplomat_retreat.py`."""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import RetreatDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.battle.outcome import loser_loses_everything
from adjudicator.rules.battle.sectors import battle_sectors, loser_loss_sectors
from adjudicator.rules.diplomat_retreat import retreat_again_offered, retreat_options, sandmaster_on_retreat
from adjudicator.rules.state import NextSnapshot, finish


def _losses_follow(snapshot: Snapshot, state: NextSnapshot, faction: str, context: Context) -> None:
    assert snapshot.battle is not None
    territory = snapshot.battle.territory
    loser_loses_everything(state, faction, territory, loser_loss_sectors(snapshot, faction, context))
    state.clear_resolution("retreat_left")
    state.step_done()


@ruled(answers(DecisionType.DIPLOMAT_RETREAT.value))
def retreat_forces(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and battle.resolution is not None and action.player is not None
    state = NextSnapshot(snapshot)
    faction = action.player
    regular, elite = int(action.fields["regular"]), int(action.fields["elite"])
    to = (str(action.fields["territory"]), action.fields.get("sector"))
    covered = battle_sectors(snapshot)
    state.move_forces(faction, battle.territory, regular, elite, covered, to)
    state.event(
        "forces-retreated",
        "skills.diplomat.retreat",
        faction=faction,
        territory=battle.territory,
        to={"territory": to[0], "sector": to[1]},
        regular=regular,
        elite=elite,
    )
    collected = sandmaster_on_retreat(snapshot, state, battle, faction, to, context)
    left = (battle.resolution.retreat_left or 0) - regular - elite
    if retreat_again_offered(snapshot, state, battle, faction, left, context):
        state.update_resolution(retreat_left=left)
    else:
        _losses_follow(snapshot, state, faction, context)
    retreat: dict[str, Any] = {"faction": faction, "to": to[0], "sector": to[1], "regular": regular, "elite": elite}
    if collected:
        retreat["spice"] = collected
    summary = {"retreat": retreat}
    return finish(snapshot, state, {"battle": summary}, trace, context)


@ruled(answers(DecisionType.DIPLOMAT_RETREAT.value))
def decline_retreat(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    state = NextSnapshot(snapshot)
    state.event("retreat-declined", "skills.diplomat.retreat", faction=action.player)
    _losses_follow(snapshot, state, action.player, context)
    summary = {"retreat": {"faction": action.player, "regular": 0, "elite": 0}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


def _retreat_decision(state: NextSnapshot) -> dict[str, Any]:
    record = state.resolution
    assert record.loser is not None and record.retreat_left is not None  # recorded with the step
    return opened(record.loser, RetreatDecision(territory=state.battle_territory, forces=record.retreat_left))


DECLARED = RuleModule(
    handlers={
        ActionType.RETREAT_FORCES: retreat_forces,
        ActionType.DECLINE_RETREAT: decline_retreat,
    },
    decisions={DecisionType.DIPLOMAT_RETREAT.value: DecisionKind(retreat_options)},
    steps={DecisionType.DIPLOMAT_RETREAT.value: _retreat_decision},
)
