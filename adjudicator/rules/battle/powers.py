"""The faction powers that act in a battle once its plans are made, and that a Karama may cancel.

Each is named by a stable power id; `battle.karama` records the ones cancelled in this battle
(`Battle.cancelled(power, target)`), and the rules that apply a power read that record. Whether a
power is in play in a battle is a public fact (factions, alliances, the ruleset, forces on the
board, the Kwisatz Haderach's state, whether the Auditor could fight), so listing them reveals
nobody's cards. The Voice and
Prescience are used before the plans and have their own windows. The Ixians' Cyborgs are (in the basic
game too); their Suboids are not: their half strength is a limit, not an advantage a Karama stops.
"""

from __future__ import annotations

from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.vocabulary import BattlePower, FactionId, LeaderStatus
from adjudicator.rules.battle.choam_share import choam_share_in_play
from adjudicator.rules.battle.plans import dialed_forces, ecaz_presence

__all__ = ["BattlePower", "powers_in_battle"]

AUDITOR = "auditor"


def auditor_may_fight(snapshot: Snapshot, choam: str, territory: str) -> bool:
    """Whether CHOAM's Auditor could lead this battle: alive, and not committed to another territory."""
    state = snapshot.factions[choam].leaders.get(AUDITOR)
    return (
        state is None
        or state.status is LeaderStatus.AVAILABLE
        or (state.status is LeaderStatus.USED and state.territory == territory)
    )


def powers_in_battle(snapshot: Snapshot, battle: Battle, traits: str) -> list[tuple[BattlePower, str]]:
    """The powers after the Voice and Prescience that may act in this battle, with whose they are,
    in a fixed order; those already cancelled are left out. Forces Ecaz dials as ordinary forces (as
    occupy-dialed-force-traits reads, `traits`) bring no power of their owner's."""
    found: list[tuple[BattlePower, str]] = []
    advanced = snapshot.ruleset.advanced
    for side in (battle.aggressor, battle.defender):
        dialed = dialed_forces(snapshot, battle, side, traits)  # Ecaz's ally's, when Ecaz fights with them
        owner, forces = dialed.traits_of, dialed.forces
        if advanced and owner == FactionId.EMPEROR and forces.elite:
            found.append((BattlePower.SARDAUKAR, owner))
        if owner == FactionId.IXIANS and forces.elite:
            found.append((BattlePower.CYBORGS, owner))
            if forces.regular:
                found.append((BattlePower.SUBOID_SWAP, owner))
        if advanced and owner == FactionId.FREMEN:
            if forces.elite:
                found.append((BattlePower.FEDAYKIN, owner))
            found.append((BattlePower.BATTLE_HARDENED, owner))
        token = snapshot.factions[side].kwisatz_haderach
        usable = token is not None and token.status == "active" and token.used_in in (None, battle.territory)
        if advanced and side == FactionId.ATREIDES and usable:
            found.append((BattlePower.KWISATZ_HADERACH, side))
        ally = snapshot.factions[side].ally
        if ally == FactionId.HARKONNEN and ally not in (battle.aggressor, battle.defender):
            found.append((BattlePower.ALLY_TRAITORS, FactionId.HARKONNEN.value))
        if advanced and side == FactionId.HARKONNEN:
            found.append((BattlePower.HARKONNEN_CAPTURE, side))
        if advanced and side == FactionId.CHOAM and auditor_may_fight(snapshot, side, battle.territory):
            found.append((BattlePower.CHOAM_AUDIT, side))
    if choam_share_in_play(snapshot, battle):  # CHOAM's, whether or not it fights
        found.append((BattlePower.CHOAM_SHARE, FactionId.CHOAM.value))
    if ecaz_presence(snapshot, battle) is not None:
        found.append((BattlePower.ECAZ_OCCUPY, FactionId.ECAZ.value))
    return [(power, owner) for power, owner in found if not battle.cancelled(power.value, owner)]
