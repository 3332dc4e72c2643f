"""Atreides Prescience: in their battle or their ally's, the opposing side discloses one element of
the plan it will play (leader, weapon, defense or dial), and that element binds its plan.

A use is recorded in `battle.prescience` and opens a Karama window on it; if it stands, the asked
side answers with one of the answers some legal plan gives (the Voice in force included, since the
Voice comes first). The answer is seen by the Atreides, the asked side and the side it faces; other
viewers see it redacted (questions prescience-visibility and, in the ally's battle,
prescience-ally-owner-sees).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import PrescienceAnswerDecision, PrescienceDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, PrescienceRecord, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId
from adjudicator.rules.battle.commands import (
    CHEAP_HERO_ANSWER_QUESTION,
    ELEMENT_FIELDS,
    MAY_REDO,
    NO_LEADER_ANSWER,
    PRESCIENCE,
    REDO_QUESTION,
    facing,
    hero_left_free,
    power_available,
    prelude_order,
    uses_cancelled,
)
from adjudicator.rules.battle.karama_window import open_power_window
from adjudicator.rules.battle.plan_decision import legal_plans, limits
from adjudicator.rules.battle.plans import (
    ORDINARY_FORCES,
    TRAITS_QUESTION,
    face_up_leaders,
    least_support,
    support_held,
    traits_for_options,
)
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.richese import dial_kept_from_prescience
from adjudicator.rules.secrecy import ALLY_ONLY, OWNER_SEES_QUESTION, answer_kept_from_owner
from adjudicator.rules.skills import FACE_UP_EXCUSED, FACE_UP_REQUIRED_QUESTION, MUST_COMMIT
from adjudicator.rules.state import NextSnapshot, finish

ATREIDES = FactionId.ATREIDES.value
ELEMENTS = tuple(ELEMENT_FIELDS)
PUBLIC = "public"
WITH_SUPPORT = "with-support"
# the readings a Prescience records when chosen (the defaults are never recorded)
ASK_READINGS = {
    "prescience-visibility": PUBLIC,
    "prescience-dial-support": WITH_SUPPORT,
    "prescience-answer-unreachable": "released",
    CHEAP_HERO_ANSWER_QUESTION: NO_LEADER_ANSWER,
    OWNER_SEES_QUESTION: ALLY_ONLY,
    TRAITS_QUESTION: ORDINARY_FORCES,  # how the dial an answer discloses was counted
    FACE_UP_REQUIRED_QUESTION: MUST_COMMIT,  # whether a face-up leader is owed to the plan disclosed
}


@rule("battle.prescience.who")
def prescience_target(snapshot: Snapshot, battle: Battle) -> str | None:
    return facing(snapshot, battle, ATREIDES)


SECOND_QUESTION = "prescience-second-question"
VISIBILITY = "prescience-visibility"
DIAL_SUPPORT = "prescience-dial-support"
NO_LEADER = {"leader": None, "cheap_hero": None}


def prescience_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: Prescience offered; once used and standing, its answer awaited; None when the
    Atreides have no side here, it is cancelled or answered."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    if ATREIDES not in snapshot.factions or not power_available(battle, PRESCIENCE, ATREIDES, state.readings):
        return None
    record = battle.prescience
    if record is not None:
        if record.answer is not None:
            if may_ask_again(state, battle, record):
                return opened(ATREIDES, PrescienceDecision(territory=battle.territory, opponent=record.target))
            return None
        answer = PrescienceAnswerDecision(territory=battle.territory, owner=record.player, element=record.element)
        return opened(record.target, answer)
    target = prescience_target(snapshot, battle)
    if target is None:
        return None
    prelude_order()
    return opened(ATREIDES, PrescienceDecision(territory=battle.territory, opponent=target))


@rule("battle.prescience.asked-under")
def asked_under(chosen: dict[str, str]) -> dict[str, str]:
    return chosen


def may_ask_again(state: NextSnapshot, battle: Battle, record: PrescienceRecord) -> bool:
    """Whether a further question follows this answer (only under may-ask-again, once per use, and
    only after an answer the Atreides heard)."""
    if state.readings.get(SECOND_QUESTION) != "may-ask-again" or record.earlier is not None:
        return False
    if not asks_again(record):
        return False
    if answer_kept_from_owner(record.readings, record.player, battle.aggressor, battle.defender):
        return unheard_answer_ends()
    return True


@rule("battle.prescience.unheard-answer-ends")
def unheard_answer_ends() -> bool:
    return False


@rule("battle.prescience.ask-again")
def asks_again(record: PrescienceRecord) -> bool:
    return record.element == "leader" and dict(record.answer or {}) == NO_LEADER


def prescience_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    record = snapshot.battle.prescience if snapshot.battle is not None else None
    # a further question after a no-leader answer asks another element
    asked = record.element if record is not None and record.answer is not None else None
    battle = snapshot.battle
    target = decision.as_(PrescienceDecision).opponent
    if battle is not None and target is None:
        target = prescience_target(snapshot, battle)
    # the dial of Richese's plan in a battle holding its No-Field token is not asked
    no_dial = battle is not None and dial_kept_from_prescience(snapshot, battle, target, battle_sectors(snapshot))
    options: list[dict[str, Any]] = [
        {"type": ActionType.USE_PRESCIENCE.value, "player": player, "element": element}
        for element in ELEMENTS
        if element != asked and not (no_dial and element == "dial")
    ]
    options.append({"type": ActionType.DECLINE_PRESCIENCE.value, "player": player})
    return options


@rule("battle.prescience.answers")
def possible_answers(snapshot: Snapshot, battle: Battle, faction: str, element: str) -> list[dict[str, Any]]:
    traits = traits_for_options(battle)  # the readings the Prescience was asked under
    record = battle.prescience
    face_up = FACE_UP_EXCUSED if record is None else record.readings.get(FACE_UP_REQUIRED_QUESTION, FACE_UP_EXCUSED)
    plans = legal_plans(snapshot, battle, faction, traits, face_up)
    if not plans:
        return []
    if element == "dial":
        dial_max, most = limits(snapshot, battle, faction, traits)
        step = 1 if snapshot.ruleset.advanced else 2
        dials = [halves / 2 if halves % 2 else halves // 2 for halves in range(0, round(dial_max * 2) + 1, step)]
        if record is None or record.readings.get(DIAL_SUPPORT) != WITH_SUPPORT:
            return [{"dial": dial} for dial in dials]
        return [
            {"dial": dial, "spice": spice}
            for dial in dials
            for spice in range(
                least_support(snapshot, battle, faction, round(dial * 2), traits) or 0,
                min(most, support_held(snapshot, battle, faction, round(dial * 2), traits)) + 1,
            )
        ]
    found: list[dict[str, Any]] = []
    # under no-leader a side meaning to play a Cheap Hero answers no leader (and may still play it)
    unnamed = element == "leader" and battle.prescience is not None and hero_left_free(battle.prescience.readings)
    for option in plans:
        answer = {name: option[name] for name in ELEMENT_FIELDS[element]}
        if unnamed:
            answer["cheap_hero"] = None
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
    battle = snapshot.battle
    assert battle is not None
    target = pending.as_(PrescienceDecision).opponent or prescience_target(snapshot, battle)
    assert target is not None  # the snapshot's checks: the Atreides or their ally fight here
    element = str(action.fields["element"])
    chosen = {q: c for q, c in ASK_READINGS.items() if context.interpretations.get(q) == c}
    if chosen.get(DIAL_SUPPORT) is not None and (element != "dial" or not snapshot.ruleset.advanced):
        del chosen[DIAL_SUPPORT]  # support spice is disclosed only with a dial of the advanced game
    if chosen.get(FACE_UP_REQUIRED_QUESTION) is not None and not face_up_leaders(snapshot, battle, target):
        del chosen[FACE_UP_REQUIRED_QUESTION]  # kept only where every leader the side could play lies face up
    asked_under(chosen)
    if uses_cancelled(battle, PRESCIENCE, action.player):
        chosen[REDO_QUESTION] = MAY_REDO  # a Prescience used again after a cancellation
    earlier = battle.prescience
    if earlier is not None and earlier.answer is not None:
        # a further question after a no-leader answer: the same use, so no Karama window of its own
        record = PrescienceRecord(
            action.player, target, element, None, MappingProxyType({**earlier.readings, **chosen}), earlier.answer
        )
        state = NextSnapshot(snapshot)
        ask(state, record)
        summary = {"prescience": {"player": record.player, "target": target, "element": element, "again": True}}
        return finish(snapshot, state, summary, trace, context)
    record = PrescienceRecord(action.player, target, element, None, MappingProxyType(chosen))
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
def answer_seen_by(battle: Battle, record: PrescienceRecord, everyone: tuple[str, ...]) -> list[str]:
    if record.readings.get(VISIBILITY) == PUBLIC:
        return list(everyone)
    facing_side = battle.defender if record.target == battle.aggressor else battle.aggressor
    if answer_kept_from_owner(record.readings, record.player, battle.aggressor, battle.defender):
        return [record.target, facing_side]  # prescience-ally-owner-sees ally-only, in the ally's battle
    return list(dict.fromkeys((record.player, record.target, facing_side)))


@rule("battle.prescience.single-question")
def single_question() -> None:
    pass


@ruled(answers(DecisionType.PRESCIENCE_ANSWER.value))
def answer_prescience(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and battle.prescience is not None
    record = battle.prescience
    answer = {name: action.fields.get(name) for name in answer_fields(record)}
    answered = PrescienceRecord(record.player, record.target, record.element, answer, record.readings, record.earlier)
    state = NextSnapshot(snapshot)
    state.set_prescience(answered)
    seen_by = answer_seen_by(battle, record, state.storm_order)
    state.event(
        "prescience-answered",
        "battle.prescience.visibility",
        faction=record.target,
        element=record.element,
        answer=answer,
        visible_to=seen_by,
    )
    if not may_ask_again(state_with(state, context), battle, answered):
        single_question()
        state.prelude_done(PRESCIENCE)
    summary = {"prescience": {"target": record.target, "element": record.element, "answered": True}}
    return finish(snapshot, state, summary, trace, context)


def state_with(state: NextSnapshot, context: Context) -> NextSnapshot:
    state.readings = context.interpretations
    return state


def answer_fields(record: PrescienceRecord) -> tuple[str, ...]:
    """The plan fields an answer names: the element's, and the support spice with a dial under
    prescience-dial-support with-support."""
    if record.element == "dial" and record.readings.get(DIAL_SUPPORT) == WITH_SUPPORT:
        return (*ELEMENT_FIELDS["dial"], "spice")
    return ELEMENT_FIELDS[record.element]


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
        "prescience-visibility": ("seen-by-the-battle", "public"),
        "prescience-second-question": ("none-after-answer", "may-ask-again"),
        "prescience-dial-support": ("wheel-only", "with-support"),
        "prescience-answer-unreachable": ("highest-reachable", "released"),
    },
)
