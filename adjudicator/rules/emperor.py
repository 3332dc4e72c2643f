"""The Emperor's alliance power in the Battle phase (`give-spice`): spice handed to the ally, which
becomes the ally's own (so, in the advanced game, spice it may pay as battle support).

The gift is legal while the Emperor is allied, to the ally, for 1 to all of the Emperor's spice;
whether it may be given while a battle is under way follows question emperor-gift-during-battle. The
open decision stays open; a battle plan awaited from the ally (or the Emperor) has its `dial_max` and
`spice_max` counted again from the new spice. The amount given is public, but whether the gift is
legal shows the Emperor's spice, so only the Emperor (or a referee) can have it ruled
(`HIDDEN_LEGALITY`). Outside the Battle phase it is answered `not-implemented`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId, Phase
from adjudicator.rules.battle.plan_decision import plan_decision
from adjudicator.rules.state import NextSnapshot

EMPEROR = FactionId.EMPEROR.value
DURING_BATTLE = "emperor-gift-during-battle"
RULE = "emperor.alliance.give-spice"


@rule("emperor.alliance.during-battle")
def gift_allowed_now(snapshot: Snapshot, context: Context) -> bool:
    return snapshot.battle is None or context.choice(DURING_BATTLE) == "any-time"


def _violations(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    if snapshot.phase is not Phase.BATTLE:
        return [
            Violation(
                "not-implemented",
                "this engine version adjudicates the Emperor's gift of spice only in the Battle phase",
                "/snapshot/phase",
            )
        ]
    if action.player != EMPEROR or EMPEROR not in snapshot.factions:
        return [Violation("not-emperor", "only the Emperor gives spice to an ally", "/action/player", RULE)]
    ally = snapshot.factions[EMPEROR].ally
    if ally is None or action.fields.get("to") != ally:
        return [Violation("not-the-ally", f"the Emperor gives spice only to its ally ({ally})", "/action/to", RULE)]
    amount = action.fields.get("amount")
    if not isinstance(amount, int) or amount < 1 or amount > snapshot.factions[EMPEROR].spice:
        return [Violation("not-enough-spice", "give from 1 to all of the Emperor's spice", "/action/amount", RULE)]
    if not gift_allowed_now(snapshot, context):
        return [
            Violation(
                "gift-during-battle",
                "under emperor-gift-during-battle's between-battles reading no spice is given while a battle"
                " is under way",
                "/action/type",
                "emperor.alliance.during-battle",
            )
        ]
    return []


@rule("emperor.alliance.give-spice")
def give(state: NextSnapshot, ally: str, amount: int) -> None:
    state.transfer_spice(EMPEROR, ally, amount, RULE, "the Emperor's gift to its ally")


def _refreshed(state: NextSnapshot) -> dict[str, Any] | None:
    """The open decision, a battle plan's limits counted again from the new spice."""
    pending = state.pending
    if pending is None:
        return None
    if pending.get("type") == DecisionType.BATTLE_PLAN.value:
        following = state.as_snapshot()
        if following.battle is not None:
            return plan_decision(following, following.battle, pending["player"])
    return dict(pending)


@ruled()
def give_spice(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = _violations(snapshot, action, context)
    if problems:
        return illegal(snapshot, problems, trace, context)
    ally, amount = str(action.fields["to"]), int(action.fields["amount"])
    state = NextSnapshot(snapshot)
    give(state, ally, amount)
    pending = _refreshed(state)
    state.set_pending(pending)
    outcome = state.outcome({"gift": {"from": EMPEROR, "to": ally, "amount": amount}})
    return resolved(outcome, pending, context.rulebook.options(state.as_snapshot()), trace, context)


DECLARED = RuleModule(
    handlers={ActionType.GIVE_SPICE: give_spice},
    implements={DURING_BATTLE: ("any-time", "between-battles")},
)
