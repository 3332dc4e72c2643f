"""Truthtrance in the Battle phase (`play-truthtrance`): the card is played from the hand and
discarded, the question put is recorded as a public event, and nothing else changes: the open
decision stays open and no plan is touched.

The question is free text put to the table, so the engine holds no answer against later actions
(question truthtrance-binds-plan). Whether a player may play it shows whether it holds one, so only
that player (or a referee) can have it ruled (`HIDDEN_LEGALITY`). Outside the Battle phase the card
is answered `not-implemented`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import card_kind
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, Phase
from adjudicator.rules.state import NextSnapshot

BINDS_QUESTION = "truthtrance-binds-plan"


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
    return []


@rule("cards.truthtrance.play")
def play_truthtrance(state: NextSnapshot, player: str, card: str, target: str, question: str) -> None:
    state.discard_from_hand(player, card)
    state.event("card-discarded", "cards.truthtrance.play", faction=player, card=card)
    state.event("truthtrance-played", "cards.truthtrance.play", faction=player, target=target, question=question)


@rule("cards.truthtrance.battle")
def plans_unchanged(context: Context) -> bool:
    return context.choice(BINDS_QUESTION) == "answer-not-held"


@ruled()
def truthtrance(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = _violations(snapshot, action, context)
    if problems:
        return illegal(snapshot, problems, trace, context)
    assert action.player is not None
    card, target, question = (str(action.fields[k]) for k in ("card", "target", "question"))
    state = NextSnapshot(snapshot)
    play_truthtrance(state, action.player, card, target, question)
    if snapshot.battle is not None:
        plans_unchanged(context)
    summary: dict[str, Any] = {"truthtrance": {"player": action.player, "target": target, "question": question}}
    decision = None if snapshot.pending is None else snapshot.pending.to_dict()
    return resolved(state.outcome(summary), decision, context.rulebook.options(state.as_snapshot()), trace, context)


DECLARED = RuleModule(
    handlers={ActionType.PLAY_TRUTHTRANCE: truthtrance},
    implements={BINDS_QUESTION: ("answer-not-held",)},
)
