"""The static catalog: factions, leaders, territories, homeworlds, skills and treachery cards.

Loaded once from `data/catalog.yaml`. Strengths and other printed facts always come from here,
never from a snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from adjudicator.core._data import load_yaml
from adjudicator.core.errors import RegisterError
from adjudicator.core.vocabulary import CardCategory, TerritoryType

BASE = "base"
Place = tuple[str, int | None]  # a territory and one of its sectors (None: a territory without sectors)
_EXPANSION_ORDER = ("ixians-tleilaxu", "choam-richese", "ecaz-moritani")


@dataclass(frozen=True, slots=True)
class Faction:
    id: str
    name: str
    expansion: str
    homeworld: str
    starting_spice: int
    free_revival: int
    hand_limit: int
    forces_total: int
    elite_forces: int
    elite_name: str | None


@dataclass(frozen=True, slots=True)
class Leader:
    id: str
    name: str
    faction: str
    strength: int | None
    traitor_card: bool
    advanced_only: bool = False
    separate_disc: bool = False
    strength_rule: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Territory:
    id: str
    name: str
    type: TerritoryType
    sectors: tuple[int, ...]
    storm_protected: bool
    worm_protected: bool
    spice_blow: tuple[int, int] | None
    expansion: str
    variant: str | None = None

    @property
    def is_stronghold(self) -> bool:
        return self.type is TerritoryType.STRONGHOLD

    @property
    def has_sectors(self) -> bool:
        return bool(self.sectors)


@dataclass(frozen=True, slots=True)
class Homeworld:
    id: str
    name: str
    faction: str
    advanced_only: bool = False


@dataclass(frozen=True, slots=True)
class Skill:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class CardKind:
    kind: str
    name: str
    category: CardCategory
    roles: frozenset[str]
    copies: Mapping[str, int]
    deck: str
    max_copies: int | None = None
    cache_copies: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    variant: str | None = None

    @property
    def expansion(self) -> str:
        """The set that adds this kind: `base`, or the first expansion to print it."""
        printed = [*self.copies, *self.cache_copies]
        return next(s for s in (BASE, *_EXPANSION_ORDER) if s in printed)

    def copies_in(self, expansions: frozenset[str]) -> int:
        """How many physical copies exist with these expansions (deck plus Richese cache)."""
        sets = expansions | {BASE}
        total = sum(n for s, n in self.copies.items() if s in sets)
        if self.max_copies is not None:
            total = min(total, self.max_copies)
        return total + sum(n for s, n in self.cache_copies.items() if s in sets)

    def available_in(self, expansions: frozenset[str], variants: frozenset[str]) -> bool:
        if self.variant is not None and self.variant not in variants:
            return False
        return self.copies_in(expansions) > 0


@dataclass(frozen=True, slots=True)
class Catalog:
    expansions: Mapping[str, str]
    variants: Mapping[str, str]  # variant id -> the expansion it needs
    factions: Mapping[str, Faction]
    leaders: Mapping[str, Leader]
    territories: Mapping[str, Territory]
    homeworlds: Mapping[str, Homeworld]
    skills: Mapping[str, Skill]
    cards: Mapping[str, CardKind]
    # each (territory, sector) -> the places sharing a border with it (the Polar Sink's sector: None)
    borders: Mapping[Place, frozenset[Place]] = field(default_factory=lambda: MappingProxyType({}))

    def leaders_of(self, faction: str) -> tuple[Leader, ...]:
        """A faction's own leader discs (Duke Vidal, a separate disc, is nobody's roster leader)."""
        return _ROSTERS[faction] if faction in _ROSTERS else self._roster(faction)

    def _roster(self, faction: str) -> tuple[Leader, ...]:
        roster = tuple(x for x in self.leaders.values() if x.faction == faction and not x.separate_disc)
        _ROSTERS[faction] = roster
        return roster


def _freeze(mapping: dict[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(mapping)


def _borders(raw: list[list[Any]], territories: Mapping[str, Territory]) -> dict[Place, frozenset[Place]]:
    """Every place's neighbours: the listed borders between territories, both ways, and within a
    territory its consecutive sectors."""
    found: dict[Place, set[Place]] = {}

    def join(a: Place, b: Place) -> None:
        found.setdefault(a, set()).add(b)
        found.setdefault(b, set()).add(a)

    for territory, sector, other, other_sector in raw:
        for place in ((territory, sector), (other, other_sector)):
            if place[0] not in territories or (place[1] is not None and place[1] not in territories[place[0]].sectors):
                raise ValueError(f"border names an unknown place {place!r}")
        join((territory, sector), (other, other_sector))
    for t in territories.values():
        for a, b in zip(t.sectors, t.sectors[1:], strict=False):
            join((t.id, a), (t.id, b))
    return {place: frozenset(near) for place, near in found.items()}


def _build(raw: dict[str, Any]) -> Catalog:
    try:
        factions = {f["id"]: Faction(**f) for f in raw["factions"]}
        leaders = {
            entry["id"]: Leader(**{**entry, "aliases": tuple(entry.get("aliases") or ())}) for entry in raw["leaders"]
        }
        territories = {
            t["id"]: Territory(
                id=t["id"],
                name=t["name"],
                type=TerritoryType(t["type"]),
                sectors=tuple(t["sectors"]),
                storm_protected=bool(t["storm_protected"]),
                worm_protected=bool(t["worm_protected"]),
                spice_blow=(t["spice_blow"]["sector"], t["spice_blow"]["amount"]) if t["spice_blow"] else None,
                expansion=t["expansion"],
                variant=t.get("variant"),
            )
            for t in raw["territories"]
        }
        homeworlds = {h["id"]: Homeworld(**h) for h in raw["homeworlds"]}
        skills = {s["id"]: Skill(**s) for s in raw["skills"]}
        cards = {
            c["kind"]: CardKind(
                kind=c["kind"],
                name=c["name"],
                category=CardCategory(c["category"]),
                roles=frozenset(c["roles"]),
                copies=_freeze(dict(c["copies"])),
                deck=c["deck"],
                max_copies=c.get("max_copies"),
                cache_copies=_freeze(dict(c.get("cache_copies") or {})),
                variant=c.get("variant"),
            )
            for c in raw["treachery_cards"]
        }
        expansions = {e["id"]: e["name"] for e in raw["expansions"]}
        variants = {v["id"]: v["expansion"] for v in raw["variants"]}
        borders = _borders(raw["borders"], territories)
    except (KeyError, TypeError, ValueError) as exc:  # a packaging defect, reported plainly
        raise RegisterError(f"catalog.yaml is malformed: {exc!r}") from exc
    return Catalog(
        expansions=_freeze(expansions),
        variants=_freeze(variants),
        factions=_freeze(factions),
        leaders=_freeze(leaders),
        territories=_freeze(territories),
        homeworlds=_freeze(homeworlds),
        skills=_freeze(skills),
        cards=_freeze(cards),
        borders=_freeze(borders),
    )


_ROSTERS: dict[str, tuple[Leader, ...]] = {}  # filled on first use; the catalog never changes


@cache
def catalog() -> Catalog:
    """The catalog, parsed once per process."""
    return _build(load_yaml("catalog.yaml"))


@cache
def copies_in_play(kind: str, expansions: frozenset[str], variants: frozenset[str]) -> int:
    """Physical copies of a card kind with this ruleset; 0 when the kind is not in play."""
    entry = catalog().cards[kind]
    return entry.copies_in(expansions) if entry.available_in(expansions, variants) else 0


def card_kind(card_id: str) -> str:
    """The kind of a card id: the id up to `#` (`shield#2` -> `shield`)."""
    return card_id.partition("#")[0]


def catalog_as_dict() -> dict[str, Any]:
    """The raw catalog data, for serving and digesting."""
    data: dict[str, Any] = load_yaml("catalog.yaml")
    return data
