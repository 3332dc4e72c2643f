"""`resolve-battle`: check the locked plans, resolve, apply, and open the cleanup decisions; an open
register question reached on the way answers `unresolved` with one alternative per combination."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context, InterpretationNeeded
from adjudicator.core.results import Adjudication, Alternative, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import ruled, unresolved
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.tracing import Trace
from adjudicator.core.vocabulary import ActionType, DecisionType, Evidence
from adjudicator.rules.battle.card_effects import burner_reading_violations
from adjudicator.rules.battle.ecaz_karama import ecaz_karama_violations, played_card, spend_ecaz_karama
from adjudicator.rules.battle.outcome import apply_resolution
from adjudicator.rules.battle.plans import (
    ALLY_SUPPORT_QUESTION,
    TRAITS_QUESTION,
    ally_support_violations,
    plan_violations,
)
from adjudicator.rules.battle.portable_snooper import portable_snooper_violations, with_portable_snooper
from adjudicator.rules.battle.preconditions import battle_preconditions, broken_loan_violations, unmodelled_compositions
from adjudicator.rules.battle.resolution import Resolution, resolve
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.diplomat_retreat import retreat_beside_no_field
from adjudicator.rules.moritani.assassination import revealed_card_calls
from adjudicator.rules.richese import revealed_for_battle, unrevealed_under_before_plans
from adjudicator.rules.secrecy import open_acts, public_acts
from adjudicator.rules.skills import FACE_UP_REQUIRED_QUESTION, committed_for_battle, rihani_needs_deck, skills_on
from adjudicator.rules.state import finish


def _alternatives(
    snapshot: Snapshot,
    battle: Battle,
    res: Resolution,
    context: Context,
    chosen: dict[str, str],
    revealing: list[dict[str, Any]],
) -> list[Alternative]:
    """Every combination of the open questions the resolution reaches, each with its outcome; a question
    reached only under some earlier choice is explored only there."""
    under = context.under(chosen)
    try:
        summary, state = apply_resolution(snapshot, battle, res, under)
    except InterpretationNeeded as needed:
        found: list[Alternative] = []
        for choice in context.rulebook.implemented_choices(needed.question):
            found += _alternatives(snapshot, battle, res, context, {**chosen, needed.question: choice}, revealing)
        return found
    state.follows(revealing)
    outcome = finish(snapshot, state, {"battle": summary}, [], under).outcome
    assert outcome is not None
    return [Alternative(MappingProxyType(chosen), dict(outcome), Evidence.PROVISIONAL_ORDERING)]


def _a_locked_battle(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The snapshot holds a battle whose plans are locked and which is not resolved yet."""
    battle = snapshot.battle
    if battle is None:
        return [Violation("no-battle", "the snapshot has no locked battle", "/snapshot/battle")]
    if snapshot.pending is not None and snapshot.pending.type == DecisionType.BATTLE_PLAN.value:
        return [Violation("plans-not-locked", "both plans must be locked first", "/snapshot/pending")]
    if snapshot.pending is not None and snapshot.pending.type == DecisionType.GIFT_KARAMA.value:
        return [
            Violation(
                "karama-window-open",
                "answer the Karama window on the Emperor's gift first",
                "/snapshot/pending/type",
                "emperor.alliance.gift-karama-asking",
            )
        ]
    if battle.resolution is not None or snapshot.pending is not None:
        return [
            Violation(
                "battle-already-resolved",
                "this battle is resolved; answer the open decision instead",
                "/snapshot/battle/resolution",
            )
        ]
    return []


def _rulable(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """Who battles, the plans themselves, what is not modelled yet, a broken loan, and the Traitor deck a
    Rihani Decipherer would draw from: every violation at once."""
    battle = snapshot.battle
    assert battle is not None
    shown = open_acts(snapshot, battle, context.viewer)
    if shown:  # a viewer's answer may rest on them: they are made in the open
        public_acts(shown)
    violations = battle_preconditions(snapshot, battle, context)
    traits = context.choice(TRAITS_QUESTION)
    face_up = context.choice(FACE_UP_REQUIRED_QUESTION)
    violations += plan_violations(snapshot, battle, traits, face_up, context.viewer) + unmodelled_compositions(
        snapshot, battle, context.interpretations
    )
    for faction in (battle.aggressor, battle.defender):
        if battle.plans[faction].ally_spice:  # revealed, the ally's payment is as public as the side's own
            choice = context.choice(ALLY_SUPPORT_QUESTION)
            violations += ally_support_violations(snapshot, faction, battle.plans[faction], choice)
    violations += broken_loan_violations(snapshot, battle, context)
    violations += burner_reading_violations(snapshot, battle, context)
    if battle.traitor_calls:
        violations += revealed_card_calls(snapshot, battle, context)
    violations += unrevealed_under_before_plans(snapshot, battle, context)
    if battle.portable_snooper:
        violations += portable_snooper_violations(snapshot, battle)
    if played_card(battle) is not None:
        violations += ecaz_karama_violations(snapshot, battle, context)
    if (
        snapshot.traitor_deck is None
        and skills_on(snapshot)
        and rihani_needs_deck(snapshot, (battle.aggressor, battle.defender), battle.plans)
    ):
        violations.append(
            Violation(
                "traitor-deck-required",
                "a Rihani Decipherer may act after this battle: the snapshot needs its traitor_deck",
                "/snapshot/traitor_deck",
                "skills.rihani.inspect",
            )
        )
    return violations


@ruled(_a_locked_battle, _rulable)
def resolve_battle(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    """`resolve-battle`: resolve the locked plans, apply the outcome, and open the cleanup decisions."""
    snapshot = with_portable_snooper(snapshot)
    # a No-Field token in the battle is revealed with the plans: the battle is resolved on that board
    snapshot, revealing = revealed_for_battle(snapshot, battle_sectors(snapshot), context)
    # a leader whose card lies face up fights only as its plan commits the card (under must-commit)
    snapshot, committing = committed_for_battle(snapshot)
    revealing = revealing + committing
    battle = snapshot.battle
    assert battle is not None
    retreat_beside_no_field(snapshot, battle, bool(revealing))
    resolution = resolve(snapshot, battle, context)
    try:
        summary, state = apply_resolution(snapshot, battle, resolution, context)
    except InterpretationNeeded:
        return unresolved(_alternatives(snapshot, battle, resolution, context, {}, revealing), trace, context)
    card = played_card(battle)
    if card is not None:
        spend_ecaz_karama(state, card)
    state.follows(revealing)
    return finish(snapshot, state, {"battle": summary}, trace, context)


DECLARED = RuleModule(handlers={ActionType.RESOLVE_BATTLE: resolve_battle})
