"""The advanced Tleilaxu's foreign gholas in battle.

A leader of another faction the Tleilaxu revived as a ghola keeps its entry under its own faction's
`leaders`, marked `ghola`: it serves the Tleilaxu, who may put it in a plan as one of their own, and
its own faction may not. It fights with its printed strength, its Traitor card (whoever holds it) works
against it, it has no leader skill (the snapshot checks), and the Harkonnen do not draw it from its
own faction's leaders. Killed, it goes to the Tanks (question ghola-death). Reviving a leader as a
ghola is not modelled (revival.py answers `not-implemented`).
"""

from __future__ import annotations

from adjudicator.core.catalog import catalog
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, LeaderState, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import DUKE, FactionId, LeaderStatus

TLEILAXU = FactionId.TLEILAXU.value
DEATH_QUESTION = "ghola-death"
OWN_FACTION = "own-faction"


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
def ghola_dies(choice: str) -> None:
    assert choice == OWN_FACTION  # the only reading implemented: the engine refuses the other first


def holds_gholas(snapshot: Snapshot) -> bool:
    return any(entry.ghola for faction in snapshot.factions.values() for entry in faction.leaders.values())


def unmodelled_ghola_capture(snapshot: Snapshot, battle: Battle) -> bool:
    """Whether the Harkonnen's capture after beating the Tleilaxu could meet a ghola: which leaders the
    draw would take then is not settled."""
    sides = (battle.aggressor, battle.defender)
    return (
        snapshot.ruleset.advanced
        and FactionId.HARKONNEN.value in sides
        and TLEILAXU in sides
        and holds_gholas(snapshot)
    )


DECLARED = RuleModule(implements={DEATH_QUESTION: (OWN_FACTION,)})
