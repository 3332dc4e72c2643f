"""Battle resolution (base rulebook pp.10-11 and 13, November 2020 FAQ p.8, the cards' own text).

`resolve_battle` verifies the locked plans, runs the resolution chain (traitors, explosion, leader
deaths, totals, winner), applies the losses, payments and discards to a copy of the snapshot, and
opens the winner's cleanup decisions (`battle-casualties`, then `winner-cards`). `choose_casualties`
and `keep_cards` continue from a saved snapshot without repeating any payment or loss.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context, InterpretationNeeded
from adjudicator.core.catalog import catalog
from adjudicator.core.registers import get_question
from adjudicator.core.results import Adjudication, Alternative, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answer_violation, illegal, unresolved
from adjudicator.core.snapshot import Battle, Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import rule, tracing
from adjudicator.core.vocabulary import (
    ActionType,
    BattleResult,
    DecisionType,
    DukeStatus,
    Evidence,
    FactionId,
    LeaderStatus,
    Phase,
)
from adjudicator.rules.battle.plans import DUKE, forces_in, plan_violations, strength_halves
from adjudicator.rules.cards import Protection, Weapon, can_retain_battle_card, defense_effect, weapon_effect
from adjudicator.rules.harkonnen import (
    DUKE_CAPTURE_QUESTION,
    captive_duke,
    captive_duke_returns,
    captive_returns,
    captives_return_when_leaderless,
    capture_follows,
    capture_step,
    duke_in_capture_pool,
    harkonnen_leaderless,
    unused_duke_in_pool,
)
from adjudicator.rules.moritani.retention import retention_before_capture, retention_step
from adjudicator.rules.moritani.special import special_karama_step
from adjudicator.rules.skills import (
    MODELLED_BATTLE_SKILLS,
    SANDMASTER,
    UNMODELLED_NORMAL_ADVANCED,
    UNMODELLED_NORMAL_AFTER_WIN,
    UNMODELLED_NORMAL_IN_BATTLE,
    battle_effect_applies,
    face_up_skills,
    rihani_needs_deck,
    rihani_step,
    sandmaster_step,
    selected_skill,
    skill_lines,
    skills_on,
)
from adjudicator.rules.state import NextSnapshot, finish
from adjudicator.rules.tleilaxu import face_dancer_step

TOOTH_QUESTION = "poison-tooth-chemistry"
DOUBLE_TRAITOR_QUESTION = "double-traitor-explosion"
KH_ARTILLERY_QUESTION = "kwisatz-haderach-artillery"


def _choice(context: Context, question_id: str) -> str:
    chosen = context.interpretations.get(question_id)
    if chosen is not None:
        return chosen
    default = get_question(question_id).default
    assert default is not None, f"{question_id} needs a default or an unresolved answer"
    return default


# --- the pure resolution ------------------------------------------------------------------------


QuoteLine = tuple[int, dict[str, Any]]  # half-points, and the line as the answer shows it


@dataclass
class Side:
    faction: str
    plan: Plan
    weapon: Weapon
    protects: frozenset[Protection]
    shield: bool
    chemistry: bool
    leader_halves: int  # the disc's value in half-points (Cheap Hero 0)
    killed_by: str | None = None  # rule id of the first cause that killed its leader


@dataclass
class Resolution:
    result: BattleResult
    winner: str | None
    loser: str | None
    totals: dict[str, int] = field(default_factory=dict)  # half-points
    sides: dict[str, Side] = field(default_factory=dict)
    artillery: bool = False
    used_cards: list[str] = field(default_factory=list)
    quote: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # each side's lines, as answered
    traitor: str | None = None  # the betrayed leader, single traitor
    explosion: bool = False  # every force and all spice in the territory are destroyed


def _leader_value_halves(snapshot: Snapshot, plan: Plan, opposing: Plan) -> int:
    if plan.leader is None:
        return 0
    leader = catalog().leaders[plan.leader]
    if leader.strength_rule == "copies-opponent":
        # Zoal is worth the opposing leader disc (0 against a Cheap Hero or no leader).
        other = catalog().leaders.get(opposing.leader or "")
        return 2 * (other.strength or 0) if other is not None and other.strength_rule is None else 0
    return 2 * (leader.strength or 0)


def _side(snapshot: Snapshot, faction: str, plan: Plan, opposing: Plan, withheld: bool) -> Side:
    weapon = weapon_effect(plan.weapon)
    if weapon is Weapon.POISON_TOOTH and withheld:
        weapon = Weapon.NONE
    defense = defense_effect(plan.defense)
    return Side(
        faction=faction,
        plan=plan,
        weapon=weapon,
        protects=defense.protects,
        shield=defense.is_shield,
        chemistry=defense.is_chemistry,
        leader_halves=_leader_value_halves(snapshot, plan, opposing),
    )


@rule("battle.traitor.single")
def single_traitor(caller: str, betrayed: str) -> tuple[str, str]:
    """A single successful traitor call wins the battle outright for the caller, before any weapon
    resolves and even over a Lasgun/Shield explosion."""
    return caller, betrayed


@rule("battle.traitor.double")
def double_traitor() -> None:
    """When both sides call traitor successfully, both lose: forces, played cards and leaders; nobody is paid."""


@rule("battle.traitor.double-with-explosion")
def double_traitor_explosion(choice: str) -> bool:
    """Double traitors with a Lasgun and a Shield revealed: whether the explosion still destroys the
    territory is unsettled (question double-traitor-explosion)."""
    return choice == "explosion-resolves"


@rule("battle.explosion.lasgun-shield")
def lasgun_shield_explodes(sides: list[Side]) -> bool:
    """A Lasgun with a Shield anywhere in the battle explodes: every force and all spice in the territory
    are lost, both leaders die, nobody wins and nobody is paid."""
    return any(s.weapon is Weapon.LASGUN for s in sides) and any(s.shield for s in sides)


@rule("battle.weapon.artillery-strike")
def artillery_strike_kills(target: Side) -> bool:
    """Artillery Strike kills both leaders, except a leader whose own side played a Shield; surviving
    leaders add nothing to their totals."""
    return not target.shield


@rule("battle.weapon.poison-tooth")
def poison_tooth_kills(target: Side, chemistry_protects: bool) -> bool:
    """An unwithheld Poison Tooth kills both leaders; a Snooper does not stop it."""
    if target.chemistry and chemistry_protects:
        return not poison_tooth_chemistry()
    return True


@rule("battle.weapon.poison-tooth-chemistry")
def poison_tooth_chemistry() -> bool:
    """Chemistry played as a defense protects its leader from a Poison Tooth."""
    return True


@rule("battle.weapon.lasgun")
def lasgun_kills(target: Side) -> bool:
    """A Lasgun kills the opposing leader; no defense stops it."""
    return True


@rule("battle.weapon.poison")
def poison_kills(target: Side) -> bool:
    """A poison weapon kills the opposing leader unless that side played a poison defense."""
    return Protection.POISON not in target.protects


@rule("battle.weapon.projectile")
def projectile_kills(target: Side) -> bool:
    """A projectile weapon kills the opposing leader unless that side played a projectile defense."""
    return Protection.PROJECTILE not in target.protects


@rule("battle.weapon.poison-blade")
def poison_blade_kills(target: Side) -> bool:
    """Poison Blade is projectile and poison at once: only a defense against both (Shield Snooper) stops it."""
    return not {Protection.PROJECTILE, Protection.POISON} <= target.protects


def _kill_leaders(a: Side, b: Side, chemistry_protects: bool) -> bool:
    """Run the weapon chain in its fixed order; each leader records the first cause that killed it.
    Returns whether an Artillery Strike was played."""
    artillery = Weapon.ARTILLERY_STRIKE in (a.weapon, b.weapon)

    def hit(target: Side, cause: str) -> None:
        if target.killed_by is None:
            target.killed_by = cause

    has_leader = {s.faction: s.plan.leader is not None or s.plan.cheap_hero is not None for s in (a, b)}
    if artillery:
        for target in (a, b):
            if has_leader[target.faction] and artillery_strike_kills(target):
                hit(target, "battle.weapon.artillery-strike")
    if Weapon.POISON_TOOTH in (a.weapon, b.weapon):
        for target in (a, b):
            if has_leader[target.faction] and poison_tooth_kills(target, chemistry_protects):
                hit(target, "battle.weapon.poison-tooth")
    for attacker, target in ((a, b), (b, a)):
        if not has_leader[target.faction]:
            continue
        if attacker.weapon is Weapon.LASGUN and lasgun_kills(target):
            hit(target, "battle.weapon.lasgun")
        elif attacker.weapon is Weapon.POISON and poison_kills(target):
            hit(target, "battle.weapon.poison")
        elif attacker.weapon is Weapon.PROJECTILE and projectile_kills(target):
            hit(target, "battle.weapon.projectile")
        elif attacker.weapon is Weapon.POISON_BLADE and poison_blade_kills(target):
            hit(target, "battle.weapon.poison-blade")
    return artillery


def _survives(side: Side) -> bool:
    return (side.plan.leader is not None or side.plan.cheap_hero is not None) and side.killed_by is None


@rule("battle.strength.total")
def strength_lines(side: Side, artillery: bool, kh_under_artillery: str) -> list[QuoteLine]:
    """A side's total is its dial plus its leader's strength if the leader survives (one quote line
    each: half-points, and the line as the answer shows it)."""
    survives = _survives(side)
    dial = side.plan.dial_halves
    lines: list[QuoteLine] = [
        (dial, {"part": "dial", "value": halves_to_number(dial), "rule": "battle.strength.total"})
    ]
    if side.plan.leader is not None or side.plan.cheap_hero is not None:
        leader = side.leader_halves if survives and not artillery else 0
        line = {
            "part": "leader",
            "leader": side.plan.leader or side.plan.cheap_hero,
            "value": halves_to_number(leader),
            "rule": "battle.weapon.artillery-strike" if artillery and survives else "battle.strength.total",
        }
        lines.append((leader, line))
    if side.plan.kwisatz_haderach and survives:
        counts = not artillery or kwisatz_haderach_under_artillery(kh_under_artillery)
        bonus = kwisatz_haderach_bonus() if counts else 0
        kh_line = {
            "part": "kwisatz-haderach",
            "value": halves_to_number(bonus),
            "rule": "battle.strength.kwisatz-haderach",
        }
        lines.append((bonus, kh_line))
    return lines


@rule("battle.strength.kwisatz-haderach-artillery")
def kwisatz_haderach_under_artillery(choice: str) -> bool:
    """Under an Artillery Strike a surviving leader adds nothing; whether the Kwisatz Haderach's +2 still
    counts follows question kwisatz-haderach-artillery."""
    return choice == "bonus-counts"


@rule("battle.strength.kwisatz-haderach")
def kwisatz_haderach_bonus() -> int:
    """The Kwisatz Haderach adds 2 to the leader it accompanies while that leader survives."""
    return 4


@rule("battle.winner.higher-total")
def higher_total_wins(aggressor: str, defender: str, totals: Mapping[str, int]) -> tuple[str, str]:
    """The higher total wins the battle."""
    if totals[aggressor] == totals[defender]:
        return tie_goes_to_aggressor(aggressor, defender)
    return (aggressor, defender) if totals[aggressor] > totals[defender] else (defender, aggressor)


@rule("battle.winner.tie-to-aggressor")
def tie_goes_to_aggressor(aggressor: str, defender: str) -> tuple[str, str]:
    """Equal totals: the aggressor wins."""
    return aggressor, defender


def resolve(snapshot: Snapshot, battle: Battle, context: Context) -> Resolution:
    aggressor, defender = battle.aggressor, battle.defender
    plans = battle.plans
    sides = {
        f: _side(snapshot, f, plans[f], plans[o], f in battle.poison_tooth_withheld)
        for f, o in ((aggressor, defender), (defender, aggressor))
    }
    calls = set(battle.traitor_calls)
    if len(calls) == 2:
        double_traitor()
        explodes = False
        if any(s.weapon is Weapon.LASGUN for s in sides.values()) and any(s.shield for s in sides.values()):
            explodes = double_traitor_explosion(_choice(context, DOUBLE_TRAITOR_QUESTION))
        return Resolution(
            BattleResult.DOUBLE_TRAITOR, None, None, sides=sides, totals={aggressor: 0, defender: 0}, explosion=explodes
        )
    if len(calls) == 1:
        (caller,) = calls
        betrayed = defender if caller == aggressor else aggressor
        winner, loser = single_traitor(caller, betrayed)
        return Resolution(
            BattleResult.SINGLE_TRAITOR,
            winner,
            loser,
            sides=sides,
            totals={aggressor: 0, defender: 0},
            traitor=plans[betrayed].leader,
        )
    lasgun = any(s.weapon is Weapon.LASGUN for s in sides.values())
    if lasgun and lasgun_shield_explodes(list(sides.values())):
        return Resolution(
            BattleResult.EXPLOSION, None, None, sides=sides, totals={aggressor: 0, defender: 0}, explosion=True
        )
    chemistry_protects = _choice(context, TOOTH_QUESTION) == "chemistry-protects"
    artillery = _kill_leaders(sides[aggressor], sides[defender], chemistry_protects)
    kh_choice = _choice(context, KH_ARTILLERY_QUESTION)
    lines = {f: strength_lines(s, artillery, kh_choice) for f, s in sides.items()}
    if skills_on(snapshot):
        survivors = {f: _survives(s) for f, s in sides.items()}
        for faction, extra in skill_lines(snapshot, plans, survivors, artillery, context.interpretations).items():
            lines[faction] += extra
    totals = {f: sum(halves for halves, _ in side_lines) for f, side_lines in lines.items()}
    quote = {f: [line for _, line in side_lines] for f, side_lines in lines.items()}
    winner, loser = higher_total_wins(aggressor, defender, totals)
    used = [
        s.plan.weapon
        for s in sides.values()
        if s.plan.weapon is not None and s.weapon in (Weapon.POISON_TOOTH, Weapon.ARTILLERY_STRIKE)
    ]
    return Resolution(
        BattleResult.DECIDED,
        winner,
        loser,
        totals=totals,
        sides=sides,
        artillery=artillery,
        used_cards=used,
        quote=quote,
    )


# --- applying a resolution to the next snapshot -----------------------------------------------------


def _leader_strength(snapshot: Snapshot, side: Side) -> int:
    return side.leader_halves // 2


def traitor_card_called(state: NextSnapshot, caller: str, leader: str | None) -> None:
    """A Traitor card called is recorded as used (`called_traitors`): it can no longer be exchanged."""
    faction = state.wire["factions"][caller]
    if leader is not None and leader in faction["traitors"] and leader not in faction.get("called_traitors", []):
        faction["called_traitors"] = [*faction.get("called_traitors", []), leader]


@rule("battle.bounty")
def bounty(killed: list[tuple[str, int, str]]) -> int:
    """The winner is paid the strength of every leader killed in the battle, its own included, except
    leaders killed by an Artillery Strike."""
    return sum(strength for _, strength, cause in killed if cause != "battle.weapon.artillery-strike")


@rule("battle.losses.loser-all")
def loser_loses_everything(state: NextSnapshot, loser: str, territory: str) -> None:
    """The loser loses all its forces in the territory to the Tanks."""
    state.forces_to_tanks(loser, territory, "battle.losses.loser-all")


@rule("battle.cards.loser-discards")
def loser_discards(state: NextSnapshot, loser: str) -> None:
    """The loser discards every Treachery card it played."""
    for slot in ("cheap_hero", "weapon", "defense"):
        state.discard_from_plan(loser, slot, "battle.cards.loser-discards")


@rule("battle.spice.support")
def pay_support(state: NextSnapshot, faction: str, plan: Plan, kept_by_traitor_winner: bool) -> None:
    """Advanced: spice committed to support forces goes to the bank, except that the winner of a battle
    decided by a traitor keeps it."""
    if plan.spice and not kept_by_traitor_winner:
        state.pay_to_bank(faction, plan.spice, "battle.spice.support", "support")


@rule("battle.leaders.survivors-stay")
def survivors_fought(state: NextSnapshot, leader_ids: list[str], territory: str) -> None:
    """A leader that fought and survived may fight again in this territory but in no other this phase."""
    for leader_id in leader_ids:
        state.leader_fought(leader_id, territory)


def casualty_options(snapshot: Snapshot, battle: Battle, winner: str) -> list[dict[str, int]]:
    """Ways the winner can lose the forces it dialed: minimal (regular, elite) sets whose strength covers
    the dial (Basic: every force counts 1; advanced: as it counted on the dial)."""
    plan = battle.plans[winner]
    if plan.dial_halves == 0:
        return [{"regular": 0, "elite": 0}]
    loser = battle.defender if winner == battle.aggressor else battle.aggressor
    forces = forces_in(snapshot, winner, battle.territory)

    def strength(regular: int, elite: int) -> int:
        return strength_halves(snapshot, winner, loser, regular, elite, min(plan.spice, regular + elite))

    if forces.elite == 0 or forces.regular == 0:
        # One kind of force: the fewest of them that cover the dial is the only way to lose it.
        kind = "elite" if forces.regular == 0 else "regular"
        for count in range(forces.total + 1):
            regular, elite = (0, count) if kind == "elite" else (count, 0)
            if strength(regular, elite) >= plan.dial_halves:
                return [{"regular": regular, "elite": elite}]
        return [{"regular": forces.regular, "elite": forces.elite}]
    if winner == FactionId.IXIANS.value:
        cyborgs_lost_as_dialed()
    options = []
    for elite, regular in itertools.product(range(forces.elite + 1), range(forces.regular + 1)):
        if strength(regular, elite) < plan.dial_halves:
            continue
        if regular and strength(regular - 1, elite) >= plan.dial_halves:
            continue
        if elite and strength(regular, elite - 1) >= plan.dial_halves:
            continue
        options.append({"regular": regular, "elite": elite})
    return options


@rule("battle.losses.cyborgs-as-dialed")
def cyborgs_lost_as_dialed() -> None:
    """A lost Cyborg covers what it counted on the dial (question cyborg-losses, default as-dialed)."""


@rule("battle.losses.winner-dialed")
def winner_loses_dialed(state: NextSnapshot, winner: str, territory: str, regular: int, elite: int) -> None:
    """The winner loses only the forces it dialed, choosing which when it has several kinds."""
    state.forces_to_tanks(winner, territory, "battle.losses.winner-dialed", regular=regular, elite=elite)


def _card_subsets(cards: list[str]) -> list[list[str]]:
    return [list(c) for n in range(len(cards), -1, -1) for c in itertools.combinations(cards, n)]


def _summary(
    snapshot: Snapshot,
    battle: Battle,
    res: Resolution,
    killed: list[dict[str, Any]],
    paid: dict[str, int],
    lost: dict[str, dict[str, int]],
) -> dict[str, Any]:
    return {
        "result": res.result.value,
        "winner": res.winner,
        "loser": res.loser,
        "territory": battle.territory,
        "totals": {f: halves_to_number(t) for f, t in res.totals.items()},
        "quote": res.quote,
        "leaders_killed": killed,
        "spice_awarded": paid,
        "forces_lost": lost,
    }


def apply_resolution(
    snapshot: Snapshot, battle: Battle, res: Resolution, context: Context
) -> tuple[dict[str, Any], NextSnapshot]:
    state = NextSnapshot(snapshot)
    territory = battle.territory
    sides = res.sides
    killed: list[tuple[str, int, str]] = []  # leader, strength, cause

    def kill(side: Side, cause: str) -> None:
        if side.plan.leader is not None:
            state.leader_to_tanks(side.plan.leader, cause)
            killed.append((side.plan.leader, _leader_strength(snapshot, side), cause))

    paid: dict[str, int] = {}
    for caller in battle.traitor_calls:
        traitor_card_called(
            state, caller, battle.plans[battle.defender if caller == battle.aggressor else battle.aggressor].leader
        )
    if res.result is BattleResult.SINGLE_TRAITOR:
        assert res.winner is not None and res.loser is not None
        kill(sides[res.loser], "battle.traitor.single")
        strength = _leader_strength(snapshot, sides[res.loser])
        state.pay_from_bank(res.winner, strength, "battle.traitor.single", "traitor")
        paid[res.winner] = strength
    elif res.result in (BattleResult.DOUBLE_TRAITOR, BattleResult.EXPLOSION):
        cause = (
            "battle.traitor.double" if res.result is BattleResult.DOUBLE_TRAITOR else "battle.explosion.lasgun-shield"
        )
        for side in sides.values():
            kill(side, cause)
    else:
        for side in sides.values():
            if side.killed_by is not None:
                kill(side, side.killed_by)
    if res.result is BattleResult.DECIDED:
        assert res.winner is not None
        amount = bounty(killed)
        state.pay_from_bank(res.winner, amount, "battle.bounty", "leaders killed")
        if amount:
            paid[res.winner] = amount

    # forces
    if res.explosion:
        for faction in sorted({s["faction"] for s in snapshot.to_dict()["forces"] if s["territory"] == territory}):
            state.forces_to_tanks(faction, territory, "battle.explosion.lasgun-shield")
        state.advisors_to_tanks(territory, "battle.explosion.lasgun-shield")
        state.spice_destroyed(territory, "battle.explosion.lasgun-shield")
    if res.result is BattleResult.DOUBLE_TRAITOR and not res.explosion:
        for faction in (battle.aggressor, battle.defender):
            state.forces_to_tanks(faction, territory, "battle.traitor.double")
    if res.loser is not None:
        loser_loses_everything(state, res.loser, territory)

    # support spice, and the cards of the sides without a win (Moritani's ally keeps its own reserved)
    retention = retention_step(
        snapshot,
        state,
        res.winner,
        res.loser,
        set(res.used_cards),
        res.result is BattleResult.SINGLE_TRAITOR,
        dict(context.interpretations),
    )
    for faction in (battle.aggressor, battle.defender):
        plan = battle.plans[faction]
        if snapshot.ruleset.advanced:
            pay_support(state, faction, plan, res.result is BattleResult.SINGLE_TRAITOR and faction == res.winner)
        if faction != res.winner and not (retention is not None and faction == res.loser):
            loser_discards(state, faction)

    # the Kwisatz Haderach
    atreides_plan = battle.plans.get(FactionId.ATREIDES.value)
    if atreides_plan is not None and atreides_plan.kwisatz_haderach:
        token = state.wire["factions"][FactionId.ATREIDES.value]["kwisatz_haderach"]
        token["used_in"] = territory
        if res.explosion:
            token["status"] = "tanks"
            state.event("kwisatz-haderach-killed", "battle.explosion.lasgun-shield")

    steps: list[str] = []
    skill_records: dict[str, dict[str, Any] | None] = {}
    if res.winner is not None:
        winner_plan = battle.plans[res.winner]
        decided_by_traitor = res.result is BattleResult.SINGLE_TRAITOR
        for slot in ("cheap_hero", "weapon", "defense"):
            card = getattr(winner_plan, slot)
            used = card in res.used_cards
            if card is not None and not can_retain_battle_card(card, used=used, decided_by_traitor=decided_by_traitor):
                state.discard_from_plan(res.winner, slot, "battle.cards.winner-may-keep")
        if res.result is BattleResult.DECIDED:
            options = casualty_options(snapshot, battle, res.winner)
            if len(options) == 1:
                winner_loses_dialed(state, res.winner, territory, **options[0])
            else:
                steps.append(DecisionType.BATTLE_CASUALTIES.value)
        if special_karama_step(snapshot, state, res.winner, res.loser):
            steps.append(DecisionType.MORITANI_SPECIAL_KARAMA.value)
        remaining = [c for c in (state.wire["battle"]["plans"][res.winner][s] for s in ("weapon", "defense")) if c]
        if remaining:
            steps.append(DecisionType.WINNER_CARDS.value)
        # the winner's skills, before Moritani's retention, the capture and a Face Dancer
        if skills_on(snapshot):
            winner_side = sides[res.winner]
            if selected_skill(snapshot, winner_plan) == SANDMASTER and battle_effect_applies(_survives(winner_side)):
                skill_records["sandmaster"] = sandmaster_step(snapshot, state, res.winner, territory, context)
                if skill_records["sandmaster"] is not None:
                    steps.append(DecisionType.SANDMASTER_PILE.value)
            skill_records["rihani"] = rihani_step(
                snapshot, state, res.winner, winner_plan, _survives(winner_side), context
            )
            if skill_records["rihani"] is not None:
                steps.append(DecisionType.RIHANI_DRAW_OFFER.value)

    survivors = [
        s.plan.leader
        for s in sides.values()
        if s.plan.leader is not None and s.killed_by is None and res.result is BattleResult.DECIDED
    ]
    # Duke Vidal, used by the loser against the advanced Harkonnen: his tenure ends before the capture
    # draw or after it (question duke-harkonnen-capture); in the draw, he stays held until it settles.
    duke_drawable = duke_capture_open(snapshot, battle, res) and duke_in_capture_pool(
        _chosen(context, DUKE_CAPTURE_QUESTION, ("release-first", "capture-pool-first"))
    )
    captive_duke_fought = DUKE in survivors and captive_duke(state.wire)
    loan_kept = DUKE in survivors and _duke_on_loan(state) and loaned_duke_stays(state, territory, context)
    if survivors:
        survivors_fought(
            state,
            [s for s in survivors if s != DUKE or not (duke_drawable or captive_duke_fought or loan_kept)],
            territory,
        )
        for side in sides.values():
            leader = side.plan.leader
            if leader in survivors and leader != DUKE and catalog().leaders[leader].faction != side.faction:
                captive_returns(state, leader)
        if captive_duke_fought:
            captive_duke_returns(state, context.interpretations)
    if killed and harkonnen_leaderless(state):
        captives_return_when_leaderless(state, context.interpretations)
    if retention is not None:
        steps.append(DecisionType.MORITANI_RETENTION.value)
    unused_drawable = unused_duke_capture_open(snapshot, battle, res) and unused_duke_in_pool(
        _chosen(context, UNUSED_CAPTURE_QUESTION, ("not-in-pool", "in-pool"))
    )
    captive = capture_step(snapshot, state, res.winner, res.loser, duke_drawable or unused_drawable)
    if duke_drawable and captive != DUKE:
        state.leader_fought(DUKE, territory)
    if captive is not None:
        if retention is not None:
            retention_before_capture()
        steps.append(DecisionType.HARKONNEN_CAPTURE.value)

    lost: dict[str, dict[str, int]] = {}
    for e in state.events:
        if e["type"] == "forces-lost":
            entry = lost.setdefault(e["faction"], {"regular": 0, "elite": 0})
            entry["regular"] += e["regular"]
            entry["elite"] += e["elite"]
    leaders_killed = [{"leader": leader, "cause": cause} for leader, _, cause in killed]
    summary = _summary(snapshot, battle, res, leaders_killed, paid, lost)
    state.wire["battle"]["resolution"] = {
        "result": res.result.value,
        "winner": res.winner,
        "loser": res.loser,
        "decided_by_traitor": res.result is BattleResult.SINGLE_TRAITOR,
        "steps": steps,
        "used_cards": list(res.used_cards),
        "capture": captive,
        "retention": retention,
    }
    for key, record in skill_records.items():
        if record is not None:
            state.wire["battle"]["resolution"][key] = record
    if duke_drawable or unused_drawable:
        state.wire["battle"]["resolution"]["duke_in_capture_pool"] = True
    if face_dancer_step(state.wire):
        steps.append(DecisionType.FACE_DANCER_REVEAL.value)
    return summary, state


# --- decisions and continuation ----------------------------------------------------------------------


STORM_QUESTION = "battle-under-storm"


def _sector_groups(sectors: tuple[int, ...], storm: int) -> list[set[int]]:
    """The territory's sectors outside the storm, in runs of neighbouring sectors (0 and 17 touch)."""
    free = [x for x in sectors if x != storm]
    groups: list[set[int]] = []
    for sector in free:
        joined = [g for g in groups if (sector - 1) % 18 in g or (sector + 1) % 18 in g]
        merged = {sector}.union(*joined) if joined else {sector}
        groups = [g for g in groups if g not in joined] + [merged]
    return groups


@rule("battle.who-battles")
def battle_preconditions(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    """Battles are fought in the Battle phase between factions that are not allies, whose forces share
    the territory without a storm sector between them."""
    rule_id = "battle.who-battles"
    found = []
    if snapshot.phase is not Phase.BATTLE:
        found.append(
            Violation("not-battle-phase", "battles are resolved in the Battle phase", "/snapshot/phase", rule_id)
        )
    if snapshot.factions[battle.aggressor].ally == battle.defender:
        found.append(
            Violation("allies-do-not-battle", "allies never battle each other", "/snapshot/battle/defender", rule_id)
        )
    territory = catalog().territories.get(battle.territory)
    storm = snapshot.storm_sector
    if territory is None or storm not in territory.sectors:
        return found
    sectors = {
        f: {
            s.sector
            for s in snapshot.forces
            if s.faction == f and s.territory == battle.territory and s.sector is not None
        }
        for f in (battle.aggressor, battle.defender)
    }
    if any(storm in placed for placed in sectors.values()) and not storm_sector_battle(
        _choice(context, STORM_QUESTION)
    ):
        found.append(
            Violation(
                "under-storm",
                "forces in the storm sector do not battle (question battle-under-storm)",
                "/snapshot/storm_sector",
                "battle.storm.under-storm",
            )
        )
    groups = _sector_groups(territory.sectors, storm)
    apart = all(
        not (group & sectors[battle.aggressor] and group & sectors[battle.defender]) for group in groups
    ) and all(sectors.values())
    if apart and not any(storm in placed for placed in sectors.values()):
        found.append(
            Violation(
                "storm-separated",
                "a storm sector lies between the two sides' forces",
                "/snapshot/storm_sector",
                rule_id,
            )
        )
    return found


@rule("battle.storm.under-storm")
def storm_sector_battle(choice: str) -> bool:
    """Whether forces in the storm sector battle follows question battle-under-storm (default: they do not)."""
    return choice == "battle-blind"


BROKEN_LOAN_QUESTION = "duke-loan-alliance-break"


def broken_loan_violations(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    """A plan naming a loaned Duke Vidal whose holder is no longer allied with Ecaz."""
    duke = snapshot.duke_vidal
    if duke is None or duke.status is not DukeStatus.HELD or duke.loaned_by is None or duke.controller is None:
        return []
    plan = battle.plans.get(duke.controller)
    recipient = snapshot.factions.get(duke.controller)
    if plan is None or plan.leader != DUKE or recipient is None or recipient.ally == duke.loaned_by:
        return []
    return loan_after_alliance_break(duke.controller, context.interpretations.get(BROKEN_LOAN_QUESTION))


@rule("duke-vidal.loan.alliance-break")
def loan_after_alliance_break(holder: str, choice: str | None) -> list[Violation]:
    """Whether a loaned Duke Vidal may still fight for a faction whose alliance with Ecaz has broken follows
    the chosen answer to question duke-loan-alliance-break (the loan ends, or runs to the turn's end)."""
    path = f"/snapshot/battle/plans/{holder}/leader"
    if choice is None:
        # under one reading the plan itself is illegal, so the choice is needed before anything resolves
        return [
            Violation(
                "interpretation-required",
                "the alliance behind this loan has broken: choose a reading of this question",
                f"/interpretations/{BROKEN_LOAN_QUESTION}",
                "duke-vidal.loan.alliance-break",
            )
        ]
    if choice == "loan-ends":
        return [
            Violation(
                "leader-not-available",
                f"under 'loan-ends' {holder} no longer holds Duke Vidal",
                path,
                "duke-vidal.loan.alliance-break",
            )
        ]
    return []


def unmodelled_compositions(
    snapshot: Snapshot, battle: Battle, interpretations: Mapping[str, str] | None = None
) -> list[Violation]:
    """Rules that would change this battle's outcome but are not modelled yet: answered
    `not-implemented` rather than resolved without them."""
    missing: list[tuple[str, str]] = []
    rs = snapshot.ruleset
    combatants = (battle.aggressor, battle.defender)
    for faction in combatants:
        plan = battle.plans[faction]
        if plan.leader is None or plan.leader == DUKE:
            continue
        native = catalog().leaders[plan.leader].faction
        state = snapshot.factions[native].leaders.get(plan.leader)
        if state is not None and selected_skill(snapshot, plan) not in (None, *MODELLED_BATTLE_SKILLS):
            missing.append(
                (
                    f"the {state.skill} leader skill in battle ({plan.leader})",
                    f"/snapshot/battle/plans/{faction}/leader",
                )
            )
        if plan.leader == "auditor":
            missing.append(("the Auditor's inspection after the battle", f"/snapshot/battle/plans/{faction}/leader"))
    for faction in combatants if skills_on(snapshot) else ():
        for skill, leader_id in face_up_skills(snapshot, faction, battle.plans[faction].leader).items():
            advanced_only = skill in UNMODELLED_NORMAL_ADVANCED and rs.advanced
            if skill in UNMODELLED_NORMAL_IN_BATTLE or skill in UNMODELLED_NORMAL_AFTER_WIN or advanced_only:
                missing.append(
                    (f"the face-up {skill} skill ({leader_id})", f"/snapshot/factions/{faction}/leaders/{leader_id}")
                )
    if rs.advanced and FactionId.CHOAM.value in snapshot.factions and any(battle.plans[f].spice for f in combatants):
        missing.append(("CHOAM's share of battle support spice", "/snapshot/battle/plans"))
    for variant in ("stronghold-cards", "tech-tokens"):
        if variant in rs.variants:
            missing.append((f"the {variant} variant in battle", "/snapshot/ruleset/variants"))
    if battle.territory in catalog().homeworlds:
        missing.append(("homeworld battle bonuses", "/snapshot/battle/territory"))
    duke = snapshot.duke_vidal
    if duke is not None and duke.status is DukeStatus.CAPTURED and duke.by in combatants:
        captor = duke.by
        others_dead = all(
            snapshot.factions[captor].leaders.get(leader.id) is not None
            and snapshot.factions[captor].leaders[leader.id].status is LeaderStatus.TANKS
            for leader in catalog().leaders_of(captor)
            if leader.id != battle.plans[captor].leader
        )
        needs_prior = (interpretations or {}).get("duke-capture-return", "prior-controller") == "prior-controller"
        if (battle.plans[captor].leader == DUKE or others_dead) and duke.captured_from is None and needs_prior:
            # he may be given back, and one reading of duke-capture-return needs his prior holder
            missing.append(
                (
                    "the return of a captured Duke Vidal whose captured_from is not given",
                    "/snapshot/duke_vidal/captured_from",
                )
            )
    ecaz = snapshot.factions.get(FactionId.ECAZ.value)
    if ecaz is not None and ecaz.ally is not None:
        pair = {FactionId.ECAZ.value, ecaz.ally}
        present = {s.faction for s in snapshot.forces if s.territory == battle.territory}
        if pair <= present and pair & set(combatants):
            missing.append(("Ecaz Occupy (Ecaz and its ally in one battle)", "/snapshot/battle"))
    return [
        Violation("not-implemented", f"this engine version does not adjudicate {what} yet", path)
        for what, path in missing
    ]


LOAN_TENURE_QUESTION = "duke-loan-tenure"


def _duke_on_loan(state: NextSnapshot) -> bool:
    duke = state.wire["duke_vidal"]
    return duke is not None and duke["status"] == DukeStatus.HELD.value and duke.get("loaned_by") is not None


@rule("duke-vidal.loan.tenure")
def loaned_duke_stays(state: NextSnapshot, territory: str, context: Context) -> bool:
    """A loaned Duke Vidal who survives his battle leaves the recipient (one battle) or stays for the rest
    of the turn, fighting again only in this territory, following question duke-loan-tenure."""
    duke = state.wire["duke_vidal"]
    choice = context.interpretations.get(LOAN_TENURE_QUESTION)
    if choice is None:
        raise InterpretationNeeded(LOAN_TENURE_QUESTION, ("one-battle", "whole-turn"))
    if choice == "one-battle":
        return False
    duke["fought_in"] = territory
    state.event("duke-vidal-stays", "duke-vidal.loan.tenure", faction=duke["controller"], territory=territory)
    return True


UNUSED_CAPTURE_QUESTION = "duke-unused-capture-pool"


def unused_duke_capture_open(snapshot: Snapshot, battle: Battle, res: Resolution) -> bool:
    """The advanced Harkonnen won against a faction holding Duke Vidal that did not play him."""
    duke = snapshot.duke_vidal
    if duke is None or duke.status is not DukeStatus.HELD or not capture_follows(snapshot, res.winner, res.loser):
        return False
    return duke.controller is not None and duke.controller == res.loser and battle.plans[duke.controller].leader != DUKE


def _chosen(context: Context, question: str, choices: tuple[str, ...]) -> str:
    """The request's choice for an open question reached during the resolution, or the signal to answer
    `unresolved` with each of `choices`."""
    choice = context.interpretations.get(question)
    if choice is None:
        raise InterpretationNeeded(question, choices)
    return choice


def duke_capture_open(snapshot: Snapshot, battle: Battle, res: Resolution) -> bool:
    """Duke Vidal fought for the loser, survived, and the advanced Harkonnen won: question
    duke-harkonnen-capture decides whether he can be drawn."""
    if not capture_follows(snapshot, res.winner, res.loser) or res.result is not BattleResult.DECIDED:
        return False
    assert res.loser is not None
    side = res.sides[res.loser]
    return side.plan.leader == DUKE and side.killed_by is None


def _alternatives(
    snapshot: Snapshot, battle: Battle, res: Resolution, context: Context, chosen: dict[str, str]
) -> list[Alternative]:
    """Every combination of the open questions the resolution reaches, each with its outcome; a question
    reached only under some earlier choice is explored only there."""
    under = context.under(chosen)
    try:
        summary, state = apply_resolution(snapshot, battle, res, under)
    except InterpretationNeeded as needed:
        found: list[Alternative] = []
        for choice in needed.choices:
            found += _alternatives(snapshot, battle, res, context, {**chosen, needed.question: choice})
        return found
    outcome = finish(snapshot, state, {"battle": summary}, [], under).outcome
    assert outcome is not None
    return [Alternative(MappingProxyType(chosen), dict(outcome), Evidence.PROVISIONAL_ORDERING)]


def resolve_battle(snapshot: Snapshot, action: Action, context: Context) -> Adjudication:
    """`resolve-battle`: verify the locked plans, resolve, apply, and open the cleanup decisions."""
    with tracing() as trace:
        battle = snapshot.battle
        if battle is None:
            return illegal(
                snapshot,
                [Violation("no-battle", "the snapshot has no locked battle", "/snapshot/battle")],
                trace,
                context,
            )
        if snapshot.pending is not None and snapshot.pending.type == DecisionType.BATTLE_PLAN.value:
            return illegal(
                snapshot,
                [Violation("plans-not-locked", "both plans must be locked first", "/snapshot/pending")],
                trace,
                context,
            )
        if battle.resolution is not None or snapshot.pending is not None:
            return illegal(
                snapshot,
                [
                    Violation(
                        "battle-already-resolved",
                        "this battle is resolved; answer the open decision instead",
                        "/snapshot/battle/resolution",
                    )
                ],
                trace,
                context,
            )
        violations = battle_preconditions(snapshot, battle, context)
        violations += plan_violations(snapshot, battle) + unmodelled_compositions(
            snapshot, battle, context.interpretations
        )
        violations += broken_loan_violations(snapshot, battle, context)
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
        if violations:
            return illegal(snapshot, violations, trace, context)
        resolution = resolve(snapshot, battle, context)
        try:
            summary, state = apply_resolution(snapshot, battle, resolution, context)
        except InterpretationNeeded:
            return unresolved(_alternatives(snapshot, battle, resolution, context, {}), trace, context)
        return finish(snapshot, state, {"battle": summary}, trace, context)


def choose_casualties(snapshot: Snapshot, action: Action, context: Context) -> Adjudication:
    with tracing() as trace:
        problem = answer_violation(snapshot, action, DecisionType.BATTLE_CASUALTIES.value, context)
        if problem is not None:
            return illegal(snapshot, [problem], trace, context)
        assert snapshot.battle is not None and action.player is not None
        state = NextSnapshot(snapshot)
        regular, elite = int(action.fields["regular"]), int(action.fields["elite"])
        winner_loses_dialed(state, action.player, snapshot.battle.territory, regular, elite)
        state.wire["battle"]["resolution"]["steps"].pop(0)
        summary = {"casualties": {"faction": action.player, "regular": regular, "elite": elite}}
        return finish(snapshot, state, {"battle": summary}, trace, context)


@rule("battle.cards.winner-keeps-or-discards")
def keep_or_discard(state: NextSnapshot, winner: str, keep: list[str]) -> None:
    """The winner keeps the played cards it chooses and discards the rest."""
    plan = state.wire["battle"]["plans"][winner]
    for slot in ("weapon", "defense"):
        if plan[slot] in keep:
            state.return_to_hand(winner, slot, "battle.cards.winner-keeps-or-discards")
        else:
            state.discard_from_plan(winner, slot, "battle.cards.winner-keeps-or-discards")


def keep_cards(snapshot: Snapshot, action: Action, context: Context) -> Adjudication:
    with tracing() as trace:
        problem = answer_violation(snapshot, action, DecisionType.WINNER_CARDS.value, context)
        if problem is not None:
            return illegal(snapshot, [problem], trace, context)
        assert action.player is not None
        state = NextSnapshot(snapshot)
        keep = list(action.fields.get("cards") or [])
        keep_or_discard(state, action.player, keep)
        state.wire["battle"]["resolution"]["steps"].pop(0)
        summary = {"cards": {"faction": action.player, "kept": keep}}
        return finish(snapshot, state, {"battle": summary}, trace, context)


def casualty_decision_options(snapshot: Snapshot, decision: Any) -> list[dict[str, Any]]:
    assert snapshot.battle is not None
    return [
        {"type": ActionType.CHOOSE_CASUALTIES.value, "player": decision.player, **option}
        for option in casualty_options(snapshot, snapshot.battle, decision.player)
    ]


def winner_card_options(snapshot: Snapshot, decision: Any) -> list[dict[str, Any]]:
    return [
        {"type": ActionType.KEEP_CARDS.value, "player": decision.player, "cards": subset}
        for subset in _card_subsets(list(decision.get("eligible", ())))
    ]


def _casualties_decision(wire: dict[str, Any]) -> dict[str, Any]:
    battle = wire["battle"]
    winner = battle["resolution"]["winner"]
    return {
        "type": DecisionType.BATTLE_CASUALTIES.value,
        "player": winner,
        "territory": battle["territory"],
        "strength": battle["plans"][winner]["dial"],
    }


def _winner_cards_decision(wire: dict[str, Any]) -> dict[str, Any]:
    battle = wire["battle"]
    winner = battle["resolution"]["winner"]
    eligible = [c for c in (battle["plans"][winner][s] for s in ("weapon", "defense")) if c]
    return {
        "type": DecisionType.WINNER_CARDS.value,
        "player": winner,
        "territory": battle["territory"],
        "eligible": eligible,
    }


DECLARED = RuleModule(
    handlers={
        ActionType.RESOLVE_BATTLE: resolve_battle,
        ActionType.CHOOSE_CASUALTIES: choose_casualties,
        ActionType.KEEP_CARDS: keep_cards,
    },
    decisions={
        DecisionType.BATTLE_CASUALTIES.value: DecisionKind(casualty_decision_options),
        DecisionType.WINNER_CARDS.value: DecisionKind(winner_card_options, self_contained=True),
    },
    steps={
        DecisionType.BATTLE_CASUALTIES.value: _casualties_decision,
        DecisionType.WINNER_CARDS.value: _winner_cards_decision,
    },
    implements={
        TOOTH_QUESTION: ("chemistry-protects", "no-protection"),
        DOUBLE_TRAITOR_QUESTION: ("traitors-preempt", "explosion-resolves"),
        "cyborg-losses": ("as-dialed",),
        KH_ARTILLERY_QUESTION: ("bonus-counts", "bonus-zeroed"),
        STORM_QUESTION: ("no-battle", "battle-blind"),
        BROKEN_LOAN_QUESTION: ("loan-ends", "loan-continues"),
        LOAN_TENURE_QUESTION: ("one-battle", "whole-turn"),
        UNUSED_CAPTURE_QUESTION: ("not-in-pool", "in-pool"),
    },
)
