"""The Ixian Suboid swap: after a battle's losses, surviving Suboids may take the place of Cyborgs lost.

Only a winner keeps forces in the battle territory (in a territory the storm divides, only the
battle's sectors count), so only an Ixian winner that lost Cyborgs among
the forces it dialed, with Suboids left there, is asked. The number of Cyborgs lost is kept in the
battle's `resolution.cyborgs_lost` until the swap is answered, so a saved snapshot (or one a Semuta
opportunity interrupted) continues without the losses being counted again.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import SuboidSwapDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, BattlePower, DecisionType, FactionId
from adjudicator.rules.state import NextSnapshot, finish

IXIANS = FactionId.IXIANS.value
LOSSES_QUESTION = "cyborg-losses"
ONE_EACH = "one-each"


@rule("ixians.losses.one-each")
def forces_lost_one_each(regular: int, elite: int, dial_halves: int) -> list[dict[str, int]]:
    # as many forces as the dial (a half rounded up), at most all there, in any mix; fewest Cyborgs first
    count = min(-(-dial_halves // 2), regular + elite)
    return [{"regular": count - e, "elite": e} for e in range(max(0, count - regular), min(count, elite) + 1)]


@rule("ixians.suboid-swap")
def swap_limit(cyborgs_lost: int, suboids_left: int) -> int:
    return min(cyborgs_lost, suboids_left)


@rule("battle.karama.suboid-swap")
def swap_cancelled(state: NextSnapshot) -> bool:
    state.event("power-cancelled", "battle.karama.suboid-swap", faction=IXIANS, power=BattlePower.SUBOID_SWAP.value)
    return True


def suboid_swap_offered(state: NextSnapshot, winner: str | None, territory: str, cyborgs_lost: int) -> bool:
    """Whether the winner's losses open the swap: Ixian Cyborgs lost, Suboids left in the territory,
    and no Karama cancelled the swap in this battle."""
    if winner != IXIANS or cyborgs_lost <= 0:
        return False
    battle = state.as_snapshot().battle
    if battle is not None and battle.cancelled(BattlePower.SUBOID_SWAP.value, IXIANS) and swap_cancelled(state):
        return False
    return swap_limit(cyborgs_lost, state.regular_forces_in(IXIANS, territory, state.battle_cover)) > 0


def _swap_decision(state: NextSnapshot) -> dict[str, Any]:
    lost = state.resolution.cyborgs_lost or 0
    territory = state.battle_territory
    most = min(lost, state.regular_forces_in(IXIANS, territory, state.battle_cover))
    return opened(IXIANS, SuboidSwapDecision(territory=territory, swap_max=most))


def swap_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    most = decision.as_(SuboidSwapDecision).swap_max or 0
    return [
        {"type": ActionType.SWAP_SUBOIDS.value, "player": decision.player, "count": count}
        for count in range(most, -1, -1)
    ]


@ruled(answers(DecisionType.SUBOID_SWAP.value))
def swap_suboids(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert snapshot.battle is not None
    count = int(action.fields.get("count") or 0)
    territory = snapshot.battle.territory
    state = NextSnapshot(snapshot)
    swap_limit(state.resolution.cyborgs_lost or 0, state.regular_forces_in(IXIANS, territory, state.battle_cover))
    if count:
        state.suboids_for_cyborgs(IXIANS, territory, count, "ixians.suboid-swap", state.battle_cover)
    else:
        state.event("suboid-swap-declined", "ixians.suboid-swap", faction=IXIANS, territory=territory)
    state.clear_resolution("cyborgs_lost")
    state.step_done()
    summary = {"suboid_swap": {"faction": IXIANS, "territory": territory, "count": count}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


DECLARED = RuleModule(
    handlers={ActionType.SWAP_SUBOIDS: swap_suboids},
    decisions={DecisionType.SUBOID_SWAP.value: DecisionKind(swap_options, self_contained=True)},
    steps={DecisionType.SUBOID_SWAP.value: _swap_decision},
    implements={LOSSES_QUESTION: ("as-dialed", ONE_EACH)},
)
