"""One battle driven end to end through HTTP, feeding each answer's snapshot and one of its options
back in: plans locked in turn, the battle resolved, the winner's cleanup answered."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask.testing import FlaskClient

from .conftest import base_snapshot


def _cards(snapshot: dict[str, Any]) -> Counter[str]:
    cards: Counter[str] = Counter(snapshot["discard"])
    for state in snapshot["factions"].values():
        cards.update(state["hand"])
    if snapshot["battle"]:
        for plan in snapshot["battle"]["plans"].values():
            cards.update(c for c in (plan["cheap_hero"], plan["weapon"], plan["defense"]) if c)
    return cards


def test_lock_lock_resolve_and_clean_up(client: FlaskClient) -> None:
    snapshot = base_snapshot("duel")
    snapshot["factions"]["atreides"]["hand"] = ["crysknife", "shield", "baliset"]
    snapshot["factions"]["harkonnen"]["hand"] = ["chaumas", "snooper"]
    snapshot["battle"]["plans"] = {}
    snapshot["battle"]["revealed"] = False
    snapshot["pending"] = {
        "type": "battle-plan",
        "player": "atreides",
        "territory": "arrakeen",
        "opponent": "harkonnen",
        "dial_max": 10,
        "spice_max": 0,
    }
    all_cards = _cards(snapshot)

    def rule(action: dict[str, Any]) -> dict[str, Any]:
        nonlocal snapshot
        answer = client.post("/v1/rulings", json={"snapshot": snapshot, "action": action}).get_json()
        assert answer["status"] == "resolved", answer["violations"]
        snapshot = answer["outcome"]["snapshot"]
        assert _cards(snapshot) == all_cards  # every card exactly once, at every step
        return answer

    options = client.post("/v1/options", json={"snapshot": snapshot}).get_json()["options"]
    choice = next(
        o for o in options if o["leader"] == "duncan-idaho" and o["weapon"] == "crysknife" and o["defense"] == "shield"
    )
    answer = rule({**choice, "dial": 5})
    assert answer["next"]["decision"]["player"] == "harkonnen"
    choice = next(
        o
        for o in answer["next"]["options"]
        if o["leader"] == "feyd-rautha" and o["weapon"] == "chaumas" and o["defense"] is None
    )
    answer = rule({**choice, "dial": 3})
    assert snapshot["battle"]["revealed"] is True and answer["next"]["decision"] is None

    answer = rule({"type": "resolve-battle"})
    battle = answer["outcome"]["summary"]["battle"]
    # Chaumas kills Duncan (the Shield does not stop poison), the Crysknife kills Feyd: 5 against 3.
    assert (battle["winner"], battle["totals"]) == ("atreides", {"atreides": 5, "harkonnen": 3})
    assert battle["spice_awarded"] == {"atreides": 8}
    spice_after_battle = snapshot["factions"]["atreides"]["spice"]

    keep = next(o for o in answer["next"]["options"] if o["cards"] == ["crysknife"])
    answer = rule(keep)
    assert snapshot["battle"] is None and snapshot["pending"] is None
    assert snapshot["factions"]["atreides"]["hand"] == ["baliset", "crysknife"]
    assert "shield" in snapshot["discard"]
    assert snapshot["factions"]["atreides"]["spice"] == spice_after_battle  # nothing paid twice

    repeat = client.post("/v1/rulings", json={"snapshot": snapshot, "action": {"type": "resolve-battle"}}).get_json()
    assert repeat["status"] == "illegal" and repeat["violations"][0]["code"] == "no-battle"


def test_moritani_retention_through_a_karama_cancellation(client: FlaskClient) -> None:
    """resolve-battle, the winner's card choice, the ally's retention, a Karama cancelling it, and the
    settlement: each answer's snapshot and one of its options fed back, every card kept exactly once."""
    snapshot = base_snapshot("moritani-duel")
    snapshot["battle"]["plans"]["atreides"].update({"weapon": "crysknife", "dial": 2})
    snapshot["battle"]["plans"]["harkonnen"].update({"weapon": "chaumas", "defense": "shield"})
    snapshot["factions"]["emperor"]["hand"] = ["karama"]
    all_cards = _cards(snapshot)

    def rule(action: dict[str, Any]) -> dict[str, Any]:
        nonlocal snapshot
        answer = client.post("/v1/rulings", json={"snapshot": snapshot, "action": action}).get_json()
        assert answer["status"] == "resolved", answer["violations"]
        snapshot = answer["outcome"]["snapshot"]
        assert _cards(snapshot) == all_cards
        return answer

    answer = rule({"type": "resolve-battle"})
    assert answer["outcome"]["summary"]["battle"]["winner"] == "harkonnen"
    assert answer["next"]["decision"]["type"] == "winner-cards"
    spice = {f: s["spice"] for f, s in snapshot["factions"].items()}

    answer = rule(next(o for o in answer["next"]["options"] if o["cards"] == ["chaumas", "shield"]))
    assert answer["next"]["decision"]["type"] == "moritani-retention"
    assert answer["next"]["decision"]["eligible"] == ["crysknife"]

    answer = rule(next(o for o in answer["next"]["options"] if o["card"] == "crysknife"))
    # every faction but Moritani is asked in storm order; the Emperor, holding a Karama, cancels
    while answer["next"]["decision"]["player"] != "emperor":
        decision = answer["next"]["decision"]
        assert decision["type"] == "moritani-retention-karama" and decision["player"] != "moritani"
        assert answer["next"]["options"] == [{"type": "karama-pass", "player": decision["player"]}]
        answer = rule(answer["next"]["options"][0])
    answer = rule(next(o for o in answer["next"]["options"] if o["type"] == "karama-cancel"))
    assert answer["next"]["decision"] is None and snapshot["battle"] is None
    assert snapshot["discard"].count("karama") == 1 and "crysknife" in snapshot["discard"]
    assert snapshot["factions"]["harkonnen"]["hand"] == ["chaumas", "shield"]
    assert {f: s["spice"] for f, s in snapshot["factions"].items()} == spice  # nothing paid again

    stale = client.post(
        "/v1/rulings", json={"snapshot": snapshot, "action": {"type": "karama-pass", "player": "emperor"}}
    ).get_json()
    assert stale["status"] == "illegal" and stale["violations"][0]["code"] == "no-such-decision"


def test_capture_resumes_after_the_retention_without_repeats(client: FlaskClient) -> None:
    """An advanced Harkonnen win over Moritani's ally: the retention comes first, then the capture drawn
    when the battle resolved; no payment, loss or draw happens twice on the way."""
    snapshot = base_snapshot("moritani-duel")
    snapshot["ruleset"]["advanced"] = True
    snapshot["battle"]["plans"]["atreides"].update({"weapon": "baliset", "defense": "shield"})
    answer = client.post("/v1/rulings", json={"snapshot": snapshot, "action": {"type": "resolve-battle"}}).get_json()
    resolved = answer["outcome"]["snapshot"]
    drawn = resolved["battle"]["resolution"]["capture"]
    assert answer["next"]["decision"]["type"] == "moritani-retention" and drawn is not None

    answer = client.post("/v1/rulings", json={"snapshot": resolved, "action": answer["next"]["options"][-1]}).get_json()
    after = answer["outcome"]["snapshot"]
    assert answer["next"]["decision"] == {
        "type": "harkonnen-capture",
        "player": "harkonnen",
        "territory": "arrakeen",
        "leader": drawn,
        "owner": "atreides",
    }
    for faction in after["factions"]:
        assert after["factions"][faction]["spice"] == resolved["factions"][faction]["spice"]
        assert after["factions"][faction]["tanks"] == resolved["factions"][faction]["tanks"]
    assert after["forces"] == resolved["forces"]
    assert sorted(after["discard"]) == sorted(["baliset", "shield"])


def _forces(snapshot: dict[str, Any]) -> Counter[str]:
    """Every faction's forces wherever they are: reserves, Tanks and the board."""
    total: Counter[str] = Counter()
    for fid, state in snapshot["factions"].items():
        total[fid] += sum(state["reserves"].values()) + sum(state["tanks"].values())
    for stack in snapshot["forces"]:
        total[stack["faction"]] += stack["regular"] + stack["elite"]
    return total


def test_face_dancer_resumes_after_retention_karama_and_capture(client: FlaskClient) -> None:
    """An advanced Harkonnen win over Moritani's ally with a Face Dancer as the winning leader: the
    retention, its Karama cancellation, the capture and then the Face Dancer follow one another, and no
    payment, loss, draw or card moves twice on the way."""
    snapshot = base_snapshot("moritani-duel")
    snapshot["ruleset"]["advanced"] = True
    snapshot["storm_order"].append("tleilaxu")
    snapshot["factions"]["emperor"]["hand"] = ["karama"]
    snapshot["factions"]["tleilaxu"] = {
        "spice": 5,
        "reserves": {"regular": 20, "elite": 0},
        "tanks": {"regular": 0, "elite": 0},
        "hand": [],
        "traitors": [],
        "leaders": {},
        "ally": None,
        "face_dancers": ["feyd-rautha", "lady-jessica", "hasimir-fenring"],
    }
    snapshot["battle"]["plans"]["atreides"].update({"weapon": "baliset", "defense": "shield"})
    cards = _cards(snapshot)
    forces = _forces(snapshot)

    def step(current: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = client.post("/v1/rulings", json={"snapshot": current, "action": action}).get_json()
        assert answer["status"] == "resolved", answer.get("violations")
        following = answer["outcome"]["snapshot"]
        assert _cards(following) == cards  # every card is somewhere, once
        assert _forces(following) == forces  # forces move, none appear or vanish
        return answer

    answer = step(snapshot, {"type": "resolve-battle"})
    resolved = answer["outcome"]["snapshot"]
    steps = resolved["battle"]["resolution"]["steps"]
    assert steps == ["moritani-retention", "harkonnen-capture", "face-dancer-reveal"]
    drawn = resolved["battle"]["resolution"]["capture"]
    spice_after_battle = {f: s["spice"] for f, s in resolved["factions"].items()}

    declare = next(o for o in answer["next"]["options"] if o.get("card") == "shield")
    answer = step(resolved, declare)
    while answer["next"]["decision"]["player"] != "emperor":  # asked in storm order; the Emperor cancels
        assert answer["next"]["decision"]["type"] == "moritani-retention-karama"
        answer = step(answer["outcome"]["snapshot"], answer["next"]["options"][0])
    cancel = next(o for o in answer["next"]["options"] if o["type"] == "karama-cancel")
    answer = step(answer["outcome"]["snapshot"], cancel)
    settled = answer["outcome"]["snapshot"]
    assert answer["next"]["decision"]["type"] == "harkonnen-capture"
    assert answer["next"]["decision"]["leader"] == drawn  # the draw made at resolution, not a new one
    assert {"baliset", "shield", "karama"} <= set(settled["discard"])

    answer = step(settled, {"type": "capture-leader", "player": "harkonnen", "leader": drawn, "choice": "keep"})
    captured = answer["outcome"]["snapshot"]
    assert answer["next"]["decision"] == {
        "type": "face-dancer-reveal",
        "player": "tleilaxu",
        "territory": "arrakeen",
        "winner": "harkonnen",
        "leader": "feyd-rautha",
        "forces": sum(s["regular"] for s in captured["forces"] if s["faction"] == "harkonnen"),
    }
    assert {f: s["spice"] for f, s in captured["factions"].items()} == spice_after_battle
    assert captured["forces"] == settled["forces"] and captured["discard"] == settled["discard"]

    reveal = answer["next"]["options"][0]
    answer = step(captured, reveal)
    final = answer["outcome"]["snapshot"]
    assert final["battle"] is None and final["pending"] is None
    assert {f: s["spice"] for f, s in final["factions"].items()} == spice_after_battle  # nobody paid again
    assert final["factions"]["harkonnen"]["leaders"]["feyd-rautha"] == {"status": "tanks"}
    assert final["factions"]["atreides"]["leaders"][drawn]["status"] == "captured"
    assert [e["type"] for e in answer["outcome"]["events"]] == [
        "face-dancer-revealed",
        "leader-killed",
        "forces-to-reserves",
        "forces-placed",
    ]


def test_rihani_waits_through_casualties_and_winner_cleanup(client: FlaskClient) -> None:
    """An Emperor Rihani win with a casualty choice and cards to keep: the inspection happens once at
    resolution, the Traitor deck keeps its order through the casualties and the card choice, and the
    exchange then draws its top two cards."""
    snapshot = base_snapshot("skills-duel")
    snapshot["factions"]["emperor"]["leaders"] = {
        "hasimir-fenring": {"status": "available", "skill": "rihani-decipherer", "skill_face_up": False}
    }
    snapshot["factions"]["emperor"]["reserves"] = {"regular": 10, "elite": 2}
    snapshot["forces"] = [
        {"faction": "atreides", "territory": "arrakeen", "sector": 9, "regular": 10, "elite": 0},
        {"faction": "emperor", "territory": "arrakeen", "sector": 9, "regular": 5, "elite": 3},
    ]
    snapshot["storm_order"] = ["atreides", "emperor", "harkonnen"]
    snapshot["battle"]["defender"] = "emperor"
    del snapshot["battle"]["plans"]["harkonnen"]
    snapshot["battle"]["plans"]["emperor"] = {
        "leader": "hasimir-fenring",
        "cheap_hero": None,
        "dial": 3,
        "weapon": "crysknife",
        "defense": "shield",
        "spice": 0,
        "kwisatz_haderach": False,
    }
    cards = _cards(snapshot)

    def step(current: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = client.post("/v1/rulings", json={"snapshot": current, "action": action}).get_json()
        assert answer["status"] == "resolved", answer.get("violations")
        assert _cards(answer["outcome"]["snapshot"]) == cards
        return answer

    answer = step(snapshot, {"type": "resolve-battle"})
    resolved = answer["outcome"]["snapshot"]
    assert resolved["battle"]["resolution"]["steps"] == ["battle-casualties", "winner-cards", "rihani-draw-offer"]
    assert [e["type"] for e in answer["outcome"]["events"]].count("traitor-deck-inspected") == 1
    deck = resolved["traitor_deck"]

    answer = step(resolved, answer["next"]["options"][0])  # casualties
    assert answer["outcome"]["snapshot"]["traitor_deck"] == deck
    answer = step(answer["outcome"]["snapshot"], answer["next"]["options"][0])  # the cards it keeps
    after_cleanup = answer["outcome"]["snapshot"]
    assert after_cleanup["traitor_deck"] == deck
    assert answer["next"]["decision"]["type"] == "rihani-draw-offer"
    assert "traitor-deck-inspected" not in [e["type"] for e in answer["outcome"]["events"]]

    answer = step(after_cleanup, {"type": "rihani-draw", "player": "emperor"})
    assert answer["next"]["decision"]["drawn"] == deck[:2]
    keep = answer["next"]["options"][0]
    answer = step(answer["outcome"]["snapshot"], keep)
    final = answer["outcome"]["snapshot"]
    assert final["battle"] is None
    assert keep["new_card"] in final["factions"]["emperor"]["traitors"]
    assert sorted(final["traitor_deck"]) == sorted(
        [*deck[2:], keep["old_card"], deck[1 - deck.index(keep["new_card"])]]
    )


def test_tleilaxu_rihani_exchanges_a_face_dancer(client: FlaskClient) -> None:
    """A Tleilaxu Rihani keeps a drawn card as a Face Dancer in place of an unrevealed one."""
    snapshot = base_snapshot("skills-duel")
    snapshot["storm_order"].append("tleilaxu")
    snapshot["factions"]["tleilaxu"] = {
        "spice": 5,
        "reserves": {"regular": 12, "elite": 0},
        "tanks": {"regular": 0, "elite": 0},
        "hand": [],
        "traitors": [],
        "leaders": {"hidar-fen-ajidica": {"status": "available", "skill": "rihani-decipherer", "skill_face_up": False}},
        "ally": None,
        "face_dancers": ["thufir-hawat", "feyd-rautha", "master-zaaf"],
    }
    snapshot["forces"] = [
        {"faction": "atreides", "territory": "arrakeen", "sector": 9, "regular": 10, "elite": 0},
        {"faction": "tleilaxu", "territory": "arrakeen", "sector": 9, "regular": 8, "elite": 0},
        {"faction": "harkonnen", "territory": "carthag", "sector": 10, "regular": 8, "elite": 0},
    ]
    snapshot["battle"]["defender"] = "tleilaxu"
    plan = snapshot["battle"]["plans"].pop("harkonnen")
    snapshot["battle"]["plans"]["tleilaxu"] = {**plan, "leader": "hidar-fen-ajidica", "dial": 6}

    def rule(current: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = client.post("/v1/rulings", json={"snapshot": current, "action": action}).get_json()
        assert answer["status"] == "resolved", answer.get("violations")
        return answer

    answer = rule(snapshot, {"type": "resolve-battle"})
    answer = rule(answer["outcome"]["snapshot"], {"type": "rihani-draw", "player": "tleilaxu"})
    drawn = answer["next"]["decision"]["drawn"]
    answer = rule(
        answer["outcome"]["snapshot"],
        {"type": "rihani-keep", "player": "tleilaxu", "new_card": drawn[0], "old_card": "feyd-rautha"},
    )
    tleilaxu = answer["outcome"]["snapshot"]["factions"]["tleilaxu"]
    assert tleilaxu["face_dancers"] == ["thufir-hawat", drawn[0], "master-zaaf"]
    assert tleilaxu["traitors"] == []
    assert "feyd-rautha" in answer["outcome"]["snapshot"]["traitor_deck"]


WINDOW = {"face-dancer-karama": "window-after-reveal"}
REVEAL = {"type": "reveal-face-dancer", "player": "tleilaxu", "leader": "feyd-rautha", "sector": 9, "from_reserves": 5}


def _ruled(
    client: FlaskClient, snapshot: dict[str, Any], action: dict[str, Any], interpretations: dict[str, str] | None = None
) -> dict[str, Any]:
    body = {"snapshot": snapshot, "action": action, "interpretations": interpretations or {}}
    answer: dict[str, Any] = client.post("/v1/rulings", json=body).get_json()
    assert answer["status"] == "resolved", answer.get("violations")
    return answer


def test_a_face_dancer_a_karama_saved_is_revealed_after_a_later_battle(client: FlaskClient) -> None:
    """The Harkonnen stop the reveal of Feyd-Rautha with a Karama; next turn Feyd-Rautha wins another
    battle and is revealed then, as the Face Dancer he still is."""
    snapshot = base_snapshot("face-dancer-pending")
    snapshot["factions"]["harkonnen"]["hand"] = ["karama"]
    cards, forces = _cards(snapshot), _forces(snapshot)
    answer = _ruled(client, snapshot, REVEAL, WINDOW)
    assert answer["next"]["decision"]["player"] == "atreides"
    answer = _ruled(client, answer["outcome"]["snapshot"], {"type": "karama-pass", "player": "atreides"})
    cancel = {"type": "karama-cancel", "player": "harkonnen", "card": "karama"}
    assert cancel in answer["next"]["options"]
    answer = _ruled(client, answer["outcome"]["snapshot"], cancel)
    after = answer["outcome"]["snapshot"]
    assert after["battle"] is None and after["pending"] is None
    assert _cards(after) == cards and _forces(after) == forces
    assert after["forces"] == snapshot["forces"]
    tleilaxu = after["factions"]["tleilaxu"]
    assert tleilaxu["face_dancers"] == ["feyd-rautha", "hasimir-fenring", "thufir-hawat"]  # still hidden among them
    assert tleilaxu["revealed_face_dancers"] == [] and tleilaxu["reserves"] == {"regular": 14, "elite": 0}

    # a later turn: the same leader wins again, and the Tleilaxu are offered his reveal
    later = base_snapshot("face-dancer-duel")
    later["turn"] = after["turn"] + 1
    later["discard"] = after["discard"]
    later["factions"]["tleilaxu"] = after["factions"]["tleilaxu"]
    answer = _ruled(client, later, {"type": "resolve-battle"})
    assert answer["next"]["decision"]["type"] == "face-dancer-reveal"
    reveal = next(o for o in answer["next"]["options"] if o["type"] == "reveal-face-dancer")
    assert reveal["leader"] == "feyd-rautha"
    answer = _ruled(client, answer["outcome"]["snapshot"], reveal)
    assert answer["outcome"]["snapshot"]["factions"]["tleilaxu"]["revealed_face_dancers"] == ["feyd-rautha"]


def test_the_bounty_returned_is_what_the_battle_paid_for_the_face_dancer(client: FlaskClient) -> None:
    """Under bounty-returned the winner pays back what the resolution paid for its own leader: 6 for a
    Feyd-Rautha killed by a Crysknife, nothing for one an Artillery Strike killed; with a Karama window
    on the reveal, once it closes."""
    returned = {"face-dancer-earlier-bounty": "bounty-returned"}
    for weapon, dial, paid in (("crysknife", 2, 6), ("artillery-strike", 5, 0)):
        for readings in (returned, {**returned, **WINDOW}):
            snapshot = base_snapshot("face-dancer-duel")
            snapshot["battle"]["plans"]["atreides"].update({"weapon": weapon, "dial": dial})
            snapshot["battle"]["plans"]["harkonnen"]["dial"] = 6
            answer = _ruled(client, snapshot, {"type": "resolve-battle"})
            resolved = answer["outcome"]["snapshot"]
            assert resolved["factions"]["harkonnen"]["spice"] == 10 + paid
            assert resolved["battle"]["resolution"].get("own_leader_bounty") == (paid or None)
            reveal = {**REVEAL, "from_reserves": 2}  # the Harkonnen lost 6 of their 8 forces
            answer = _ruled(client, resolved, reveal, readings)
            while answer["next"]["decision"] is not None:  # every faction asked passes
                assert answer["next"]["decision"]["type"] == "face-dancer-karama"
                answer = _ruled(client, answer["outcome"]["snapshot"], answer["next"]["options"][-1], readings)
            final = answer["outcome"]["snapshot"]
            assert final["factions"]["harkonnen"]["spice"] == 10, (weapon, readings)
            assert answer["outcome"]["summary"]["battle"]["face_dancer"]["bounty_returned"] == paid


def test_a_storm_side_reveal_waits_on_its_window_with_its_reading(client: FlaskClient) -> None:
    """After a battle on one side of the storm, the reveal a Karama window waits on replaces only the
    battle side's forces once the window closes, as the reading kept on the resolution says."""
    snapshot = base_snapshot("face-dancer-storm-side-pending")
    reveal = {**REVEAL, "sector": 8}
    answer = _ruled(client, snapshot, reveal, WINDOW)
    while answer["next"]["decision"] is not None:
        answer = _ruled(client, answer["outcome"]["snapshot"], answer["next"]["options"][-1])
    final = answer["outcome"]["snapshot"]
    assert final["forces"] == [
        {"faction": "harkonnen", "territory": "imperial-basin", "sector": 10, "regular": 2, "elite": 0},
        {"faction": "tleilaxu", "territory": "tueks-sietch", "sector": 4, "regular": 4, "elite": 0},
        {"faction": "tleilaxu", "territory": "false-wall-south", "sector": 3, "regular": 2, "elite": 0},
        {"faction": "tleilaxu", "territory": "imperial-basin", "sector": 8, "regular": 5, "elite": 0},
    ]
