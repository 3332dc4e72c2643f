"""The advanced Atreides' special Karama in a battle (`karama-see-plan`): once a game, a Karama card
shows the Atreides one side's whole battle plan; that side makes its plan first.

The action answers no decision: it is taken while a battle's plans are unrevealed and leaves the open
decision as it is, unless the plans' order changes (the side seen now plans first; a plan already
locked by the other side is taken back to be made again, under the reading that allows it). Whether
the Atreides may use it shows whether they hold a Karama, so only they (or a referee) can have it
ruled (`HIDDEN_LEGALITY`); the use itself is public, the plan seen is shown to the Atreides alone
(an event `visible_to` them, and the plan left in their views).
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import Battle, Plan, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.moritani.retention import usable_as_karama
from adjudicator.rules.richese import RICHESE, in_battle
from adjudicator.rules.state import NextSnapshot, finish

ATREIDES = FactionId.ATREIDES.value
TIMING_QUESTION = "atreides-full-plan-timing"
NO_FIELD_DIAL_QUESTION = "no-field-see-plan-dial"
DIAL_HIDDEN = "dial-hidden"
DIAL_SHOWN = "dial-shown"
SCOPE_QUESTION = "atreides-special-karama-scope"
# decisions open before a battle's plans are made (the Voice, Prescience and their Karama window)
_BEFORE_PLANS = frozenset(
    {
        DecisionType.VOICE.value,
        DecisionType.PRESCIENCE.value,
        DecisionType.PRESCIENCE_ANSWER.value,
        DecisionType.BATTLE_KARAMA.value,
    }
)


def _other(battle: Battle, faction: str) -> str:
    return battle.defender if faction == battle.aggressor else battle.aggressor


def planning_order(battle: Battle) -> tuple[str, str]:
    """The order the two plans are made in: aggressor first, unless the Atreides' special Karama
    sees a side's plan, which is then made first."""
    if battle.plan_seen is not None:
        first = battle.plan_seen.target
        return first, _other(battle, first)
    return battle.aggressor, battle.defender


def _problem(code: str, message: str, path: str, rule_id: str | None = None) -> Violation:
    return Violation(code, message, path, rule_id)


def _usable(snapshot: Snapshot, action: Action) -> Violation | None:
    """The power itself: the advanced Atreides, unspent, with a Karama card in hand."""
    if not snapshot.ruleset.advanced or action.player != ATREIDES or ATREIDES not in snapshot.factions:
        return _problem(
            "special-karama-unavailable",
            "only the advanced Atreides have this special Karama power",
            "/action/player",
            "atreides.special-karama.see-plan",
        )
    state = snapshot.factions[ATREIDES]
    if state.special_karama_used:
        return _problem(
            "special-karama-unavailable",
            "the Atreides have used their special Karama power this game",
            "/action/player",
            "atreides.special-karama.see-plan",
        )
    card = action.fields.get("card")
    if not isinstance(card, str) or card not in usable_as_karama(state.hand, ATREIDES, True):
        return _problem(
            "no-karama-card",
            f"the Atreides hold no Karama card {card}",
            "/action/card",
            "atreides.special-karama.see-plan",
        )
    return None


@rule("atreides.special-karama.scope")
def battle_in_scope(snapshot: Snapshot, battle: Battle, target: str, context: Context) -> Violation | None:
    combatants = (battle.aggressor, battle.defender)
    if ATREIDES in combatants:
        return None  # every reading allows the Atreides' own battle
    ally = snapshot.factions[ATREIDES].ally
    choice = context.choice(SCOPE_QUESTION)
    if choice == "any-battle" or (choice == "own-or-ally" and ally in combatants and target != ally):
        return None
    return _problem(
        "not-your-battle",
        f"under the reading {choice} of {SCOPE_QUESTION} the Atreides cannot see a plan in this battle",
        "/action/target",
        "atreides.special-karama.scope",
    )


@rule("atreides.special-karama.timing")
def in_time(snapshot: Snapshot, battle: Battle, context: Context) -> Violation | None:
    pending = snapshot.pending
    early = bool(battle.prelude) or (pending is not None and pending.type in _BEFORE_PLANS)
    late = bool(battle.plans)
    if not early and not late:
        return None  # the plans are about to be made: every reading allows it
    choice = context.choice(TIMING_QUESTION)
    if choice == "until-reveal":
        return None
    if early:
        code, when = "special-karama-too-early", "the Voice and Prescience"
    else:
        code, when = "special-karama-too-late", "a plan is locked"
    return _problem(
        code,
        f"under the reading {choice} of {TIMING_QUESTION} it is used once the steps before the plans are over"
        f" and before any plan is locked ({when})",
        "/snapshot/pending" if early else "/snapshot/battle/plans",
        "atreides.special-karama.timing",
    )


def _see_plan_violations(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    battle = snapshot.battle
    if battle is None:
        return [_problem("no-battle", "no battle is under way", "/snapshot/battle")]
    if battle.revealed or battle.resolution is not None:
        return [_problem("plans-revealed", "the battle's plans are revealed already", "/snapshot/battle/revealed")]
    problem = _usable(snapshot, action)
    if problem is not None:
        return [problem]
    target = action.fields.get("target")
    if target not in (battle.aggressor, battle.defender) or target == ATREIDES:
        return [_problem("bad-target", "name the side whose plan is seen (not the Atreides)", "/action/target")]
    assert isinstance(target, str)
    for check in (battle_in_scope(snapshot, battle, target, context), in_time(snapshot, battle, context)):
        if check is not None:
            return [check]
    return []


# the fields of a plan that make up its dial: a seen plan with its dial hidden shows them as null
DIAL_FIELDS = ("dial", "spice", "ally_spice")


@rule("atreides.special-karama.plan-shown")
def show_plan(state: NextSnapshot, player: str, target: str, plan: Plan, dial_hidden: bool = False) -> None:
    shown = plan.to_dict()
    if dial_hidden:
        shown.update({key: None for key in DIAL_FIELDS if key in shown})
    state.event(
        "plan-shown",
        "atreides.special-karama.plan-shown",
        faction=target,
        visible_to=[player],
        plan=shown,
    )


def plan_locked(state: NextSnapshot, battle: Battle, faction: str, plan: Plan) -> None:
    """Called as a plan locks: the side the Atreides' special Karama sees shows it to them."""
    seen = battle.plan_seen
    if seen is not None and seen.target == faction:
        show_plan(state, seen.player, faction, plan, seen.dial_hidden)


@rule("richese.no-field.see-plan-dial")
def no_field_dial_hidden(choice: str) -> bool:
    return choice == DIAL_HIDDEN


def dial_kept_from_karama(snapshot: Snapshot, battle: Battle, target: str, context: Context) -> bool:
    """Whether the plan the special Karama sees is Richese's, made with a No-Field token in the battle,
    and keeps its dial from the Atreides (question no-field-see-plan-dial, read only there)."""
    if target != RICHESE or in_battle(snapshot, battle, battle_sectors(snapshot)) is None:
        return False
    return no_field_dial_hidden(context.choice(NO_FIELD_DIAL_QUESTION))


@rule("atreides.special-karama.see-plan")
def see_plan(
    state: NextSnapshot, battle: Battle, player: str, card: str, target: str, dial_hidden: bool = False
) -> None:
    state.discard_from_hand(player, card)
    state.event("card-discarded", "atreides.special-karama.see-plan", faction=player, card=card, karama=True)
    state.spend_special_karama(player)
    state.see_plan(player, target, dial_hidden)
    state.event("special-karama-used", "atreides.special-karama.see-plan", faction=player, target=target, card=card)
    other = _other(battle, target)
    if other in battle.plans:
        state.withdraw_plan(other)
        state.event("plan-withdrawn", "atreides.special-karama.timing", faction=other)
    if target in battle.plans:
        show_plan(state, player, target, battle.plans[target], dial_hidden)


@ruled()
def karama_see_plan(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = _see_plan_violations(snapshot, action, context)
    if problems:
        return illegal(snapshot, problems, trace, context)
    battle = snapshot.battle
    assert battle is not None and action.player is not None
    target, card = str(action.fields["target"]), str(action.fields["card"])
    state = NextSnapshot(snapshot)
    see_plan(state, battle, action.player, card, target, dial_kept_from_karama(snapshot, battle, target, context))
    summary: dict[str, Any] = {"special_karama": {"player": action.player, "target": target, "card": card}}
    pending = snapshot.pending
    planning = pending.type == DecisionType.BATTLE_PLAN.value if pending is not None else not battle.prelude
    if planning:
        return finish(snapshot, state, summary, trace, context)  # the plans' order may have changed
    # a step before the plans is under way: it stays open as it is
    decision = None if pending is None else pending.to_dict()
    options = context.rulebook.options(state.as_snapshot())
    return resolved(state.outcome(summary), decision, options, trace, context)


DECLARED = RuleModule(
    handlers={ActionType.KARAMA_SEE_PLAN: karama_see_plan},
    implements={
        TIMING_QUESTION: ("before-plans", "until-reveal"),
        SCOPE_QUESTION: ("own-battle", "own-or-ally", "any-battle"),
        NO_FIELD_DIAL_QUESTION: (DIAL_HIDDEN, DIAL_SHOWN),
    },
)
