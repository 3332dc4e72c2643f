"""The Bene Gesserit Voice: in their battle or their ally's, a command to the opposing side to play,
or not to play, one kind of card.

The Voice is spoken at the table, so it is public: it is recorded in `battle.voice` and opens a Karama
window on it; once the window closes without a cancellation the command stands and the plan checks
(`plans.voice_violations`) hold the commanded side to it as far as it can obey.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import VoiceDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, Snapshot, VoiceCommand
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId
from adjudicator.rules.battle.commands import NOT_PLAY, PLAY, VOICE, voice_subjects
from adjudicator.rules.battle.karama_window import open_power_window
from adjudicator.rules.state import NextSnapshot, finish

BENE_GESSERIT = FactionId.BENE_GESSERIT.value


def facing(snapshot: Snapshot, battle: Battle, faction: str) -> str | None:
    """The side a faction's battle power is used on: the opponent of the faction, or of its ally,
    when either fights this battle (None: neither does)."""
    if faction not in snapshot.factions:
        return None
    sides = (battle.aggressor, battle.defender)
    ally = snapshot.factions[faction].ally
    for friend in (faction, ally):
        if friend in sides:
            return sides[1] if friend == sides[0] else sides[0]
    return None


@rule("battle.voice.who")
def voice_target(snapshot: Snapshot, battle: Battle) -> str | None:
    return facing(snapshot, battle, BENE_GESSERIT)


def voice_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: the Voice offered, unless the Bene Gesserit have no side here, it is cancelled
    or already spoken."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    if BENE_GESSERIT not in snapshot.factions or battle.voice is not None or battle.cancelled(VOICE, BENE_GESSERIT):
        return None
    target = voice_target(snapshot, battle)
    if target is None:
        return None
    return opened(BENE_GESSERIT, VoiceDecision(territory=battle.territory, opponent=target))


def voice_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.USE_VOICE.value, "player": player, "command": command, "subject": subject}
        for subject in voice_subjects(snapshot)
        for command in (PLAY, NOT_PLAY)
    ]
    options.append({"type": ActionType.DECLINE_VOICE.value, "player": player})
    return options


@rule("battle.voice.command")
def speak(state: NextSnapshot, voice: VoiceCommand) -> None:
    state.set_voice(voice)
    state.event("voice-used", "battle.voice.command", faction=voice.player, **voice.to_dict())


@ruled(answers(DecisionType.VOICE.value))
def use_voice(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    assert pending is not None and action.player is not None
    target = str(pending.as_(VoiceDecision).opponent)
    voice = VoiceCommand(action.player, target, str(action.fields["command"]), str(action.fields["subject"]))
    state = NextSnapshot(snapshot)
    speak(state, voice)
    summary = {"voice": voice.to_dict()}
    window = open_power_window(state, action.player, VOICE)
    if window is None:
        return finish(snapshot, state, summary, trace, context)
    state.set_pending(window)
    following = state.as_snapshot()
    return resolved(state.outcome(summary), window, context.rulebook.options(following), trace, context)


@rule("battle.voice.decline")
def decline(state: NextSnapshot, player: str) -> None:
    state.event("voice-declined", "battle.voice.decline", faction=player)
    state.prelude_done(VOICE)


@ruled(answers(DecisionType.VOICE.value))
def decline_voice(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    state = NextSnapshot(snapshot)
    decline(state, action.player)
    return finish(snapshot, state, {"voice": None}, trace, context)


DECLARED = RuleModule(
    handlers={ActionType.USE_VOICE: use_voice, ActionType.DECLINE_VOICE: decline_voice},
    decisions={DecisionType.VOICE.value: DecisionKind(voice_options)},
    steps={DecisionType.VOICE.value: voice_step},
    implements={"voice-only-hero-forbidden": ("cannot-comply",), "voice-prescience-order": ("voice-first",)},
)
