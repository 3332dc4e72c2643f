"""The winner's cleanup decisions: which dialed forces it loses (`battle-casualties`) and which played
cards it keeps (`winner-cards`), each continuing from a saved snapshot without repeating anything."""

from __future__ import annotations

import itertools
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import CasualtiesDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.battle.outcome import WINNER_SLOTS, casualty_options, casualty_traits, lose_dialed
from adjudicator.rules.battle.plans import dialed_forces_of
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.ixians import suboid_swap_offered
from adjudicator.rules.state import NextSnapshot, finish


def _card_subsets(cards: list[str]) -> list[list[str]]:
    return [list(c) for n in range(len(cards), -1, -1) for c in itertools.combinations(cards, n)]


@ruled(answers(DecisionType.BATTLE_CASUALTIES.value))
def choose_casualties(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert snapshot.battle is not None and action.player is not None
    state = NextSnapshot(snapshot)
    regular, elite = int(action.fields["regular"]), int(action.fields["elite"])
    territory = snapshot.battle.territory
    owner = dialed_forces_of(snapshot, snapshot.battle, action.player)  # Ecaz's ally's, when Ecaz dialed them
    elite_lost, suk_rescue = lose_dialed(
        snapshot, state, action.player, territory, regular, elite, battle_sectors(snapshot), context
    )
    if snapshot.battle.resolution is not None and snapshot.battle.resolution.dialed_traits is not None:
        state.clear_resolution("dialed_traits")  # kept only while the casualties are to be chosen
    if state.resolution.cyborg_losses is not None:
        state.clear_resolution("cyborg_losses")
    state.step_done()
    if suk_rescue is not None:
        state.update_resolution(suk_rescue=suk_rescue)
        state.schedule_step(DecisionType.SUK_GRADUATE_FORCES.value)
    elif suboid_swap_offered(state, owner, territory, elite_lost):
        state.update_resolution(cyborgs_lost=elite_lost)
        state.schedule_step(DecisionType.SUBOID_SWAP.value)
    summary = {"casualties": {"faction": owner, "regular": regular, "elite": elite}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


@rule("battle.cards.winner-keeps-or-discards")
def keep_or_discard(state: NextSnapshot, winner: str, keep: list[str]) -> None:
    for slot in WINNER_SLOTS:
        if state.plan_card(winner, slot) is None:
            continue
        if state.plan_card(winner, slot) in keep:
            state.return_to_hand(winner, slot, "battle.cards.winner-keeps-or-discards")
        else:
            state.discard_from_plan(winner, slot, "battle.cards.winner-keeps-or-discards")


@ruled(answers(DecisionType.WINNER_CARDS.value))
def keep_cards(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    state = NextSnapshot(snapshot)
    keep = list(action.fields.get("cards") or [])
    keep_or_discard(state, action.player, keep)
    state.step_done()
    summary = {"cards": {"faction": action.player, "kept": keep}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


def casualty_decision_options(snapshot: Snapshot, decision: Any) -> list[dict[str, Any]]:
    assert snapshot.battle is not None
    reading = None if snapshot.battle.resolution is None else snapshot.battle.resolution.cyborg_losses
    return [
        {"type": ActionType.CHOOSE_CASUALTIES.value, "player": decision.player, **option}
        for option in casualty_options(
            snapshot, snapshot.battle, decision.player, casualty_traits(snapshot.battle), reading
        )
    ]


def winner_card_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    action, player = ActionType.KEEP_CARDS.value, decision.player
    return [
        {"type": action, "player": player, "cards": subset}
        # read raw: this is resolve-battle's hot path, where a record costs more than the listing
        for subset in _card_subsets(list(decision.fields.get("eligible") or ()))
    ]


def _casualties_decision(state: NextSnapshot) -> dict[str, Any]:
    winner = state.winner
    assert winner is not None
    return opened(winner, CasualtiesDecision(territory=state.battle_territory, strength=state.plan(winner).dial))


def _winner_cards_decision(state: NextSnapshot) -> dict[str, Any]:
    winner = state.winner
    assert winner is not None
    eligible = state.cards_in_plan(winner, WINNER_SLOTS)
    # written as a plain dict, key for key `WinnerCardsDecision`: resolve-battle opens it on its hot path
    return {
        "type": DecisionType.WINNER_CARDS.value,
        "player": winner,
        "territory": state.battle_territory,
        "eligible": eligible,
    }


DECLARED = RuleModule(
    handlers={
        ActionType.CHOOSE_CASUALTIES: choose_casualties,
        ActionType.KEEP_CARDS: keep_cards,
    },
    decisions={
        DecisionType.BATTLE_CASUALTIES.value: DecisionKind(casualty_decision_options),
        DecisionType.WINNER_CARDS.value: DecisionKind(winner_card_options, self_contained=True),
    },
    steps={
        DecisionType.BATTLE_CASUALTIES.value: _casualties_decision,
        DecisionType.WINNER_CARDS.value: _winner_cards_decision,
    },
)
