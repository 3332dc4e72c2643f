"""The Bene Gesserit Voice: in their battle or their ally's, a command to the opposing side to play,
or not to play, one kind of card.

The Voice is spoken at the table, so it is public: it is recorded in `battle.voice` and opens a Karama
window on it; once the window closes without a cancellation the command stands and the plan checks
(`plans.voice_violations`) hold the commanded side to it as far as it can obey.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import VoiceDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, Snapshot, VoiceCommand
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId
from adjudicator.rules.battle.commands import (
    EITHER_CLASS,
    HERO_QUESTION,
    LEADERS_FIRST,
    LEADERS_QUESTION,
    MAY_REDO,
    NOT_PLAY,
    OBEY,
    PLAY,
    PRESCIENCE,
    REDO_QUESTION,
    TWO_KIND_QUESTION,
    VOICE,
    facing,
    power_available,
    uses_cancelled,
    voice_subjects,
)
from adjudicator.rules.battle.karama_window import open_power_window
from adjudicator.rules.battle.prescience import ATREIDES, prescience_step
from adjudicator.rules.state import NextSnapshot, finish

BENE_GESSERIT = FactionId.BENE_GESSERIT.value
# the window on Residual Poison and Juice of Sapho, whose later steps (cache-cards-battle-timing
# until-plans) sit among the Voice's and Prescience's
CARDS_WINDOW = DecisionType.PRE_BATTLE_CARDS.value


@rule("battle.voice.who")
def voice_target(snapshot: Snapshot, battle: Battle) -> str | None:
    return facing(snapshot, battle, BENE_GESSERIT)


ORDER_QUESTION = "voice-prescience-order"
PRESCIENCE_MAY_LEAD = ("either-order", "voice-lost-after-prescience")
# the readings a Voice records when chosen (the defaults are never recorded)
VOICE_READINGS = {HERO_QUESTION: OBEY, TWO_KIND_QUESTION: EITHER_CLASS, LEADERS_QUESTION: LEADERS_FIRST}


def voice_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: the Voice offered, unless the Bene Gesserit have no side here, it is cancelled
    or already spoken. Where the reading lets Prescience come first, the Atreides are asked first."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    order = state.readings.get(ORDER_QUESTION)
    if order in PRESCIENCE_MAY_LEAD:
        early = prescience_first(state, battle)
        if early is not None:
            return early
    if (
        BENE_GESSERIT not in snapshot.factions
        or battle.voice is not None
        or not power_available(battle, VOICE, BENE_GESSERIT, state.readings)
    ):
        return _voice_over(state, battle, order)
    if order == "voice-lost-after-prescience" and battle.prescience is not None:
        voice_lost()
        return _voice_over(state, battle, order)
    target = voice_target(snapshot, battle)
    if target is None:
        return _voice_over(state, battle, order)
    return opened(BENE_GESSERIT, VoiceDecision(territory=battle.territory, opponent=target))


@rule("battle.prelude.voice-lost")
def voice_lost() -> None:
    pass


def prescience_first(state: NextSnapshot, battle: Battle) -> dict[str, Any] | None:
    """Prescience asked before the Voice: once, while the Voice step is still ahead of it and no
    Voice is spoken (the prelude then runs Prescience, the Voice, and Prescience again if passed)."""
    prelude = list(battle.prelude)
    powers = [step for step in prelude if step != CARDS_WINDOW]
    if battle.voice is not None or powers[:2] != [VOICE, PRESCIENCE] or battle.prescience is not None:
        return None
    decision = prescience_step(state)
    if decision is None:
        return None
    prescience_may_lead()
    # the two trade places; a later step of the cards window stays where it was, after the first of them
    swapped = {VOICE: PRESCIENCE, PRESCIENCE: VOICE}
    state.reorder_prelude([swapped.get(step, step) for step in prelude])
    return decision


@rule("battle.prelude.either-order")
def prescience_may_lead() -> None:
    pass


def _voice_over(state: NextSnapshot, battle: Battle, order: str | None) -> dict[str, Any] | None:
    """The Voice step is over; where Prescience was passed before it, it is offered again after."""
    if order in PRESCIENCE_MAY_LEAD:
        _offer_prescience_again(state, battle)
    return None


def _offer_prescience_again(state: NextSnapshot, battle: Battle) -> None:
    prelude = list(battle.prelude)
    if PRESCIENCE in prelude or battle.prescience is not None or battle.cancelled(PRESCIENCE, ATREIDES):
        return
    if prelude and prelude[0] == VOICE:
        at = 1
        while at < len(prelude) and prelude[at] == CARDS_WINDOW:
            at += 1  # the cards window's later step after the Voice stays right after it
        state.reorder_prelude([*prelude[:at], PRESCIENCE, *prelude[at:]])


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
    battle = snapshot.battle
    assert battle is not None
    target = pending.as_(VoiceDecision).opponent or voice_target(snapshot, battle)
    assert target is not None  # the snapshot's checks: the Bene Gesserit or their ally fight here
    chosen = {q: c for q, c in VOICE_READINGS.items() if context.interpretations.get(q) == c}
    if uses_cancelled(battle, VOICE, action.player):
        chosen[REDO_QUESTION] = MAY_REDO  # a Voice used again after a cancellation
    voice = VoiceCommand(
        action.player, target, str(action.fields["command"]), str(action.fields["subject"]), MappingProxyType(chosen)
    )
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
def decline(state: NextSnapshot, player: str, order: str | None = None) -> None:
    state.event("voice-declined", "battle.voice.decline", faction=player)
    if order in PRESCIENCE_MAY_LEAD:
        battle = state.as_snapshot().battle
        assert battle is not None
        _offer_prescience_again(state, battle)
    state.prelude_done(VOICE)


@ruled(answers(DecisionType.VOICE.value))
def decline_voice(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    state = NextSnapshot(snapshot)
    decline(state, action.player, context.interpretations.get(ORDER_QUESTION))
    return finish(snapshot, state, {"voice": None}, trace, context)


DECLARED = RuleModule(
    handlers={ActionType.USE_VOICE: use_voice, ActionType.DECLINE_VOICE: decline_voice},
    decisions={DecisionType.VOICE.value: DecisionKind(voice_options)},
    steps={DecisionType.VOICE.value: voice_step},
    implements={
        "voice-only-hero-forbidden": ("cannot-comply", "obey"),
        "voice-prescience-order": ("voice-first", "either-order", "voice-lost-after-prescience"),
        "voice-two-kind-cards": ("own-name-only", "either-class"),
    },
)
