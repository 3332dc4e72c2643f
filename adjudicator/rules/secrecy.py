"""Hidden information: what one viewer may see of a snapshot."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Decision, Snapshot
from adjudicator.core.tracing import rule


@rule("secrecy.hands-and-traitors")
def redact_hands_and_traitors(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    for fid, faction in wire["factions"].items():
        hand, traitors = faction["hand"], faction["traitors"]
        faction["hand_count"] = len(hand)
        faction["traitor_count"] = len(traitors)
        if fid != viewer:
            faction["hand"] = None
            faction["traitors"] = None
            redacted.append(f"/snapshot/factions/{fid}/hand")
            redacted.append(f"/snapshot/factions/{fid}/traitors")


@rule("secrecy.spice")
def spice_hidden(holder: str | None, viewer: str | None) -> bool:
    return holder != viewer


def redact_spice(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    for fid, faction in wire["factions"].items():
        if spice_hidden(fid, viewer):
            faction["spice"] = None
            redacted.append(f"/snapshot/factions/{fid}/spice")


@rule("secrecy.traitor-deck")
def redact_traitor_deck(wire: dict[str, Any], redacted: list[str]) -> None:
    wire["traitor_deck_count"] = len(wire["traitor_deck"])
    wire["traitor_deck"] = None
    redacted.append("/snapshot/traitor_deck")


@rule("secrecy.face-dancers")
def redact_face_dancers(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    for fid, faction in wire["factions"].items():
        if "face_dancers" in faction:
            faction["face_dancer_count"] = len(faction["face_dancers"])
            if fid != viewer:
                faction["face_dancers"] = None
                redacted.append(f"/snapshot/factions/{fid}/face_dancers")


@rule("secrecy.terror")
def redact_terror(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    if viewer == "moritani":
        return
    terror = wire["terror"]
    terror["supply_count"] = len(terror["supply"])
    terror["supply"] = None
    redacted.append("/snapshot/terror/supply")
    for i, token in enumerate(terror["placed"]):
        token["kind"] = None
        redacted.append(f"/snapshot/terror/placed/{i}/kind")


@rule("secrecy.no-field")
def redact_no_field(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    if viewer != "richese":
        wire["no_field"]["forces"] = None
        redacted.append("/snapshot/no_field/forces")


@rule("secrecy.face-down-skills")
def redact_face_down_skills(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    for fid, faction in wire["factions"].items():
        if fid == viewer:
            continue
        for lid, leader in faction["leaders"].items():
            if "skill" in leader and leader.get("skill_face_up") is False:
                leader["skill"] = None
                redacted.append(f"/snapshot/factions/{fid}/leaders/{lid}/skill")


@rule("secrecy.battle-plans")
def redact_unrevealed_plans(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    battle = wire["battle"]
    seen = battle.get("plan_seen")
    for fid in list(battle["plans"]):
        if fid != viewer and not (seen is not None and plan_seen_by(seen, fid, viewer)):
            battle["plans"][fid] = None
            redacted.append(f"/snapshot/battle/plans/{fid}")
        elif fid != viewer and seen.get("dial_hidden"):
            redact_seen_dial(battle["plans"][fid], fid, redacted)


def redact_seen_dial(plan: dict[str, Any], fid: str, redacted: list[str]) -> None:
    """A plan the special Karama sees with its dial hidden (rule richese.no-field.see-plan-dial)."""
    for key in ("dial", "spice", "ally_spice"):
        if key in plan:
            plan[key] = None
            redacted.append(f"/snapshot/battle/plans/{fid}/{key}")


@rule("secrecy.plan-seen")
def plan_seen_by(seen: dict[str, Any], fid: str, viewer: str | None) -> bool:
    return viewer is not None and seen["player"] == viewer and seen["target"] == fid


def needs_plan_secrecy(snapshot: Snapshot, viewer: str | None) -> bool:
    battle = snapshot.battle
    return battle is not None and not battle.revealed and any(fid != viewer for fid in battle.plans)


# decision type -> the keys that name cards in the deciding faction's hand
_PRIVATE_DECISION_KEYS = {
    "moritani-retention-karama": ("eligible",),
    "duke-vidal-karama": ("eligible",),
    "moritani-special-karama": ("karama",),
    "moritani-assassination": ("eligible",),
    "semuta-opportunity": ("card",),
    # the decision itself is public; its options show whether the winner's leader is a Face Dancer
    "face-dancer-reveal": (),
    "face-dancer-karama": ("eligible",),
    "rihani-draw-offer": ("eligible",),
    # the options show Moritani's hidden supply
    "terror-placement": (),
    "rihani-exchange": ("drawn", "eligible"),
    # after-draw reading of auditor-payment-timing: the cards drawn from the payer's hand
    "audit-payment": ("drawn",),
    "battle-karama": ("eligible",),
    "pre-battle-cards": ("eligible",),
    "sapho-order": ("eligible",),
    "gift-karama": ("eligible",),
    # the decision itself is public; its options show the asked side's hand and leaders
    "prescience-answer": (),
    # the decision itself is public; its options show whether the asked side holds the named weapon
    "mentat-answer": (),
    # the decision itself is public; asked of a locked plan, its one option shows the plan's answer
    "truthtrance-answer": (),
}

# decision type -> the keys that show how much spice the deciding faction holds (secrecy.spice)
_SPICE_DECISION_KEYS = {
    # the highest dial and support count the spice it can pay; its options name cards in its hand
    "battle-plan": ("dial_max", "spice_max"),
    # the options show whether the payer holds 3 spice
    "extortion-payment": (),
    # the options show how much of the Auditor's inspection the asked faction can pay to prevent
    "audit-payment": (),
}


def decision_is_private(decision: dict[str, Any] | None, viewer: str | None) -> bool:
    return (
        decision is not None
        and decision.get("player") != viewer
        and (decision.get("type") in _PRIVATE_DECISION_KEYS or decision.get("type") in _SPICE_DECISION_KEYS)
    )


# actions whose legality shows what the acting faction holds in secret: which Terror token lies where;
# whether a reviver holds the spice (or the Ghola card) its revival needs; whether CHOAM holds the
# Karama card and the cards it names for its cash-in; whether the Atreides hold a Karama for their special
# Karama, or a player a Truthtrance; whether the Emperor holds the spice it gives its ally
HIDDEN_LEGALITY = frozenset(
    {"choam-cash-in", "reveal-extortion", "revive-leader", "karama-see-plan", "play-truthtrance", "give-spice"}
)
_SPICE_LEGALITY = frozenset({"revive-leader", "give-spice"})


@rule("secrecy.private-answers")
def private_answer_violations(
    pending: Decision | None, player: str | None, viewer: str | None, action_type: str = ""
) -> list[Violation]:
    if viewer is None or player is None or player == viewer:
        return []
    hidden_action = action_type in HIDDEN_LEGALITY
    if not hidden_action and (pending is None or pending.player != player):
        return []
    if not hidden_action and pending is not None and not decision_is_private(pending.to_dict(), viewer):
        return []
    if action_type in _SPICE_LEGALITY or (
        not hidden_action and pending is not None and pending.type in _SPICE_DECISION_KEYS
    ):
        spice_hidden(player, viewer)
    what = (
        f"whether {player} may do this shows what it holds"
        if hidden_action
        else f"this answers {player}'s private decision"
    )
    return [
        Violation(
            "hidden-from-viewer",
            f"{what}: only {player}, or a referee with no viewer, can have it ruled",
            "/viewer",
            "secrecy.private-answers",
        )
    ]


def open_acts(snapshot: Snapshot, battle: Battle, viewer: str | None) -> list[str]:
    """The factions other than the viewer whose revealed support spice (a side's, or its ally's share of
    it), Spice Banker spice, Traitor call, Portable Snooper added after the reveal or Ecaz special Karama
    card the battle's checks compare with what they hold."""
    if viewer is None:
        return []
    paying = [
        f
        for f in (battle.aggressor, battle.defender)
        if f != viewer and f in battle.plans and (battle.plans[f].spice or battle.plans[f].banker_spice)
    ]
    for side, plan in battle.plans.items():
        ally = snapshot.factions[side].ally if side in snapshot.factions else None
        if plan.ally_spice and ally is not None and ally != viewer and ally not in paying:
            paying.append(ally)  # an ally paying its share of the support pays in the open too
    calls = [f for f in battle.traitor_calls if f != viewer and f not in paying]
    shown = [f for f in battle.portable_snooper if f != viewer and f not in paying and f not in calls]
    ecaz_plan = battle.plans.get("ecaz")
    committed = battle.revealed and ecaz_plan is not None and ecaz_plan.special_karama is not None
    if (battle.ecaz_karama is not None or committed) and viewer != "ecaz" and "ecaz" not in (*paying, *calls, *shown):
        shown.append("ecaz")  # Ecaz's special Karama card is played in the open after the reveal
    return [*paying, *calls, *shown]


def hand_read_by(faction: str, viewer: str | None) -> bool:
    """Whether a ruling for `viewer` may read `faction`'s hand: its own, or any with no viewer."""
    return viewer is None or viewer == faction


@rule("secrecy.locked-plan-hands")
def hand_checked_at_lock() -> None:
    pass


@rule("secrecy.public-acts")
def public_acts(factions: list[str]) -> list[str]:
    return factions


@rule("secrecy.decisions")
def redact_decision(decision: dict[str, Any], viewer: str | None, where: str, redacted: list[str]) -> dict[str, Any]:
    kind = str(decision.get("type"))
    hidden = _PRIVATE_DECISION_KEYS.get(kind, ())
    if kind in _SPICE_DECISION_KEYS and spice_hidden(decision.get("player"), viewer):
        hidden = (*hidden, *_SPICE_DECISION_KEYS[kind])
    for key in hidden:
        if key in decision:
            redacted.append(f"{where}/{key}")
    return resumed_for({k: v for k, v in decision.items() if k not in hidden}, viewer, where, redacted)


def resumed_for(decision: dict[str, Any], viewer: str | None, where: str, redacted: list[str]) -> dict[str, Any]:
    """A Karama window on the Emperor's gift with the decision it interrupted (`resumes`) as `viewer` may
    see it: that decision keeps its own secrets, whoever the window asks."""
    resumed = decision.get("resumes")
    if (
        decision.get("type") != "gift-karama"
        or not isinstance(resumed, dict)
        or not decision_is_private(resumed, viewer)
    ):
        return decision
    return {**decision, "resumes": redact_decision(resumed, viewer, f"{where}/resumes", redacted)}


# question prescience-ally-owner-sees: in the ally's battle the answer is the ally's alone
OWNER_SEES_QUESTION = "prescience-ally-owner-sees"
ALLY_ONLY = "ally-only"


def answer_kept_from_owner(readings: Mapping[str, str], owner: str, aggressor: str, defender: str) -> bool:
    """Whether a Prescience answer is kept from the Atreides who asked it: recorded ally-only, and they
    are no side of the battle (their ally's)."""
    return readings.get(OWNER_SEES_QUESTION) == ALLY_ONLY and owner not in (aggressor, defender)


@rule("secrecy.prescience-answer")
def redact_prescience_answer(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    battle = wire["battle"]
    record = battle["prescience"]
    facing = battle["defender"] if record["target"] == battle["aggressor"] else battle["aggressor"]
    readings = record.get("readings") or {}
    if readings.get("prescience-visibility") == "public":
        return
    seeing = [record["target"], facing]
    if not answer_kept_from_owner(readings, record["player"], battle["aggressor"], battle["defender"]):
        seeing.append(record["player"])
    if viewer not in seeing:
        if record["answer"] is not None:
            record["answer"] = None
            redacted.append("/snapshot/battle/prescience/answer")
        if record.get("earlier") is not None:
            record["earlier"] = None
            redacted.append("/snapshot/battle/prescience/earlier")


@rule("secrecy.mentat-shown")
def redact_mentat_shown(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    for i, asked in enumerate(wire["battle"]["mentat"]):
        if "shown" in asked and viewer not in (asked["player"], asked["target"]):
            asked["shown"] = None
            redacted.append(f"/snapshot/battle/mentat/{i}/shown")


@rule("secrecy.rihani")
def redact_rihani(wire: dict[str, Any], viewer: str | None, redacted: list[str]) -> None:
    record = wire["battle"]["resolution"]["rihani"]
    if record["player"] != viewer:
        for key in ("drawn", "eligible"):
            record[key] = None
            redacted.append(f"/snapshot/battle/resolution/rihani/{key}")


@rule("secrecy.private-events")
def redact_event(event: dict[str, Any], viewer: str) -> dict[str, Any]:
    if viewer in event.get("visible_to", (viewer,)):
        return event
    kept = {k: v for k, v in event.items() if k in ("type", "rule", "faction", "visible_to", "count")}
    return {**kept, "redacted": True}


def needs_skill_secrecy(snapshot: Snapshot, viewer: str | None) -> bool:
    return any(
        state.skill is not None and state.skill_face_up is False
        for fid, faction in snapshot.factions.items()
        if fid != viewer
        for state in faction.leaders.values()
    )


def redact(snapshot: Snapshot, viewer: str | None) -> tuple[dict[str, Any], list[str]]:
    """The wire form of the snapshot as `viewer` may see it (`None`: a spectator who sees no hidden card)."""
    wire = snapshot.to_dict()
    # The seed decides every future draw, so knowing it would reveal undrawn cards.
    wire["seed"] = None
    redacted: list[str] = ["/snapshot/seed"]
    redact_hands_and_traitors(wire, viewer, redacted)
    redact_spice(wire, viewer, redacted)
    if wire.get("traitor_deck") is not None:
        redact_traitor_deck(wire, redacted)
    face_dancers = snapshot.traitor_deck is not None or any(f.face_dancers for f in snapshot.factions.values())
    if face_dancers and any("face_dancers" in faction for faction in wire["factions"].values()):
        redact_face_dancers(wire, viewer, redacted)
    if snapshot.terror is not None:
        redact_terror(wire, viewer, redacted)
    if snapshot.no_field is not None:
        redact_no_field(wire, viewer, redacted)
    if needs_skill_secrecy(snapshot, viewer):
        redact_face_down_skills(wire, viewer, redacted)
    if needs_plan_secrecy(snapshot, viewer):
        redact_unrevealed_plans(wire, viewer, redacted)
    battle = wire.get("battle") or {}
    if (battle.get("prescience") or {}).get("answer") is not None or (battle.get("prescience") or {}).get("earlier"):
        redact_prescience_answer(wire, viewer, redacted)
    if any("shown" in asked for asked in battle.get("mentat") or ()):
        redact_mentat_shown(wire, viewer, redacted)
    if (battle.get("resolution") or {}).get("rihani") is not None:
        redact_rihani(wire, viewer, redacted)
    if decision_is_private(wire.get("pending"), viewer):
        wire["pending"] = redact_decision(wire["pending"], viewer, "/snapshot/pending", redacted)
    elif wire.get("pending") is not None:
        wire["pending"] = resumed_for(wire["pending"], viewer, "/snapshot/pending", redacted)
    return wire, redacted


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule(implements={OWNER_SEES_QUESTION: ("atreides-see", ALLY_ONLY)})
