"""The battle-plan decision: which plans a side may lock, and locking one.

A snapshot whose `pending` is a `battle-plan` decision is a battle whose plans are not all locked.
Its options are every legal plan (one per leader-or-Cheap-Hero, weapon, defense and Kwisatz
Haderach combination, dialing 0 with no support spice); the decision states the highest dial and
support the side may add. Each candidate is checked by the same rule functions that check locked
plans, so an option is never a plan the resolution would reject.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import BattlePlanDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import found, illegal, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId
from adjudicator.rules.battle.atreides_karama import plan_locked, planning_order
from adjudicator.rules.battle.commands import answer_in_force
from adjudicator.rules.battle.ecaz_karama import timing_violation
from adjudicator.rules.battle.plans import (
    ALLY_SUPPORT_QUESTION,
    TRAITS_QUESTION,
    ally_may_pay,
    ally_support_violations,
    binding_answer,
    dial_reach,
    dialed_forces,
    dialed_support_limit,
    face_up_leaders,
    least_support,
    plan_combinations,
    plan_problems,
    traits_for_options,
)
from adjudicator.rules.secrecy import spice_hidden
from adjudicator.rules.skills import (
    FACE_UP_EXCUSED,
    FACE_UP_REQUIRED_QUESTION,
    MUST_COMMIT,
    commit_named_skills,
    leaders_owed,
)
from adjudicator.rules.state import NextSnapshot

LOCK = ActionType.LOCK_BATTLE_PLAN.value


def _opponent(battle: Battle, faction: str) -> str:
    return battle.defender if faction == battle.aggressor else battle.aggressor


def limits(snapshot: Snapshot, battle: Battle, faction: str, traits: str) -> tuple[int | float, int]:
    """The highest dial (with the most support it can pay) and the most support spice, the dialed forces
    counted as occupy-dialed-force-traits reads (`traits`); under a disclosed dial, that dial (as it
    binds now)."""
    most, support = dial_reach(snapshot, battle, faction, traits)
    answer = binding_answer(snapshot, battle, faction, traits)
    if answer is not None and "dial" in answer:
        # a disclosed dial is the only one, with the most support that dial holds (or the support
        # disclosed with it)
        halves = round(float(answer["dial"]) * 2)
        if "spice" in answer:
            return halves_to_number(halves), int(answer["spice"])
        dialed = dialed_forces(snapshot, battle, faction, traits)
        held = dialed_support_limit(snapshot, dialed.traits_of, _opponent(battle, faction), dialed.forces, halves)
        return halves_to_number(halves), min(support, held)
    return halves_to_number(most), support


@rule("battle.plan.options")
def legal_plans(snapshot: Snapshot, battle: Battle, faction: str, traits: str, face_up: str) -> list[dict[str, Any]]:
    token = snapshot.factions[faction].kwisatz_haderach
    kh_choices = [False, True] if faction == FactionId.ATREIDES and token is not None else [False]
    dial_halves, spice = bound_dial(snapshot, battle, faction, traits)
    options = []
    for (leader, hero, weapon, defense), kh in itertools.product(
        plan_combinations(snapshot, battle, faction), kh_choices
    ):
        plan = Plan(leader, hero, dial_halves, weapon, defense, spice, kh)
        if plan_problems(snapshot, battle, faction, plan, traits, face_up):
            continue
        options.append(
            {
                "type": LOCK,
                "player": faction,
                "leader": leader,
                "cheap_hero": hero,
                "weapon": weapon,
                "defense": defense,
                "dial": halves_to_number(dial_halves),
                "spice": spice,
                "kwisatz_haderach": kh,
            }
        )
    return options


def bound_dial(snapshot: Snapshot, battle: Battle, faction: str, traits: str) -> tuple[int, int]:
    """The dial (in halves) and least support the options carry: 0 and 0, or the dial a Prescience
    answer binds."""
    answer = binding_answer(snapshot, battle, faction, traits)
    if answer is None or "dial" not in answer:
        return 0, 0
    halves = round(float(answer["dial"]) * 2)
    if "spice" in answer:
        return halves, int(answer["spice"])
    return halves, least_support(snapshot, battle, faction, halves, traits) or 0


def plan_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    battle = snapshot.battle
    if battle is None or decision.player is None:
        return []
    return legal_plans(snapshot, battle, decision.player, traits_for_options(battle), kept_face_up(decision.fields))


def kept_face_up(decision: Mapping[str, Any]) -> str:
    """The reading of skill-face-up-leader-required a battle-plan decision (its wire fields) opened
    under: the one it keeps (`face_up_leader`), else the default."""
    return str(decision.get("face_up_leader") or FACE_UP_EXCUSED)


def face_up_reading(battle: Battle, faction: str, requested: str) -> str:
    """The reading of skill-face-up-leader-required this side's plan is made under: the one a standing
    Prescience answer of the side was given under (its answers were listed under it), else `requested`."""
    record = battle.prescience
    if record is not None and record.target == faction and answer_in_force(battle, faction) is not None:
        return record.readings.get(FACE_UP_REQUIRED_QUESTION, FACE_UP_EXCUSED)
    return requested


def plan_decision(snapshot: Snapshot, battle: Battle, faction: str, traits: str, face_up: str) -> dict[str, Any]:
    dial_max, spice_max = limits(snapshot, battle, faction, traits)
    opponent = _opponent(battle, faction)
    # the options are listed from the snapshot alone: where the reading changes them, the decision keeps it
    kept = MUST_COMMIT if face_up == MUST_COMMIT and face_up_leaders(snapshot, battle, faction) else None
    record = BattlePlanDecision(
        territory=battle.territory, opponent=opponent, dial_max=dial_max, spice_max=spice_max, face_up_leader=kept
    )
    decision = opened(faction, record)
    if kept is None:
        decision.pop("face_up_leader", None)
    return decision


def plan_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: the next side's plan to make (aggressor first), None once both are locked."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    for side in planning_order(battle):
        if side not in battle.plans:
            traits = choice_of(state.readings, TRAITS_QUESTION)
            face_up = face_up_reading(battle, side, choice_of(state.readings, FACE_UP_REQUIRED_QUESTION))
            return plan_decision(snapshot, battle, side, traits, face_up)
    return None


@rule("battle.plan.lock")
def lock_plan(state: NextSnapshot, faction: str, plan: Plan) -> None:
    state.commit_plan(faction, plan)
    state.event("plan-locked", "battle.plan.lock", faction=faction)


def _plan_awaited(snapshot: Snapshot, action: Action) -> Violation | None:
    """A battle plan is awaited, and from the actor."""
    pending = snapshot.pending
    if pending is None or pending.type != DecisionType.BATTLE_PLAN.value or snapshot.battle is None:
        return Violation("no-such-decision", "no battle plan is awaited", "/action/type")
    if action.player != pending.player:
        return Violation("not-your-decision", f"the plan awaited is {pending.player}'s", "/action/player")
    return None


def _ally_share_problems(snapshot: Snapshot, faction: str, plan: Plan, context: Context) -> list[Violation]:
    """The ally's share of the support. Whether the ally holds it shows the ally's spice, hidden from
    the side (secrecy.spice), so where the ally may pay only a referee (no viewer) has such a plan ruled."""
    if not plan.ally_spice:
        return []
    ally = snapshot.factions[faction].ally
    choice = context.choice(ALLY_SUPPORT_QUESTION)
    if (
        ally_may_pay(snapshot, faction, choice)
        and ally is not None
        and context.viewer is not None
        and spice_hidden(ally, context.viewer)
    ):
        return [
            Violation(
                "hidden-from-viewer",
                f"whether {ally} holds its share shows its spice: only a referee can have this plan ruled",
                "/viewer",
                "secrecy.spice",
            )
        ]
    return ally_support_violations(snapshot, faction, plan, choice)


def _face_up_reading_conflict(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The decision's options were listed under the reading of skill-face-up-leader-required it keeps
    (where that reading changes them); a plan answering it cannot be ruled under the other."""
    pending, battle = snapshot.pending, snapshot.battle
    assert pending is not None and pending.player is not None and battle is not None
    chosen = context.interpretations.get(FACE_UP_REQUIRED_QUESTION)
    kept = kept_face_up(pending.fields)
    leaders = face_up_leaders(snapshot, battle, pending.player)
    if chosen is None or chosen == kept or not leaders:
        return []
    leaders_owed(snapshot, leaders, kept)
    rule_id = "skills.face-up-leader-must-commit" if kept == MUST_COMMIT else "skills.face-up-leader-not-required"
    return [
        Violation(
            "interpretation-mismatch",
            f"this battle plan was awaited under {kept!r} (its decision's face_up_leader); its plan cannot be"
            " ruled under another reading",
            f"/interpretations/{FACE_UP_REQUIRED_QUESTION}",
            rule_id,
        )
    ]


def _under_kept_face_up(snapshot: Snapshot, context: Context) -> Context:
    """The context whose provenance names the reading the plan followed, where the request left it to the
    default and the decision keeps another."""
    assert snapshot.pending is not None
    kept = kept_face_up(snapshot.pending.fields)
    if kept == FACE_UP_EXCUSED or FACE_UP_REQUIRED_QUESTION in context.interpretations:
        return context
    return context.under({FACE_UP_REQUIRED_QUESTION: kept})


@ruled(found(_plan_awaited), _face_up_reading_conflict)
def lock_battle_plan(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending, battle = snapshot.pending, snapshot.battle
    assert pending is not None and battle is not None
    faction = pending.player
    assert faction is not None
    plan = Plan.from_dict(action.fields)  # the action's fields are a plan's, in its wire form
    hand = snapshot.factions[faction].hand
    problems = [
        Violation("card-not-in-hand", f"{faction} does not hold {card}", f"/action/{slot}", "battle.plan.lock")
        for slot, card in (("cheap_hero", plan.cheap_hero), ("weapon", plan.weapon), ("defense", plan.defense))
        if card is not None and card not in hand
    ]
    named = [c for c in (plan.cheap_hero, plan.weapon, plan.defense) if c is not None]
    if len(set(named)) != len(named):
        problems.append(
            Violation("same-card-twice", "one card cannot fill two slots", "/action/defense", "battle.plan.card-slots")
        )
    if plan.leader is not None and plan.leader not in catalog().leaders:
        problems.append(Violation("unknown-leader", f"no leader {plan.leader!r}", "/action/leader"))
    if plan.special_karama is not None:
        timing = timing_violation(context, False, "/action/special_karama")
        problems += [] if timing is None else [timing]
    context = _under_kept_face_up(snapshot, context)
    if not problems:
        face_up = kept_face_up(pending.fields)
        problems = [
            Violation(v.code, v.message, v.path.replace(f"/snapshot/battle/plans/{faction}", "/action"), v.rule)
            for v in plan_problems(snapshot, battle, faction, plan, context.choice(TRAITS_QUESTION), face_up)
            + _ally_share_problems(snapshot, faction, plan, context)
        ]
    if problems:
        return illegal(snapshot, problems, trace, context)
    state = NextSnapshot(snapshot)
    lock_plan(state, faction, plan)
    plan_locked(state, battle, faction, plan)
    opponent = _opponent(battle, faction)
    if state.has_plan(opponent):
        state.reveal_plans()
        commit_named_skills(state)
        state.set_pending(None)
        decision: dict[str, Any] | None = None
        options: list[dict[str, Any]] = []
    else:
        traits = context.choice(TRAITS_QUESTION)
        face_up = face_up_reading(battle, opponent, context.choice(FACE_UP_REQUIRED_QUESTION))
        decision = plan_decision(state.as_snapshot(), battle, opponent, traits, face_up)
        state.set_pending(decision)
        options = legal_plans(state.as_snapshot(), battle, opponent, traits, kept_face_up(decision))
    outcome = state.outcome({"battle": {"plan_locked": faction, "revealed": decision is None}})
    return resolved(outcome, decision, options, trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.LOCK_BATTLE_PLAN: lock_battle_plan,
    },
    decisions={
        DecisionType.BATTLE_PLAN.value: DecisionKind(plan_options),
    },
    steps={DecisionType.BATTLE_PLAN.value: plan_step},
)
