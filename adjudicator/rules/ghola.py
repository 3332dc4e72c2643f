"""The advanced Tleilaxu's foreign gholas.

A leader of another faction the Tleilaxu revived as a ghola keeps its entry under its own faction's
`leaders`, marked `ghola`: it serves the Tleilaxu, who may put it in a plan as one of their own, and
its own faction may not. It fights with its printed strength, its Traitor card (whoever holds it) works
against it, it has no leader skill (the snapshot checks), and the Harkonnen do not draw it from its
own faction's leaders; beating the Tleilaxu, they draw it from the Tleilaxu's (question
ghola-harkonnen-capture), and a captive ghola keeps its mark, so it returns to the Tleilaxu. Killed, in
a battle or as a captive, it goes to the Tanks (question ghola-death): as its own faction's leader, or
still marked, the Tleilaxu's to revive again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from adjudicator.core.catalog import catalog
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import LeaderState, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import DUKE, FactionId, LeaderStatus

TLEILAXU = FactionId.TLEILAXU.value
DEATH_QUESTION = "ghola-death"
OWN_FACTION = "own-faction"
STAYS_GHOLA = "stays-ghola"
CAPTURE_QUESTION = "ghola-harkonnen-capture"
IN_DRAW = "in-draw"
NOT_IN_DRAW = "not-in-draw"


@rule("tleilaxu.ghola.fights")
def ghola_fights(state: LeaderState, territory: str) -> bool:
    return state.status is LeaderStatus.AVAILABLE or (
        state.status is LeaderStatus.USED and state.territory == territory
    )


def is_ghola(snapshot: Snapshot, leader_id: str | None) -> bool:
    if leader_id is None or leader_id == DUKE or leader_id not in catalog().leaders:
        return False
    native = snapshot.factions.get(catalog().leaders[leader_id].faction)
    entry = native.leaders.get(leader_id) if native is not None else None
    return entry is not None and entry.ghola


@rule("tleilaxu.ghola.death")
def ghola_dies(choice: str) -> bool:
    return choice == STAYS_GHOLA


def holds_gholas(snapshot: Snapshot) -> bool:
    return any(entry.ghola for faction in snapshot.factions.values() for entry in faction.leaders.values())


def gholas_at_hand(factions: Iterable[tuple[str, Mapping[str, LeaderState]]], territory: str) -> tuple[str, ...]:
    """The gholas serving the Tleilaxu that could lead in this territory (alive, not captive, not used
    elsewhere), in catalog order; `factions`: each faction's leader states."""
    states = {faction: leaders for faction, leaders in factions}
    found = []
    for leader in catalog().leaders.values():
        entry = states.get(leader.faction, {}).get(leader.id)
        if (
            entry is not None
            and entry.ghola
            and (
                entry.status is LeaderStatus.AVAILABLE
                or (entry.status is LeaderStatus.USED and entry.territory == territory)
            )
        ):
            found.append(leader.id)
    return tuple(found)


@rule("tleilaxu.ghola.capture")
def gholas_in_capture_draw(choice: str) -> bool:
    return choice == IN_DRAW


DECLARED = RuleModule(
    implements={
        DEATH_QUESTION: (OWN_FACTION, STAYS_GHOLA),
        CAPTURE_QUESTION: (IN_DRAW, NOT_IN_DRAW),
    }
)
