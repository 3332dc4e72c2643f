"""The Mentat's normal effect: before a battle's plans, a side whose Mentat lies face up with its skill
card may ask the side it faces whether it holds a named weapon, and is shown a card.

The question is the first step before the plans (`battle.prelude` begins with it). Whether it is
offered depends on the face-up skill alone, a public fact; the answer is always asked of the
opponent, whatever it holds, so the flow shows nobody's hand. The question and the named weapon are
public (`battle.mentat`); the card shown is kept there and in an event, both seen by the asker and the
side that showed it alone (other viewers see them redacted). The answer binds nothing in the plans.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import card_kind, catalog, copies_in_play
from adjudicator.core.decisions import MentatAnswerDecision, MentatQuestionDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, MentatQuestion, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, BattlePower, CardCategory, DecisionType
from adjudicator.rules.battle.karama_window import open_power_window
from adjudicator.rules.skills import MENTAT, face_up_skills, skills_on
from adjudicator.rules.state import NextSnapshot, finish

STEP = DecisionType.MENTAT_QUESTION.value
NAMES_QUESTION = "mentat-two-role-weapons"
WEAPONS_ONLY = "weapon-cards-only"
ANY_ROLE = "any-weapon-role"
KARAMA_QUESTION = "mentat-question-karama"
MENTAT_POWER = BattlePower.MENTAT_QUESTION.value  # the power a Karama window on the question names
WEAPON_CATEGORIES = frozenset({CardCategory.POISON_WEAPON, CardCategory.PROJECTILE_WEAPON, CardCategory.SPECIAL_WEAPON})
DEFENSE_CATEGORIES = frozenset(
    {CardCategory.POISON_DEFENSE, CardCategory.PROJECTILE_DEFENSE, CardCategory.SPECIAL_DEFENSE}
)


@rule("skills.mentat.question.who")
def askers(snapshot: Snapshot, battle: Battle) -> list[str]:
    return [side for side in (battle.aggressor, battle.defender) if MENTAT in face_up_skills(snapshot, side, None)]


@rule("skills.mentat.question.first")
def asked_before_faction_powers() -> None:
    pass


def mentat_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: a question awaiting its answer asks the opponent; else a side with a face-up
    Mentat that has neither asked nor declined is offered the question; None when none is left (or
    Leader Skills are not in play)."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    if not skills_on(snapshot):
        return None
    waiting = next((m for m in battle.mentat if m.weapon is not None and not m.answered), None)
    if waiting is not None:
        answer = MentatAnswerDecision(territory=battle.territory, asker=waiting.player, weapon=waiting.weapon)
        return opened(waiting.target, answer)
    candidates = askers(snapshot, battle)
    if not candidates:
        return None
    # one Mentat card exists, so at most one side asks; a side asks once
    side = next((s for s in candidates if s not in {m.player for m in battle.mentat}), None)
    if side is None:
        return None
    asked_before_faction_powers()
    opponent = battle.defender if side == battle.aggressor else battle.aggressor
    # the options are listed from the snapshot alone: a reading other than the default is kept on it
    names = ANY_ROLE if state.readings.get(NAMES_QUESTION) == ANY_ROLE else None
    return opened(side, MentatQuestionDecision(territory=battle.territory, opponent=opponent, names=names))


@rule("skills.mentat.question.names")
def nameable_weapons(snapshot: Snapshot, reading: str) -> list[str]:
    ruleset = snapshot.ruleset
    return [
        kind.kind
        for kind in catalog().cards.values()
        if (
            kind.category in WEAPON_CATEGORIES
            or (reading == ANY_ROLE and kind.category in DEFENSE_CATEGORIES and "weapon" in kind.roles)
        )
        and copies_in_play(kind.kind, ruleset.expansions, ruleset.variants)
    ]


def question_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    reading = decision.as_(MentatQuestionDecision).names or WEAPONS_ONLY
    options: list[dict[str, Any]] = [
        {"type": ActionType.ASK_MENTAT.value, "player": player, "weapon": weapon}
        for weapon in nameable_weapons(snapshot, reading)
    ]
    options.append({"type": ActionType.DECLINE_MENTAT.value, "player": player})
    return options


@rule("skills.mentat.question.show")
def cards_to_show(hand: tuple[str, ...], weapon: str) -> list[str | None]:
    named = [card for card in hand if card_kind(card) == weapon]
    if named:
        return list(named)
    return list(hand) if hand else [None]


def answer_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    asked = decision.as_(MentatAnswerDecision)
    player = decision.player
    if player is None or player not in snapshot.factions or asked.weapon is None:
        return []
    return [
        {"type": ActionType.SHOW_MENTAT_CARD.value, "player": player, "card": card}
        for card in cards_to_show(snapshot.factions[player].hand, asked.weapon)
    ]


@rule("skills.mentat.question.karama")
def karama_may_cancel(choice: str) -> bool:
    return choice == "cancels-the-question"


def _recorded_names(snapshot: Snapshot) -> str:
    pending = snapshot.pending
    if pending is None or pending.type != STEP:
        return WEAPONS_ONLY
    return pending.as_(MentatQuestionDecision).names or WEAPONS_ONLY


def names_conflict(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The question's options were listed under the reading of mentat-two-role-weapons its decision
    records (`names`); a request answering it cannot read that question otherwise."""
    chosen = context.interpretations.get(NAMES_QUESTION)
    recorded = _recorded_names(snapshot)
    if chosen is None or chosen == recorded:
        return []
    nameable_weapons(snapshot, recorded)
    return [
        Violation(
            "interpretation-mismatch",
            f"this Mentat question was opened under {recorded!r} (its decision's names); its answer cannot"
            " read it otherwise",
            f"/interpretations/{NAMES_QUESTION}",
            "skills.mentat.question.names",
        )
    ]


def under_recorded_names(snapshot: Snapshot, context: Context) -> Context:
    """The context whose provenance names the recorded reading the answer followed, where the request
    left it to the default and the decision was opened under another."""
    recorded = _recorded_names(snapshot)
    if recorded == WEAPONS_ONLY or NAMES_QUESTION in context.interpretations:
        return context
    return context.under({NAMES_QUESTION: recorded})


@ruled(answers(STEP), names_conflict)
def ask_mentat(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and action.player is not None
    target = battle.defender if action.player == battle.aggressor else battle.aggressor
    weapon = str(action.fields["weapon"])
    cancellable = karama_may_cancel(context.choice(KARAMA_QUESTION))
    state = NextSnapshot(snapshot)
    state.record_mentat_question(MentatQuestion(action.player, target, weapon, False))
    state.event("mentat-asked", "skills.mentat.question.names", faction=action.player, target=target, weapon=weapon)
    summary = {"mentat": {"player": action.player, "target": target, "weapon": weapon}}
    window = open_power_window(state, action.player, MENTAT_POWER) if cancellable else None
    if window is None:
        return finish(snapshot, state, summary, trace, under_recorded_names(snapshot, context))
    state.set_pending(window)
    following = state.as_snapshot()
    outcome = state.outcome(summary)
    return resolved(
        outcome, window, context.rulebook.options(following), trace, under_recorded_names(snapshot, context)
    )


@ruled(answers(STEP), names_conflict)
def decline_mentat(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and action.player is not None
    target = battle.defender if action.player == battle.aggressor else battle.aggressor
    state = NextSnapshot(snapshot)
    state.record_mentat_question(MentatQuestion(action.player, target, None, True))
    state.event("mentat-declined", "skills.mentat.question.who", faction=action.player)
    return finish(snapshot, state, {"mentat": None}, trace, under_recorded_names(snapshot, context))


@rule("skills.mentat.question.seen-by")
def shown_to(asker: str, shower: str) -> list[str]:
    return [asker, shower]


@rule("skills.mentat.question.not-binding")
def plan_left_free() -> None:
    pass


@ruled(answers(DecisionType.MENTAT_ANSWER.value))
def show_mentat_card(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    battle = snapshot.battle
    assert battle is not None and action.player is not None
    asked = next(m for m in battle.mentat if m.weapon is not None and not m.answered)
    card = action.fields.get("card")
    assert card is None or isinstance(card, str)
    state = NextSnapshot(snapshot)
    state.record_mentat_question(MentatQuestion(asked.player, asked.target, asked.weapon, True, card))
    state.event(
        "mentat-card-shown",
        "skills.mentat.question.seen-by",
        faction=action.player,
        to=asked.player,
        card=card,
        visible_to=shown_to(asked.player, action.player),
    )
    plan_left_free()
    return finish(snapshot, state, {"mentat": {"answered": True, "target": action.player}}, trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.ASK_MENTAT: ask_mentat,
        ActionType.DECLINE_MENTAT: decline_mentat,
        ActionType.SHOW_MENTAT_CARD: show_mentat_card,
    },
    decisions={
        STEP: DecisionKind(question_options),
        DecisionType.MENTAT_ANSWER.value: DecisionKind(answer_options),
    },
    steps={STEP: mentat_step},
    implements={
        NAMES_QUESTION: (WEAPONS_ONLY, ANY_ROLE),
        KARAMA_QUESTION: ("no-effect", "cancels-the-question"),
    },
)
