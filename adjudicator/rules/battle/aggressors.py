"""The Battle phase's order of aggressors: storm order, or the order Juice of Sapho set as the phase
began (question sapho-battle-order, kept in the snapshot's `aggressor_order` for the rest of the
phase). Every ranking of aggressors, from the battle-choice to Occupy's fighter, reads it here.
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import rule

SAPHO_QUESTION = "sapho-battle-order"
SAPHO_MAY_REORDER = "first-or-last"  # the reading under which Juice of Sapho can change the order


@rule("battle.order.sapho-order")
def order_kept_for_the_phase(order: tuple[str, ...]) -> tuple[str, ...]:
    return order


def aggressor_order(snapshot: Snapshot) -> tuple[str, ...]:
    """The order of aggressors: storm order, or the order kept for the phase (`aggressor_order`)."""
    kept = snapshot.aggressor_order
    return snapshot.storm_order if kept is None else order_kept_for_the_phase(kept)


def aggressor_rank(snapshot: Snapshot) -> Mapping[str, int]:
    """Each faction's place in the order of aggressors (a faction outside it after every other)."""
    order = {faction: i for i, faction in enumerate(aggressor_order(snapshot))}
    return {faction: order.get(faction, len(order)) for faction in snapshot.factions}


def order_reading_conflict(snapshot: Snapshot, interpretations: Mapping[str, str]) -> Violation | None:
    """A snapshot whose order of aggressors Juice of Sapho changed cannot be ruled under a reading of
    sapho-battle-order by which the card never changes it."""
    chosen = interpretations.get(SAPHO_QUESTION)
    if snapshot.aggressor_order is None or chosen is None or chosen == SAPHO_MAY_REORDER:
        return None
    return Violation(
        "interpretation-mismatch",
        f"Juice of Sapho changed this Battle phase's order of aggressors (aggressor_order); {chosen!r} reads"
        " that it cannot",
        f"/interpretations/{SAPHO_QUESTION}",
        "battle.order.sapho-order",
    )


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule()
