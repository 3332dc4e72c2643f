"""The packaged catalog matches the reference facts (counts, ids, special discs, board)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

from adjudicator.core.catalog import catalog
from adjudicator.core.vocabulary import FactionId, TerritoryType

KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
TERRITORIES_TSV = Path(__file__).parent / "data" / "territories.tsv"


def test_twelve_factions_with_the_contract_ids() -> None:
    assert list(catalog().factions) == [f.value for f in FactionId]
    for faction in catalog().factions.values():
        assert faction.forces_total == 20
        assert faction.homeworld in catalog().homeworlds


def test_five_leaders_per_faction_plus_auditor_and_duke() -> None:
    cat = catalog()
    per_faction = Counter(leader.faction for leader in cat.leaders.values() if not leader.separate_disc)
    assert per_faction.pop("choam") == 6  # five plus the advanced-only Auditor
    assert set(per_faction.values()) == {5}
    assert len(cat.leaders) == 62
    assert all(KEBAB.match(leader_id) for leader_id in cat.leaders)


def test_duke_vidal_is_a_separate_ecaz_disc_of_strength_6_without_traitor_card() -> None:
    duke = catalog().leaders["duke-vidal"]
    assert (duke.faction, duke.strength, duke.traitor_card, duke.separate_disc) == ("ecaz", 6, False, True)
    assert duke not in catalog().leaders_of("ecaz")


def test_leader_strengths_spot_checks() -> None:
    leaders = catalog().leaders
    assert leaders["feyd-rautha"].strength == 6
    assert leaders["duncan-idaho"].strength == 2
    assert leaders["lupino-ord"].strength == 5
    assert leaders["stilgar"].strength == 7
    assert leaders["zoal"].strength is None and leaders["zoal"].strength_rule == "copies-opponent"


def test_territories_match_the_reference_table() -> None:
    cat = catalog()
    with TERRITORIES_TSV.open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader((line for line in handle if not line.startswith("#")), delimiter="\t")]
    assert len(cat.territories) == len(rows) + 2
    for row in rows:
        territory = cat.territories[row["id"]]
        assert territory.type.value == row["type"]
        sectors = () if row["sectors"] == "-" else tuple(int(s) for s in row["sectors"].split(","))
        assert territory.sectors == sectors
        assert territory.storm_protected == (row["storm_protected"] == "yes")
    for special in ("hidden-mobile-stronghold", "jacurutu-sietch"):
        assert cat.territories[special].type is TerritoryType.STRONGHOLD
        assert cat.territories[special].sectors == ()
    strongholds = {t.id for t in cat.territories.values() if t.is_stronghold and t.expansion == "base"}
    assert strongholds == {"arrakeen", "carthag", "tueks-sietch", "sietch-tabr", "habbanya-sietch"}


def test_deck_sizes_by_expansion_set() -> None:
    cards = catalog().cards.values()

    def deck(*expansions: str) -> int:
        sets = frozenset(expansions)
        return sum(
            c.copies_in(sets) - sum(n for s, n in c.cache_copies.items() if s in sets | {"base"})
            for c in cards
            if c.deck == "treachery" and c.variant is None
        )

    assert deck() == 33
    assert deck("ixians-tleilaxu") == 47
    assert deck("choam-richese") == 35
    assert deck("ixians-tleilaxu", "choam-richese") == 47
    assert deck("ecaz-moritani") == 33


def test_card_categories_and_slots() -> None:
    cards = catalog().cards
    assert cards["lasgun"].category.value == "special-weapon"
    assert cards["shield"].category.value == "projectile-defense"
    assert cards["cheap-heroine"].roles == frozenset({"leader"})
    assert cards["baliset"].roles == frozenset({"weapon", "defense"})
    assert cards["karama"].copies_in(frozenset({"choam-richese"})) == 3
    assert cards["poison-tooth"].copies_in(frozenset({"ixians-tleilaxu", "choam-richese"})) == 1
    assert all(KEBAB.match(kind) for kind in cards)


def test_each_card_kind_names_the_set_that_adds_it() -> None:
    cards = catalog().cards
    assert cards["lasgun"].expansion == "base"
    assert cards["poison-tooth"].expansion == "ixians-tleilaxu"
    assert cards["semuta-drug"].expansion == "choam-richese"
    assert cards["harass-and-withdraw"].expansion == "ecaz-moritani"
    assert {c.expansion for c in cards.values()} == {"base", "ixians-tleilaxu", "choam-richese", "ecaz-moritani"}
