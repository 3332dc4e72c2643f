"""The cleanup decisions the New Treachery Cards leave to their player: `harass-withdrawal`, where a
side whose Harass and Withdraw leaves it more than one way to have made up its dial names the forces it
dialed (the others go back to its reserves, then the losses that wait on the choice follow: the loser's
remaining forces, the winner's dialed forces, or all of them in a Lasgun/Shield explosion; under
Occupy, Ecaz's forces with them as harass-and-withdraw-occupy reads), and
`reinforcements-forces`, where a side with regular and elite forces in reserve names the 3 that
Reinforcements sends to the Tanks. Both open on the revealed plans, the board and the reserves, public
facts."""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import ReinforcementsDecision, WithdrawalDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace
from adjudicator.core.vocabulary import ActionType, BattleResult, DecisionType
from adjudicator.rules.battle.card_effects import (
    HARASS_OCCUPY_QUESTION,
    names_dialed_forces,
    names_reserve_forces,
    partner_withdraws,
    pay_reinforcements,
    reinforcements_options,
    withdraw_chosen,
    withdraw_occupying_ecaz,
)
from adjudicator.rules.battle.occupy import occupy_side_loses, occupy_winner_losses
from adjudicator.rules.battle.outcome import (
    casualty_traits,
    explosion_destroys,
    lose_dialed,
    loser_loses_everything,
    withdrawal_options,
)
from adjudicator.rules.battle.plans import ECAZ, dialed_forces_of, occupy_partner
from adjudicator.rules.battle.sectors import battle_sectors, loser_loss_sectors
from adjudicator.rules.ixians import suboid_swap_offered
from adjudicator.rules.state import NextSnapshot, finish


@ruled(answers(DecisionType.HARASS_WITHDRAWAL.value))
def choose_withdrawal(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and battle.resolution is not None and action.player is not None
    state = NextSnapshot(snapshot)
    faction, resolution = action.player, battle.resolution
    regular, elite = int(action.fields["regular"]), int(action.fields["elite"])
    territory, covered = battle.territory, battle_sectors(snapshot)
    owner = dialed_forces_of(snapshot, battle, names_dialed_forces(faction))  # its ally's under Occupy
    withdraw_chosen(state, owner, territory, covered, regular, elite)
    occupied = occupy_partner(snapshot, battle, faction) is not None
    ecaz_withdraws = occupied and partner_withdraws(context.choice(HARASS_OCCUPY_QUESTION))
    if ecaz_withdraws:  # Ecaz's forces beside its ally's waited for the ally's choice
        withdraw_occupying_ecaz(state, territory, covered)
    if owner != faction:
        state.clear_resolution("dialed_traits")  # the options' reading, kept while the choice was to come
    if faction == resolution.winner:
        state.clear_resolution("cyborg_losses")
    if resolution.result == BattleResult.EXPLOSION:  # the forces that waited on the choice are destroyed
        for waiting in (owner, ECAZ) if occupied else (owner,):
            explosion_destroys(state, snapshot, battle, waiting, context)
    elif faction == resolution.loser:
        loser_loses_everything(state, faction, territory, loser_loss_sectors(snapshot, faction, context))
        partner = occupy_partner(snapshot, battle, faction)
        if partner is not None:  # the partner's forces waited with the loser's (outcome.apply_resolution)
            occupy_side_loses(state, partner, territory, loser_loss_sectors(snapshot, partner, context))
    elif faction == resolution.winner and resolution.result == BattleResult.DECIDED:
        elite_lost, suk_rescue = lose_dialed(snapshot, state, faction, territory, regular, elite, covered, context)
        if not ecaz_withdraws:
            occupy_winner_losses(state, snapshot, battle, faction, context)
        if suk_rescue is not None:
            state.update_resolution(suk_rescue=suk_rescue)
            state.schedule_step(DecisionType.SUK_GRADUATE_FORCES.value)
        elif suboid_swap_offered(state, owner, territory, elite_lost):
            state.update_resolution(cyborgs_lost=elite_lost)
            state.schedule_step(DecisionType.SUBOID_SWAP.value)
    state.clear_resolution("withdrawing")
    state.step_done()
    if resolution.reinforcing == faction:  # its Reinforcements waited for this choice
        if pay_reinforcements(state, snapshot, faction, context, after_withdrawal=True) is None:
            state.clear_resolution("reinforcing")
        else:
            state.schedule_step(DecisionType.REINFORCEMENTS_FORCES.value)
    summary = {"withdrawal": {"faction": faction, "regular": regular, "elite": elite}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


def withdrawal_decision_options(snapshot: Snapshot, decision: Any) -> list[dict[str, Any]]:
    """The ways listed under the readings the decision opened under, as the resolution keeps them."""
    battle = snapshot.battle
    assert battle is not None and battle.resolution is not None
    resolution = battle.resolution
    winner = resolution.winner if resolution.result == BattleResult.DECIDED else None
    ways = withdrawal_options(
        snapshot, battle, decision.player, winner, casualty_traits(battle), resolution.cyborg_losses
    )
    return [{"type": ActionType.CHOOSE_WITHDRAWAL.value, "player": decision.player, **option} for option in ways]


def _withdrawal_decision(state: NextSnapshot) -> dict[str, Any]:
    side = state.resolution.withdrawing
    assert side is not None  # recorded with the step (battle_resolved)
    return opened(side, WithdrawalDecision(territory=state.battle_territory))


@ruled(answers(DecisionType.REINFORCEMENTS_FORCES.value))
def choose_reinforcements(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    state = NextSnapshot(snapshot)
    faction = names_reserve_forces(action.player)
    regular, elite = int(action.fields["regular"]), int(action.fields["elite"])
    send_reinforcements(state, faction, regular, elite)
    state.clear_resolution("reinforcing")
    state.step_done()
    summary = {"reinforcements": {"faction": faction, "regular": regular, "elite": elite}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


def send_reinforcements(state: NextSnapshot, faction: str, regular: int, elite: int) -> None:
    state.reserves_to_tanks(faction, regular, elite, "battle.card.reinforcements")


def reinforcements_decision_options(snapshot: Snapshot, decision: Any) -> list[dict[str, Any]]:
    return [
        {"type": ActionType.CHOOSE_REINFORCEMENTS.value, "player": decision.player, **option}
        for option in reinforcements_options(snapshot, decision.player)
    ]


def _reinforcements_decision(state: NextSnapshot) -> dict[str, Any]:
    side = state.resolution.reinforcing
    assert side is not None  # recorded with the step (battle_resolved)
    return opened(side, ReinforcementsDecision(territory=state.battle_territory))


DECLARED = RuleModule(
    handlers={
        ActionType.CHOOSE_WITHDRAWAL: choose_withdrawal,
        ActionType.CHOOSE_REINFORCEMENTS: choose_reinforcements,
    },
    decisions={
        DecisionType.HARASS_WITHDRAWAL.value: DecisionKind(withdrawal_decision_options),
        DecisionType.REINFORCEMENTS_FORCES.value: DecisionKind(reinforcements_decision_options),
    },
    steps={
        DecisionType.HARASS_WITHDRAWAL.value: _withdrawal_decision,
        DecisionType.REINFORCEMENTS_FORCES.value: _reinforcements_decision,
    },
)
