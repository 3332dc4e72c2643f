"""Ecaz Occupy in a battle: Ecaz or its ally fights while the other's forces share the battle's sectors.

The side's dial is made of the ally's forces whichever of the two fights (when Ecaz fights, its plan
dials them: `plans.dialed_forces_of`); the part of Ecaz's forces that Occupy adds comes on top of
that dial in the side's total, free of support spice. The fighting faction's plan gives the leader,
cards and support spice. Occupy is a power a Karama may cancel before the plans (`ecaz-occupy`):
whichever of the two fights then fights with its own forces only, and the other's forces take no part.
Whether a side is Occupied, and by whom, is read from the board until the battle resolves and is then
kept on its resolution (`plans.occupy_partner`), so Occupy's own losses change nothing a cleanup step
reads of it.

Which of the two fights is Ecaz's choice, whoever chose the battle: the battle's first step before
the plans (`occupy-fighter`) asks Ecaz, and the faction it names takes the pair's side. The aggressor
is then settled as question occupy-fighter-aggressor reads (by default, the first of the fighter and
its opponent in storm order).
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import OccupyFighterDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Battle, Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.battle.aggressors import aggressor_rank
from adjudicator.rules.battle.plans import (
    ALLY_TRAITS,
    ECAZ,
    ORDINARY_FORCES,
    TRAITS_QUESTION,
    ecaz_presence,
    forces_in,
    occupy_partner,
)
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.state import NextSnapshot, finish

FIGHTER_STEP = DecisionType.OCCUPY_FIGHTER.value
AGGRESSOR_QUESTION = "occupy-fighter-aggressor"
ROUNDING_QUESTION = "occupy-rounding"
TRAITOR_WIN_QUESTION = "occupy-traitor-win"
QuoteLine = tuple[int, dict[str, Any]]  # half-points, and the line as the answer shows it


@rule("ecaz.occupy.fighter")
def fighters_of(pair: tuple[str, str]) -> tuple[str, str]:
    return pair


def fighter_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: Ecaz's choice of the Occupy side's fighter, where Ecaz and its ally both have
    forces in the battle's sectors and one of them is a side (None otherwise: the step is skipped)."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    if battle is None:
        return None
    pair = ecaz_presence(snapshot, battle)
    if pair is None:
        return None
    opponent = battle.defender if battle.aggressor in pair else battle.aggressor
    decision = OccupyFighterDecision(territory=battle.territory, opponent=opponent, fighters=fighters_of(pair))
    return opened(ECAZ, decision)


def fighter_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    return [
        {"type": ActionType.CHOOSE_OCCUPY_FIGHTER.value, "player": decision.player, "fighter": fighter}
        for fighter in decision.as_(OccupyFighterDecision).fighters
    ]


@rule("ecaz.occupy.fighter-aggressor")
def occupy_sides(snapshot: Snapshot, battle: Battle, fighter: str, opponent: str, choice: str) -> tuple[str, str]:
    if choice == "fighter-takes-role":
        return (opponent, fighter) if battle.aggressor == opponent else (fighter, opponent)
    rank = aggressor_rank(snapshot)  # storm order, or the order Juice of Sapho set for the phase
    first = min((fighter, opponent), key=lambda f: (rank.get(f, len(rank)), f))
    return (fighter, opponent) if first == fighter else (opponent, fighter)


@ruled(answers(FIGHTER_STEP))
def choose_fighter(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert snapshot.pending is not None and battle is not None
    window = snapshot.pending.as_(OccupyFighterDecision)
    pair = fighters_of((ECAZ, snapshot.factions[ECAZ].ally or ECAZ))
    opponent = window.opponent or (battle.defender if battle.aggressor in pair else battle.aggressor)
    fighter = str(action.fields["fighter"])
    aggressor, defender = occupy_sides(snapshot, battle, fighter, opponent, context.choice(AGGRESSOR_QUESTION))
    state = NextSnapshot(snapshot)
    state.set_sides(aggressor, defender)
    state.event("occupy-fighter-chosen", "ecaz.occupy.fighter", fighter=fighter, aggressor=aggressor, defender=defender)
    state.prelude_done(FIGHTER_STEP)
    summary = {"occupy_fighter": {"fighter": fighter, "aggressor": aggressor, "defender": defender}}
    return finish(snapshot, state, summary, trace, context)


@rule("ecaz.occupy.added-forces")
def occupy_added(ecaz_forces: int, choice: str) -> int:
    return ecaz_forces // 2 if choice == "add-down-keep-up" else (ecaz_forces + 1) // 2


@rule("ecaz.occupy.winner-losses")
def occupy_lost_on_win(ecaz_forces: int, choice: str) -> int:
    kept = ecaz_forces // 2 if choice == "add-up-keep-down" else (ecaz_forces + 1) // 2
    return ecaz_forces - kept


@rule("ecaz.occupy.side-loses")
def occupy_side_loses(state: NextSnapshot, partner: str, territory: str, sectors: frozenset[int] | None) -> None:
    state.forces_to_tanks(partner, territory, "ecaz.occupy.side-loses", sectors=sectors)


@rule("ecaz.occupy.traitor-win")
def occupy_traitor_win_costs_half(choice: str) -> bool:
    return choice == "half-stays"


def occupy_lines(snapshot: Snapshot, battle: Battle, side: str, context: Context) -> list[QuoteLine]:
    """The strength line Occupy adds to the ally's total (none outside an Occupy battle)."""
    if occupy_partner(snapshot, battle, side) is None:
        return []
    added = occupy_added(forces_in(snapshot, ECAZ, battle.territory).total, context.choice(ROUNDING_QUESTION))
    line = {"part": "ecaz-occupy", "faction": ECAZ, "value": added, "rule": "ecaz.occupy.added-forces"}
    return [(2 * added, line)]


def occupy_winner_losses(
    state: NextSnapshot, snapshot: Snapshot, battle: Battle, winner: str, context: Context, by_traitor: bool = False
) -> None:
    """Ecaz's forces on a winning Occupy side (Ecaz's or its ally's plan): the part Occupy does not
    keep goes to the Tanks (after a win by traitor call, as question occupy-traitor-win reads)."""
    if occupy_partner(snapshot, battle, winner) is None:
        return
    if by_traitor and not occupy_traitor_win_costs_half(context.choice(TRAITOR_WIN_QUESTION)):
        return
    present = forces_in(snapshot, ECAZ, battle.territory).total
    lost = occupy_lost_on_win(present, context.choice(ROUNDING_QUESTION))
    if lost:
        state.forces_to_tanks(
            ECAZ,
            battle.territory,
            "ecaz.occupy.winner-losses",
            regular=lost,
            elite=0,
            sectors=battle_sectors(snapshot),
        )


def occupy_loser_losses(
    state: NextSnapshot, snapshot: Snapshot, battle: Battle, loser: str, sectors: frozenset[int] | None
) -> None:
    """The partner's forces on a losing Occupy side go to the Tanks with the fighter's."""
    partner = occupy_partner(snapshot, battle, loser)
    if partner is not None:
        occupy_side_loses(state, partner, battle.territory, sectors)


DECLARED = RuleModule(
    handlers={ActionType.CHOOSE_OCCUPY_FIGHTER: choose_fighter},
    decisions={FIGHTER_STEP: DecisionKind(fighter_options, self_contained=True)},
    steps={FIGHTER_STEP: fighter_step},
    implements={
        AGGRESSOR_QUESTION: ("fighter-storm-order", "fighter-takes-role"),
        ROUNDING_QUESTION: ("add-up-keep-down", "add-up-keep-up", "add-down-keep-up"),
        TRAITOR_WIN_QUESTION: ("ecaz-keeps-all", "half-stays"),
        TRAITS_QUESTION: (ALLY_TRAITS, ORDINARY_FORCES),
    },
)
