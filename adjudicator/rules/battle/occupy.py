"""Ecaz Occupy in a battle: Ecaz or its ally fights while the other's forces share the battle's sectors.

The side's dial is made of the ally's forces whichever of the two fights (when Ecaz fights, its plan
dials them: `plans.dialed_forces_of`); the part of Ecaz's forces that Occupy adds comes on top of
that dial in the side's total, free of support spice. The fighting faction's plan gives the leader,
cards and support spice. Occupy is a power a Karama may cancel before the plans (`ecaz-occupy`):
whichever of the two fights then fights with its own forces only, and the other's forces take no part.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Context
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import BattlePower, FactionId
from adjudicator.rules.battle.plans import forces_in
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.state import NextSnapshot

ECAZ = FactionId.ECAZ.value
ROUNDING_QUESTION = "occupy-rounding"
TRAITOR_WIN_QUESTION = "occupy-traitor-win"
QuoteLine = tuple[int, dict[str, Any]]  # half-points, and the line as the answer shows it


def ecaz_presence(snapshot: Snapshot, battle: Battle) -> tuple[str, str] | None:
    """(Ecaz, its ally) when both have forces in the battle's sectors and one of them fights."""
    ecaz = snapshot.factions.get(ECAZ)
    if ecaz is None or ecaz.ally is None:
        return None
    pair = (ECAZ, ecaz.ally)
    if not {battle.aggressor, battle.defender} & set(pair):
        return None
    if all(forces_in(snapshot, f, battle.territory).total for f in pair):
        return pair
    return None


@rule("battle.karama.ecaz-occupy")
def occupy_cancelled() -> None:
    pass


def occupy_stands(battle: Battle) -> bool:
    """False once a Karama cancelled Occupy in this battle (each side then fights with its own forces)."""
    if battle.cancelled(BattlePower.ECAZ_OCCUPY.value, ECAZ):
        occupy_cancelled()
        return False
    return True


def occupy_partner(snapshot: Snapshot, battle: Battle, side: str) -> str | None:
    """The other faction of Ecaz's alliance (Ecaz, or its ally when Ecaz fights), when Occupy joins
    the two on the fighting `side` in this battle."""
    pair = ecaz_presence(snapshot, battle)
    if pair is None or side not in pair:
        return None
    if not occupy_stands(battle):
        return None
    return pair[1] if side == ECAZ else ECAZ


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
    implements={
        ROUNDING_QUESTION: ("add-up-keep-down", "add-up-keep-up", "add-down-keep-up"),
        TRAITOR_WIN_QUESTION: ("ecaz-keeps-all", "half-stays"),
        "occupy-dialed-force-traits": ("ally-traits",),
    },
)
