"""Leader Skills in battle (CHOAM & Richese p.9; the printed skill cards; the designer walkthrough).

A skill card lies face up beside its leader; its upper ("normal") effect works while both are face
up. A faction that fights with the skilled leader puts both behind its shield: the lower ("battle")
effect then applies, and only while that leader survives; a skill card behind the shield while
another leader fights does nothing. A captured skilled leader gives its captor the battle effect
alone. Modelled here: Mentat (+2), Bureaucrat (-1 to the opponent per stronghold it occupies),
Sandmaster (+3 spice on the battle territory's pile) and Rihani Decipherer (a private look at two
Traitor deck cards, and a Traitor exchange); the skills that add to a leader's strength are in
`skill_bonuses`; the Smuggler, the Suk Graduate, the face-up Spice Banker and the face-up Diplomat are in `skill_steps`;
the Diplomat fought with (its side's retreat) is in `diplomat_retreat`;
a face-up Mentat's question before the plans is a step of its own (`rules/battle/mentat_question.py`).
Whether a faction whose only leaders lie face up owes one to its plan (question
skill-face-up-leader-required) is answered here for the plan checks, and a plan naming such a leader
under must-commit has its card committed here as the plans are revealed.
Other skills that change a battle are answered `not-implemented` by the battle module.

Rihani's steps keep their state in the battle's `resolution.rihani` record, so a saved snapshot
continues without drawing again: the inspection happens once, when the battle resolves (or after the
exchange, under the other reading of question rihani-band-order), the draw takes the deck's top two
cards, and every shuffle follows the snapshot's seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import RihaniDrawOffer, RihaniExchange, SandmasterPileDecision, opened
from adjudicator.core.records import RihaniRecord, SandmasterRecord
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, FactionState, LeaderState, Plan, Snapshot, SpicePile, halves_to_number
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import TLEILAXU, ActionType, DecisionType, LeaderStatus, TerritoryType
from adjudicator.rules.state import NextSnapshot, finish

SKILLS_VARIANT = "leader-skills"
MENTAT = "mentat"
BUREAUCRAT = "bureaucrat"
SANDMASTER = "sandmaster"
RIHANI = "rihani-decipherer"
MODELLED_BATTLE_SKILLS = frozenset({MENTAT, BUREAUCRAT, SANDMASTER, RIHANI, "smuggler", "suk-graduate", "diplomat"})
# face-up (normal) effects that change a battle and are not modelled yet
UNMODELLED_NORMAL_IN_BATTLE: frozenset[str] = frozenset()
SANDMASTER_SPICE = 3

ARTILLERY_QUESTION = "mentat-artillery"
PILES_QUESTION = "sandmaster-several-piles"
BAND_QUESTION = "rihani-band-order"
FACE_UP_REQUIRED_QUESTION = "skill-face-up-leader-required"
FACE_UP_EXCUSED = "face-up-excused"
MUST_COMMIT = "must-commit"


def skills_on(snapshot: Snapshot) -> bool:
    return SKILLS_VARIANT in snapshot.ruleset.variants


def leader_state(snapshot: Snapshot, leader_id: str | None) -> LeaderState | None:
    """A leader's state, kept under its native faction (captives included)."""
    leader = catalog().leaders.get(leader_id or "")
    if leader is None or leader.faction not in snapshot.factions:
        return None
    return snapshot.factions[leader.faction].leaders.get(leader.id)


def selected_skill(snapshot: Snapshot, plan: Plan) -> str | None:
    """The skill of the leader a plan names, when Leader Skills are in play."""
    if not skills_on(snapshot):
        return None
    state = leader_state(snapshot, plan.leader)
    return None if state is None else state.skill


def skill_card_face_up(snapshot: Snapshot, leader_id: str | None) -> bool:
    """Whether the leader has a skill card lying face up beside it (Leader Skills in play)."""
    if not skills_on(snapshot):
        return False
    state = leader_state(snapshot, leader_id)
    return state is not None and state.skill is not None and state.skill_face_up is True


@rule("skills.committed-with-leader")
def face_up_skill_violations(snapshot: Snapshot, faction: str, plan: Plan) -> list[Violation]:
    state = leader_state(snapshot, plan.leader)
    assert state is not None
    return [
        Violation(
            "skill-card-face-up",
            f"{plan.leader} fights only with its {state.skill} card behind the shield with it"
            " (record the card face down, skill_face_up false, before the plan)",
            f"/snapshot/battle/plans/{faction}/leader",
            "skills.committed-with-leader",
        )
    ]


@rule("skills.face-up-leader-not-required")
def leaders_owed_to_the_plan(snapshot: Snapshot, leaders: Iterable[str]) -> list[str]:
    return [leader for leader in leaders if not skill_card_face_up(snapshot, leader)]


@rule("skills.face-up-leader-must-commit")
def face_up_leaders_owed(leaders: Sequence[str]) -> list[str]:
    return list(leaders)


def only_face_up_leaders(snapshot: Snapshot, leaders: Sequence[str]) -> bool:
    """Whether the side could play a leader and every leader it could play lies face up with its skill
    card: where question skill-face-up-leader-required decides whether one is owed to the plan."""
    return bool(leaders) and all(skill_card_face_up(snapshot, leader) for leader in leaders)


def leaders_owed(snapshot: Snapshot, leaders: Sequence[str], reading: str) -> list[str]:
    """The leaders a side that could play `leaders`, some of them face up with their skill, owes to a
    plan, as `reading` (of question skill-face-up-leader-required) reads."""
    if reading == MUST_COMMIT and only_face_up_leaders(snapshot, leaders):
        return face_up_leaders_owed(leaders)
    return leaders_owed_to_the_plan(snapshot, leaders)


def face_up_leader_violations(
    snapshot: Snapshot, faction: str, plan: Plan, leaders: Sequence[str], reading: str
) -> list[Violation]:
    """A plan naming a leader whose skill card lies face up, the side able to play `leaders`: refused,
    unless `reading` is must-commit and that leader is among them, all face up (the plan commits the card)."""
    if reading == MUST_COMMIT and plan.leader in leaders and only_face_up_leaders(snapshot, leaders):
        face_up_leaders_owed(leaders)
        return []
    return face_up_skill_violations(snapshot, faction, plan)


@rule("skills.committed-with-plan")
def commit_with_plan(state: NextSnapshot, faction: str, leader_id: str) -> None:
    state.turn_skill_face_down(leader_id)
    # no skill named: a face-down card's skill is kept from other viewers, though it lay face up before
    state.event("skill-committed", "skills.committed-with-plan", faction=faction, leader=leader_id)


def commit_named_skills(state: NextSnapshot) -> None:
    """The revealed plans: a leader a plan names whose skill card still lies face up (a plan the checks
    accepted only under must-commit) goes behind the shield with its card."""
    snapshot = state.as_snapshot()
    battle = snapshot.battle
    if battle is None or not skills_on(snapshot):
        return
    for faction in (battle.aggressor, battle.defender):
        plan = battle.plans.get(faction)
        if plan is not None and skill_card_face_up(snapshot, plan.leader):
            assert plan.leader is not None
            commit_with_plan(state, faction, plan.leader)


def committed_for_battle(snapshot: Snapshot) -> tuple[Snapshot, list[dict[str, Any]]]:
    """The snapshot a locked battle is resolved on, with the events that made it: the request's own, or,
    where a plan names a leader whose card lies face up (accepted under must-commit), that card behind
    the shield, so it returns face up after the battle as any committed card does."""
    battle = snapshot.battle
    if battle is None or not any(skill_card_face_up(snapshot, plan.leader) for plan in battle.plans.values()):
        return snapshot, []
    state = NextSnapshot(snapshot)
    commit_named_skills(state)
    return state.as_snapshot(), state.events


@rule("skills.face-up-after-battle")
def skill_returns_face_up(state: NextSnapshot, leader_id: str) -> None:
    skill = state.turn_skill_face_up(leader_id)
    state.event("skill-face-up", "skills.face-up-after-battle", leader=leader_id, skill=skill)


def face_up_skills(snapshot: Snapshot, faction: str, fighting: str | None) -> dict[str, str]:
    """Skill -> leader for the faction's own living leaders in its pool whose skill card is face up,
    the leader fighting this battle excluded (its card went behind the shield)."""
    if not skills_on(snapshot):
        return {}
    found: dict[str, str] = {}
    for leader_id, state in snapshot.factions[faction].leaders.items():
        if (
            state.skill is not None
            and state.skill_face_up is True
            and state.status in (LeaderStatus.AVAILABLE, LeaderStatus.USED)
            and leader_id != fighting
        ):
            found[state.skill] = leader_id
    return found


# --- battle totals -------------------------------------------------------------------------------


@rule("skills.battle-effect")
def battle_effect_applies(survives: bool) -> bool:
    return survives


@rule("skills.mentat")
def mentat_bonus_halves(artillery: bool, choice: str) -> int:
    if artillery and not mentat_bonus_under_artillery(choice):
        return 0
    return 4


@rule("skills.mentat.artillery")
def mentat_bonus_under_artillery(choice: str) -> bool:
    return choice == "bonus-counts"


@rule("skills.bureaucrat")
def bureaucrat_penalty(snapshot: Snapshot, opponent: str) -> tuple[int, list[str]]:
    territories = catalog().territories
    held = sorted(
        {
            s.territory
            for s in snapshot.forces
            if s.faction == opponent
            and s.regular + s.elite > 0
            and (t := territories.get(s.territory)) is not None
            and t.type is TerritoryType.STRONGHOLD
        }
    )
    return -2 * len(held), held


def skill_lines(
    snapshot: Snapshot,
    plans: Mapping[str, Plan],
    survivors: Mapping[str, bool],
    artillery: bool,
    interpretations: Mapping[str, str],
) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """Each side's skill lines for the battle quote: half-points, and `{part: skill, skill, value, rule}`."""
    lines: dict[str, list[tuple[int, dict[str, Any]]]] = {f: [] for f in plans}
    line: dict[str, Any]
    factions = list(plans)
    for faction in factions:
        opponent = factions[1] if faction == factions[0] else factions[0]
        skill = selected_skill(snapshot, plans[faction])
        if skill not in (MENTAT, BUREAUCRAT) or not battle_effect_applies(survivors[faction]):
            continue
        if skill == MENTAT:
            choice = choice_of(interpretations, ARTILLERY_QUESTION)
            halves = mentat_bonus_halves(artillery, choice)
            line = {"part": "skill", "skill": MENTAT, "value": halves_to_number(halves), "rule": "skills.mentat"}
            lines[faction].append((halves, line))
        else:
            halves, held = bureaucrat_penalty(snapshot, opponent)
            line = {
                "part": "skill",
                "skill": BUREAUCRAT,
                "value": halves_to_number(halves),
                "rule": "skills.bureaucrat",
                "by": faction,
                "strongholds": held,
            }
            lines[opponent].append((halves, line))
    return lines


# --- Sandmaster -------------------------------------------------------------------------------------


@rule("skills.sandmaster")
def sandmaster_piles(board_spice: Iterable[SpicePile], territory: str) -> list[SpicePile]:
    return [p for p in board_spice if p.territory == territory and p.amount > 0]


def add_spice(state: NextSnapshot, territory: str, sector: int | None) -> None:
    state.add_spice_to_pile(territory, sector, SANDMASTER_SPICE)
    state.event("spice-added", "skills.sandmaster", territory=territory, sector=sector, amount=SANDMASTER_SPICE)


@rule("skills.sandmaster.several-piles")
def pile_choice(choice: str) -> str:
    return choice


def sandmaster_step(
    snapshot: Snapshot, state: NextSnapshot, winner: str, territory: str, context: Context
) -> SandmasterRecord | None:
    """Apply a winning Sandmaster's battle effect; the record of the choice when the winner must pick
    the pile."""
    piles = sandmaster_piles(state.board_spice, territory)
    if not piles:
        state.event("spice-not-added", "skills.sandmaster", territory=territory, reason="no spice in the territory")
        return None
    if len(piles) == 1:
        add_spice(state, territory, piles[0].sector)
        return None
    choice = pile_choice(context.choice(PILES_QUESTION))
    if choice == "no-addition":
        state.event("spice-not-added", "skills.sandmaster.several-piles", territory=territory, reason="several piles")
        return None
    if choice == "largest-pile":
        top = max(p.amount for p in piles)
        piles = [p for p in piles if p.amount == top]
        if len(piles) == 1:
            add_spice(state, territory, piles[0].sector)
            return None
    # several piles of one territory lie in distinct numbered sectors
    sectors: list[Any] = [p.sector for p in piles]
    return SandmasterRecord(winner, tuple(sorted(sectors)))


def _pile_decision(state: NextSnapshot) -> dict[str, Any]:
    record = state.resolution.sandmaster
    assert record is not None
    return opened(record.player, SandmasterPileDecision(territory=state.battle_territory, sectors=record.sectors))


def pile_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    return [
        {"type": ActionType.CHOOSE_SPICE_PILE.value, "player": decision.player, "sector": sector}
        for sector in decision.as_(SandmasterPileDecision).sectors
    ]


@ruled(answers(DecisionType.SANDMASTER_PILE.value))
def choose_spice_pile(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert snapshot.battle is not None
    pile_choice("winner-chooses")
    state = NextSnapshot(snapshot)
    add_spice(state, snapshot.battle.territory, action.fields.get("sector"))
    state.clear_resolution("sandmaster")
    state.step_done()
    summary = {"sandmaster": {"sector": action.fields.get("sector"), "amount": SANDMASTER_SPICE}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


# --- Rihani Decipherer ------------------------------------------------------------------------------


def _deck_random(seed: int, turn: int, deck: tuple[str, ...], salt: str) -> random.Random:
    return random.Random(f"{seed}:{turn}:{len(deck)}:{'|'.join(deck)}:{salt}")


@rule("skills.rihani.inspect")
def inspect_traitor_deck(state: NextSnapshot, faction: str, seed: int, turn: int) -> None:
    deck = state.traitor_deck
    rng = _deck_random(seed, turn, deck, "rihani-inspect")
    seen = rng.sample(deck, min(2, len(deck)))
    state.shuffle_traitor_deck(rng)  # the same generator, after the look
    state.event("traitor-deck-inspected", "skills.rihani.inspect", faction=faction, cards=seen, visible_to=[faction])


@rule("skills.rihani.exchange")
def exchange_pool(state: NextSnapshot, faction: str, called_now: str | None) -> list[str]:
    held = unused_traitor_cards(state.faction_state(faction), faction, called_now)
    if not held or len(state.traitor_deck) < 2:
        return []
    return held


@rule("skills.rihani.bands")
def rihani_bands(native_winner: bool, selected: bool, face_up_trainer: bool) -> list[str]:
    bands = []
    if native_winner and (selected or face_up_trainer):
        bands.append("normal")
    if selected:
        bands.append("battle")
    return bands


@rule("skills.rihani.band-order")
def band_order(choice: str) -> bool:
    return choice == "normal-first"


def rihani_needs_deck(snapshot: Snapshot, factions: tuple[str, str], plans: Mapping[str, Plan]) -> bool:
    """Whether a Rihani effect could follow this battle (so the Traitor deck must be known)."""
    for faction in factions:
        if selected_skill(snapshot, plans[faction]) == RIHANI:
            return True
        if RIHANI in face_up_skills(snapshot, faction, plans[faction].leader):
            return True
    return False


def rihani_step(
    snapshot: Snapshot, state: NextSnapshot, winner: str, plan: Plan, survived: bool, context: Context
) -> RihaniRecord | None:
    """Apply a win's Rihani effects; the exchange record when the winner is offered the draw."""
    skill = selected_skill(snapshot, plan)
    selected = skill == RIHANI and battle_effect_applies(survived)
    leader = catalog().leaders.get(plan.leader or "")
    native = leader is not None and leader.faction == winner
    # "a victory using another leader": a Cheap Hero win brings the trainer nothing
    trainer = plan.leader is not None and RIHANI in face_up_skills(snapshot, winner, plan.leader)
    if not selected and not trainer:
        return None
    bands = rihani_bands(native or not selected, selected, trainer)
    if not bands:
        return None
    battle = snapshot.battle
    assert battle is not None
    loser_leader = next((p.leader for f, p in battle.plans.items() if f != winner), None)
    called_now = loser_leader if winner in battle.traitor_calls else None
    pool = exchange_pool(state, winner, called_now) if "battle" in bands else []
    normal_first = band_order(context.choice(BAND_QUESTION)) if len(bands) == 2 and pool else True
    if "normal" in bands and (normal_first or not pool):
        inspect_traitor_deck(state, winner, snapshot.seed, snapshot.turn)
    if "battle" in bands and not pool:
        state.event("traitor-draw-unavailable", "skills.rihani.exchange", faction=winner)
    if not pool:
        return None
    return RihaniRecord(winner, tuple(pool), (), "normal" in bands and not normal_first)


def _record(state: NextSnapshot) -> RihaniRecord:
    record = state.resolution.rihani
    assert record is not None, "a Rihani step keeps its record in the resolution"
    return record


def _draw_decision(state: NextSnapshot) -> dict[str, Any]:
    record = _record(state)
    return opened(record.player, RihaniDrawOffer(eligible=record.eligible))


def _exchange_decision(state: NextSnapshot) -> dict[str, Any]:
    record = _record(state)
    return opened(record.player, RihaniExchange(drawn=record.drawn, eligible=record.eligible))


def draw_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    return [
        {"type": ActionType.RIHANI_DRAW.value, "player": decision.player},
        {"type": ActionType.RIHANI_DECLINE.value, "player": decision.player},
    ]


def exchange_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    exchange = decision.as_(RihaniExchange)
    return [
        {"type": ActionType.RIHANI_KEEP.value, "player": decision.player, "new_card": new, "old_card": old}
        for new in exchange.drawn
        for old in exchange.eligible
    ]


def _after_rihani(snapshot: Snapshot, state: NextSnapshot) -> None:
    record = _record(state)
    if record.inspect_after:
        band_order("lower-first")  # the reading that deferred the inspection carries over
        inspect_traitor_deck(state, record.player, snapshot.seed, snapshot.turn)
    state.clear_resolution("rihani")
    state.step_done()


@ruled(answers(DecisionType.RIHANI_DRAW_OFFER.value))
def rihani_draw(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    record = _record(state)
    drawn = state.draw_traitor_cards(2)
    state.update_resolution(rihani=record.with_(drawn=drawn))
    exchange_pool(state, record.player, None)
    state.event("traitor-cards-drawn", "skills.rihani.exchange", faction=record.player, count=2)
    state.event(
        "traitor-cards-seen",
        "skills.rihani.exchange",
        faction=record.player,
        cards=list(drawn),
        visible_to=[record.player],
    )
    state.step_becomes(DecisionType.RIHANI_EXCHANGE.value)
    return finish(snapshot, state, {"battle": {"rihani": {"drawn": 2}}}, trace, context)


@ruled(answers(DecisionType.RIHANI_DRAW_OFFER.value))
def rihani_decline(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    exchange_pool(state, str(action.player), None)
    state.event("traitor-draw-declined", "skills.rihani.exchange", faction=action.player)
    _after_rihani(snapshot, state)
    return finish(snapshot, state, {"battle": {"rihani": {"drawn": 0}}}, trace, context)


@ruled(answers(DecisionType.RIHANI_EXCHANGE.value))
def rihani_keep(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    record = _record(state)
    faction = record.player
    new, old = str(action.fields["new_card"]), str(action.fields["old_card"])
    other = next(c for c in record.drawn if c != new) if record.drawn.count(new) == 1 else new
    if faction == TLEILAXU:
        state.exchange_face_dancer(old, new)
    else:
        state.exchange_traitor_card(faction, old, new)
    exchange_pool(state, faction, None)
    state.return_to_traitor_deck(old, other)
    state.shuffle_traitor_deck(_deck_random(snapshot.seed, snapshot.turn, state.traitor_deck, "rihani-return"))
    state.event("traitor-returned", "skills.rihani.exchange", faction=faction, card=old)
    state.event("traitor-kept", "skills.rihani.exchange", faction=faction, card=new, visible_to=[faction])
    # the drawn cards are settled: the record goes with the step
    _after_rihani(snapshot, state)
    return finish(snapshot, state, {"battle": {"rihani": {"returned": old}}}, trace, context)


def unused_traitor_cards(held: FactionState, faction: str, called_now: str | None = None) -> list[str]:
    """The cards a Rihani exchange may give back: the faction's Traitor cards never called (nor the one
    called in this battle) nor revealed to assassinate; for the Tleilaxu, their unrevealed Face Dancers."""
    if faction == TLEILAXU:
        return list(held.face_dancers)
    called = set(held.called_traitors) | ({called_now} if called_now else set())
    revealed = [t for t in held.traitors if t in held.assassinated]
    if revealed:
        called |= revealed_not_exchanged(revealed)
    return [t for t in held.traitors if t not in called]


@rule("moritani.assassinate.not-exchanged")
def revealed_not_exchanged(revealed: list[str]) -> set[str]:
    return set(revealed)


DECLARED = RuleModule(
    handlers={
        ActionType.CHOOSE_SPICE_PILE: choose_spice_pile,
        ActionType.RIHANI_DRAW: rihani_draw,
        ActionType.RIHANI_DECLINE: rihani_decline,
        ActionType.RIHANI_KEEP: rihani_keep,
    },
    decisions={
        DecisionType.SANDMASTER_PILE.value: DecisionKind(pile_options, self_contained=True),
        DecisionType.RIHANI_DRAW_OFFER.value: DecisionKind(draw_options, self_contained=True),
        DecisionType.RIHANI_EXCHANGE.value: DecisionKind(exchange_options, self_contained=True),
    },
    steps={
        DecisionType.SANDMASTER_PILE.value: _pile_decision,
        DecisionType.RIHANI_DRAW_OFFER.value: _draw_decision,
        DecisionType.RIHANI_EXCHANGE.value: _exchange_decision,
    },
    implements={
        ARTILLERY_QUESTION: ("bonus-counts", "bonus-zeroed"),
        PILES_QUESTION: ("winner-chooses", "largest-pile", "no-addition"),
        BAND_QUESTION: ("normal-first", "lower-first"),
        FACE_UP_REQUIRED_QUESTION: (FACE_UP_EXCUSED, MUST_COMMIT),
    },
)
