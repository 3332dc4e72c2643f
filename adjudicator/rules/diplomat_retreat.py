"""The Diplomat fought with (CHOAM & Richese p.9; the Diplomat card's lower band): when its side loses,
some of the side's undialed forces retreat instead of going to the Tanks.

The side's losses wait on its `diplomat-retreat` decision, which opens after the reveal on public
facts (the plans, the board, the storm): the places a retreat may go and the (regular, elite) counts
that may go there are listed as options, a decline among them. The forces that stay are lost when the
decision is answered, as the loser's forces always are. `retreat_left` in the battle's resolution
keeps the count the side may still move while the step remains (question diplomat-retreat-split may
let it retreat again, elsewhere, while a move is left). A Richese Diplomat beside its No-Field token
retreats on the board the token's reveal made; a face-up Sandmaster of the retreating side may collect
where the forces arrive (question diplomat-retreat-sandmaster).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from adjudicator.core.action import Context
from adjudicator.core.catalog import Place, catalog
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import ActionType, FactionId
from adjudicator.rules.battle.card_effects import dialed_sets, harass_in_effect
from adjudicator.rules.battle.plans import ALLY_TRAITS, dialed_forces_of
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.skill_steps import leader_killed
from adjudicator.rules.skills import battle_effect_applies, face_up_skills, selected_skill, skills_on
from adjudicator.rules.state import NextSnapshot

DIPLOMAT = "diplomat"
RICHESE = FactionId.RICHESE.value
SANDMASTER = "sandmaster"
SANDMASTER_RETREAT_SPICE = 1
SANDMASTER_QUESTION = "diplomat-retreat-sandmaster"
KILLED_QUESTION = "diplomat-retreat-leader-killed"
SPLIT_QUESTION = "diplomat-retreat-split"


def _sources(territory: str, covered: frozenset[int] | None, storm: int) -> list[Place]:
    """The battle's places a retreat leaves from: its sectors (those it covers) outside the storm."""
    sectors = catalog().territories[territory].sectors
    if not sectors:
        return [(territory, None)]
    return [(territory, s) for s in sectors if s != storm and (covered is None or s in covered)]


@rule("skills.diplomat.retreat-destinations")
def retreat_destinations(
    territory: str, covered: frozenset[int] | None, storm: int, occupied: Iterable[str]
) -> list[Place]:
    borders = catalog().borders
    territories = catalog().territories
    taken = set(occupied)
    entries: dict[str, set[Place]] = {}
    for source in _sources(territory, covered, storm):
        for place in borders.get(source, ()):
            other = territories[place[0]]
            if place[0] == territory or place[1] == storm or other.is_stronghold or other.id in taken:
                continue
            entries.setdefault(place[0], set()).add(place)
    found: list[Place] = []
    for name in sorted(entries):
        # from the sectors entered, the territory's other sectors outside the storm
        reached, queue = set(entries[name]), deque(entries[name])
        while queue:
            for place in borders.get(queue.popleft(), ()):
                if place[0] == name and place[1] != storm and place not in reached:
                    reached.add(place)
                    queue.append(place)
        found += sorted(reached, key=lambda p: -1 if p[1] is None else p[1])
    return found


def _occupied(snapshot: Snapshot) -> set[str]:
    held = {s.territory for s in snapshot.forces if s.regular + s.elite > 0}
    held |= {a.territory for a in snapshot.advisors if a.count > 0}
    if snapshot.no_field is not None:
        held.add(snapshot.no_field.territory)
    return held


def _places(snapshot: Snapshot, battle: Battle) -> list[Place]:
    return retreat_destinations(battle.territory, battle_sectors(snapshot), snapshot.storm_sector, _occupied(snapshot))


def _own_forces(snapshot: Snapshot, battle: Battle, faction: str) -> tuple[int, int]:
    """The side's own (regular, elite) forces on the board in the battle's sectors."""
    covered = battle_sectors(snapshot)
    stacks = [
        s
        for s in snapshot.forces
        if s.faction == faction and s.territory == battle.territory and (covered is None or s.sector in covered)
    ]
    return sum(s.regular for s in stacks), sum(s.elite for s in stacks)


def ally_dialed(snapshot: Snapshot, battle: Battle, faction: str) -> bool:
    """Whether the side dialed its ally's forces (Ecaz under Occupy; once the battle is resolved and
    the ally's forces are gone, as its resolution keeps the side Occupied)."""
    return dialed_forces_of(snapshot, battle, faction) != faction


@rule("skills.diplomat.retreat")
def retreat_moves(snapshot: Snapshot, battle: Battle, faction: str, most: int) -> list[tuple[int, int]]:
    regular, elite = _own_forces(snapshot, battle, faction)
    # Ecaz fighting beside its ally under Occupy dials the ally's forces: none of its own were dialed
    dialed = (
        [{"regular": 0, "elite": 0}]
        if ally_dialed(snapshot, battle, faction)
        else dialed_sets(snapshot, battle, faction, ALLY_TRAITS)  # its own forces: no reading changes them
    )
    return [
        (r, e)
        for r in range(regular + 1)
        for e in range(elite + 1)
        if 0 < r + e <= most and any(d["regular"] <= regular - r and d["elite"] <= elite - e for d in dialed)
    ]


@rule("skills.diplomat.retreat-leader-killed")
def retreats_when_killed(choice: str) -> bool:
    return choice == "retreats-when-killed"


@rule("skills.diplomat.retreat-split")
def retreat_again(choice: str) -> bool:
    return choice == "may-split"


def retreat_offer(snapshot: Snapshot, state: NextSnapshot, battle: Battle, loser: str, context: Context) -> int:
    """How many forces the loser, fighting with a Diplomat, may retreat (0: no retreat is offered, and
    its forces are lost as usual)."""
    plan = battle.plans[loser]
    if not skills_on(snapshot) or plan.leader is None or selected_skill(snapshot, plan) != DIPLOMAT:
        return 0
    if leader_killed(state, plan.leader):
        if not retreats_when_killed(context.choice(KILLED_QUESTION)):
            battle_effect_applies(False)
            return 0
    else:
        battle_effect_applies(True)
    if harass_in_effect(battle, loser):
        return 0  # Harass and Withdraw took the undialed forces back to the reserves
    strength = catalog().leaders[plan.leader].strength or 0
    moves = retreat_moves(snapshot, battle, loser, strength)
    places = _places(snapshot, battle)
    if not moves or not places:
        state.event("retreat-unavailable", "skills.diplomat.retreat", faction=loser, leader=plan.leader)
        return 0
    return max(r + e for r, e in moves)


def retreat_options(snapshot: Snapshot, decision: Any) -> list[dict[str, Any]]:
    battle = snapshot.battle
    assert battle is not None
    most = int(decision.fields.get("forces") or 0)
    player = decision.player
    places = _places(snapshot, battle)
    options = [
        {
            "type": ActionType.RETREAT_FORCES.value,
            "player": player,
            "territory": territory,
            "sector": sector,
            "regular": regular,
            "elite": elite,
        }
        for territory, sector in places
        for regular, elite in retreat_moves(snapshot, battle, player, most)
    ]
    return [*options, {"type": ActionType.DECLINE_RETREAT.value, "player": player}]


def retreat_again_offered(
    snapshot: Snapshot, state: NextSnapshot, battle: Battle, faction: str, left: int, context: Context
) -> bool:
    """After a retreat, whether the side may retreat more of its forces elsewhere."""
    if left <= 0 or not retreat_again(context.choice(SPLIT_QUESTION)):
        return False
    covered = battle_sectors(snapshot)
    places = retreat_destinations(battle.territory, covered, snapshot.storm_sector, state.occupied_territories())
    # the (regular, elite) moves still open on the board as it now stands: a count of forces alone
    # may leave only the decline (the dial made up of the kinds that stayed)
    return bool(places) and bool(retreat_moves(state.as_snapshot(), battle, faction, left))


# --- a face-up Sandmaster of the retreating side ----------------------------------------------------


@rule("skills.sandmaster.face-up-retreat")
def sandmaster_collects_on_retreat(choice: str) -> bool:
    return choice == "collects"


def sandmaster_on_retreat(
    snapshot: Snapshot, state: NextSnapshot, battle: Battle, faction: str, to: Place, context: Context
) -> int:
    """A face-up Sandmaster of the side whose forces retreated into a territory holding spice: the spice
    the side collected there (1, or 0)."""
    fighting = battle.plans[faction].leader if faction in battle.plans else None
    sandmaster = face_up_skills(snapshot, faction, fighting).get(SANDMASTER)
    piles = [p for p in state.board_spice if p.territory == to[0] and p.amount > 0]
    if sandmaster is None or not piles:
        return 0
    if not sandmaster_collects_on_retreat(context.choice(SANDMASTER_QUESTION)):
        return 0
    # the pile in the sector entered, else the territory's first pile in sector order
    pile = next((p for p in piles if p.sector == to[1]), None) or min(
        piles, key=lambda p: -1 if p.sector is None else p.sector
    )
    state.take_from_pile(pile.territory, pile.sector, SANDMASTER_RETREAT_SPICE)
    state.gain_spice(faction, SANDMASTER_RETREAT_SPICE)
    state.event(
        "spice-collected",
        "skills.sandmaster.face-up-retreat",
        faction=faction,
        leader=sandmaster,
        territory=pile.territory,
        sector=pile.sector,
        amount=SANDMASTER_RETREAT_SPICE,
    )
    return SANDMASTER_RETREAT_SPICE


# --- a Richese Diplomat beside its No-Field token ---------------------------------------------------


@rule("skills.diplomat.retreat-no-field")
def no_field_forces_may_retreat(snapshot: Snapshot, battle: Battle) -> None:
    pass


def retreat_beside_no_field(snapshot: Snapshot, battle: Battle, revealed: bool) -> None:
    """Called as a No-Field token in the battle is revealed: a Richese Diplomat's retreat counts the
    forces the token was replaced with (they are on the board the battle is resolved on)."""
    plan = battle.plans.get(RICHESE)
    if revealed and plan is not None and plan.leader is not None and selected_skill(snapshot, plan) == DIPLOMAT:
        no_field_forces_may_retreat(snapshot, battle)


DECLARED = RuleModule(
    implements={
        KILLED_QUESTION: ("survivor-only", "retreats-when-killed"),
        SPLIT_QUESTION: ("one-territory", "may-split"),
        SANDMASTER_QUESTION: ("collects", "no-collection"),
    },
)
