"""Atreides Prescience: in their battle or their ally's, the opposing side discloses one element of
the plan it will play (leader, weapon, defense or dial), and that element binds its plan.

A use is recorded in `battle.prescience` and opens a Karama window on it; if it stands, the asked
side answers with one of the answers some legal plan gives (the Voice in force included, since the
Voice comes first). The answer is seen by the Atreides, the asked side and the side it faces; other
viewers see it redacted (question prescience-visibility).
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import PrescienceAnswerDecision, PrescienceDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, PrescienceRecord, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId
from adjudicator.rules.battle.commands import ELEMENT_FIELDS, PRESCIENCE, prelude_order
from adjudicator.rules.battle.karama_window import open_power_window
from adjudicator.rules.battle.plan_decision import legal_plans, limits
from adjudicator.rules.battle.voice import facing
from adjudicator.rules.state import NextSnapshot, finish

ATREIDES = FactionId.ATREIDES.value
ELEMENTS = tuple(ELEMENT_FIELDS)


@rule("battle.prescience.who")
def prescience_target(snapshot: Snapshot, battle: Battle) -> str | None:
    return facing(snapshot, battle, ATREIDES)


def prescience_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: Prescience offered; once used and standing, its answer awaited; None when the
    Atreides have no side here, it is cancelled or answered."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    if ATREIDES not in snapshot.factions or battle.cancelled(PRESCIENCE, ATREIDES):
        return None
    record = battle.prescience
    if record is not None:
        if record.answer is not None:
            return None
        answer = PrescienceAnswerDecision(territory=battle.territory, owner=record.player, element=record.element)
        return opened(record.target, answer)
    target = prescience_target(snapshot, battle)
    if target is None:
        return None
    prelude_order()
    return opened(ATREIDES, PrescienceDecision(territory=battle.territory, opponent=target))


def prescience_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.USE_PRESCIENCE.value, "player": player, "element": element} for element in ELEMENTS
    ]
    options.append({"type": ActionType.DECLINE_PRESCIENCE.value, "player": player})
    return options


@rule("battle.prescience.answers")
def possible_answers(snapshot: Snapshot, battle: Battle, faction: str, element: str) -> list[dict[str, Any]]:
    plans = legal_plans(snapshot, battle, faction)
    if not plans:
        return []
    if element == "dial":
        dial_max, _ = limits(snapshot, battle, faction)
        step = 1 if snapshot.ruleset.advanced else 2
        return [
            {"dial": halves / 2 if halves % 2 else halves // 2} for halves in range(0, round(dial_max * 2) + 1, step)
        ]
    found: list[dict[str, Any]] = []
    for option in plans:
        answer = {name: option[name] for name in ELEMENT_FIELDS[element]}
        if answer not in found:
            found.append(answer)
    return found


def answer_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    battle = snapshot.battle
    asked = decision.as_(PrescienceAnswerDecision)
    if battle is None or decision.player is None or asked.element not in ELEMENT_FIELDS:
        return []
    return [
        {"type": ActionType.ANSWER_PRESCIENCE.value, "player": decision.player, **answer}
        for answer in possible_answers(snapshot, battle, decision.player, str(asked.element))
    ]


@ruled(answers(DecisionType.PRESCIENCE.value))
def use_prescience(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    assert pending is not None and action.player is not None
    target = str(pending.as_(PrescienceDecision).opponent)
    record = PrescienceRecord(action.player, target, str(action.fields["element"]))
    state = NextSnapshot(snapshot)
    ask(state, record)
    summary = {"prescience": {"player": record.player, "target": target, "element": record.element}}
    window = open_power_window(state, action.player, PRESCIENCE)
    if window is None:
        return finish(snapshot, state, summary, trace, context)
    state.set_pending(window)
    following = state.as_snapshot()
    return resolved(state.outcome(summary), window, context.rulebook.options(following), trace, context)


@rule("battle.prescience.ask")
def ask(state: NextSnapshot, record: PrescienceRecord) -> None:
    state.set_prescience(record)
    state.event(
        "prescience-used",
        "battle.prescience.ask",
        faction=record.player,
        target=record.target,
        element=record.element,
    )


@ruled(answers(DecisionType.PRESCIENCE.value))
def decline_prescience(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    state.event("prescience-declined", "battle.prescience.ask", faction=action.player)
    state.prelude_done(PRESCIENCE)
    return finish(snapshot, state, {"prescience": None}, trace, context)


@rule("battle.prescience.visibility")
def answer_seen_by(battle: Battle, record: PrescienceRecord) -> list[str]:
    facing_side = battle.defender if record.target == battle.aggressor else battle.aggressor
    return list(dict.fromkeys((record.player, record.target, facing_side)))


@rule("battle.prescience.single-question")
def single_question() -> None:
    pass


@ruled(answers(DecisionType.PRESCIENCE_ANSWER.value))
def answer_prescience(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and battle.prescience is not None
    record = battle.prescience
    answer = {name: action.fields.get(name) for name in ELEMENT_FIELDS[record.element]}
    answered = PrescienceRecord(record.player, record.target, record.element, answer)
    state = NextSnapshot(snapshot)
    state.set_prescience(answered)
    seen_by = answer_seen_by(battle, record)
    state.event(
        "prescience-answered",
        "battle.prescience.visibility",
        faction=record.target,
        element=record.element,
        answer=answer,
        visible_to=seen_by,
    )
    single_question()
    state.prelude_done(PRESCIENCE)
    summary = {"prescience": {"target": record.target, "element": record.element, "answered": True}}
    return finish(snapshot, state, summary, trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.USE_PRESCIENCE: use_prescience,
        ActionType.DECLINE_PRESCIENCE: decline_prescience,
        ActionType.ANSWER_PRESCIENCE: answer_prescience,
    },
    decisions={
        DecisionType.PRESCIENCE.value: DecisionKind(prescience_options),
        DecisionType.PRESCIENCE_ANSWER.value: DecisionKind(answer_options),
    },
    steps={DecisionType.PRESCIENCE.value: prescience_step},
    implements={
        "prescience-visibility": ("seen-by-the-battle",),
        "prescience-second-question": ("none-after-answer",),
        "prescience-dial-support": ("wheel-only",),
    },
)
