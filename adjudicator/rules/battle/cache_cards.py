"""Residual Poison and Juice of Sapho, Richese cache cards played before a battle's plans.

A chosen battle opens one window on them, first of its prelude, while some copy of either card is
outside the discard pile (the one place of a copy every player can tell, as for Semuta Drug). It asks
both sides, the aggressor first, holder or not, so that it opens and whom it asks show nobody's hand;
a side without a playable card can only pass, and its `eligible` cards are its own. A side that
plays a card is asked again (it may hold the other one); the window closes after each side's pass.

Under question cache-cards-battle-timing until-plans the cards may still be played once the Voice is
given or Prescience answered. The first window's close then adds the window's later steps to the
prelude (after the Voice, after Prescience, and last before the plans), and the battle's
`pre_battle_cards_after` records what the window has opened after: a later step opens, in the same
way, only for a standing Voice or a given Prescience answer it has not opened after yet (both public
facts), so a saved snapshot never asks twice for the same news. A side that passed before may play
then; a copy played is in the discard pile and offered no more.

Residual Poison sends one of the opposing side's leaders that could fight here, drawn at random
(seeded by the snapshot, as the Harkonnen capture draw is), to the Tanks, with no spice paid for it;
whether the captives and the Duke Vidal that side holds are among them is question
residual-poison-pool, and a window lists its cards under the reading it was opened with. A leader
answer to Prescience naming the leader it takes binds no more (`plans.answer_binding`).
Juice of Sapho is offered to the defender only, which becomes the aggressor (the aggressor has
nothing to gain by it): from then on the battle's ties are its. Neither card is a faction advantage,
so no Karama window follows either.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import card_kind, catalog, copies_in_play
from adjudicator.core.decisions import PreBattleCardsDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, illegal, resolved, ruled
from adjudicator.core.snapshot import Battle, Decision, LeaderState, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import DUKE, ActionType, DecisionType, DukeStatus, FactionId, LeaderStatus
from adjudicator.rules.ghola import DEATH_QUESTION as GHOLA_DEATH_QUESTION
from adjudicator.rules.ghola import ghola_dies, gholas_at_hand, is_ghola
from adjudicator.rules.state import NextSnapshot, finish

WINDOW = DecisionType.PRE_BATTLE_CARDS.value
RESIDUAL_POISON = "residual-poison"
SAPHO = "juice-of-sapho"
TIMING_QUESTION = "cache-cards-battle-timing"
UNTIL_PLANS = "until-plans"
POOL_QUESTION = "residual-poison-pool"
# the steps before the plans after which a play could change something, and so the window opens again
NEWS_STEPS = (DecisionType.VOICE.value, DecisionType.PRESCIENCE.value)


@rule("richese.cards.window")
def window_opens(state: NextSnapshot) -> bool:
    return any(state.copies_outside_discard(kind) > 0 for kind in (RESIDUAL_POISON, SAPHO))


@rule("richese.cards.window-order")
def window_order(sides: tuple[str, ...]) -> tuple[str, ...]:
    return sides


def poison_pool(leaders: Mapping[str, LeaderState], faction: str, territory: str, advanced: bool) -> list[str]:
    """The faction's own leaders that could fight in this territory: alive, in the game (the Auditor
    only in the advanced game), not serving the Tleilaxu as a ghola, and not committed to another one."""
    pool = []
    for leader in catalog().leaders_of(faction):
        entry = leaders.get(leader.id)
        if (leader.advanced_only and not advanced) or (entry is not None and entry.ghola):
            continue
        if (
            entry is None
            or entry.status is LeaderStatus.AVAILABLE
            or (entry.status is LeaderStatus.USED and entry.territory == territory)
        ):
            pool.append(leader.id)
    return pool


@rule("richese.residual-poison.playable-leaders")
def held_leaders(snapshot: Snapshot, faction: str, territory: str) -> list[str]:
    captives = [
        leader_id
        for other, entry in snapshot.factions.items()
        if other != faction
        for leader_id, held in entry.leaders.items()
        if held.status is LeaderStatus.CAPTURED and held.by == faction
    ]
    duke = snapshot.duke_vidal
    if duke is not None and duke.status is DukeStatus.HELD and duke.controller == faction:
        if duke.fought_in is None or duke.fought_in == territory:
            captives.append(DUKE)
    elif duke is not None and duke.status is DukeStatus.CAPTURED and duke.by == faction:
        captives.append(DUKE)
    if faction == FactionId.TLEILAXU.value:  # the foreign gholas serving them are theirs to play
        captives += gholas_at_hand(((f, entry.leaders) for f, entry in snapshot.factions.items()), territory)
    return captives


def victims(snapshot: Snapshot, faction: str, territory: str, choice: str) -> list[str]:
    """The leaders Residual Poison draws from, as question residual-poison-pool reads: the faction's own
    leaders that could fight here (own-leaders), and also the captives and the Duke Vidal it holds and
    could play here (any-playable-leader)."""
    pool = poison_pool(snapshot.factions[faction].leaders, faction, territory, snapshot.ruleset.advanced)
    if choice == "any-playable-leader":
        pool += held_leaders(snapshot, faction, territory)
    return pool


def snapshot_playable(snapshot: Snapshot, faction: str, choice: str = "own-leaders") -> tuple[str, ...]:
    """The cards of a side's hand it may play in the window: a Residual Poison while the opposing side
    has a leader to take (as question residual-poison-pool reads), a Juice of Sapho while it is the
    defender."""
    battle = snapshot.battle
    assert battle is not None
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    pool = victims(snapshot, opponent, battle.territory, choice)
    return tuple(
        card
        for card in snapshot.factions[faction].hand
        if (card_kind(card) == RESIDUAL_POISON and pool) or (card_kind(card) == SAPHO and faction == battle.defender)
    )


def _asked(state: NextSnapshot, responders: tuple[str, ...]) -> dict[str, Any]:
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    assert battle is not None
    player = responders[0]
    opponent = battle.defender if player == battle.aggressor else battle.aggressor
    eligible = snapshot_playable(snapshot, player, choice_of(state.readings, POOL_QUESTION))
    return opened(player, PreBattleCardsDecision(opponent=opponent, responders=responders[1:], eligible=eligible))


def news(battle: Battle) -> tuple[str, ...]:
    """What a play could now answer: a standing Voice, a given Prescience answer (both public)."""
    given = (battle.voice is not None, battle.prescience is not None and battle.prescience.answer is not None)
    return tuple(step for step, happened in zip(NEWS_STEPS, given, strict=True) if happened)


@rule("richese.cards.first-close")
def window_closes_for_good(timing: str) -> bool:
    return timing != UNTIL_PLANS


@rule("richese.cards.later-openings")
def plan_later_openings(state: NextSnapshot) -> None:
    battle = state.as_snapshot().battle
    assert battle is not None
    steps: list[str] = []
    for step in battle.prelude:
        steps.append(step)
        if step in NEWS_STEPS:
            steps.append(WINDOW)
    if steps and steps[-1] != WINDOW:
        steps.append(WINDOW)
    if steps:
        state.reorder_prelude(steps)
    state.record_cards_window_after(list(news(battle)))


@rule("richese.cards.reopens")
def fresh_news(battle: Battle, after: tuple[str, ...], timing: str) -> tuple[str, ...]:
    if timing != UNTIL_PLANS:
        return ()
    return tuple(item for item in news(battle) if item not in after)


def window_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: the window, where the ruleset has either card outside the discard pile; a
    later step of it (under until-plans) only for news it has not opened after."""
    snapshot = state.as_snapshot()
    rs = snapshot.ruleset
    if not any(copies_in_play(kind, rs.expansions, rs.variants) for kind in (RESIDUAL_POISON, SAPHO)):
        return None  # without the cards in the ruleset at all the window is never a question
    battle = snapshot.battle
    if battle is None:
        return None
    after = battle.pre_battle_cards_after
    if after is None:  # the first window
        return _asked(state, window_order((battle.aggressor, battle.defender))) if window_opens(state) else None
    fresh = fresh_news(battle, after, choice_of(state.readings, TIMING_QUESTION))
    if not fresh or not window_opens(state):
        return None
    state.record_cards_window_after([*after, *fresh])
    return _asked(state, window_order((battle.aggressor, battle.defender)))


def window_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    player = decision.player
    options: list[dict[str, Any]] = []
    held: tuple[str, ...] = ()
    if player is not None and snapshot.battle is not None:
        # the cards the window was opened with (under the request's reading of residual-poison-pool),
        # while the hand holds them
        hand = snapshot.factions[player].hand
        given = decision.fields.get("eligible")
        held = tuple(c for c in given if c in hand) if given is not None else snapshot_playable(snapshot, player)
    for card in held:
        kind = card_kind(card)
        if kind == RESIDUAL_POISON:
            options.append({"type": ActionType.PLAY_RESIDUAL_POISON.value, "player": player, "card": card})
        elif kind == SAPHO:
            options.append({"type": ActionType.PLAY_JUICE_OF_SAPHO.value, "player": player, "card": card})
    options.append({"type": ActionType.PASS_PRE_BATTLE_CARDS.value, "player": player})
    return options


@rule("richese.residual-poison.draw")
def draw_victim(pool: list[str], seed: int, turn: int, territory: str) -> str:
    return pool[random.Random(f"{seed}:{turn}:{territory}:residual-poison").randrange(len(pool))]


def no_leader_to_take() -> Violation:
    return Violation(
        "no-leader-to-poison",
        "under this reading of residual-poison-pool the opposing side has no leader to take",
        "/action/card",
        "richese.residual-poison.draw",
    )


@rule("richese.residual-poison.no-spice")
def poisoned(state: NextSnapshot, leader: str, keep_ghola: bool = False) -> None:
    state.leader_to_tanks(leader, "richese.residual-poison.no-spice", keep_ghola)


@rule("richese.sapho.aggressor")
def become_aggressor(state: NextSnapshot, faction: str) -> None:
    state.become_aggressor(faction)
    state.event("aggressor-changed", "richese.sapho.aggressor", faction=faction)


@rule("richese.cards.no-karama")
def no_karama_window() -> None:
    pass


@ruled(answers(WINDOW))
def answer_window(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    battle = snapshot.battle
    assert pending is not None and battle is not None and action.player is not None
    window = pending.as_(PreBattleCardsDecision)
    state = NextSnapshot(snapshot)
    state.readings = context.interpretations  # the window's next question lists cards under them
    player = action.player
    summary: dict[str, Any]
    if action.type is ActionType.PASS_PRE_BATTLE_CARDS:
        summary = {"pre_battle_cards": {"passed": player}}
        if not window.responders:
            state.prelude_done(WINDOW)
            first_close = battle.pre_battle_cards_after is None
            if first_close and not window_closes_for_good(context.choice(TIMING_QUESTION)):
                plan_later_openings(state)
            return finish(snapshot, state, summary, trace, context)
        return _ask_next(state, _asked(state, window_order(window.responders)), summary, trace, context)
    card = str(action.fields["card"])
    state.discard_from_hand(player, card)
    state.event("card-discarded", "richese.cards.window", faction=player, card=card)
    if action.type is ActionType.PLAY_RESIDUAL_POISON:
        opponent = window.opponent or (battle.defender if player == battle.aggressor else battle.aggressor)
        pool = victims(snapshot, opponent, battle.territory, context.choice(POOL_QUESTION))
        if not pool:  # a window opened under the other reading of residual-poison-pool
            return illegal(snapshot, [no_leader_to_take()], trace, context)
        leader = draw_victim(pool, snapshot.seed, snapshot.turn, battle.territory)
        # a ghola taken goes to the Tanks as question ghola-death reads it
        poisoned(state, leader, is_ghola(snapshot, leader) and ghola_dies(context.choice(GHOLA_DEATH_QUESTION)))
        summary = {"pre_battle_cards": {"residual_poison": {"by": player, "leader": leader, "owner": opponent}}}
    else:
        become_aggressor(state, player)
        summary = {"pre_battle_cards": {"juice_of_sapho": {"aggressor": player}}}
    no_karama_window()
    return _ask_next(state, _asked(state, window_order((player, *window.responders))), summary, trace, context)


def _ask_next(
    state: NextSnapshot, decision: dict[str, Any], summary: dict[str, Any], trace: Trace, context: Context
) -> Adjudication:
    """The window goes on with its next question (not through `finish`, which would open it afresh)."""
    state.set_pending(decision)
    following = state.as_snapshot()
    return resolved(state.outcome(summary), decision, context.rulebook.options(following), trace, context)


def opened_until_plans(snapshot: Snapshot) -> tuple[str, str, str] | None:
    """A battle whose prelude holds the window's later openings (`pre_battle_cards_after`) began under
    until-plans, and is continued under it."""
    battle = snapshot.battle
    if battle is None or battle.pre_battle_cards_after is None:
        return None
    return TIMING_QUESTION, UNTIL_PLANS, "richese.cards.later-openings"


DECLARED = RuleModule(
    kept_readings=(opened_until_plans,),
    handlers={
        ActionType.PLAY_RESIDUAL_POISON: answer_window,
        ActionType.PLAY_JUICE_OF_SAPHO: answer_window,
        ActionType.PASS_PRE_BATTLE_CARDS: answer_window,
    },
    decisions={WINDOW: DecisionKind(window_options)},
    steps={WINDOW: window_step},
    implements={TIMING_QUESTION: ("before-voice", UNTIL_PLANS), POOL_QUESTION: ("own-leaders", "any-playable-leader")},
)
