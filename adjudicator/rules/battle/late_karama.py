"""A Karama against a standing Voice or Prescience sent outside its window (question
karama-battle-deadline).

Under the default `immediate` reading a Karama stops the Voice or the Prescience only in the window
opened right after its use, so a `karama-cancel` naming `power: voice|prescience` while no window is
open is refused. Under `until-reveal` it is accepted from any faction but the power's user that holds a
card it may play as a Karama, at any moment before the battle's plans are revealed: the card is spent
and the command or answer stops binding; the open decision stays open, except a Prescience answer still
awaited, which is no longer asked. Whether the player holds such a card is its own secret, so another
viewer gets `hidden-from-viewer`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, Phase
from adjudicator.rules.battle.commands import PRESCIENCE, VOICE
from adjudicator.rules.battle.karama_window import cancel_power
from adjudicator.rules.moritani.retention import usable_as_karama
from adjudicator.rules.state import NextSnapshot, finish

DEADLINE_QUESTION = "karama-battle-deadline"
LATE_POWERS = (VOICE, PRESCIENCE)


def applies(snapshot: Snapshot, action: Action) -> bool:
    """Whether a `karama-cancel` sent while no window is open names a Voice or Prescience of an
    unrevealed battle (the case the question governs)."""
    battle = snapshot.battle
    return (
        action.type is ActionType.KARAMA_CANCEL
        and snapshot.phase is Phase.BATTLE
        and battle is not None
        and battle.resolution is None
        and not battle.revealed
        and action.fields.get("power") in LATE_POWERS
    )


def _user(snapshot: Snapshot, power: str) -> str | None:
    battle = snapshot.battle
    assert battle is not None
    if power == VOICE:
        return None if battle.voice is None else battle.voice.player
    return None if battle.prescience is None else battle.prescience.player


@rule("battle.karama.deadline")
def deadline(context: Context) -> str:
    return context.choice(DEADLINE_QUESTION)


def _violations(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    if deadline(context) != "until-reveal":
        return [
            Violation(
                "no-such-decision",
                "no Karama window is open: a Karama stops the Voice or the Prescience only in the window right"
                " after its use",
                "/action/type",
                "battle.karama.deadline",
            )
        ]
    player, power = action.player, str(action.fields["power"])
    if player is None or player not in snapshot.factions:
        return [Violation("missing-player", "name the faction playing the Karama", "/action/player")]
    user = _user(snapshot, power)
    if user is None:
        return [
            Violation("no-such-power", f"no {power} stands in this battle", "/action/power", "battle.karama.deadline")
        ]
    if player == user:
        return [
            Violation(
                "own-power", f"{player} cannot cancel its own {power}", "/action/player", "battle.karama.deadline"
            )
        ]
    if context.viewer is not None and context.viewer != player:
        return [
            Violation(
                "hidden-from-viewer",
                f"whether {player} may do this shows what it holds: only {player}, or a referee with no viewer,"
                " can have it ruled",
                "/viewer",
                "secrecy.private-answers",
            )
        ]
    card = action.fields.get("card")
    held = usable_as_karama(snapshot.factions[player].hand, player, snapshot.ruleset.advanced)
    if card not in held:
        return [
            Violation(
                "no-karama",
                f"{player} holds no card {card} it may play as a Karama",
                "/action/card",
                "battle.karama.deadline",
            )
        ]
    return []


@ruled()
def late_cancel(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = _violations(snapshot, action, context)
    if problems:
        return illegal(snapshot, problems, trace, context)
    assert action.player is not None
    power = str(action.fields["power"])
    user = _user(snapshot, power)
    assert user is not None
    state = NextSnapshot(snapshot)
    cancel_power(state, action.player, str(action.fields["card"]), power, user)
    summary: dict[str, Any] = {"karama": {"cancelled": power, "of": user, "by": action.player}}
    pending = snapshot.pending
    if pending is not None and pending.type == DecisionType.PRESCIENCE_ANSWER.value and power == PRESCIENCE:
        state.prelude_done(PRESCIENCE)
        return finish(snapshot, state, summary, trace, context)
    decision = None if pending is None else pending.to_dict()
    return resolved(state.outcome(summary), decision, context.rulebook.options(state.as_snapshot()), trace, context)


DECLARED = RuleModule(implements={DEADLINE_QUESTION: ("immediate", "until-reveal")})
