"""What each treachery card does in a battle plan, and which played cards a winner may keep.

`can_retain_battle_card` is the one predicate every cleanup path uses (winner cleanup here,
Moritani's ally retention elsewhere), so card semantics never diverge between them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import CardCategory


class Weapon(StrEnum):
    """The effect a card has when it is played as the weapon."""

    NONE = "none"  # a Worthless card, or an empty slot
    PROJECTILE = "projectile"
    POISON = "poison"
    POISON_BLADE = "poison-blade"  # projectile and poison at once
    LASGUN = "lasgun"
    POISON_TOOTH = "poison-tooth"
    ARTILLERY_STRIKE = "artillery-strike"
    STONE_BURNER = "stone-burner"


class Protection(StrEnum):
    PROJECTILE = "projectile"
    POISON = "poison"


@dataclass(frozen=True, slots=True)
class Defense:
    """The protection a card gives when it is played as the defense."""

    protects: frozenset[Protection]
    is_shield: bool  # counts as a Shield for a Lasgun explosion and against Artillery Strike
    is_chemistry: bool

    @property
    def empty(self) -> bool:
        return not self.protects


NO_DEFENSE = Defense(frozenset(), is_shield=False, is_chemistry=False)

MIRROR_WEAPON = "mirror-weapon"
STONE_BURNER = "stone-burner"
REINFORCEMENTS = "reinforcements"
HARASS_AND_WITHDRAW = "harass-and-withdraw"
# cards discarded once their effect applied (battle.cards.discard-after-use)
DISCARD_AFTER_USE = frozenset({MIRROR_WEAPON, STONE_BURNER, REINFORCEMENTS, HARASS_AND_WITHDRAW})

_SPECIAL_WEAPONS = {
    "lasgun": Weapon.LASGUN,
    "poison-blade": Weapon.POISON_BLADE,
    "poison-tooth": Weapon.POISON_TOOTH,
    "artillery-strike": Weapon.ARTILLERY_STRIKE,
    STONE_BURNER: Weapon.STONE_BURNER,
    "weirding-way": Weapon.PROJECTILE,
    "chemistry": Weapon.POISON,  # only with another defense played beside it
}
_SPECIAL_DEFENSES = {
    "shield-snooper": Defense(frozenset({Protection.PROJECTILE, Protection.POISON}), True, False),
    "chemistry": Defense(frozenset({Protection.POISON}), False, True),
    "weirding-way": Defense(frozenset({Protection.PROJECTILE}), False, False),  # only with a weapon beside it
}


@rule("battle.card.chemistry")
def chemistry_role(in_weapon_slot: bool) -> Weapon | Defense:
    return Weapon.POISON if in_weapon_slot else _SPECIAL_DEFENSES["chemistry"]


@rule("battle.card.weirding-way")
def weirding_way_role(in_weapon_slot: bool) -> Weapon | Defense:
    return Weapon.PROJECTILE if in_weapon_slot else _SPECIAL_DEFENSES["weirding-way"]


@rule("battle.card.shield-snooper")
def shield_snooper_role() -> Defense:
    return _SPECIAL_DEFENSES["shield-snooper"]


def weapon_effect(card: str | None, opposing: str | None = None) -> Weapon:
    """The effect of the card in the weapon slot; a Mirror Weapon's is the opposing weapon's."""
    if card is None:
        return Weapon.NONE
    kind = card_kind(card)
    if kind == MIRROR_WEAPON:
        return mirror_weapon_copies(opposing)
    if kind == "chemistry":
        role = chemistry_role(True)
        assert isinstance(role, Weapon)
        return role
    if kind == "weirding-way":
        weapon = weirding_way_role(True)
        assert isinstance(weapon, Weapon)
        return weapon
    if kind in _SPECIAL_WEAPONS:
        return _SPECIAL_WEAPONS[kind]
    category = catalog().cards[kind].category
    if category is CardCategory.PROJECTILE_WEAPON:
        return Weapon.PROJECTILE
    if category is CardCategory.POISON_WEAPON:
        return Weapon.POISON
    return Weapon.NONE


@rule("battle.card.mirror-weapon")
def mirror_weapon_copies(opposing: str | None) -> Weapon:
    # one Mirror Weapon exists, so the opposing card is never another (it would copy nothing)
    return weapon_effect(opposing)


def defense_effect(card: str | None) -> Defense:
    if card is None:
        return NO_DEFENSE
    kind = card_kind(card)
    if kind == "chemistry" or kind == "weirding-way":
        role = chemistry_role(False) if kind == "chemistry" else weirding_way_role(False)
        assert isinstance(role, Defense)
        return role
    if kind == "shield-snooper":
        return shield_snooper_role()
    category = catalog().cards[kind].category
    if category is CardCategory.PROJECTILE_DEFENSE:
        return Defense(frozenset({Protection.PROJECTILE}), kind == "shield", False)
    if category is CardCategory.POISON_DEFENSE:
        return Defense(frozenset({Protection.POISON}), False, False)
    return NO_DEFENSE


def is_leader_substitute(card: str) -> bool:
    return catalog().cards[card_kind(card)].category is CardCategory.LEADER_SUBSTITUTE


@rule("battle.cards.winner-may-keep")
def can_retain_battle_card(card: str, *, used: bool, decided_by_traitor: bool) -> bool:
    kind = card_kind(card)
    if catalog().cards[kind].category is CardCategory.LEADER_SUBSTITUTE:
        return False
    if kind in DISCARD_AFTER_USE:
        return discarded_after_use(used)
    if catalog().cards[kind].category is CardCategory.SPECIAL and not catalog().cards[kind].roles:
        return planetologist_card_kept()  # only a Planetologist's plan holds a green card
    if kind in ("poison-tooth", "artillery-strike") and decided_by_traitor:
        return traitor_call_spares_effect_card(card)
    if kind == "poison-tooth":
        return not used
    # An Artillery Strike is always used once played; every other card may be kept.
    return kind != "artillery-strike"


@rule("battle.cards.discard-after-use")
def discarded_after_use(used: bool) -> bool:
    return not used


@rule("skills.planetologist.discard")
def planetologist_card_kept() -> bool:
    return False


@rule("battle.cards.traitor-spares-effect-cards")
def traitor_call_spares_effect_card(card: str) -> bool:
    return True


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule()
