"""The Karama windows of a battle before its plans: on a Voice or Prescience just used, and one on
the powers that act once the plans are made.

A window asks every faction but the power's user, holder or not, one at a time in storm order, so
whether it opens and whom it asks reveal nobody's hand. A `karama-cancel` spends the card and records
the cancellation in `battle.karama`; it closes a window on a Voice or Prescience, while the window on
the later powers goes on for those still listed (the canceller asked again first, whatever it holds);
after the last `karama-pass` the power stands. Either way the battle goes on through `finish`: the
Voice or Prescience step builder then reads the battle's records (a cancelled or spoken Voice needs
no more; a standing Prescience awaits its answer), and the window on the later powers ends its own
prelude step.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.decisions import BattleKaramaDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, KaramaUse, MentatQuestion, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, BattlePower, DecisionType
from adjudicator.rules.battle.commands import PRESCIENCE, VOICE
from adjudicator.rules.battle.plans import ALLY_TRAITS, TRAITS_QUESTION
from adjudicator.rules.battle.powers import powers_in_battle
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.ghola import TLEILAXU, holds_gholas
from adjudicator.rules.moritani.retention import held_karamas
from adjudicator.rules.richese import in_battle
from adjudicator.rules.state import NextSnapshot, finish

WINDOW = DecisionType.BATTLE_KARAMA.value


@rule("battle.karama.window")
def window_responders(storm_order: tuple[str, ...], users: set[str]) -> list[str]:
    return [f for f in storm_order if f not in users]


def _asked(
    state: NextSnapshot, owner: str | None, power: str | None, responders: list[str], traits: str | None = None
) -> dict[str, Any]:
    record = BattleKaramaDecision(
        owner=owner,
        power=power,
        responders=tuple(responders[1:]),
        eligible=tuple(held_karamas(state, responders[0])),
        dialed_traits=traits,
    )
    decision = opened(responders[0], record)
    if traits is None:
        decision.pop("dialed_traits", None)  # kept only when it changes the list
    return decision


def listed_under(snapshot: Snapshot, battle: Battle, traits: str) -> str | None:
    """The reading of occupy-dialed-force-traits a later-powers window keeps: `traits` when it lists
    other powers than the default reading would, None otherwise."""
    if traits == ALLY_TRAITS or powers_in_battle(snapshot, battle, traits) == powers_in_battle(
        snapshot, battle, ALLY_TRAITS
    ):
        return None
    return traits


def window_traits(window: BattleKaramaDecision) -> str:
    return window.dialed_traits or ALLY_TRAITS


def open_power_window(state: NextSnapshot, owner: str, power: str) -> dict[str, Any] | None:
    """The window on `owner`'s `power` just used: its first decision, or None when nobody is to be
    asked. The caller sets it pending; the window's close continues the battle through `finish`."""
    responders = window_responders(state.storm_order, {owner})
    return _asked(state, owner, power, responders) if responders else None


@rule("battle.karama.no-field-and-ghola")
def no_field_or_ghola_power() -> None:
    pass


def _holds_new_powers(snapshot: Snapshot, battle: Battle) -> bool:
    """Whether a No-Field token lies in this battle Richese fights, or the Tleilaxu fight it holding a ghola."""
    sides = (battle.aggressor, battle.defender)
    token = in_battle(snapshot, battle, battle_sectors(snapshot)) if snapshot.no_field is not None else None
    return token is not None or (TLEILAXU in sides and holds_gholas(snapshot))


@rule("battle.karama.later-powers")
def later_powers_window(state: NextSnapshot) -> dict[str, Any] | None:
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    traits = choice_of(state.readings, TRAITS_QUESTION)
    powers = powers_in_battle(snapshot, battle, traits)
    if _holds_new_powers(snapshot, battle):
        no_field_or_ghola_power()  # neither is among the powers the window offers
    if not powers:
        return None
    owners = {owner for _, owner in powers}
    responders = window_responders(state.storm_order, owners if len(owners) == 1 else set())
    kept = listed_under(snapshot, battle, traits)
    return _asked(state, None, None, responders, kept) if responders else None


def window_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    window = decision.as_(BattleKaramaDecision)
    player = decision.player
    options: list[dict[str, Any]] = []
    if window.power is not None:
        options += [
            {"type": ActionType.KARAMA_CANCEL.value, "player": player, "card": card} for card in window.eligible
        ]
    elif snapshot.battle is not None:
        listed = powers_in_battle(snapshot, snapshot.battle, window_traits(window))
        targets = [(p.value, owner) for p, owner in listed if owner != player]
        options += [
            {"type": ActionType.KARAMA_CANCEL.value, "player": player, "card": card, "power": power, "target": target}
            for card in window.eligible
            for power, target in targets
        ]
    options.append({"type": ActionType.KARAMA_PASS.value, "player": player})
    return options


@rule("battle.karama.cancel")
def cancel_power(state: NextSnapshot, player: str, card: str, power: str, target: str) -> None:
    state.discard_from_hand(player, card)
    state.event("card-discarded", "battle.karama.cancel", faction=player, card=card, karama=True)
    state.record_karama(KaramaUse(player, power, target, card))
    state.event("power-cancelled", "battle.karama.cancel", faction=target, power=power, by=player)
    if power == VOICE:
        state.set_voice(None)
    elif power == PRESCIENCE:
        state.set_prescience(None)
    elif power == BattlePower.MENTAT_QUESTION:
        question_cancelled(state, target)


@rule("battle.karama.mentat-question")
def question_cancelled(state: NextSnapshot, asker: str) -> None:
    battle = state.as_snapshot().battle
    assert battle is not None
    asked = next(m for m in battle.mentat if m.player == asker and m.weapon is not None and not m.answered)
    # the question is over and nothing was shown; battle.karama tells it from an empty hand's answer
    state.record_mentat_question(MentatQuestion(asked.player, asked.target, asked.weapon, True, None))


@rule("battle.karama.later-powers-go-on")
def window_goes_on(canceller: str, responders: tuple[str, ...]) -> list[str]:
    return [canceller, *responders]


@rule("battle.karama.pass")
def power_stands(state: NextSnapshot, owner: str | None, power: str | None) -> None:
    state.event("power-stands", "battle.karama.pass", faction=owner, power=power)


@ruled(answers(WINDOW))
def answer_window(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    assert pending is not None and action.player is not None
    window = pending.as_(BattleKaramaDecision)
    state = NextSnapshot(snapshot)
    if action.type is ActionType.KARAMA_CANCEL:
        power = window.power if window.power is not None else str(action.fields["power"])
        target = window.owner if window.owner is not None else str(action.fields["target"])
        cancel_power(state, action.player, str(action.fields["card"]), power, target)
        summary = {"karama": {"cancelled": power, "of": target, "by": action.player}}
        if window.power is None:
            following = state.as_snapshot()
            assert following.battle is not None
            traits = window_traits(window)
            if powers_in_battle(following, following.battle, traits):
                # the other powers still listed: the canceller may stop another, then the rest are asked
                responders = window_goes_on(action.player, window.responders)
                decision = _asked(state, None, None, responders, listed_under(following, following.battle, traits))
                state.set_pending(decision)
                following = state.as_snapshot()
                outcome = state.outcome(summary)
                return resolved(outcome, decision, context.rulebook.options(following), trace, context)
            state.prelude_done(WINDOW)
        return finish(snapshot, state, summary, trace, context)
    responders = list(window.responders)
    if responders:
        window_responders(tuple([action.player, *responders]), set())  # the window's order asks the next
        decision = _asked(state, window.owner, window.power, responders, window.dialed_traits)
        state.set_pending(decision)
        following = state.as_snapshot()
        outcome = state.outcome({"karama": {"passed": action.player, "power": window.power}})
        return resolved(outcome, decision, context.rulebook.options(following), trace, context)
    power_stands(state, window.owner, window.power)
    if window.power is None:
        state.prelude_done(WINDOW)
    return finish(snapshot, state, {"karama": {"passed": action.player, "stands": window.power}}, trace, context)


DECLARED = RuleModule(
    decisions={WINDOW: DecisionKind(window_options)},
    steps={WINDOW: later_powers_window},
    implements={"battle-karama-redo": ("spent", "may-redo")},
)
