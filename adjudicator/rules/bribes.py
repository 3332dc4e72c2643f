"""Spice given as a bribe, waiting in front of its receiver's shield (base game: Deals and Bribes, the
Mentat Pause).

The snapshot carries the waiting spice per faction (`bribe_spice`, public). It goes behind the shields
in the Mentat Pause: `start-mentat-pause` collects it, except that with an Extortion payment window to
come the Extortion rules place the collection against the window (question extortion-bribe-order,
rules/moritani/extortion.py); `end-turn` collects what a Mentat Pause never started left waiting.
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import rule
from adjudicator.rules.state import NextSnapshot


def bribes_waiting(snapshot: Snapshot) -> Mapping[str, int]:
    """Faction -> the bribe spice waiting in front of its shield, for the factions with some."""
    return {faction: held.bribe_spice for faction, held in snapshot.factions.items() if held.bribe_spice}


@rule("bribes.collect")
def collect_bribes(state: NextSnapshot) -> dict[str, int]:
    collected = {}  # faction -> amount, each with its public event
    for faction in state.faction_ids:
        amount = state.collect_bribe_spice(faction)
        if amount:
            state.event("spice-collected", "bribes.collect", faction=faction, amount=amount)
            collected[faction] = amount
    return collected


DECLARED = RuleModule()
