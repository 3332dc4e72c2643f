"""Invariants of battle resolution over generated battles, followed through every cleanup decision.

- every card id is in exactly one place before and after each step;
- each faction's forces (reserves, Tanks, board, advisors) keep their total;
- spice changes only by the payments the events record;
- the same request gives the same answer;
- every next snapshot passes the consistency checks.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import Action, adjudicate, load_snapshot, registers
from adjudicator.core.catalog import catalog
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.vocabulary import ActionType, RulingStatus
from adjudicator.rules.battle.plan_decision import plan_decision
from adjudicator.rules.battle.plans import ALLY_TRAITS
from adjudicator.rules.skills import FACE_UP_EXCUSED

registers()

FACTIONS = ["atreides", "harkonnen", "emperor", "fremen", "guild", "bene-gesserit"]
EXPANSIONS = frozenset({"ixians-tleilaxu"})
DECK = [
    f"{kind.kind}#{n}"
    for kind in catalog().cards.values()
    if kind.deck == "treachery" and kind.variant is None
    for n in range(1, kind.copies_in(EXPANSIONS) + 1)
    if kind.copies_in(EXPANSIONS) > 0
]
WEAPON_SLOT = [c for c in DECK if "weapon" in catalog().cards[c.split("#")[0]].roles]
DEFENSE_SLOT = [c for c in DECK if "defense" in catalog().cards[c.split("#")[0]].roles]
HEROES = [c for c in DECK if "leader" in catalog().cards[c.split("#")[0]].roles]


@st.composite
def battles(draw: st.DrawFn) -> dict[str, Any]:
    aggressor, defender = draw(st.lists(st.sampled_from(FACTIONS), min_size=2, max_size=2, unique=True))
    advanced = draw(st.booleans())
    used: set[str] = set()

    def card(pool: list[str]) -> str | None:
        choice = draw(st.one_of(st.none(), st.sampled_from(pool)))
        if choice is None or choice in used:
            return None
        used.add(choice)
        return choice

    factions: dict[str, Any] = {}
    forces = []
    plans = {}
    for faction in (aggressor, defender):
        elite_max = catalog().factions[faction].elite_forces
        regular = draw(st.integers(1, 10))
        elite = draw(st.integers(0, min(elite_max, 3)))
        forces.append({"faction": faction, "territory": "arrakeen", "sector": 9, "regular": regular, "elite": elite})
        spice = draw(st.integers(0, 12))
        leader = draw(st.sampled_from(catalog().leaders_of(faction))).id
        hero = card(HEROES) if draw(st.integers(0, 5)) == 0 else None
        weapon, defense = card(WEAPON_SLOT), card(DEFENSE_SLOT)
        support = draw(st.integers(0, min(spice, regular + elite))) if advanced else 0
        top = regular + 2 * elite
        dial = draw(st.integers(0, 2 * top)) / 2 if advanced else draw(st.integers(0, top))
        plans[faction] = {
            "leader": None if hero else leader,
            "cheap_hero": hero,
            "dial": dial,
            "weapon": weapon,
            "defense": defense,
            "spice": support,
        }
        hand = [c for c in draw(st.lists(st.sampled_from(DECK), max_size=3, unique=True)) if c not in used]
        used.update(hand)
        factions[faction] = {
            "spice": spice,
            "reserves": {"regular": 20 - regular - elite_max, "elite": elite_max - elite},
            "tanks": {"regular": 0, "elite": 0},
            "hand": hand,
            "traitors": [],
        }
    calls = []
    for caller, target in ((aggressor, defender), (defender, aggressor)):
        if plans[target]["leader"] is not None and draw(st.integers(0, 3)) == 0:
            factions[caller]["traitors"] = [plans[target]["leader"]]
            calls.append(caller)
    withheld = [
        f
        for f in (aggressor, defender)
        if (plans[f]["weapon"] or "").startswith("poison-tooth") and draw(st.booleans())
    ]
    # bystanders: a third faction's forces, and Bene Gesserit advisors, in the battle territory
    storm_order = [aggressor, defender]
    advisors = []
    bystander = draw(st.sampled_from([None, *[f for f in FACTIONS if f not in (aggressor, defender)]]))
    if bystander is not None:
        count = draw(st.integers(1, 4))
        elite_max = catalog().factions[bystander].elite_forces
        factions[bystander] = {
            "spice": 3,
            "reserves": {"regular": 20 - count - elite_max, "elite": elite_max},
            "tanks": {"regular": 0, "elite": 0},
            "hand": [],
            "traitors": [],
        }
        forces.append({"faction": bystander, "territory": "arrakeen", "sector": 9, "regular": count, "elite": 0})
        storm_order.append(bystander)
    if "bene-gesserit" in factions and draw(st.booleans()):
        advisors.append({"territory": "arrakeen", "sector": 9, "count": 1})
        factions["bene-gesserit"]["reserves"]["regular"] -= 1
    moritani_ally = draw(st.sampled_from([None, aggressor, defender]))
    expansions = sorted(EXPANSIONS)
    if moritani_ally is not None and "moritani" not in factions:
        # Moritani in the game, allied with one side: its losses open the retention decision
        factions["moritani"] = {
            "spice": 5,
            "reserves": {"regular": 20, "elite": 0},
            "tanks": {"regular": 0, "elite": 0},
            "hand": [],
            "traitors": [],
            "ally": moritani_ally,
        }
        opponent = defender if moritani_ally == aggressor else aggressor
        if "karama#2" not in used and draw(st.booleans()):
            factions[opponent]["hand"].append("karama#2")  # someone who may answer the Karama window
            used.add("karama#2")
        factions[moritani_ally]["ally"] = "moritani"
        storm_order.append("moritani")
        expansions = sorted({*EXPANSIONS, "ecaz-moritani"})
    semuta_holder = draw(st.sampled_from([None, *factions]))
    if semuta_holder is not None:
        # a Semuta Drug (CHOAM & Richese) lets its holder take a fresh battle discard
        factions[semuta_holder]["hand"].append("semuta-drug")
        expansions = sorted({*expansions, "choam-richese"})
    if advanced and "atreides" in (aggressor, defender) and draw(st.booleans()):
        factions["atreides"]["kwisatz_haderach"] = {"status": "active", "used_in": None, "battle_losses": 7}
        if plans["atreides"]["leader"] or plans["atreides"]["cheap_hero"]:
            plans["atreides"]["kwisatz_haderach"] = draw(st.booleans())
    return {
        "format": "dune-snapshot/1",
        "ruleset": {"expansions": expansions, "advanced": advanced, "variants": []},
        "turn": 2,
        "phase": "battle",
        "storm_sector": 3,
        "storm_order": storm_order,
        "seed": draw(st.integers(0, 10**6)),
        "factions": factions,
        "forces": forces,
        "advisors": advisors,
        "battle": {
            "territory": "arrakeen",
            "aggressor": aggressor,
            "defender": defender,
            "plans": plans,
            "traitor_calls": calls,
            "poison_tooth_withheld": withheld,
        },
    }


def card_places(wire: dict[str, Any]) -> Counter[str]:
    places: Counter[str] = Counter()
    for state in wire["factions"].values():
        places.update(state["hand"])
    places.update(wire.get("discard", []))
    if wire.get("battle"):
        for plan in wire["battle"]["plans"].values():
            places.update(c for c in (plan.get("cheap_hero"), plan.get("weapon"), plan.get("defense")) if c)
    return places


def force_totals(wire: dict[str, Any]) -> dict[str, int]:
    totals = {
        f: s["reserves"]["regular"] + s["reserves"]["elite"] + s["tanks"]["regular"] + s["tanks"]["elite"]
        for f, s in wire["factions"].items()
    }
    for stack in wire.get("forces", []):
        totals[stack["faction"]] += stack["regular"] + stack["elite"]
    for advisors in wire.get("advisors", []):
        totals["bene-gesserit"] += advisors["count"]
    return totals


def check_step(before: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any] | None:
    if answer["status"] != RulingStatus.RESOLVED.value:
        assert answer["outcome"] is None
        return None
    after = answer["outcome"]["snapshot"]
    load_snapshot(after)  # the next snapshot is consistent
    cards_before, cards_after = card_places(before), card_places(after)
    assert set(cards_before.values()) <= {1} and set(cards_after.values()) <= {1}
    assert set(cards_before) == set(cards_after)
    assert force_totals(before) == force_totals(after)
    paid = Counter[str]()
    for event in answer["outcome"]["events"]:
        if event["type"] == "spice-paid":
            if event["payee"] != "bank":
                paid[event["payee"]] += event["amount"]
            if event["payer"] != "bank":
                paid[event["payer"]] -= event["amount"]
    for faction, state in after["factions"].items():
        assert state["spice"] == before["factions"][faction]["spice"] + paid[faction], faction
    return after


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=battles(), data=st.data())
def test_battle_invariants_through_cleanup(raw: dict[str, Any], data: st.DataObject) -> None:
    wire = Snapshot.from_dict(raw).to_dict()
    snapshot = load_snapshot(wire)
    first = adjudicate(snapshot, Action(ActionType.RESOLVE_BATTLE)).to_dict()
    again = adjudicate(load_snapshot(wire), Action(ActionType.RESOLVE_BATTLE)).to_dict()
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)
    current, answer = wire, first
    for _ in range(40):  # casualties, winner cards, retention, Karama windows, capture, Semuta opportunities
        after = check_step(current, answer)
        if after is None or answer["next"]["decision"] is None:
            break
        option = data.draw(st.sampled_from(answer["next"]["options"]))
        action = Action.from_dict(option)
        current, answer = after, adjudicate(load_snapshot(after), action).to_dict()
        assert answer["status"] == RulingStatus.RESOLVED.value, answer["violations"]
    else:
        raise AssertionError("the cleanup did not end")


@st.composite
def unlocked_battles(draw: st.DrawFn) -> dict[str, Any]:
    """A generated battle whose plans are not locked yet: the aggressor's plan decision is open, and
    the cards the generator had put in the plans are back in the hands."""
    raw = draw(battles())
    for faction, plan in raw["battle"]["plans"].items():
        raw["factions"][faction]["hand"] += [c for c in (plan["cheap_hero"], plan["weapon"], plan["defense"]) if c]
    raw["battle"].update({"plans": {}, "revealed": False, "traitor_calls": [], "poison_tooth_withheld": []})
    aggressor, defender = raw["battle"]["aggressor"], raw["battle"]["defender"]
    unlocked = Snapshot.from_dict(raw)
    assert unlocked.battle is not None and unlocked.battle.defender == defender
    # the decision as the engine opens it: its limits are the ones the snapshot allows
    raw["pending"] = plan_decision(unlocked, unlocked.battle, aggressor, ALLY_TRAITS, FACE_UP_EXCUSED)
    return raw


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=unlocked_battles(), data=st.data())
def test_locking_plans_from_the_options_then_resolving_keeps_the_invariants(
    raw: dict[str, Any], data: st.DataObject
) -> None:
    wire = Snapshot.from_dict(raw).to_dict()
    from adjudicator import list_options

    options = list_options(load_snapshot(wire)).to_dict()
    current = wire
    for _ in range(2):
        if not options["options"]:
            return  # a side that cannot fight here (for instance no leader and no legal plan)
        option = dict(data.draw(st.sampled_from(options["options"])))
        decision = options["decision"]
        if data.draw(st.booleans()):  # the highest dial needs the most support (advanced)
            option["dial"], option["spice"] = decision["dial_max"], decision["spice_max"]
        answer = adjudicate(load_snapshot(current), Action.from_dict(option)).to_dict()
        assert answer["status"] == RulingStatus.RESOLVED.value, answer["violations"]
        after = check_step(current, answer)
        assert after is not None
        current = after
        options = {"options": answer["next"]["options"], "decision": answer["next"]["decision"]}
    answer = adjudicate(load_snapshot(current), Action(ActionType.RESOLVE_BATTLE)).to_dict()
    for _ in range(40):
        after = check_step(current, answer)
        if after is None or answer["next"]["decision"] is None:
            break
        action = Action.from_dict(data.draw(st.sampled_from(answer["next"]["options"])))
        current, answer = after, adjudicate(load_snapshot(after), action).to_dict()
        assert answer["status"] == RulingStatus.RESOLVED.value, answer["violations"]
