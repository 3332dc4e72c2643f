"""Truthtrance in the Battle phase (`play-truthtrance`): the card is played from the hand and
discarded and the question put is recorded as a public event.

A free-text question changes nothing: the open decision stays open and no plan is bound, under either
reading of question truthtrance-binds-plan (the engine cannot tie free text to a plan). A structured
question (`subject`, one of the Voice's subjects) asks a side of the battle whether it will play a card
of that kind in this battle: the asked side answers yes or no in a public `truthtrance-answer`
decision, and the open decision is then opened again as it was. Under `answer-binds` the answer binds
the plan as a Voice play/not-play command does (released when no plan it could lock honours it);
under `answer-not-held` it is recorded and binds nothing.

A structured question asks a side of a battle whose plans are not revealed (`not-a-side` otherwise:
a question about anything else is put without `subject`), while the Voice, the Prescience or a plan
is awaited (the decisions it can reopen as they were; `question-waits` while another decision is
open). A side whose plan is locked answers as the plan stands: the card compels the truth, so that
answer is its one option. Whether a player may play the card shows whether it holds one, so only
that player (or a referee) can have it ruled (`HIDDEN_LEGALITY`). Outside the Battle phase the card
is answered `not-implemented`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import card_kind
from adjudicator.core.decisions import TruthtranceAnswerDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, illegal, resolved, ruled
from adjudicator.core.snapshot import Decision, Plan, Snapshot, TruthtranceAnswer
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, Phase
from adjudicator.rules.battle.commands import PLAY, obeys, voice_subjects
from adjudicator.rules.state import NextSnapshot, finish

BINDS_QUESTION = "truthtrance-binds-plan"
ANSWERS = ("yes", "no")
# the open decisions a structured question may interrupt: their step reopens them as they were
RESUMABLE = frozenset(
    {
        DecisionType.VOICE.value,
        DecisionType.PRESCIENCE.value,
        DecisionType.PRESCIENCE_ANSWER.value,
        DecisionType.BATTLE_PLAN.value,
    }
)


def _violations(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    player = action.player
    if snapshot.phase is not Phase.BATTLE:
        return [
            Violation(
                "not-implemented",
                "this engine version adjudicates a Truthtrance only in the Battle phase",
                "/snapshot/phase",
            )
        ]
    if player is None or player not in snapshot.factions:
        return [Violation("missing-player", "name the faction playing the Truthtrance", "/action/player")]
    card = action.fields.get("card")
    if not isinstance(card, str) or card_kind(card) != "truthtrance" or card not in snapshot.factions[player].hand:
        return [
            Violation(
                "no-truthtrance", f"{player} holds no Truthtrance card {card}", "/action/card", "cards.truthtrance.play"
            )
        ]
    target = action.fields.get("target")
    if target == player or target not in snapshot.factions:
        return [
            Violation(
                "bad-target", "name another faction of this game to answer", "/action/target", "cards.truthtrance.play"
            )
        ]
    if not action.fields.get("question"):
        return [Violation("missing-question", "name the question asked", "/action/question", "cards.truthtrance.play")]
    if action.fields.get("subject") is not None:
        return _subject_violations(snapshot, action, str(target))
    return []


def _subject_violations(snapshot: Snapshot, action: Action, target: str) -> list[Violation]:
    subject = action.fields.get("subject")
    if subject not in voice_subjects(snapshot):
        return [
            Violation(
                "bad-subject",
                f"a structured question names a kind of card of this game: {voice_subjects(snapshot)}",
                "/action/subject",
                "cards.truthtrance.question",
            )
        ]
    battle, pending = snapshot.battle, snapshot.pending
    if (
        battle is None
        or battle.resolution is not None
        or battle.revealed
        or target not in (battle.aggressor, battle.defender)
    ):
        return [
            Violation(
                "not-a-side",
                "a structured question asks a side of a battle whose plans are not revealed about its plan;"
                " put any other question without subject",
                "/action/target",
                "cards.truthtrance.question",
            )
        ]
    if pending is None or pending.type not in RESUMABLE:
        return [
            Violation(
                "question-waits",
                "a structured question waits while the open decision is not the Voice, the Prescience or a battle plan",
                "/snapshot/pending/type",
                "cards.truthtrance.question",
            )
        ]
    return []


@rule("cards.truthtrance.play")
def play_truthtrance(state: NextSnapshot, player: str, card: str, target: str, question: str) -> None:
    state.discard_from_hand(player, card)
    state.event("card-discarded", "cards.truthtrance.play", faction=player, card=card)
    state.event("truthtrance-played", "cards.truthtrance.play", faction=player, target=target, question=question)


@rule("cards.truthtrance.battle")
def plans_unchanged() -> None:
    pass


@rule("cards.truthtrance.question")
def ask(state: NextSnapshot, player: str, target: str, subject: str) -> dict[str, Any]:
    decision = opened(
        target, TruthtranceAnswerDecision(territory=state.battle_territory, owner=player, subject=subject)
    )
    state.set_pending(decision)
    return decision


@ruled()
def truthtrance(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = _violations(snapshot, action, context)
    if problems:
        return illegal(snapshot, problems, trace, context)
    assert action.player is not None
    card, target, question = (str(action.fields[k]) for k in ("card", "target", "question"))
    state = NextSnapshot(snapshot)
    play_truthtrance(state, action.player, card, target, question)
    summary: dict[str, Any] = {"truthtrance": {"player": action.player, "target": target, "question": question}}
    subject = action.fields.get("subject")
    if subject is not None:
        summary["truthtrance"]["subject"] = subject
        decision: dict[str, Any] | None = ask(state, action.player, target, str(subject))
        options = context.rulebook.options(state.as_snapshot())
        return resolved(state.outcome(summary), decision, options, trace, context)
    if snapshot.battle is not None:
        plans_unchanged()
    decision = None if snapshot.pending is None else snapshot.pending.to_dict()
    return resolved(state.outcome(summary), decision, context.rulebook.options(state.as_snapshot()), trace, context)


def answer_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    battle, player = snapshot.battle, decision.player
    answers: tuple[str, ...] = ANSWERS
    if battle is not None and player is not None and player in battle.plans:
        answers = (locked_plan_answer(battle.plans[player], str(decision.get("subject"))),)
    return [{"type": ActionType.ANSWER_TRUTHTRANCE.value, "player": player, "answer": a} for a in answers]


@rule("cards.truthtrance.locked-plan")
def locked_plan_answer(plan: Plan, subject: str) -> str:
    return "yes" if obeys(plan, PLAY, subject) else "no"


@rule("cards.truthtrance.answer-binds")
def hold(state: NextSnapshot, answer: TruthtranceAnswer) -> None:
    state.hold_truthtrance(answer)


@ruled(answers(DecisionType.TRUTHTRANCE_ANSWER.value))
def answer_truthtrance(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    assert pending is not None and action.player is not None
    asked = pending.as_(TruthtranceAnswerDecision)
    answer = TruthtranceAnswer(str(asked.owner), action.player, str(asked.subject), str(action.fields["answer"]))
    state = NextSnapshot(snapshot)
    binds = context.choice(BINDS_QUESTION) == "answer-binds"
    state.event(
        "truthtrance-answered",
        "cards.truthtrance.answer-binds" if binds else "cards.truthtrance.battle",
        faction=action.player,
        **answer.to_dict(),
        binds=binds,
    )
    if binds:
        hold(state, answer)
    else:
        plans_unchanged()
    return finish(snapshot, state, {"truthtrance": {**answer.to_dict(), "binds": binds}}, trace, context)


DECLARED = RuleModule(
    handlers={ActionType.PLAY_TRUTHTRANCE: truthtrance, ActionType.ANSWER_TRUTHTRANCE: answer_truthtrance},
    decisions={DecisionType.TRUTHTRANCE_ANSWER.value: DecisionKind(answer_options)},
    implements={BINDS_QUESTION: ("answer-not-held", "answer-binds")},
)
