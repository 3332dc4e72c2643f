"""Every ruling fixture's outcome agrees with itself: summary, events and the next snapshot tell one story.

For every `/v1/rulings` fixture (and each variant) whose answer carries an outcome with a next
snapshot (the outcome itself, or each alternative's), the difference between the request's snapshot
and `outcome.snapshot` must be exactly what `outcome.events` report, and the figures of
`outcome.summary` must be those of the events:

- forces: per faction and kind (regular, elite), the change in the Tanks is the forces lost; the
  change in reserves is the forces sent back to reserves less those placed from reserves (a
  `reserves-to-tanks` event moves forces from the reserves to the Tanks directly); the change
  on the board is the forces placed less those lost and sent back; `summary.battle.forces_lost` is the
  sum of the `forces-lost` events (an Ixian `suboids-swapped` event sends Suboids to the Tanks and
  brings as many Cyborgs back from them; a `forces-revived` event takes forces from the Tanks to the
  reserves; a `no-field-revealed` event places its `forces` from Richese's
  reserves);
- spice: per faction, the change is what it was paid, collected and cashed in less what it paid;
  the board's spice changes by what was added less what was destroyed or collected from a territory;
  `summary.battle.spice_awarded`,
  `summary.revival.paid`, `summary.extortion.paid_by` and `summary.choam.spice` match their events;
- leaders: the leaders that went to the Tanks are the ones killed (and a revealed Face Dancer);
  `summary.battle.leaders_killed` lists the `leader-killed` events; a revived leader left the Tanks;
- cards: the cards that reached the discard pile are the `card-discarded` events' cards (plus a
  Ghola card used for a revival); every discarded card left the hand or plan it was in.

The checks are computed from the answers, not from the fixtures' expectations, so an engine change
that (say) removes forces from the snapshot without an event, or reports a loss it does not apply,
fails here even when no fixture asserts the figure.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.scenarios import Scenario, Variant, load_scenarios
from api import create_app

KINDS = ("regular", "elite")


def _client() -> FlaskClient:
    return create_app().test_client()


def _runs() -> Iterator[tuple[str, Scenario, Variant | None]]:
    for scenario in load_scenarios():
        if scenario.method != "POST" or scenario.path != "/v1/rulings" or scenario.request is None:
            continue
        yield scenario.id, scenario, None
        for variant in scenario.variants:
            label = ",".join(f"{k}={v}" for k, v in sorted(variant.interpretations.items())) or str(variant.index)
            yield f"{scenario.id}[{label}]", scenario, variant


def _outcomes(body: Any) -> list[tuple[str, dict[str, Any]]]:
    """(label, outcome) for the answer's outcome and each alternative's, when it has a next snapshot."""
    found: list[tuple[str, dict[str, Any]]] = []
    if not isinstance(body, dict):
        return found
    outcome = body.get("outcome")
    if isinstance(outcome, dict) and isinstance(outcome.get("snapshot"), dict):
        found.append(("outcome", outcome))
    for i, alternative in enumerate(body.get("alternatives") or ()):
        outcome = alternative.get("outcome") if isinstance(alternative, dict) else None
        if isinstance(outcome, dict) and isinstance(outcome.get("snapshot"), dict):
            found.append((f"alternatives/{i}/outcome", outcome))
    return found


# --- what a snapshot holds ---------------------------------------------------------------------------


def _pool(snapshot: dict[str, Any], faction: str, key: str) -> Counter[str]:
    pool = (snapshot["factions"].get(faction) or {}).get(key) or {}
    return Counter({k: int(pool.get(k) or 0) for k in KINDS})


def _board(snapshot: dict[str, Any], faction: str) -> Counter[str]:
    total: Counter[str] = Counter({k: 0 for k in KINDS})
    for stack in snapshot.get("forces") or ():
        if stack["faction"] == faction:
            for k in KINDS:
                total[k] += int(stack.get(k) or 0)
    return total


def _stack(snapshot: dict[str, Any], faction: str, territory: str, sector: int | None) -> int:
    return sum(
        int(s.get("regular") or 0)
        for s in snapshot.get("forces") or ()
        if s["faction"] == faction and s["territory"] == territory and s.get("sector") == sector
    )


def _spice(snapshot: dict[str, Any], faction: str) -> int:
    return int((snapshot["factions"].get(faction) or {}).get("spice") or 0)


def _board_spice(snapshot: dict[str, Any]) -> int:
    return sum(int(p.get("amount") or 0) for p in snapshot.get("board_spice") or ())


def _tanked_leaders(snapshot: dict[str, Any]) -> set[str]:
    found = {
        leader
        for state in snapshot["factions"].values()
        for leader, entry in (state.get("leaders") or {}).items()
        if (entry or {}).get("status") == "tanks"
    }
    duke = snapshot.get("duke_vidal") or {}
    if duke.get("status") == "tanks":
        found.add("duke-vidal")
    return found


def _card_places(snapshot: dict[str, Any]) -> Counter[str]:
    """Where each card is, outside the discard pile: hands and battle plans."""
    places: Counter[str] = Counter()
    for state in snapshot["factions"].values():
        places.update(state.get("hand") or ())
    battle = snapshot.get("battle") or {}
    for plan in (battle.get("plans") or {}).values():
        if plan:
            places.update(c for c in (plan.get("weapon"), plan.get("defense"), plan.get("cheap_hero")) if c)
    return places


# --- the checks --------------------------------------------------------------------------------------


def _events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("type") == kind and not e.get("redacted")]


def _check(before: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    after = outcome["snapshot"]
    events = list(outcome.get("events") or ())
    summary = outcome.get("summary") or {}
    problems: list[str] = []
    factions = sorted(set(before["factions"]) | set(after["factions"]))

    lost = {f: Counter({k: 0 for k in KINDS}) for f in factions}
    to_reserves = {f: Counter({k: 0 for k in KINDS}) for f in factions}
    placed = {f: Counter({k: 0 for k in KINDS}) for f in factions}
    placed_from_reserves = Counter({f: 0 for f in factions})
    for e in _events_of(events, "forces-lost"):
        lost[e["faction"]].update({k: int(e.get(k) or 0) for k in KINDS})
    for e in _events_of(events, "suboids-swapped"):
        # the Ixian swap: Suboids go to the Tanks, as many lost Cyborgs come back from them to the board
        lost[e["faction"]].update({"regular": int(e["count"]), "elite": -int(e["count"])})
    for e in _events_of(events, "forces-to-reserves"):
        to_reserves[e["faction"]].update({k: int(e.get(k) or 0) for k in KINDS})
    for e in _events_of(events, "forces-revived"):
        # a revival: forces leave the Tanks for the reserves, the board unchanged
        revived = {k: int(e.get(k) or 0) for k in KINDS}
        lost[e["faction"]].subtract(revived)
        to_reserves[e["faction"]].update(revived)
    from_reserves_lost = {f: Counter({k: 0 for k in KINDS}) for f in factions}
    for e in _events_of(events, "reserves-to-tanks"):
        # Reinforcements' cost: forces straight from the reserves to the Tanks, the board untouched
        from_reserves_lost[e["faction"]].update({k: int(e.get(k) or 0) for k in KINDS})
    for e in _events_of(events, "forces-placed"):
        placed[e["faction"]].update({"regular": int(e.get("regular") or 0), "elite": int(e.get("elite") or 0)})
        placed_from_reserves[e["faction"]] += int(e.get("from_reserves") or 0)
    for e in _events_of(events, "no-field-revealed"):
        # Richese's No-Field token revealed: the forces it stands for come from its reserves to the board
        placed_from_reserves[e["faction"]] += int(e["forces"])

    for f in factions:
        for k in KINDS:
            d_tanks = _pool(after, f, "tanks")[k] - _pool(before, f, "tanks")[k]
            d_reserves = _pool(after, f, "reserves")[k] - _pool(before, f, "reserves")[k]
            d_board = _board(after, f)[k] - _board(before, f)[k]
            from_res = placed_from_reserves[f] if k == "regular" else 0
            if d_tanks != lost[f][k] + from_reserves_lost[f][k]:
                problems.append(
                    f"{f} {k}: the Tanks changed by {d_tanks}, the forces-lost events say {lost[f][k]}"
                    f" (and {from_reserves_lost[f][k]} from the reserves)"
                )
            if d_reserves != to_reserves[f][k] - from_res - from_reserves_lost[f][k]:
                problems.append(
                    f"{f} {k}: reserves changed by {d_reserves}, the events say"
                    f" +{to_reserves[f][k]} back, -{from_res} placed from reserves"
                )
            # forces placed from the board only move: the board gains those placed from reserves
            expected_board = from_res - lost[f][k] - to_reserves[f][k]  # a revival cancels out here
            if d_board != expected_board:
                problems.append(f"{f} {k}: the board changed by {d_board}, the events say {expected_board}")
    for e in _events_of(events, "forces-placed"):
        where = (e["faction"], e["territory"], e.get("sector"))
        grew = _stack(after, *where) - _stack(before, *where)
        if grew != int(e.get("regular") or 0):
            problems.append(f"{where}: the stack grew by {grew}, the forces-placed event says {e.get('regular')}")

    battle = summary.get("battle") or {}
    if "forces_lost" in battle:
        reported = battle["forces_lost"] or {}
        for f in factions:
            for k in KINDS:
                said = int((reported.get(f) or {}).get(k) or 0)
                if said != lost[f][k]:
                    problems.append(f"summary.battle.forces_lost.{f}.{k} is {said}, the events say {lost[f][k]}")

    # spice
    gained = Counter({f: 0 for f in factions})
    paid_by = Counter({f: 0 for f in factions})
    for e in _events_of(events, "spice-paid"):
        if e.get("payee") in gained:
            gained[e["payee"]] += int(e["amount"])
        if e.get("payer") in paid_by:
            paid_by[e["payer"]] += int(e["amount"])
    for e in _events_of(events, "spice-collected"):
        gained[e["faction"]] += int(e["amount"])
    for f in factions:
        d_spice = _spice(after, f) - _spice(before, f)
        if d_spice != gained[f] - paid_by[f]:
            problems.append(f"{f} spice changed by {d_spice}, the events say +{gained[f]} -{paid_by[f]}")
    d_board_spice = _board_spice(after) - _board_spice(before)
    added = sum(int(e["amount"]) for e in _events_of(events, "spice-added"))
    destroyed = sum(int(e["amount"]) for e in _events_of(events, "spice-destroyed"))
    # spice a faction collects from a territory leaves the board
    destroyed += sum(int(e["amount"]) for e in _events_of(events, "spice-collected") if "territory" in e)
    if d_board_spice != added - destroyed:
        problems.append(f"the board's spice changed by {d_board_spice}, the events say +{added} -{destroyed}")
    if "spice_awarded" in battle:
        from_bank = Counter()
        for e in _events_of(events, "spice-paid"):
            if e.get("payer") == "bank":
                from_bank[e["payee"]] += int(e["amount"])
        awarded = Counter({f: int(n) for f, n in (battle["spice_awarded"] or {}).items() if n})
        if awarded != +from_bank:
            problems.append(f"summary.battle.spice_awarded is {dict(awarded)}, the bank paid {dict(from_bank)}")
    revival = summary.get("revival")
    if revival:
        revived = _events_of(events, "leader-revived")
        if [(e["faction"], e["leader"], e["paid"]) for e in revived] != [
            (revival["faction"], revival["leader"], revival["paid"])
        ]:
            problems.append(f"summary.revival {revival} does not match the leader-revived events {revived}")
        if paid_by[revival["faction"]] != revival["paid"]:
            problems.append(
                f"summary.revival.paid is {revival['paid']}, {revival['faction']} paid {paid_by[revival['faction']]}"
            )
    extortion = summary.get("extortion") or {}
    if extortion.get("paid_by"):
        payer = extortion["paid_by"]
        payments = [
            e for e in _events_of(events, "spice-paid") if e.get("payer") == payer and e.get("payee") == "moritani"
        ]
        if [e["amount"] for e in payments] != [3]:
            problems.append(f"summary.extortion.paid_by is {payer}, the events show payments {payments}")
    choam = summary.get("choam")
    if choam:
        if gained["choam"] - paid_by["choam"] != choam["spice"]:
            problems.append(
                f"summary.choam.spice is {choam['spice']}, CHOAM's events net {gained['choam'] - paid_by['choam']}"
            )
        if choam["spice"] != 3 * len(choam["cashed_in"]):
            problems.append(f"summary.choam.spice {choam['spice']} is not 3 per card of {choam['cashed_in']}")

    # leaders
    killed = [e["leader"] for e in _events_of(events, "leader-killed")]
    if "leaders_killed" in battle and sorted(k["leader"] for k in battle["leaders_killed"] or ()) != sorted(killed):
        problems.append(f"summary.battle.leaders_killed {battle['leaders_killed']} differs from the events {killed}")
    revealed = [e["leader"] for e in _events_of(events, "face-dancer-revealed")]
    revived_leaders = {e["leader"] for e in _events_of(events, "leader-revived")}
    newly_tanked = _tanked_leaders(after) - _tanked_leaders(before)
    # a Face Dancer revealed after its leader died in the battle is in the Tanks already
    if newly_tanked != set(killed) | (set(revealed) - _tanked_leaders(before)):
        problems.append(
            f"leaders newly in the Tanks {sorted(newly_tanked)}, the events killed {killed} and revealed {revealed}"
        )
    left_tanks = _tanked_leaders(before) - _tanked_leaders(after)
    if left_tanks != revived_leaders:
        problems.append(
            f"leaders that left the Tanks {sorted(left_tanks)}, the events revived {sorted(revived_leaders)}"
        )

    # cards
    discarded = Counter(e["card"] for e in _events_of(events, "card-discarded"))
    if revival and revival.get("ghola"):
        discarded[revival["ghola"]] += 1
    before_discard = Counter(before.get("discard") or ())
    after_discard = Counter(after.get("discard") or ())
    taken_events = _events_of(events, "card-taken")
    taken_from_discard = Counter(e["card"] for e in taken_events)
    discarded.update(e["spent"] for e in taken_events if e.get("spent"))  # the Semuta Drug spent to take it
    new_in_discard = after_discard - before_discard
    left_discard = before_discard - after_discard
    if new_in_discard != discarded:
        problems.append(f"cards new in the discard pile {dict(new_in_discard)}, the events discarded {dict(discarded)}")
    if left_discard != taken_from_discard:
        problems.append(
            f"cards that left the discard pile {dict(left_discard)}, the events took {dict(taken_from_discard)}"
        )
    gone = _card_places(before) - _card_places(after)
    for card, n in discarded.items():
        if gone[card] < n:
            problems.append(f"{card} is discarded but did not leave a hand or a plan")
    return problems


_RUNS = list(_runs())


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return _client()


def test_the_corpus_has_outcomes_to_check(client: FlaskClient) -> None:
    """The check below must not pass by finding nothing: most ruling fixtures resolve to an outcome."""
    with_outcome = 0
    kinds: set[str] = set()
    for _, scenario, variant in _RUNS:
        request = {k: v for k, v in (scenario.request_for(variant) or {}).items() if k != "viewer"}
        body = client.post("/v1/rulings", json=request).get_json()
        outcomes = _outcomes(body)
        with_outcome += bool(outcomes)
        for _, outcome in outcomes:
            kinds.update(e.get("type") for e in outcome.get("events") or ())
    assert with_outcome >= 150, with_outcome
    assert {"forces-lost", "spice-paid", "leader-killed", "card-discarded", "forces-to-reserves"} <= kinds


@pytest.mark.parametrize(("label", "scenario", "variant"), _RUNS, ids=[r[0] for r in _RUNS])
def test_summary_events_and_next_snapshot_agree(
    client: FlaskClient, label: str, scenario: Scenario, variant: Variant | None
) -> None:
    request = copy.deepcopy(dict(scenario.request_for(variant) or {}))
    request.pop("viewer", None)  # a viewer's next snapshot is redacted: check the referee's answer
    body = client.post("/v1/rulings", json=request).get_json()
    outcomes = _outcomes(body)
    if not outcomes:
        pytest.skip("no outcome with a next snapshot")
    problems = [f"{where}: {p}" for where, outcome in outcomes for p in _check(request["snapshot"], outcome)]
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_change_the_events_do_not_report(client: FlaskClient) -> None:
    """The check itself: an outcome altered one way or the other is caught."""
    scenario = next(s for s in load_scenarios() if s.id == "battle/both-leaders-die-winner-paid-for-both")
    request = dict(scenario.request or {})
    outcome = client.post("/v1/rulings", json=request).get_json()["outcome"]
    assert _check(request["snapshot"], outcome) == []

    silent_loss = copy.deepcopy(outcome)
    silent_loss["snapshot"]["factions"]["atreides"]["tanks"]["regular"] += 1
    silent_loss["snapshot"]["forces"][0]["regular"] -= 1
    assert any("atreides regular" in p for p in _check(request["snapshot"], silent_loss))

    unapplied = copy.deepcopy(outcome)
    unapplied["snapshot"]["factions"]["atreides"]["spice"] -= 8
    assert any("atreides spice" in p for p in _check(request["snapshot"], unapplied))

    no_event = copy.deepcopy(outcome)
    no_event["events"] = [e for e in no_event["events"] if e["type"] != "card-discarded"]
    assert any("discard" in p for p in _check(request["snapshot"], no_event))

    wrong_summary = copy.deepcopy(outcome)
    wrong_summary["summary"]["battle"]["leaders_killed"] = wrong_summary["summary"]["battle"]["leaders_killed"][:1]
    assert any("leaders_killed" in p for p in _check(request["snapshot"], wrong_summary))
