"""The sectors a battle covers: a territory the storm divides can hold a battle on each side of it.

`battle.sectors` names them; absent, the battle covers the whole territory, or, when the storm
divides the territory and only one side holds forces of both combatants, that side. Which of the
loser's forces are lost when it has forces on the other side too is question
`storm-split-loser-losses`.
"""

from __future__ import annotations

from adjudicator.core.action import Context
from adjudicator.core.catalog import catalog
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.rules.richese import RICHESE, present_as_force, token_in

STORM_SPLIT_QUESTION = "storm-split-loser-losses"


def sector_groups(sectors: tuple[int, ...], storm: int) -> list[frozenset[int]]:
    """The territory's sectors outside the storm, in runs of neighbouring sectors (0 and 17 touch)."""
    free = [x for x in sectors if x != storm]
    groups: list[set[int]] = []
    for sector in free:
        joined = [g for g in groups if (sector - 1) % 18 in g or (sector + 1) % 18 in g]
        merged = {sector}.union(*joined) if joined else {sector}
        groups = [g for g in groups if g not in joined] + [merged]
    return [frozenset(g) for g in groups]


def combatant_sectors(snapshot: Snapshot, battle: Battle) -> dict[str, set[int]]:
    """The sectors of the battle's territory where each combatant has forces (Richese's face-down
    No-Field token counting as one)."""
    placed = {
        f: {
            s.sector
            for s in snapshot.forces
            if s.faction == f and s.territory == battle.territory and s.sector is not None
        }
        for f in (battle.aggressor, battle.defender)
    }
    token = token_in(snapshot, battle.territory)
    if token is not None and RICHESE in placed:
        sector = present_as_force(token)
        if sector is not None:
            placed[RICHESE].add(sector)
    return placed


def contested_sides(snapshot: Snapshot, battle: Battle) -> list[frozenset[int]] | None:
    """Where the storm divides the battle's territory: its sides holding forces of both combatants
    (in the catalog's sector order). None where the storm does not divide it."""
    territory = catalog().territories.get(battle.territory)
    storm = snapshot.storm_sector
    if territory is None or storm not in territory.sectors:
        return None
    groups = sector_groups(territory.sectors, storm)
    if len(groups) < 2:
        return None
    placed = combatant_sectors(snapshot, battle)
    both = [g for g in groups if g & placed[battle.aggressor] and g & placed[battle.defender]]
    return sorted(both, key=min)


def battle_sectors(snapshot: Snapshot) -> frozenset[int] | None:
    """The sectors the snapshot's battle covers, or None when it covers the whole territory: the named
    `sectors`; absent, the one side of a storm-divided territory that holds both combatants' forces."""
    battle = snapshot.battle
    if battle is None:
        return None
    key = ("battle-sectors",)
    if key in snapshot.memo:
        found: frozenset[int] | None = snapshot.memo[key]
        return found
    territory = catalog().territories.get(battle.territory)
    if battle.sectors is not None:
        found = frozenset(battle.sectors)
    else:
        sides = contested_sides(snapshot, battle)
        found = sides[0] if sides is not None and len(sides) == 1 else None
    if found is not None and territory is not None and found == frozenset(territory.sectors):
        found = None  # the whole territory
    snapshot.memo[key] = found
    return found


def in_battle(snapshot: Snapshot, territory: str, sector: int | None) -> bool:
    """Whether a place is part of the snapshot's battle (its territory, and its sectors if it covers
    only some)."""
    battle = snapshot.battle
    if battle is None or territory != battle.territory:
        return False
    sectors = battle_sectors(snapshot)
    return sectors is None or sector in sectors


@rule("battle.storm.one-side")
def battle_on_one_side(sectors: frozenset[int]) -> frozenset[int]:
    return sectors


def loser_loss_sectors(snapshot: Snapshot, loser: str, context: Context) -> frozenset[int] | None:
    """The sectors whose forces of `loser` are lost (None: the whole territory). Question
    `storm-split-loser-losses` is reached only when the battle covers part of the territory and the
    loser has forces outside it."""
    sectors = battle_sectors(snapshot)
    battle = snapshot.battle
    if sectors is None or battle is None:
        return None
    outside = any(
        s.faction == loser and s.territory == battle.territory and s.sector not in sectors for s in snapshot.forces
    )
    if not outside:
        return sectors
    return sectors if split_battle_losses(context.choice(STORM_SPLIT_QUESTION)) else None


@rule("battle.losses.storm-split")
def split_battle_losses(choice: str) -> bool:
    return choice == "battle-sectors"


DECLARED = RuleModule(implements={STORM_SPLIT_QUESTION: ("battle-sectors", "whole-territory")})
