"""The resolution of a battle from its two locked plans (base rulebook pp.10-11 and 13, November 2020
FAQ p.8, the cards' own text): traitors, the Lasgun/Shield explosion, leader deaths, the totals with
their quote lines, and the winner. Pure: it reads the snapshot and changes nothing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.core.action import Context
from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import rule, tracing
from adjudicator.core.vocabulary import BattleResult
from adjudicator.rules.battle.card_effects import (
    BURNER_CAUSE,
    BURNER_REINFORCEMENTS_QUESTION,
    BURNER_SKILL_QUESTION,
    MIRROR_TOOTH_QUESTION,
    REINFORCEMENTS_UNDECIDED_QUESTION,
    burner_reinforcements_line,
    card_in,
    mirror_copy_stands,
    mirror_facing_burner,
    plays_plan_cards,
    reinforcements_line,
    skill_lines_count,
    skill_steps_beside_burner,
    skills_in_battle,
    stone_burner_kills,
    stone_burner_lines,
    used_plan_cards,
)
from adjudicator.rules.battle.ecaz_karama import burner_ecaz_karama_lines, ecaz_karama_lines, played_card
from adjudicator.rules.battle.occupy import occupy_lines
from adjudicator.rules.battle.plan_cards import stone_burner_player
from adjudicator.rules.cards import (
    MIRROR_WEAPON,
    REINFORCEMENTS,
    Protection,
    Weapon,
    defense_effect,
    weapon_effect,
)
from adjudicator.rules.skill_bonuses import bonus_lines, several_bonuses
from adjudicator.rules.skill_steps import (
    DIPLOMAT_QUESTION,
    diplomat_copies_defense,
    diplomat_copy_always,
    diplomat_worthless,
)
from adjudicator.rules.skills import skill_lines, skills_on

TOOTH_QUESTION = "poison-tooth-chemistry"


DOUBLE_TRAITOR_QUESTION = "double-traitor-explosion"


KH_ARTILLERY_QUESTION = "kwisatz-haderach-artillery"


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
    diplomat: dict[str, str] = field(default_factory=dict)  # faction -> its Worthless card counted as a defense


def _leader_value_halves(snapshot: Snapshot, plan: Plan, opposing: Plan) -> int:
    if plan.leader is None:
        return 0
    leader = catalog().leaders[plan.leader]
    if leader.strength_rule == "copies-opponent":
        # Zoal is worth the opposing leader disc (0 against a Cheap Hero or no leader).
        other = catalog().leaders.get(opposing.leader or "")
        return 2 * (other.strength or 0) if other is not None and other.strength_rule is None else 0
    return 2 * (leader.strength or 0)


def _side(
    snapshot: Snapshot,
    faction: str,
    plan: Plan,
    opposing: Plan,
    withheld: bool,
    copied_withheld: bool,
    context: Context,
) -> Side:
    weapon = weapon_effect(plan.weapon, opposing.weapon)
    mirror = plan.weapon is not None and card_kind(plan.weapon) == MIRROR_WEAPON
    if weapon is Weapon.POISON_TOOTH and withheld and not mirror:
        weapon = Weapon.NONE
    if weapon is Weapon.POISON_TOOTH and mirror and copied_withheld:
        weapon = weapon if mirror_copy_stands(context.choice(MIRROR_TOOTH_QUESTION)) else Weapon.NONE
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
    return caller, betrayed


@rule("battle.traitor.double")
def double_traitor() -> None:
    pass


@rule("battle.traitor.double-with-explosion")
def double_traitor_explosion(choice: str) -> bool:
    return choice == "explosion-resolves"


@rule("battle.explosion.lasgun-shield")
def lasgun_shield_explodes(sides: list[Side]) -> bool:
    return any(s.weapon is Weapon.LASGUN for s in sides) and any(s.shield for s in sides)


@rule("battle.weapon.artillery-strike")
def artillery_strike_kills(target: Side) -> bool:
    return not target.shield


@rule("battle.weapon.poison-tooth")
def poison_tooth_kills(target: Side, chemistry_protects: bool) -> bool:
    if target.chemistry and chemistry_protects:
        return not poison_tooth_chemistry()
    return True


@rule("battle.weapon.poison-tooth-chemistry")
def poison_tooth_chemistry() -> bool:
    return True


@rule("battle.weapon.lasgun")
def lasgun_kills(target: Side) -> bool:
    return True


@rule("battle.weapon.poison")
def poison_kills(target: Side) -> bool:
    return Protection.POISON not in target.protects


@rule("battle.weapon.projectile")
def projectile_kills(target: Side) -> bool:
    return Protection.PROJECTILE not in target.protects


@rule("battle.weapon.poison-blade")
def poison_blade_kills(target: Side) -> bool:
    return not {Protection.PROJECTILE, Protection.POISON} <= target.protects


def _kill_leaders(a: Side, b: Side, chemistry_protects: bool, burn: bool = False) -> bool:
    """Run the weapon chain in its fixed order (a Stone Burner killing both leaders first); each leader
    records the first cause that killed it. Returns whether an Artillery Strike was played."""
    artillery = Weapon.ARTILLERY_STRIKE in (a.weapon, b.weapon)

    def hit(target: Side, cause: str) -> None:
        if target.killed_by is None:
            target.killed_by = cause

    has_leader = {s.faction: s.plan.leader is not None or s.plan.cheap_hero is not None for s in (a, b)}
    if burn:
        for target in (a, b):
            if has_leader[target.faction]:
                hit(target, BURNER_CAUSE)
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
    return choice == "bonus-counts"


@rule("battle.strength.kwisatz-haderach")
def kwisatz_haderach_bonus() -> int:
    return 4


@rule("battle.winner.higher-total")
def higher_total_wins(aggressor: str, defender: str, totals: Mapping[str, int]) -> tuple[str, str]:
    if totals[aggressor] == totals[defender]:
        return tie_goes_to_aggressor(aggressor, defender)
    return (aggressor, defender) if totals[aggressor] > totals[defender] else (defender, aggressor)


@rule("battle.winner.tie-to-aggressor")
def tie_goes_to_aggressor(aggressor: str, defender: str) -> tuple[str, str]:
    return aggressor, defender


def resolve(snapshot: Snapshot, battle: Battle, context: Context) -> Resolution:
    aggressor, defender = battle.aggressor, battle.defender
    plans = battle.plans
    withheld = battle.poison_tooth_withheld
    sides = {
        f: _side(snapshot, f, plans[f], plans[o], f in withheld, o in withheld, context)
        for f, o in ((aggressor, defender), (defender, aggressor))
    }
    reinforced = any(card_in(plans[f], REINFORCEMENTS) is not None for f in (aggressor, defender))
    calls = set(battle.traitor_calls)
    if len(calls) == 2:
        double_traitor()
        explodes = False
        if any(s.weapon is Weapon.LASGUN for s in sides.values()) and any(s.shield for s in sides.values()):
            explodes = double_traitor_explosion(context.choice(DOUBLE_TRAITOR_QUESTION))
        return Resolution(
            BattleResult.DOUBLE_TRAITOR,
            None,
            None,
            sides=sides,
            totals={aggressor: 0, defender: 0},
            explosion=explodes,
            used_cards=_used(battle, BattleResult.DOUBLE_TRAITOR, reinforced, context),
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
            used_cards=_used(battle, BattleResult.SINGLE_TRAITOR, reinforced, context),
        )
    lasgun = any(s.weapon is Weapon.LASGUN for s in sides.values())
    if lasgun and lasgun_shield_explodes(list(sides.values())):
        return Resolution(
            BattleResult.EXPLOSION,
            None,
            None,
            sides=sides,
            totals={aggressor: 0, defender: 0},
            explosion=True,
            used_cards=_used(battle, BattleResult.EXPLOSION, reinforced, context),
        )
    chemistry_protects = context.choice(TOOTH_QUESTION) == "chemistry-protects"
    burner = stone_burner_player(battle) is not None
    burn = burner and stone_burner_kills(battle, context)
    uncopied = {f: s.protects for f, s in sides.items()}
    diplomat = _diplomat_copy(snapshot, battle, sides, chemistry_protects, burn, context)
    artillery = _kill_leaders(sides[aggressor], sides[defender], chemistry_protects, burn)
    skill_bonuses = skills_on(snapshot)
    if burner:  # the sides' undialed forces decide it (with Occupy's part of Ecaz's forces)
        mirror_facing_burner(battle, context)
        lines = {
            f: stone_burner_lines(snapshot, battle, f, s.plan.leader or s.plan.cheap_hero, context)
            for f, s in sides.items()
        }
        if skills_in_battle(snapshot, battle):
            skill_steps_beside_burner()
            skill_bonuses = skill_lines_count(context.choice(BURNER_SKILL_QUESTION))
    else:
        kh_choice = context.choice(KH_ARTILLERY_QUESTION)
        lines = {f: strength_lines(s, artillery, kh_choice) for f, s in sides.items()}
    for faction in sides if reinforced else ():
        if card_in(plans[faction], REINFORCEMENTS) is not None:
            reinforcing = (
                burner_reinforcements_line(context.choice(BURNER_REINFORCEMENTS_QUESTION))
                if burner
                else reinforcements_line()
            )
            lines[faction].append(reinforcing)
    if skill_bonuses:
        survivors = {f: _survives(s) for f, s in sides.items()}
        for faction, extra in skill_lines(snapshot, plans, survivors, artillery, context.interpretations).items():
            side = sides[faction]
            copy = (diplomat[faction], uncopied[faction]) if faction in diplomat else None
            extra += bonus_lines(
                snapshot, faction, side.plan, side.weapon, side.protects, survivors[faction], artillery, context, copy
            )
            lines[faction] += several_bonuses(extra, context)
    for faction in sides if not burner else ():
        lines[faction] += occupy_lines(snapshot, battle, faction, context)
    if played_card(battle) is not None:  # under a Stone Burner its line follows stone-burner-ecaz-karama
        killed = {f: s.killed_by is not None for f, s in sides.items()}
        karama_lines = burner_ecaz_karama_lines if burner else ecaz_karama_lines
        for faction in sides:
            lines[faction] += karama_lines(battle, faction, killed, context)
    totals = {f: sum(halves for halves, _ in side_lines) for f, side_lines in lines.items()}
    quote = {f: [line for _, line in side_lines] for f, side_lines in lines.items()}
    winner, loser = higher_total_wins(aggressor, defender, totals)
    used = [
        s.plan.weapon
        for s in sides.values()
        if s.plan.weapon is not None and s.weapon in (Weapon.POISON_TOOTH, Weapon.ARTILLERY_STRIKE)
    ]
    if plays_plan_cards(battle):
        used += [c for c in _used(battle, BattleResult.DECIDED, reinforced, context) if c not in used]
    used += [card for card in diplomat.values() if card not in used]
    return Resolution(
        BattleResult.DECIDED,
        winner,
        loser,
        totals=totals,
        sides=sides,
        artillery=artillery,
        used_cards=used,
        quote=quote,
        diplomat=diplomat,
    )


def _diplomat_copy(
    snapshot: Snapshot, battle: Battle, sides: dict[str, Side], chemistry_protects: bool, burn: bool, context: Context
) -> dict[str, str]:
    """A face-up Diplomat's Worthless card counted as a copy of the opponent's defense (replacing the
    side's entry in `sides`): always, or only when it saves the side's leader (question
    diplomat-copy-election). The copy never sets off an explosion: a copied Shield means the opponent
    played one."""
    for faction in sides:
        worthless = diplomat_worthless(snapshot, battle, faction)
        if worthless is None:
            continue
        opponent = battle.defender if faction == battle.aggressor else battle.aggressor
        copied_card = battle.plans[opponent].defense
        assert copied_card is not None
        defense = defense_effect(copied_card)
        side = sides[faction]
        copied = replace(side, protects=defense.protects, shield=defense.is_shield, chemistry=defense.is_chemistry)
        if not diplomat_copy_always(context.choice(DIPLOMAT_QUESTION)) and not _saves_leader(
            battle, sides, copied, chemistry_protects, burn
        ):
            continue
        sides[faction] = copied
        diplomat_copies_defense(faction, worthless, copied_card)
        return {faction: worthless}
    return {}


def _saves_leader(battle: Battle, sides: dict[str, Side], copied: Side, protects: bool, burn: bool) -> bool:
    """Whether a side's leader (not a Cheap Hero), killed by the weapons without the copied defense,
    survives with it (the trial runs of the weapon chain stay out of the rulings)."""

    def killed(trial: dict[str, Side]) -> bool:
        fresh = {f: replace(s, killed_by=None) for f, s in trial.items()}
        with tracing():
            _kill_leaders(fresh[battle.aggressor], fresh[battle.defender], protects, burn)
        return fresh[copied.faction].killed_by is not None

    if copied.plan.leader is None:
        return False  # a Cheap Hero is discarded whether it survives or not
    return killed(sides) and not killed({**sides, copied.faction: copied})


def _used(battle: Battle, result: BattleResult, reinforced: bool, context: Context) -> list[str]:
    """The played cards of the CHOAM & Richese cache and the New Treachery Cards whose effect applied."""
    if not plays_plan_cards(battle):
        return []
    choice = (
        context.choice(REINFORCEMENTS_UNDECIDED_QUESTION) if reinforced and result is not BattleResult.DECIDED else None
    )
    return used_plan_cards(battle, result, choice)


def _leader_strength(snapshot: Snapshot, side: Side) -> int:
    return side.leader_halves // 2


DECLARED = RuleModule(
    implements={
        TOOTH_QUESTION: ("chemistry-protects", "no-protection"),
        DOUBLE_TRAITOR_QUESTION: ("traitors-preempt", "explosion-resolves"),
        KH_ARTILLERY_QUESTION: ("bonus-counts", "bonus-zeroed"),
    },
)
