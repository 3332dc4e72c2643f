"""Moritani's advanced special Karama (supplied PDF, physical p.35): after losing a battle, an unspent
native Moritani may spend one Karama card to force its winning opponent to keep and/or discard any of
the cards the winner played.

The opportunity comes before the winner's own card choice. Whether the winner's compulsory discards
come before it is the register's question moritani-special-karama-precedence. By default
(compulsory-first) they have already happened, so the power reaches only the winner's weapon and
defense still in its plan, cards it could ordinarily keep. Under special-overrides the compulsory
discards wait in the winner's plan for the power (the resolution's `held_discards`), and Moritani may
force the winner to keep them: its Cheap Hero/Heroine, a used Poison Tooth, an Artillery Strike, a used
Mirror Weapon, Stone Burner, Reinforcements or Harass and Withdraw, a Planetologist's green card and a
face-up Diplomat's Worthless card, that is, every card the winner's cleanup discards by rule. Forcing
such a card to be discarded changes nothing, so it is offered kept or left alone, and once Moritani
answers those it did not force kept are discarded. A Cheap Hero that a traitor-decided win lets the
winner keep (question traitor-winner-cheap-hero) is not a compulsory discard and stays outside the
power under both readings. Cards left unchanged otherwise stay with the winner's ordinary choice. The
power follows a battle Moritani lost, its ally's retention one its ally lost, so the two never meet.

Whether the opportunity opens rests on public facts alone: the advanced game, Moritani the loser, its
power unspent (it is spent in the open) and a revealed card of the winner's left to force. Moritani's
hand does not count: a Moritani without a Karama is asked all the same and can only decline, so
neither the question nor a decline tells the other players whether it holds one (the decision's
`karama` and its options are Moritani's alone).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.decisions import SpecialKaramaDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import MORITANI, ActionType, CardCategory, DecisionType
from adjudicator.rules.cards import can_retain_battle_card
from adjudicator.rules.state import NextSnapshot, finish

PRECEDENCE_QUESTION = "moritani-special-karama-precedence"
SPECIAL_OVERRIDES = "special-overrides"
# the slots a held compulsory discard may be in (a Cheap Hero's besides the weapon's and defense's)
HELD_SLOTS = ("cheap_hero", "weapon", "defense")


def _karamas(hand: Iterable[str]) -> list[str]:
    return [c for c in hand if card_kind(c) == "karama"]


def _karama_in_hand(state: NextSnapshot) -> list[str]:
    return _karamas(state.hand(MORITANI))


def _forceable(plan: Mapping[str, str | None], held: Iterable[str]) -> list[str]:
    """The cards the power reaches in a winner's plan (slot -> card): its weapon and defense, and any
    held compulsory discard (a Cheap Hero too), in slot order."""
    kept_back = set(held)
    return [
        card
        for slot in HELD_SLOTS
        if (card := plan.get(slot)) is not None and (slot != "cheap_hero" or card in kept_back)
    ]


def _forceable_now(state: NextSnapshot, winner: str, held: Iterable[str]) -> list[str]:
    return _forceable({slot: state.plan_card(winner, slot) for slot in HELD_SLOTS}, held)


def _held_now(state: NextSnapshot) -> tuple[str, ...]:
    return state.resolution.held_discards or ()


@rule("moritani.special-karama.opportunity")
def special_karama_opportunity(
    snapshot: Snapshot, state: NextSnapshot, winner: str | None, loser: str | None, held: tuple[str, ...] = ()
) -> bool:
    return (
        loser == MORITANI
        and winner is not None
        and not state.special_karama_used(MORITANI)
        and bool(_forceable_now(state, winner, held))
    )


def _may_open(snapshot: Snapshot, state: NextSnapshot, winner: str | None, loser: str | None) -> bool:
    """The public facts the power needs short of a card to force: the advanced game, Moritani the loser
    to a winner, its power unspent."""
    return (
        snapshot.ruleset.advanced
        and MORITANI in snapshot.factions
        and loser == MORITANI
        and winner is not None
        and not state.special_karama_used(MORITANI)
    )


def holds_compulsory_discards(
    snapshot: Snapshot, state: NextSnapshot, winner: str | None, loser: str | None, interpretations: Mapping[str, str]
) -> bool:
    """Called by the battle resolution when the winner has cards to discard by rule: whether they wait
    in its plan for the special Karama (special-overrides, where the power follows this battle: the
    held cards are cards to force, so it opens)."""
    if not _may_open(snapshot, state, winner, loser):
        return False
    if choice_of(interpretations, PRECEDENCE_QUESTION) != SPECIAL_OVERRIDES:
        return False
    special_overrides_compulsory()
    return True


@rule("moritani.special-karama.overrides-compulsory")
def special_overrides_compulsory() -> None:
    pass


@rule("moritani.special-karama.asked-always")
def asked_whatever_the_hand() -> None:
    pass


def special_karama_step(
    snapshot: Snapshot,
    state: NextSnapshot,
    winner: str | None,
    loser: str | None,
    interpretations: Mapping[str, str],
    held: tuple[str, ...] = (),
) -> bool:
    """Called by the battle resolution, after the compulsory discards (or with them `held` for the
    power): whether to open the opportunity."""
    if not snapshot.ruleset.advanced or MORITANI not in snapshot.factions or loser != MORITANI:
        return False
    if not special_karama_opportunity(snapshot, state, winner, loser, held):
        return False
    asked_whatever_the_hand()
    if not held and choice_of(interpretations, PRECEDENCE_QUESTION) != SPECIAL_OVERRIDES:
        compulsory_discards_first()
    return True


@rule("moritani.special-karama.compulsory-first")
def compulsory_discards_first() -> None:
    pass


def _decision(state: NextSnapshot) -> dict[str, Any]:
    winner = state.winner
    assert winner is not None
    territory = state.battle_territory
    eligible, karama = tuple(_forceable_now(state, winner, _held_now(state))), tuple(_karama_in_hand(state))
    record = SpecialKaramaDecision(
        owner=MORITANI, opponent=winner, territory=territory, eligible=eligible, karama=karama
    )
    return opened(MORITANI, record)


def discarded_by_rule(card: str, *, used: bool, decided_by_traitor: bool) -> bool:
    """Whether a winner's played card is one its cleanup discards by rule, and so one special-overrides
    may hold: a card a winner may not keep, or a Worthless card used (a face-up Diplomat's copy)."""
    if not can_retain_battle_card(card, used=used, decided_by_traitor=decided_by_traitor):
        return True
    return used and catalog().cards[card_kind(card)].category is CardCategory.WORTHLESS


def held_discards(snapshot: Snapshot) -> tuple[str, ...]:
    """The winner's compulsory discards held for the special Karama (special-overrides), if any."""
    battle = snapshot.battle
    resolution = battle.resolution if battle is not None else None
    return (resolution.held_discards or ()) if resolution is not None else ()


def special_karama_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """Decline, or spend one Karama with disjoint forced-keep and forced-discard sets (not both empty);
    with no Karama in hand, decline alone. A held compulsory discard is forced kept or left alone (it is
    discarded either way otherwise)."""
    record = decision.as_(SpecialKaramaDecision)
    cards = list(record.eligible)
    held = set(held_discards(snapshot))
    options: list[dict[str, Any]] = [
        {"type": ActionType.FORCE_WINNER_CARDS.value, "player": MORITANI, "card": None, "keep": [], "discard": []}
    ]
    choices = [("keep", None) if card in held else ("keep", "discard", None) for card in cards]
    for karama in record.karama:
        for assignment in itertools.product(*choices):
            keep = [c for c, a in zip(cards, assignment, strict=True) if a == "keep"]
            discard = [c for c, a in zip(cards, assignment, strict=True) if a == "discard"]
            if keep or discard:
                options.append(
                    {
                        "type": ActionType.FORCE_WINNER_CARDS.value,
                        "player": MORITANI,
                        "card": karama,
                        "keep": keep,
                        "discard": discard,
                    }
                )
    return options


@rule("moritani.special-karama.force")
def force_winner_cards(state: NextSnapshot, winner: str, karama: str, keep: list[str], discard: list[str]) -> None:
    state.discard_from_hand(MORITANI, karama)
    state.spend_special_karama(MORITANI)
    state.event("card-discarded", "moritani.special-karama.force", faction=MORITANI, card=karama, karama=True)
    for slot in HELD_SLOTS:
        card = state.plan_card(winner, slot)
        if card is None:
            continue
        if card in keep:
            state.return_to_hand(winner, slot, "moritani.special-karama.force")
        elif card in discard:
            state.discard_from_plan(winner, slot, "moritani.special-karama.force")


def discard_held(state: NextSnapshot, winner: str, held: tuple[str, ...]) -> None:
    """The held compulsory discards Moritani did not force the winner to keep go now, as their rules say."""
    for slot in HELD_SLOTS:
        if state.plan_card(winner, slot) in held:
            state.discard_from_plan(winner, slot, "moritani.special-karama.overrides-compulsory")
    state.clear_resolution("held_discards")


@rule("moritani.special-karama.decline")
def decline_special_karama() -> None:
    pass


@ruled(answers(DecisionType.MORITANI_SPECIAL_KARAMA.value))
def answer_special_karama(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    winner = state.winner
    assert winner is not None
    karama = action.fields.get("card")
    keep, discard = list(action.fields.get("keep") or ()), list(action.fields.get("discard") or ())
    if karama is not None:
        force_winner_cards(state, winner, str(karama), keep, discard)
    else:
        decline_special_karama()
    held = _held_now(state)
    if held:
        special_overrides_compulsory()
        discard_held(state, winner, held)
    state.step_done()
    # a Cheap Hero a traitor-decided win lets the winner keep is still its own choice
    if state.step == DecisionType.WINNER_CARDS.value and not state.cards_in_plan(winner, HELD_SLOTS):
        state.step_done()  # nothing left for the winner to choose
    summary = {"special_karama": {"spent": karama, "keep": keep, "discard": discard}}
    return finish(snapshot, state, {"moritani": summary}, trace, context)


def special_karama_cards(snapshot: Snapshot) -> list[str]:
    """The Karama cards Moritani could spend on its special Karama."""
    return _karamas(snapshot.factions[MORITANI].hand)


def forceable_cards(snapshot: Snapshot, winner: str) -> list[str]:
    """The winner's played cards the special Karama can force it to keep or discard."""
    assert snapshot.battle is not None
    plan = snapshot.battle.plans[winner]
    slots = {"cheap_hero": plan.cheap_hero, "weapon": plan.weapon, "defense": plan.defense}
    return _forceable(slots, held_discards(snapshot))


DECLARED = RuleModule(
    handlers={
        ActionType.FORCE_WINNER_CARDS: answer_special_karama,
    },
    decisions={
        # not self-contained: a held compulsory discard is read from the battle's resolution
        DecisionType.MORITANI_SPECIAL_KARAMA.value: DecisionKind(special_karama_options),
    },
    steps={
        DecisionType.MORITANI_SPECIAL_KARAMA.value: _decision,
    },
    implements={
        PRECEDENCE_QUESTION: ("compulsory-first", SPECIAL_OVERRIDES),
    },
)
