"""Leader Skills that add to a leader's strength in battle (CHOAM & Richese p.9; the printed skill
cards): the five card-trained skills (Warmaster, Master of Assassins, Swordmaster of Ginaz, Killer
Medic, Prana Bindu Adept), Planetologist and Spice Banker.

A card-trained skill names a class of card (a Worthless card, a poison or projectile weapon, a poison
or projectile defense). While its card lies face up, the faction's other fighting leader gains 1 when
the plan holds such a card; the skilled leader fighting with its card behind the shield gains 3
instead. A Planetologist fighting so may fill its weapon slot with a green Special card, worth 2 and
discarded after the battle; a Spice Banker may spend 1 to 3 spice of its own with the plan (the plan's
`banker_spice`), worth as much. Every bonus is a line of the battle quote, counted only while the leader
it adds to survives; `Side` values come from the resolution, which owns the weapon chain.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from adjudicator.core.action import Context
from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import CardCategory
from adjudicator.rules.cards import MIRROR_WEAPON, Protection, Weapon
from adjudicator.rules.skills import battle_effect_applies, face_up_skills, selected_skill, skills_on

WORTHLESS = "worthless"
POISON_WEAPON = "poison-weapon"
PROJECTILE_WEAPON = "projectile-weapon"
POISON_DEFENSE = "poison-defense"
PROJECTILE_DEFENSE = "projectile-defense"
# each card-trained skill and the class of card it needs in the plan
CARD_SKILLS: Mapping[str, str] = {
    "warmaster": WORTHLESS,
    "master-of-assassins": POISON_WEAPON,
    "swordmaster-of-ginaz": PROJECTILE_WEAPON,
    "killer-medic": POISON_DEFENSE,
    "prana-bindu-adept": PROJECTILE_DEFENSE,
}
PLANETOLOGIST = "planetologist"
SPICE_BANKER = "spice-banker"
BONUS_SKILLS = frozenset({*CARD_SKILLS, PLANETOLOGIST, SPICE_BANKER})
SELECTED_HALVES = 6
FACE_UP_HALVES = 2
PLANETOLOGIST_HALVES = 4
BANKER_MOST = 3

POISON_BLADE_QUESTION = "poison-blade-skill-class"
POISON_TOOTH_QUESTION = "poison-tooth-skill-class"
MIRROR_QUESTION = "mirror-weapon-skill-class"
SEVERAL_QUESTION = "skill-bonuses-several"
CHEAP_HERO_QUESTION = "skill-bonus-cheap-hero"
ARTILLERY_QUESTION = "skill-bonus-artillery"
BANKER_CHOAM_QUESTION = "spice-banker-choam-share"
DIPLOMAT_CLASS_QUESTION = "diplomat-copy-skill-class"
# the classes a face-up Diplomat's copied defense can change (the Worthless card, the defense it copies)
_COPY_CLASSES = frozenset({WORTHLESS, POISON_DEFENSE, PROJECTILE_DEFENSE})


# --- which classes of card a plan holds ----------------------------------------------------------


@rule("skills.card-bonus.card-roles")
def card_role_classes(weapon: Weapon, protects: frozenset[Protection]) -> set[str]:
    found = set()
    if weapon is Weapon.POISON:
        found.add(POISON_WEAPON)
    if weapon is Weapon.PROJECTILE:
        found.add(PROJECTILE_WEAPON)
    if Protection.POISON in protects:
        found.add(POISON_DEFENSE)
    if Protection.PROJECTILE in protects:
        found.add(PROJECTILE_DEFENSE)
    return found


@rule("skills.card-bonus.poison-blade")
def poison_blade_classes(choice: str) -> set[str]:
    return {POISON_WEAPON, PROJECTILE_WEAPON} if choice == "both-classes" else set()


@rule("skills.card-bonus.mirror-weapon")
def mirror_counts_as_copied(choice: str) -> bool:
    return choice == "copied-class"


@rule("skills.card-bonus.poison-tooth")
def poison_tooth_classes(choice: str) -> set[str]:
    return {POISON_WEAPON} if choice == "poison-when-used" else set()


def is_worthless(card: str | None) -> bool:
    return card is not None and catalog().cards[card_kind(card)].category is CardCategory.WORTHLESS


def plan_classes(plan: Plan, weapon: Weapon, protects: frozenset[Protection], context: Context) -> set[str]:
    """The classes of card a plan holds, each card in the role it was played in (`weapon` is what the
    weapon slot does, a withheld Poison Tooth doing nothing; `protects` what the defense slot does)."""
    found = set()
    if is_worthless(plan.weapon) or is_worthless(plan.defense):
        found.add(WORTHLESS)
    mirrored = plan.weapon is not None and card_kind(plan.weapon) == MIRROR_WEAPON
    if mirrored and not mirror_counts_as_copied(context.choice(MIRROR_QUESTION)):
        weapon = Weapon.NONE  # the plan holds a special weapon: its copy names no class
    if weapon is Weapon.POISON_BLADE:
        found |= poison_blade_classes(context.choice(POISON_BLADE_QUESTION))
    elif weapon is Weapon.POISON_TOOTH:
        found |= poison_tooth_classes(context.choice(POISON_TOOTH_QUESTION))
    if weapon in (Weapon.POISON, Weapon.PROJECTILE) or protects:
        found |= card_role_classes(weapon, protects)
    return found


# a face-up Diplomat's copy in a plan: the Worthless card counted as the opponent's defense, and what
# the side's cards protect against without the copy
DiplomatCopy = tuple[str, frozenset[Protection]]


@rule("skills.card-bonus.diplomat-copy")
def copy_counts_as_defense(choice: str) -> bool:
    return choice == "copied-class"


def copy_classes(
    plan: Plan,
    weapon: Weapon,
    protects: frozenset[Protection],
    context: Context,
    copy: DiplomatCopy | None,
    skills: Iterable[str],
) -> set[str]:
    """The classes of card a plan holds for the card-trained `skills` at work on the side. With a
    face-up Diplomat's copy, the Worthless card is either still a Worthless card (the copy names no
    class) or the copied defense (no longer Worthless); the question is asked only when the two
    readings give those skills different classes."""
    if copy is None:
        return plan_classes(plan, weapon, protects, context)
    worthless, held_protects = copy
    card_held = plan_classes(plan, weapon, held_protects, context)
    emptied = replace(plan, defense=None) if plan.defense == worthless else replace(plan, weapon=None)
    copied = plan_classes(emptied, weapon, protects, context)
    counted = {CARD_SKILLS[s] for s in skills} & _COPY_CLASSES
    if card_held & counted == copied & counted:
        return card_held
    return copied if copy_counts_as_defense(context.choice(DIPLOMAT_CLASS_QUESTION)) else card_held


# --- Planetologist's card ------------------------------------------------------------------------


def green_special(card: str) -> bool:
    """A green Special Treachery card: no weapon, defense, Worthless or Cheap Hero card."""
    kind = catalog().cards[card_kind(card)]
    return kind.category is CardCategory.SPECIAL and not kind.roles


def planetologist_plan(snapshot: Snapshot, plan: Plan) -> bool:
    """The plan's leader fights as a Planetologist (its card behind the shield)."""
    return selected_skill(snapshot, plan) == PLANETOLOGIST


@rule("skills.planetologist.weapon-slot")
def green_card_as_weapon(snapshot: Snapshot, plan: Plan) -> bool:
    return plan.weapon is not None and green_special(plan.weapon) and planetologist_plan(snapshot, plan)


# --- Spice Banker's spice --------------------------------------------------------------------------


@rule("skills.spice-banker.plan")
def banker_spice_violations(snapshot: Snapshot, faction: str, plan: Plan) -> list[Violation]:
    rule_id = "skills.spice-banker.plan"
    path = f"/snapshot/battle/plans/{faction}/banker_spice"
    if selected_skill(snapshot, plan) != SPICE_BANKER:
        return [
            Violation(
                "banker-spice-without-spice-banker",
                "only a Spice Banker fighting with its card behind the shield spends spice on its strength",
                path,
                rule_id,
            )
        ]
    if plan.banker_spice > BANKER_MOST:
        return [Violation("banker-spice-exceeds-three", "a Spice Banker spends 1 to 3 spice", path, rule_id)]
    held = snapshot.factions[faction].spice
    if plan.own_spice <= held < plan.own_spice + plan.banker_spice:
        # no count: what is left behind the shield is not public
        return [
            Violation(
                "banker-spice-exceeds-spice", f"{faction} holds less spice than its support and this", path, rule_id
            )
        ]
    return []


@rule("skills.spice-banker.paid")
def banker_spend(plan: Plan, kept_by_traitor_winner: bool) -> int:
    return 0 if kept_by_traitor_winner else plan.banker_spice


@rule("skills.spice-banker.choam-share")
def banker_spice_shared(choice: str) -> bool:
    return choice == "choam-shares"


# --- the quote lines -------------------------------------------------------------------------------


@rule("skills.card-bonus")
def card_bonus_halves(skill: str, classes: set[str]) -> int:
    return SELECTED_HALVES if CARD_SKILLS[skill] in classes else 0


@rule("skills.card-bonus.face-up")
def face_up_bonus_halves(skill: str, classes: set[str]) -> int:
    return FACE_UP_HALVES if CARD_SKILLS[skill] in classes else 0


@rule("skills.card-bonus.cheap-hero")
def cheap_hero_gains(choice: str) -> bool:
    return choice == "cheap-hero-gains"


@rule("skills.planetologist")
def planetologist_halves() -> int:
    return PLANETOLOGIST_HALVES


@rule("skills.spice-banker")
def banker_halves(plan: Plan) -> int:
    return 2 * min(plan.banker_spice, BANKER_MOST)


@rule("skills.leader-bonus.artillery")
def bonus_under_artillery(choice: str) -> bool:
    return choice == "bonus-counts"


def _line(halves: int, skill: str, rule_id: str, **extra: Any) -> tuple[int, dict[str, Any]]:
    return halves, {"part": "skill", "skill": skill, "value": halves_to_number(halves), "rule": rule_id, **extra}


def bonus_lines(
    snapshot: Snapshot,
    faction: str,
    plan: Plan,
    weapon: Weapon,
    protects: frozenset[Protection],
    survives: bool,
    artillery: bool,
    context: Context,
    copy: DiplomatCopy | None = None,
) -> list[tuple[int, dict[str, Any]]]:
    """One side's lines from the skills of this module: half-points, and the line as quoted (`copy`:
    the side's face-up Diplomat's copy, when it counted)."""
    if not skills_on(snapshot) or not survives:
        return []
    lines: list[tuple[int, dict[str, Any]]] = []
    skill = selected_skill(snapshot, plan)
    classes: set[str] | None = None
    trained = {s: leader for s, leader in face_up_skills(snapshot, faction, plan.leader).items() if s in CARD_SKILLS}
    at_work = [*trained, *([skill] if skill is not None and skill in CARD_SKILLS else [])]
    if skill is not None and skill in CARD_SKILLS and battle_effect_applies(survives):
        classes = copy_classes(plan, weapon, protects, context, copy, at_work)
        if CARD_SKILLS[skill] in classes:
            lines.append(_line(card_bonus_halves(skill, classes), skill, "skills.card-bonus"))
    elif skill == PLANETOLOGIST and battle_effect_applies(survives):
        if plan.weapon is not None and green_card_as_weapon(snapshot, plan):
            lines.append(_line(planetologist_halves(), skill, "skills.planetologist", card=plan.weapon))
    elif skill == SPICE_BANKER and battle_effect_applies(survives) and plan.banker_spice:
        lines.append(_line(banker_halves(plan), skill, "skills.spice-banker"))
    if trained and (plan.leader is not None or cheap_hero_gains(context.choice(CHEAP_HERO_QUESTION))):
        if classes is None:
            classes = copy_classes(plan, weapon, protects, context, copy, trained)
        for face_up, leader_id in sorted(trained.items()):
            if CARD_SKILLS[face_up] in classes:
                halves = face_up_bonus_halves(face_up, classes)
                lines.append(_line(halves, face_up, "skills.card-bonus.face-up", face_up=leader_id))
    if artillery and lines and not bonus_under_artillery(context.choice(ARTILLERY_QUESTION)):
        lines = [(0, {**line, "value": 0}) for _, line in lines]
    return lines


@rule("skills.card-bonus.several")
def largest_only(choice: str) -> bool:
    return choice == "largest-only"


def several_bonuses(lines: list[tuple[int, dict[str, Any]]], context: Context) -> list[tuple[int, dict[str, Any]]]:
    """A side's skill lines when more than one skill adds to its leader: each counts, or under question
    skill-bonuses-several's largest-only reading only the largest (the first of equal ones)."""
    bonuses = [i for i, (halves, line) in enumerate(lines) if line.get("part") == "skill" and halves > 0]
    if len(bonuses) < 2 or not largest_only(context.choice(SEVERAL_QUESTION)):
        return lines
    kept = max(bonuses, key=lambda i: (lines[i][0], -i))
    return [(0, {**line, "value": 0}) if i in bonuses and i != kept else (h, line) for i, (h, line) in enumerate(lines)]


DECLARED = RuleModule(
    implements={
        POISON_BLADE_QUESTION: ("both-classes", "neither-class"),
        POISON_TOOTH_QUESTION: ("poison-when-used", "special-only"),
        MIRROR_QUESTION: ("card-held", "copied-class"),
        SEVERAL_QUESTION: ("each-applies", "largest-only"),
        CHEAP_HERO_QUESTION: ("leader-discs-only", "cheap-hero-gains"),
        ARTILLERY_QUESTION: ("bonus-counts", "bonus-zeroed"),
        BANKER_CHOAM_QUESTION: ("to-bank", "choam-shares"),
        DIPLOMAT_CLASS_QUESTION: ("card-held", "copied-class"),
    },
)
