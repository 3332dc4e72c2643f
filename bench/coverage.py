"""`make coverage`: how much of a random, rules-legal Battle phase the engine rules end to end.

For each ruleset it generates board snapshots as Shipment and Movement ends (forces within each
faction's 20, some territories shared by non-allied factions, leaders, hands, Traitor cards, spice
and storm consistent), checks each with the engine's validation, and drives the Battle phase through
the library: `end-shipment-movement`, then whatever decision the engine opens, answered with a
random listed option (battle plans with their dial and support raised at random, and a Spice Banker's
spice drawn at random), `resolve-battle`
once both plans are locked (with the traitor calls a side may make), until no battle is left. Where
the engine opens no battle choice itself, the driver picks the next battle (the first faction in
storm order that has one is the aggressor) and opens the aggressor's plan decision.

Each phase is classified:

- `ruled`: every answer was `resolved` or `unresolved` (an open question: the driver asks again with
  the first alternative's interpretations);
- `not-implemented`: an answer was `illegal` with a `not-implemented` violation (its reason is the
  violation's message with ids and numbers replaced by their kind);
- `inconsistent`: a listed option (or an action the contract says is legal) was refused, the engine
  raised, a next snapshot failed validation, or a step made a Treachery card or a force appear or
  vanish. These are engine bugs; the first few reproducers are written under
  `bench/coverage-failures/`.

A battle plan's dial and support are raised at random within the decision's `dial_max` and
`spice_max`; a raise the plan rules refuse (a lower support leaves fewer forces at full strength, a
Prescience answer fixed the dial) is counted by its codes under `raised_plans_refused` and the option
is locked as listed.

    python bench/coverage.py [--n N] [--seed S] [--ruleset NAME ...] [--json PATH] [--readings random]

`--readings random` starts every phase with one implemented choice of every register question drawn
at random, so the choices that are not defaults are driven too.

`COVERAGE_N` and `COVERAGE_SEED` give the defaults of `--n` and `--seed`. The same seed gives the
same figures.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adjudicator import Action, InvalidSnapshot, adjudicate, catalog, list_options, load_snapshot, rulebook  # noqa: E402
from adjudicator.core.catalog import card_kind  # noqa: E402
from adjudicator.core.snapshot import Snapshot  # noqa: E402
from adjudicator.core.vocabulary import TerritoryType  # noqa: E402
from adjudicator.rules.battle.card_effects import dialed_sets  # noqa: E402
from adjudicator.rules.battle.plan_decision import plan_decision  # noqa: E402
from adjudicator.rules.battle.plans import ALLY_TRAITS  # noqa: E402
from adjudicator.rules.battle.sectors import sector_groups  # noqa: E402
from adjudicator.rules.skills import FACE_UP_EXCUSED  # noqa: E402
from api.schemas import SnapshotSchema  # noqa: E402

EXPANSIONS = ("ixians-tleilaxu", "choam-richese", "ecaz-moritani")
VARIANTS = tuple(catalog().variants)
FAILURES = ROOT / "bench" / "coverage-failures"
REPRODUCERS_KEPT = 5
DETAILED = frozenset({"skill", "variant", "card"})  # ids the detailed not-implemented messages keep
STEP_LIMIT = 600  # answers in one phase before it counts as stuck
TERROR_KINDS = ("assassination", "atomics", "extortion", "robbery", "sabotage", "sneak-attack")
SNAPSHOT_SCHEMA = SnapshotSchema()


@dataclass(frozen=True)
class Ruleset:
    name: str
    expansions: tuple[str, ...]
    advanced: tuple[bool, ...]  # drawn at random per phase among these
    variants: tuple[str, ...] = ()
    optional_variants: tuple[str, ...] = ()  # each switched on in half the phases


RULESETS = (
    Ruleset("base-basic", (), (False,)),
    Ruleset("base-advanced", (), (True,)),
    Ruleset("ixians-tleilaxu", ("ixians-tleilaxu",), (False, True)),
    Ruleset("choam-richese", ("choam-richese",), (False, True)),
    Ruleset("ecaz-moritani", ("ecaz-moritani",), (False, True)),
    # Leader Skills and the full Treachery deck (with the New Treachery Cards) in half the games each
    Ruleset("all-expansions", EXPANSIONS, (True,), (), ("leader-skills", "ecaz-moritani-treachery-cards")),
    Ruleset("all-modules", EXPANSIONS, (True,), VARIANTS),
)


# --- the generator ---------------------------------------------------------------------------------


def ruleset_factions(expansions: Sequence[str]) -> list[str]:
    return [f.id for f in catalog().factions.values() if f.expansion == "base" or f.expansion in expansions]


def deck(expansions: Sequence[str], variants: Sequence[str], factions: Sequence[str]) -> list[str]:
    """Every physical Treachery card of the ruleset (the Richese cache only with Richese at the table)."""
    sets, mods = frozenset(expansions), frozenset(variants)
    cards = []
    for kind in catalog().cards.values():
        if not kind.available_in(sets, mods):
            continue
        if kind.deck != "treachery" and "richese" not in factions:
            continue
        copies = kind.copies_in(sets)
        cards += [kind.kind] if copies == 1 else [f"{kind.kind}#{n}" for n in range(1, copies + 1)]
    return cards


def board_places() -> list[tuple[str, tuple[int, ...]]]:
    """The base board's territories, with their sectors (none for the Polar Sink)."""
    return [(t.id, t.sectors) for t in catalog().territories.values() if t.expansion == "base" and t.variant is None]


def _free_sectors(sectors: tuple[int, ...], storm: int) -> list[int]:
    return [s for s in sectors if s != storm]


def generate(rs: Ruleset, rng: random.Random) -> dict[str, Any]:
    """One rules-legal snapshot as Shipment and Movement ends."""
    cat = catalog()
    advanced = rng.choice(rs.advanced)
    rs = replace(rs, variants=rs.variants + tuple(v for v in rs.optional_variants if rng.random() < 0.5))
    pool = ruleset_factions(rs.expansions)
    count = rng.randint(2, min(6, len(pool)))
    extra = [f for f in pool if cat.factions[f].expansion != "base"]
    chosen: list[str] = []
    if extra:
        chosen.append(rng.choice(extra))  # an expansion ruleset always seats one of its factions
    chosen += rng.sample([f for f in pool if f not in chosen], count - len(chosen))
    factions = sorted(chosen)
    storm_order = rng.sample(factions, len(factions))
    storm = rng.randrange(18)
    places = board_places()
    strongholds = [
        t.id for t in cat.territories.values() if t.type is TerritoryType.STRONGHOLD and t.expansion == "base"
    ]
    with_sectors = [(t, s) for t, s in places if s and _free_sectors(s, storm)]
    divided = [(t, s) for t, s in places if storm in s and len(sector_groups(s, storm)) > 1]

    # alliances: up to two pairs
    allies: dict[str, str] = {}
    free = list(factions)
    rng.shuffle(free)
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        if len(free) >= 2 and len(factions) >= 3:
            a, b = free.pop(), free.pop()
            allies[a], allies[b] = b, a

    # forces: every faction in one to four places, with one to three contested places
    stacks: dict[tuple[str, str, int | None], list[int]] = {}  # (faction, territory, sector) -> [regular, elite]
    elite_total = {f: cat.factions[f].elite_forces for f in factions}
    tanks = {f: [rng.randint(0, 5), rng.randint(0, min(1, elite_total[f]))] for f in factions}
    regular_left = {f: cat.factions[f].forces_total - elite_total[f] - tanks[f][0] for f in factions}
    elite_left = {f: elite_total[f] - tanks[f][1] for f in factions}
    bg = "bene-gesserit"
    bg_fighting: set[str] = set()

    def place(faction: str, territory: str, sector: int | None, most: int) -> None:
        n = rng.randint(1, most)
        elite = rng.randint(0, min(n, elite_left[faction]))
        regular = min(n - elite, regular_left[faction])
        if regular + elite == 0:
            return
        elite_left[faction] -= elite
        regular_left[faction] -= regular
        stack = stacks.setdefault((faction, territory, sector), [0, 0])
        stack[0] += regular
        stack[1] += elite
        if faction == bg:
            bg_fighting.add(territory)

    def spot(contested: bool = False) -> tuple[str, int | None, tuple[int, ...]]:
        if contested and rng.random() < 0.4:  # battles in strongholds (Duke Vidal needs two)
            territory, sectors = rng.choice([(t, s) for t, s in with_sectors if t in strongholds])
        else:
            territory, sectors = rng.choice(with_sectors + [("polar-sink", ())] * 2)
        if not sectors:
            return territory, None, sectors
        if storm in sectors and cat.territories[territory].storm_protected and rng.random() < 0.3:
            return territory, storm, sectors  # forces the storm passed over where it kills none
        return territory, rng.choice(_free_sectors(sectors, storm)), sectors

    for _ in range(rng.randint(1, 3)):  # the contested places
        fighters = [f for f in factions if regular_left[f] + elite_left[f] > 0]
        size = 3 if len(fighters) >= 3 and rng.random() < 0.3 else 2
        group = rng.sample(fighters, min(size, len(fighters)))
        if len(group) == 2 and allies.get(group[0]) == group[1]:
            continue
        if divided and rng.random() < 0.3:  # a territory the storm divides, forces on both sides
            territory, sectors = rng.choice(divided)
            sides = sector_groups(sectors, storm)
            for f in group:
                for side in rng.sample(sides, rng.randint(1, len(sides))):
                    place(f, territory, rng.choice(sorted(side)), 6)
            continue
        territory, sector, sectors = spot(contested=True)
        for f in group:
            s = sector if sector is None or rng.random() < 0.7 else rng.choice(_free_sectors(sectors, storm))
            place(f, territory, s, 8)
    for f in factions:
        for _ in range(rng.randint(0, 2)):
            territory, sector, _ = spot()
            place(f, territory, sector, 5)
    specials = [("ixians", "hidden-mobile-stronghold")]  # the Ixians' HMS; Jacurutu, a homeworld with the modules
    if "discovery-tokens" in rs.variants:
        specials.append((rng.choice(factions), "jacurutu-sietch"))
    if "homeworlds" in rs.variants and rng.random() < 0.3:  # an invaded homeworld, its natives defending it
        native = rng.choice(factions)
        specials.append((native, cat.factions[native].homeworld))
    for owner, territory in specials:
        if owner in factions and rng.random() < 0.5:
            place(owner, territory, None, 6)
            others = [f for f in factions if f != owner and allies.get(f) != owner]
            if others and rng.random() < 0.4:  # someone moved in: a battle there
                place(rng.choice(others), territory, None, 6)

    advisors: list[dict[str, Any]] = []
    if advanced and bg in factions:
        for _ in range(rng.randint(0, 2)):
            territory, sector, _ = spot()
            taken = any(a["territory"] == territory for a in advisors)
            if regular_left[bg] > 0 and territory not in bg_fighting and not taken:
                count_ = rng.randint(1, min(3, regular_left[bg]))
                regular_left[bg] -= count_
                advisors.append({"territory": territory, "sector": sector, "count": count_})

    forces = [
        {"faction": f, "territory": t, "sector": s, "regular": r, "elite": e}
        for (f, t, s), (r, e) in sorted(stacks.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] or -1))
        if r + e
    ]

    # leaders, Traitor cards, Face Dancers
    leaders_of = {f: [x for x in cat.leaders_of(f) if advanced or not x.advanced_only] for f in factions}
    leader_states: dict[str, dict[str, Any]] = {f: {} for f in factions}
    for f in factions:
        for leader in rng.sample(leaders_of[f], rng.choice((0, 0, 1, 1, 2))):
            leader_states[f][leader.id] = {"status": "tanks"}
    if advanced and "harkonnen" in factions and rng.random() < 0.4:
        victims = [x for f in factions if f != "harkonnen" for x in leaders_of[f] if x.id not in leader_states[f]]
        if victims:
            captive = rng.choice(victims)
            leader_states[captive.faction][captive.id] = {"status": "captured", "by": "harkonnen"}
    if advanced and "tleilaxu" in factions and rng.random() < 0.5:  # a foreign ghola serving the Tleilaxu
        dead = [
            (f, lid)
            for f in factions
            if f != "tleilaxu"
            for lid, entry in leader_states[f].items()
            if entry["status"] == "tanks" and lid != "auditor"
        ]
        if dead:
            native, lid = rng.choice(dead)
            leader_states[native][lid] = {"status": "available", "ghola": True}
            own = [x.id for x in leaders_of["tleilaxu"] if x.id not in leader_states["tleilaxu"]]
            if own:  # the Tleilaxu revive gholas while their own leaders are dead
                leader_states["tleilaxu"][rng.choice(own)] = {"status": "tanks"}
    if "leader-skills" in rs.variants:
        skills = rng.sample(sorted(cat.skills), len(cat.skills))
        for f in factions:
            alive = [x for x in leaders_of[f] if x.id not in leader_states[f] and x.id != "auditor" and skills]
            if alive and rng.random() < 0.8:
                leader = rng.choice(alive)
                leader_states[f][leader.id] = {
                    "status": "available",
                    "skill": skills.pop(),
                    "skill_face_up": rng.random() < 0.5,
                }
    traitor_cards = [x.id for f in factions for x in leaders_of[f] if x.traitor_card]
    rng.shuffle(traitor_cards)
    traitors: dict[str, list[str]] = {f: [] for f in factions}
    face_dancers: list[str] = []
    for f in factions:
        if f == "tleilaxu":
            face_dancers = [traitor_cards.pop() for _ in range(min(3, len(traitor_cards)))]
            continue
        kept = 4 if f == "harkonnen" else 1
        for _ in range(kept):
            own = next((c for c in traitor_cards if cat.leaders[c].faction != f), None)
            if own is not None:
                traitor_cards.remove(own)
                traitors[f].append(own)

    # cards: hands within limits, some in the discard pile, each card in one place
    cards = deck(rs.expansions, rs.variants, factions)
    rng.shuffle(cards)
    hands: dict[str, list[str]] = {}
    for f in factions:
        limit = cat.factions[f].hand_limit
        size = min(limit, rng.choice((0, 1, 1, 2, 2, 3, 3, 4, limit)))
        hands[f] = sorted(cards.pop() for _ in range(min(size, len(cards))))
    discard = [cards.pop() for _ in range(min(len(cards), rng.randint(0, 5)))]

    faction_states: dict[str, Any] = {}
    for f in factions:
        state: dict[str, Any] = {
            "spice": rng.randint(0, 15),
            "reserves": {"regular": regular_left[f], "elite": elite_left[f]},
            "tanks": {"regular": tanks[f][0], "elite": tanks[f][1]},
            "hand": hands[f],
            "traitors": traitors[f],
            "leaders": leader_states[f],
            "ally": allies.get(f),
        }
        if f == "tleilaxu":
            state["face_dancers"] = face_dancers
        if f == "atreides" and advanced:
            losses = rng.randint(0, 10)
            state["kwisatz_haderach"] = {
                "status": "active" if losses >= 7 else "inactive",
                "used_in": None,
                "battle_losses": losses,
            }
        faction_states[f] = state

    spice_piles = []
    for territory in cat.territories.values():
        if territory.spice_blow is not None and territory.expansion == "base" and rng.random() < 0.15:
            sector, amount = territory.spice_blow
            spice_piles.append({"territory": territory.id, "sector": sector, "amount": rng.randint(2, amount)})

    wire: dict[str, Any] = {
        "format": "dune-snapshot/1",
        "ruleset": {"expansions": list(rs.expansions), "advanced": advanced, "variants": list(rs.variants)},
        "turn": rng.randint(2, 10),
        "phase": "shipment-movement",
        "storm_sector": storm,
        "storm_order": storm_order,
        "seed": rng.randrange(2**32),
        "factions": faction_states,
        "forces": forces,
        "advisors": advisors,
        "board_spice": spice_piles,
        "discard": discard,
        "battle": None,
        "pending": None,
        "traitor_deck": traitor_cards,
    }
    if "ecaz-moritani" in rs.expansions:
        holders = [f for f in ("moritani", "ecaz") if f in factions]
        status = rng.choice(["set-aside", "set-aside", "tanks", *(["held"] * len(holders))])
        wire["duke_vidal"] = (
            {"status": "held", "controller": rng.choice(holders), "acquired_turn": None}
            if status == "held"
            else {"status": status, "controller": None}
        )
        if wire["duke_vidal"]["status"] == "held" and wire["duke_vidal"]["controller"] == "moritani":
            wire["duke_vidal"]["acquired_turn"] = wire["turn"] - 1
    if "ecaz" in factions:
        tokens = [f for f in ruleset_factions(rs.expansions) if f not in ("moritani",) and f not in factions]
        placed_count = min(rng.randint(0, 2), len(tokens))
        wire["ambassadors"] = [
            {"token": token, "territory": territory}
            for token, territory in zip(
                rng.sample(tokens, placed_count), rng.sample(strongholds, placed_count), strict=True
            )
        ]
    if "richese" in factions and rng.random() < 0.6:
        wire["no_field"] = no_field_token(forces, allies, rng)
        if wire["no_field"] is None:
            del wire["no_field"]
    if "moritani" in factions:
        ids = rng.sample(range(100, 1000), len(TERROR_KINDS))
        tokens_ = [{"id": f"t{n}", "kind": kind} for n, kind in zip(ids, TERROR_KINDS, strict=True)]
        rng.shuffle(tokens_)
        placed = [
            {**token, "territory": territory}
            for token, territory in zip(tokens_, rng.sample(strongholds, rng.randint(0, 2)), strict=False)
        ]
        wire["terror"] = {"supply": tokens_[len(placed) :], "placed": placed, "out_of_play": []}
        if advanced:
            assassination_record(wire, cat)
    return wire


def assassination_record(wire: dict[str, Any], cat: Any) -> None:
    """Sometimes Moritani has already assassinated a leader this game (its card set aside, taken from the
    Traitor deck) or forfeited the power; drawn from an RNG of its own, so the rest of the snapshot is
    the one the seed always made."""
    extra = random.Random(f"assassination:{wire['seed']}")
    roll = extra.random()
    deck = [c for c in wire["traitor_deck"] if cat.leaders[c].faction != "moritani"]
    if roll < 0.25 and deck:
        card = extra.choice(deck)
        wire["traitor_deck"].remove(card)
        wire["factions"]["moritani"]["assassinated"] = [card]
    elif roll < 0.35:
        wire["factions"]["moritani"]["assassination_forfeited"] = True


def no_field_token(forces: list[dict[str, Any]], allies: dict[str, str], rng: random.Random) -> dict[str, Any] | None:
    """Richese's face-down No-Field token: beside Richese's own forces, or alone where another faction
    stands (a battle on the token alone), never in the Polar Sink."""
    richese = "richese"
    board = catalog().territories  # the board itself: no homeworld
    own = [s for s in forces if s["faction"] == richese and s["territory"] != "polar-sink" and s["territory"] in board]
    taken = {s["territory"] for s in own}
    others = [
        s
        for s in forces
        if s["faction"] != richese
        and allies.get(richese) != s["faction"]
        and s["territory"] not in taken
        and s["territory"] != "polar-sink"
        and s["territory"] != "hidden-mobile-stronghold"
        and s["territory"] in board
    ]
    spots = own if own and (not others or rng.random() < 0.5) else others
    if not spots:
        return None
    stack = rng.choice(spots)
    return {"territory": stack["territory"], "sector": stack["sector"], "forces": rng.choice((0, 3, 5))}


# --- the driver ------------------------------------------------------------------------------------


_IDS: dict[str, str] = {}


def _id_kinds() -> dict[str, str]:
    if not _IDS:
        cat = catalog()
        for group, ids in (
            ("faction", cat.factions),
            ("leader", cat.leaders),
            ("territory", cat.territories),
            ("skill", cat.skills),
            ("card", cat.cards),
            ("variant", cat.variants),
        ):
            _IDS.update(dict.fromkeys(ids, group))
    return _IDS


def reason_of(message: str, keep: frozenset[str] = frozenset()) -> str:
    """A violation's message with its ids (but those of the kinds kept) and numbers replaced by their kind."""
    text = re.sub(r"^this engine version does not (?:adjudicate|resolve) ", "", message)
    text = re.sub(r" yet$", "", text)
    kinds = _id_kinds()

    def named(match: re.Match[str]) -> str:
        word = match.group(0)
        kind = kinds.get(card_kind(word))
        return "{" + kind + "}" if kind is not None and kind not in keep else word

    text = re.sub(r"[a-z][a-z0-9'#-]*[a-z0-9]", named, text)
    return re.sub(r"\d+(?:\.\d+)?", "{n}", text)


@dataclass
class PhaseResult:
    status: str = "ruled"  # ruled, not-implemented, inconsistent
    reason: str | None = None
    detail: str | None = None
    battles: int = 0
    answers: int = 0
    questions: Counter[str] = field(default_factory=Counter)
    raises_refused: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    traitor_calls: int = 0
    fallback_battles: int = 0
    reproducer: dict[str, Any] | None = None


class Stop(Exception):
    def __init__(
        self, status: str, reason: str, reproducer: dict[str, Any] | None = None, detail: str | None = None
    ) -> None:
        super().__init__(reason)
        self.status, self.reason, self.reproducer, self.detail = status, reason, reproducer, detail


def _codes(violations: Sequence[dict[str, Any]]) -> str:
    return ",".join(sorted({v["code"] for v in violations}))


def contested(wire: dict[str, Any]) -> list[tuple[str, str, str, list[int] | None]]:
    """The battles left on the board as (aggressor, defender, territory, sectors): non-allied factions
    with forces in one territory outside the Polar Sink, on one side of the storm where the storm is
    in the territory (forces under it and advisors never battle); each pair once, in storm order."""
    cat = catalog()
    storm = wire["storm_sector"]
    order = {f: i for i, f in enumerate(wire["storm_order"])}
    found = []
    by_territory: dict[str, list[dict[str, Any]]] = {}
    for stack in wire["forces"]:
        by_territory.setdefault(stack["territory"], []).append(stack)
    for territory_id, stacks in sorted(by_territory.items()):
        territory = cat.territories.get(territory_id)  # None: a homeworld, a place without sectors
        if territory is not None and territory.type is TerritoryType.POLAR_SINK:
            continue
        groups: list[frozenset[int] | None] = [None]
        if territory is not None and storm in territory.sectors:
            groups = list(sector_groups(territory.sectors, storm))  # named: the side of the storm fought on
        for group in groups:
            present = sorted(
                {s["faction"] for s in stacks if group is None or s["sector"] in group}, key=order.__getitem__
            )
            for i, a in enumerate(present):
                for d in present[i + 1 :]:
                    if wire["factions"][a].get("ally") != d:
                        sectors = sorted(group) if group is not None else None
                        found.append((a, d, territory_id, sectors))
    found.sort(key=lambda b: order[b[0]])
    return found


def open_fallback_battle(wire: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The next battle as the driver opens it where the engine offers no battle choice: the first
    faction in storm order with a battle fights one of its battles; its plan decision is opened."""
    battles = contested(wire)
    if not battles:
        return None
    first = battles[0][0]
    aggressor, defender, territory, sectors = rng.choice([b for b in battles if b[0] == first])
    following = copy.deepcopy(wire)
    battle: dict[str, Any] = {
        "territory": territory,
        "aggressor": aggressor,
        "defender": defender,
        "plans": {},
        "revealed": False,
    }
    if sectors is not None:
        battle["sectors"] = sectors
    following["battle"] = battle
    frozen = Snapshot.from_dict(following)
    assert frozen.battle is not None
    following["pending"] = plan_decision(frozen, frozen.battle, aggressor, ALLY_TRAITS, FACE_UP_EXCUSED)
    return following


def traitor_calls(wire: dict[str, Any], rng: random.Random) -> None:
    """Sometimes call traitor where a side may: it (or its Harkonnen ally, unless a Karama cancelled
    that power in this battle) holds the Traitor card of the opposing plan's leader, who is not with
    the Kwisatz Haderach; withhold a Poison Tooth now and then, and make the Stone Burner's choice."""
    battle = wire["battle"]
    ally_cards_cancelled = any(
        use.get("power") == "ally-traitors" and use.get("target") == "harkonnen" for use in battle.get("karama") or ()
    )
    calls = []
    for caller, opponent in ((battle["aggressor"], battle["defender"]), (battle["defender"], battle["aggressor"])):
        plan = battle["plans"][opponent]
        leader = plan.get("leader")
        if leader is None or plan.get("kwisatz_haderach"):
            continue
        holders = [caller]
        ally = wire["factions"][caller].get("ally")
        if ally == "harkonnen" and not ally_cards_cancelled:
            holders.append(ally)
        if any(leader in wire["factions"][h]["traitors"] for h in holders) and rng.random() < 0.6:
            calls.append(caller)
    battle["traitor_calls"] = calls
    battle["poison_tooth_withheld"] = [
        f
        for f, plan in sorted(battle["plans"].items())
        if plan.get("weapon") and card_kind(plan["weapon"]) == "poison-tooth" and rng.random() < 0.5
    ]
    if any(plan.get("weapon") and card_kind(plan["weapon"]) == "stone-burner" for plan in battle["plans"].values()):
        battle["stone_burner"] = rng.choice(["kill-leaders", "zero-leaders"])
        stone_burner_choices(wire, rng)
    added = [f for f, plan in sorted(battle["plans"].items()) if portable_snooper_addable(wire, f, plan)]
    added = [f for f in added if rng.random() < 0.5]
    if added:
        battle["portable_snooper"] = added


def stone_burner_choices(wire: dict[str, Any], rng: random.Random) -> None:
    """Beside the Stone Burner, a facing Mirror Weapon's own choice, and the forces each side names as
    dialed where its dial could be made up with the fewest forces in more than one way (a set of the
    fewest, so that every reading of stone-burner-undialed-forces accepts it)."""
    battle = wire["battle"]
    plans = battle["plans"]
    if any(plan.get("weapon") and card_kind(plan["weapon"]) == "mirror-weapon" for plan in plans.values()):
        battle["mirror_stone_burner"] = rng.choice(["kill-leaders", "zero-leaders"])
    frozen = Snapshot.from_dict(wire)
    assert frozen.battle is not None
    named: dict[str, dict[str, int]] = {}
    for faction in sorted(plans):
        ways = dialed_sets(frozen, frozen.battle, faction, ALLY_TRAITS)
        if len(ways) > 1:
            fewest = min(w["regular"] + w["elite"] for w in ways)
            named[faction] = rng.choice([w for w in ways if w["regular"] + w["elite"] == fewest])
    if named:
        battle["stone_burner_dialed"] = named


def portable_snooper_addable(wire: dict[str, Any], faction: str, plan: dict[str, Any]) -> bool:
    """Whether a side may add a Portable Snooper once the plans are revealed: it holds one, played no
    defense but a leader or Cheap Hero, and no standing Voice forbids a poison defense or the card."""
    if plan.get("defense") or not (plan.get("leader") or plan.get("cheap_hero")):
        return False
    if not any(card_kind(c) == "portable-snooper" for c in wire["factions"][faction]["hand"]):
        return False
    voice = wire["battle"].get("voice")
    cancelled = any(use.get("power") == "voice" for use in wire["battle"].get("karama") or ())
    forbids = voice is not None and voice["target"] == faction and voice["command"] == "not-play"
    return not (forbids and not cancelled and voice["subject"] in ("poison-defense", "portable-snooper"))


def card_places(wire: dict[str, Any]) -> Counter[str]:
    places: Counter[str] = Counter(wire.get("discard") or ())
    for state in wire["factions"].values():
        places.update(state["hand"])
    battle = wire.get("battle")
    for plan in (battle or {}).get("plans", {}).values():
        places.update(c for c in (plan.get("cheap_hero"), plan.get("weapon"), plan.get("defense")) if c)
    return places


def force_totals(wire: dict[str, Any]) -> Counter[str]:
    totals: Counter[str] = Counter()
    for faction, state in wire["factions"].items():
        totals[faction] += sum(state["reserves"].values()) + sum(state["tanks"].values())
    for stack in wire.get("forces") or ():
        totals[stack["faction"]] += stack["regular"] + stack["elite"]
    for stack in wire.get("advisors") or ():
        totals["bene-gesserit"] += stack["count"]
    return totals


def unconserved(before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """What a step made appear or vanish: every Treachery card stays in one place, every force somewhere."""
    if card_places(before) != card_places(after):
        return "cards"
    if force_totals(before) != force_totals(after):
        return "forces"
    return None


def raised(option: dict[str, Any], decision: dict[str, Any], advanced: bool, rng: random.Random) -> dict[str, Any]:
    """A battle-plan option with its dial and support spice raised at random within the decision's limits."""
    dial_max, spice_max = decision.get("dial_max") or 0, decision.get("spice_max") or 0
    if rng.random() < 0.2:
        return {**option, "dial": dial_max, "spice": spice_max}
    steps = int(dial_max * 2) if advanced else int(dial_max)
    dial = rng.randint(0, steps) / (2 if advanced else 1)
    dial = int(dial) if float(dial).is_integer() else dial
    spice = rng.randint(0, min(spice_max, int(dial))) if advanced else 0
    return {**option, "dial": dial, "spice": spice}


def banker_spice(wire: dict[str, Any], option: dict[str, Any], rng: random.Random) -> int:
    """Spice a Spice Banker leader spends on its strength with the plan: 1 to 3 it can pay beside its
    support, drawn at random (0 for any other leader, or when it cannot pay)."""
    leader = catalog().leaders.get(option.get("leader") or "")
    if leader is None or leader.faction not in wire["factions"]:
        return 0
    state = wire["factions"][leader.faction]["leaders"].get(leader.id) or {}
    if state.get("skill") != "spice-banker":
        return 0
    free = int(wire["factions"][option["player"]]["spice"]) - int(option.get("spice") or 0)
    return rng.randint(1, min(3, free)) if free > 0 and rng.random() < 0.7 else 0


class Driver:
    def __init__(
        self, start: dict[str, Any], rng: random.Random, label: str, readings: dict[str, str] | None = None
    ) -> None:
        self.start = start
        self.rng = rng
        self.label = label
        self.interpretations: dict[str, str] = dict(readings or {})
        self.result = PhaseResult()
        self.rules = rulebook()

    def repro(self, wire: dict[str, Any], action: dict[str, Any], detail: Any) -> dict[str, Any]:
        return {
            "phase": self.label,
            "snapshot": wire,
            "action": action,
            "interpretations": dict(self.interpretations),
            "detail": detail,
        }

    def ask(self, wire: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        """The engine's answer, asked again with the first alternative's readings while it is unresolved."""
        for _ in range(12):
            self.result.answers += 1
            try:
                answer: dict[str, Any] = adjudicate(
                    load_snapshot(wire), Action.from_dict(action), self.interpretations
                ).to_dict()
            except Exception as exc:  # an engine bug, recorded with its reproducer
                raise Stop(
                    "inconsistent",
                    f"{type(exc).__name__} on {action['type']}",
                    self.repro(wire, action, repr(exc)),
                ) from exc
            if answer["status"] == "unresolved":
                if not answer["alternatives"]:
                    reason = f"unresolved {action['type']} without alternatives"
                    raise Stop("inconsistent", reason, self.repro(wire, action, answer))
                chosen = answer["alternatives"][0]["interpretations"]
                self.result.questions.update(f"{q}={c}" for q, c in chosen.items())
                self.interpretations.update(chosen)
                continue
            required = [v for v in answer["violations"] if v["code"] == "interpretation-required"]
            if answer["status"] == "illegal" and required:
                question = required[0]["path"].rsplit("/", 1)[-1]
                choices = self.rules.implemented_choices(question)
                if question in self.interpretations or not choices:
                    raise Stop("inconsistent", f"interpretation-required {question} with no way on", None)
                self.result.questions[f"{question}={choices[0]}"] += 1
                self.interpretations[question] = choices[0]
                continue
            return answer
        raise Stop("inconsistent", f"{action['type']} stays unresolved", self.repro(wire, action, None))

    def step(self, wire: dict[str, Any], action: dict[str, Any], listed: bool) -> dict[str, Any]:
        answer = self.ask(wire, action)
        if answer["status"] == "illegal":
            missing = [v for v in answer["violations"] if v["code"] == "not-implemented"]
            if missing:
                message = missing[0]["message"]
                raise Stop("not-implemented", reason_of(message), detail=message)
            what = "listed option" if listed else "driver action"
            raise Stop(
                "inconsistent",
                f"refused {what} {action['type']}: {_codes(answer['violations'])}",
                self.repro(wire, action, answer["violations"]),
            )
        if answer["status"] == "needs_choice":
            return answer
        following = answer["outcome"]["snapshot"]
        broken = unconserved(wire, following)
        if broken is not None:
            raise Stop("inconsistent", f"{broken} not conserved by {action['type']}", self.repro(wire, action, None))
        try:
            load_snapshot(following)
        except InvalidSnapshot as exc:
            codes = ",".join(sorted({p.code for p in exc.problems}))
            raise Stop(
                "inconsistent",
                f"next snapshot invalid after {action['type']}: {codes}",
                self.repro(wire, action, [p.to_dict() for p in exc.problems]),
            ) from exc
        if action["type"] == "resolve-battle":
            self.result.battles += 1
        return answer

    def plan(self, wire: dict[str, Any], option: dict[str, Any], decision: dict[str, Any]) -> dict[str, Any]:
        """Lock a battle plan with a raised dial and support; where the raise is refused, the option as listed."""
        advanced = bool(wire["ruleset"].get("advanced"))
        attempt = raised(option, decision, advanced, self.rng)
        banker = banker_spice(wire, attempt, self.rng)
        if banker:
            attempt = {**attempt, "banker_spice": banker}
        if attempt != option:
            self.result.answers += 1
            try:
                answer = adjudicate(load_snapshot(wire), Action.from_dict(attempt), self.interpretations).to_dict()
            except Exception as exc:
                raise Stop(
                    "inconsistent", f"{type(exc).__name__} on lock-battle-plan", self.repro(wire, attempt, repr(exc))
                ) from exc
            if answer["status"] == "illegal":
                game = "advanced" if advanced else "basic"
                self.result.raises_refused[f"{game}: {_codes(answer['violations'])}"] += 1
            else:
                return self.step(wire, attempt, listed=True)
        return self.step(wire, option, listed=True)

    def run(self) -> PhaseResult:
        try:
            self._run()
        except Stop as stop:
            self.result.status, self.result.reason, self.result.reproducer = stop.status, stop.reason, stop.reproducer
            self.result.detail = stop.detail
        return self.result

    def _run(self) -> None:
        wire = self.start
        answer = self.step(wire, {"type": "end-shipment-movement"}, listed=False)
        for _ in range(STEP_LIMIT):
            if answer["status"] != "needs_choice":
                wire = answer["outcome"]["snapshot"]
            decision, options = answer["next"]["decision"], answer["next"]["options"]
            if decision is not None or answer["status"] == "needs_choice":
                if not options:
                    kind = decision["type"] if decision is not None else "needs_choice"
                    raise Stop("inconsistent", f"{kind} decision without options", self.repro(wire, {}, decision))
                self.result.decisions[decision["type"] if decision is not None else "needs_choice"] += 1
                option = self.rng.choice(options)
                if decision is not None and decision["type"] == "battle-plan":
                    answer = self.plan(wire, option, decision)
                else:
                    answer = self.step(wire, option, listed=True)
                continue
            battle = wire.get("battle")
            if battle is not None and battle.get("resolution") is None:
                if len(battle["plans"]) < 2:
                    raise Stop("inconsistent", "battle without its plans and no decision", self.repro(wire, {}, None))
                ready = copy.deepcopy(wire)
                traitor_calls(ready, self.rng)
                self.result.traitor_calls += len(ready["battle"]["traitor_calls"])
                answer = self.step(ready, {"type": "resolve-battle"}, listed=False)
                continue
            if battle is not None:
                raise Stop("inconsistent", "resolved battle left with no decision", self.repro(wire, {}, None))
            if wire["phase"] != "battle":
                return  # the engine ended the phase
            following = open_fallback_battle(wire, self.rng)
            if following is None:
                return  # no battle left
            try:
                load_snapshot(following)
            except InvalidSnapshot as exc:
                codes = ",".join(sorted({p.code for p in exc.problems}))
                raise Stop(
                    "inconsistent",
                    f"the driver's battle is refused by validation: {codes}",
                    self.repro(following, {}, [p.to_dict() for p in exc.problems]),
                ) from exc
            self.result.fallback_battles += 1
            wire = following
            pending = following["pending"]
            options = list_options(load_snapshot(following)).to_dict()["options"]
            answer = {
                "status": "resolved",
                "outcome": {"snapshot": following},
                "next": {"decision": pending, "options": options},
            }
        raise Stop("inconsistent", "the phase did not end", self.repro(wire, {}, None))


# --- the report -------------------------------------------------------------------------------------


@dataclass
class RulesetReport:
    name: str
    phases: int = 0
    rejects: Counter[str] = field(default_factory=Counter)
    battles: int = 0
    fallback_battles: int = 0
    answers: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    details: Counter[str] = field(default_factory=Counter)  # not-implemented messages with their ids
    inconsistent: Counter[str] = field(default_factory=Counter)
    questions: Counter[str] = field(default_factory=Counter)
    raises_refused: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    traitor_calls: int = 0
    no_battle_phases: int = 0
    reproducers: list[dict[str, Any]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return 100.0 * self.outcomes["ruled"] / self.phases if self.phases else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.name,
            "phases": self.phases,
            "generator_rejects": sum(self.rejects.values()),
            "generator_reject_codes": dict(self.rejects.most_common()),
            "battles": self.battles,
            "battles_opened_by_driver": self.fallback_battles,
            "answers": self.answers,
            "phases_without_battle": self.no_battle_phases,
            "ruled": self.outcomes["ruled"],
            "not_implemented": self.outcomes["not-implemented"],
            "inconsistent": self.outcomes["inconsistent"],
            "ruled_share": round(self.share, 1),
            "top_reasons": [{"reason": r, "count": n} for r, n in self.reasons.most_common(8)],
            "not_implemented_messages": [{"message": m, "count": n} for m, n in self.details.most_common(12)],
            "inconsistent_reasons": [{"reason": r, "count": n} for r, n in self.inconsistent.most_common()],
            "questions_met": dict(sorted(self.questions.items())),
            "raised_plans_refused": dict(self.raises_refused.most_common()),
            "decisions_answered": dict(sorted(self.decisions.items())),
            "traitor_calls": self.traitor_calls,
        }


def generated(rs: Ruleset, n: int, seed: int, report: RulesetReport) -> Iterator[tuple[int, dict[str, Any]]]:
    """`n` snapshots that pass validation; a generated snapshot that does not is counted as a reject."""
    index = 0
    attempts = 0
    while index < n and attempts < 3 * n:
        attempts += 1
        rng = random.Random(f"{seed}:{rs.name}:{attempts}")
        wire = generate(rs, rng)
        errors = SNAPSHOT_SCHEMA.validate(wire)
        if errors:
            report.rejects["schema:" + ",".join(sorted(errors))] += 1
            continue
        try:
            load_snapshot(wire)
        except InvalidSnapshot as exc:
            report.rejects[",".join(sorted({p.code for p in exc.problems}))] += 1
            continue
        yield attempts, wire
        index += 1


def random_readings(rng: random.Random) -> dict[str, str]:
    """One implemented choice of every register question, drawn at random (defaults included)."""
    rules = rulebook()
    readings = {}
    for question in sorted(rules.registers.questions):
        choices = rules.implemented_choices(question)
        if choices:
            readings[question] = rng.choice(choices)
    return readings


def run_ruleset(rs: Ruleset, n: int, seed: int, readings: str = "defaults") -> RulesetReport:
    report = RulesetReport(rs.name)
    for attempt, wire in generated(rs, n, seed, report):
        report.phases += 1
        if not contested(wire):
            report.no_battle_phases += 1
        rng = random.Random(f"{seed}:{rs.name}:{attempt}:drive")
        chosen = random_readings(random.Random(f"{seed}:{rs.name}:{attempt}:readings")) if readings == "random" else {}
        result = Driver(wire, rng, f"{rs.name}#{attempt}", chosen).run()
        report.outcomes[result.status] += 1
        report.battles += result.battles
        report.fallback_battles += result.fallback_battles
        report.answers += result.answers
        report.questions.update(result.questions)
        report.raises_refused.update(result.raises_refused)
        report.decisions.update(result.decisions)
        report.traitor_calls += result.traitor_calls
        if result.status == "not-implemented" and result.reason is not None:
            report.reasons[result.reason] += 1
            report.details[reason_of(result.detail or "", keep=DETAILED)] += 1
        if result.status == "inconsistent" and result.reason is not None:
            report.reasons["inconsistent: " + result.reason] += 1
            report.inconsistent[result.reason] += 1
            if result.reproducer is not None and len(report.reproducers) < REPRODUCERS_KEPT:
                report.reproducers.append({"reason": result.reason, **result.reproducer})
    return report


def print_report(reports: Sequence[RulesetReport], seed: int, n: int, seconds: float) -> None:
    print(f"coverage: seed {seed}, {n} battle phases per ruleset, {seconds:.1f} s")
    columns = (
        ("phases", 6),
        ("rejects", 7),
        ("no-battle", 9),
        ("battles", 7),
        ("ruled", 7),
        ("not-impl", 8),
        ("inconsistent", 12),
    )
    print(f"{'ruleset':<16} " + " ".join(f"{name:>{width}}" for name, width in columns))
    for r in reports:
        print(
            f"{r.name:<16} {r.phases:>6} {sum(r.rejects.values()):>7} {r.no_battle_phases:>9} {r.battles:>7}"
            f" {r.share:>6.1f}%"
            f" {r.outcomes['not-implemented']:>8} {r.outcomes['inconsistent']:>12}"
        )
    for r in reports:
        if r.reasons:
            print(f"\n{r.name}: top reasons")
            for reason, count in r.reasons.most_common(8):
                print(f"  {count:>5}  {reason}")


def write_reproducers(reports: Sequence[RulesetReport]) -> list[Path]:
    written = []
    kept = [(r.name, i, x) for r in reports for i, x in enumerate(r.reproducers)]
    if kept:
        FAILURES.mkdir(parents=True, exist_ok=True)
    for name, i, reproducer in kept:
        path = FAILURES / f"{name}-{i + 1}.json"
        path.write_text(json.dumps(reproducer, indent=1, sort_keys=True) + "\n")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=int(os.environ.get("COVERAGE_N") or 200))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("COVERAGE_SEED") or 1))
    parser.add_argument("--ruleset", action="append", choices=[r.name for r in RULESETS])
    parser.add_argument("--json", type=Path, help="write the report as JSON to this path")
    parser.add_argument(
        "--readings",
        choices=("defaults", "random"),
        default="defaults",
        help="open questions: their defaults (and the first alternative where none), or one implemented"
        " choice of every question drawn at random per phase",
    )
    args = parser.parse_args(argv)
    chosen = [r for r in RULESETS if not args.ruleset or r.name in args.ruleset]
    started = time.perf_counter()
    reports = [run_ruleset(rs, args.n, args.seed, args.readings) for rs in chosen]
    seconds = time.perf_counter() - started
    print_report(reports, args.seed, args.n, seconds)
    for path in write_reproducers(reports):
        print(f"reproducer: {path.relative_to(ROOT)}")
    if args.json is not None:
        body = {"seed": args.seed, "n": args.n, "readings": args.readings, "rulesets": [r.to_dict() for r in reports]}
        args.json.write_text(json.dumps(body, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
