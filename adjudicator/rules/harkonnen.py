"""Advanced Harkonnen capture (base rulebook p.17).

After winning a battle in the advanced game, the Harkonnen draw one of the loser's leaders at random
(from those not used in another territory, the battle's surviving leader included) and either kill it
for 2 spice or keep it as a captive. The draw happens once, when the battle resolves, from the
snapshot's seed, and is stored in the battle's resolution so that a reload never draws again.

Duke Vidal, used by the loser and surviving, is in the draw or not according to the register's
question duke-harkonnen-capture (his one-battle tenure may end before the draw or after it); the
resolution records `duke_in_capture_pool` so the draw can be checked again on reload.
"""

from __future__ import annotations

import random
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import DUKE, HARKONNEN, ActionType, DecisionType, FactionId, LeaderStatus
from adjudicator.rules.state import NextSnapshot, duke_dies, finish

KILL_PAYMENT = 2


DUKE_CAPTURE_QUESTION = "duke-harkonnen-capture"


@rule("duke-vidal.capture.pool-order")
def duke_in_capture_pool(choice: str) -> bool:
    """Whether a surviving Duke Vidal, used by the loser, is among the leaders the Harkonnen draw from
    follows the chosen answer to question duke-harkonnen-capture (his tenure may end first)."""
    return choice == "capture-pool-first"


@rule("duke-vidal.capture.unused")
def unused_duke_in_pool(choice: str) -> bool:
    """Whether a Duke Vidal the loser holds but did not play is among the leaders the Harkonnen draw from
    follows the chosen answer to question duke-unused-capture-pool."""
    return choice == "in-pool"


def capture_pool(wire: dict[str, Any], loser: str, territory: str, with_duke: bool = False) -> list[str]:
    """The loser's leaders Harkonnen may draw: alive, not captive, not used in another territory, and
    Duke Vidal last when he is in the draw. (While the capture decision is open the pool is
    unchanged, so the draw can be checked again.)"""
    state = wire["factions"][loser]
    pool = []
    for leader in catalog().leaders_of(loser):
        entry = state["leaders"].get(leader.id)
        if leader.id == "auditor":
            continue  # the Auditor can never be captured
        free = entry is None or entry["status"] == LeaderStatus.AVAILABLE.value
        if free or (entry["status"] == LeaderStatus.USED.value and entry.get("territory") == territory):
            pool.append(leader.id)
    if with_duke:
        pool.append(DUKE)
    return pool


def draw_from(pool: list[str], seed: int, turn: int, territory: str) -> str | None:
    if not pool:
        return None
    return pool[random.Random(f"{seed}:{turn}:{territory}:harkonnen-capture").randrange(len(pool))]


@rule("harkonnen.capture.draw")
def draw_captive(
    wire: dict[str, Any], loser: str, territory: str, seed: int, turn: int, with_duke: bool = False
) -> str | None:
    """After an advanced Harkonnen win, one of the loser's eligible leaders is drawn at random."""
    return draw_from(capture_pool(wire, loser, territory, with_duke), seed, turn, territory)


def capture_step(
    snapshot: Snapshot, state: NextSnapshot, winner: str | None, loser: str | None, with_duke: bool = False
) -> str | None:
    """Called by the battle resolution: the capture decision's leader, or None when there is none."""
    if not capture_follows(snapshot, winner, loser):
        return None
    battle = snapshot.battle
    assert battle is not None and loser is not None
    leader = draw_captive(state.wire, loser, battle.territory, snapshot.seed, snapshot.turn, with_duke)
    if leader is not None:
        state.event("leader-drawn", "harkonnen.capture.draw", faction=HARKONNEN, leader=leader, owner=loser)
    return leader


LOAN_EXPIRY_QUESTION = "duke-loan-expiry"
DUKE_RETURN_QUESTION = "duke-capture-return"


@rule("duke-vidal.capture.return")
def captive_duke_returns(state: NextSnapshot, interpretations: Any) -> None:
    """A captive Duke Vidal that the Harkonnen give back goes to the faction he was captured from, to
    Ecaz, or is set aside, following the chosen answer to question duke-capture-return."""
    choice = choice_of(interpretations, DUKE_RETURN_QUESTION)
    duke = state.wire["duke_vidal"]
    history = {k: duke[k] for k in ("acquired_turn", "deaths") if duke.get(k)}
    holder = {"prior-controller": duke.get("captured_from"), "native-ecaz": FactionId.ECAZ.value}.get(choice)
    loan: dict[str, Any] = {}
    if choice == "prior-controller" and duke.get("loaned_by") is not None:
        if duke.get("loan_turn") == state.wire["turn"]:
            loan = {"loaned_by": duke["loaned_by"], "loan_turn": duke["loan_turn"]}
        else:
            # the loan lapsed while he was a captive: where he goes is duke-loan-expiry's question
            expiry = choice_of(interpretations, LOAN_EXPIRY_QUESTION)
            holder = duke["loaned_by"] if expiry == "return-to-ecaz" else None
    if holder is not None and holder in state.wire["factions"]:
        state.wire["duke_vidal"] = {"status": "held", "controller": holder, **loan, **history}
    else:  # set aside, or native Ecaz in a game without Ecaz: nobody holds him
        state.wire["duke_vidal"] = {"status": "set-aside", "controller": None, **history}
    state.event("captive-returned", "duke-vidal.capture.return", leader=DUKE, to=state.wire["duke_vidal"]["controller"])


def captive_duke(wire: dict[str, Any]) -> bool:
    duke = wire.get("duke_vidal")
    return duke is not None and duke["status"] == "captured" and duke.get("by") == HARKONNEN


def capture_follows(snapshot: Snapshot, winner: str | None, loser: str | None) -> bool:
    return snapshot.ruleset.advanced and winner == HARKONNEN and loser is not None


@rule("harkonnen.capture.return-after-use")
def captive_returns(state: NextSnapshot, leader_id: str) -> None:
    """A captive that fought for the Harkonnen and survived goes back to its own faction."""
    state.event("captive-returned", "harkonnen.capture.return-after-use", leader=leader_id)


@rule("harkonnen.capture.return-all")
def captives_return_when_leaderless(state: NextSnapshot, interpretations: Any) -> None:
    """When every Harkonnen leader is in the Tanks, all their captives return to their factions."""
    if captive_duke(state.wire):
        captive_duke_returns(state, interpretations)
    for faction, entry in state.wire["factions"].items():
        for leader_id, leader_state in list(entry["leaders"].items()):
            if leader_state.get("status") == LeaderStatus.CAPTURED.value and leader_state.get("by") == HARKONNEN:
                kept = {k: v for k, v in leader_state.items() if k not in ("status", "by")}
                entry["leaders"][leader_id] = {"status": LeaderStatus.AVAILABLE.value, **kept}
                state.event("captive-returned", "harkonnen.capture.return-all", leader=leader_id, owner=faction)


def harkonnen_leaderless(state: NextSnapshot) -> bool:
    harkonnen = state.wire["factions"].get(HARKONNEN)
    if harkonnen is None:
        return False
    return all(
        harkonnen["leaders"].get(leader.id, {}).get("status") == LeaderStatus.TANKS.value
        for leader in catalog().leaders_of(HARKONNEN)
    )


def _capture_decision(state: NextSnapshot) -> dict[str, Any]:
    wire = state.wire  # STEPWIRE
    battle = wire["battle"]
    resolution = battle["resolution"]
    return {
        "type": DecisionType.HARKONNEN_CAPTURE.value,
        "player": HARKONNEN,
        "territory": battle["territory"],
        "leader": resolution["capture"],
        "owner": resolution["loser"],
    }


def capture_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    leader = decision.get("leader")
    return [
        {"type": ActionType.CAPTURE_LEADER.value, "player": HARKONNEN, "leader": leader, "choice": "keep"},
        {"type": ActionType.CAPTURE_LEADER.value, "player": HARKONNEN, "leader": leader, "choice": "kill"},
    ]


@rule("harkonnen.capture.keep")
def keep_captive(state: NextSnapshot, leader_id: str) -> None:
    """A kept captive fights for the Harkonnen once, then returns to its faction if it survives."""
    if leader_id == DUKE:
        duke_captured(state)
        return
    native = catalog().leaders[leader_id].faction
    leaders = state.wire["factions"][native]["leaders"]
    kept = {k: v for k, v in leaders.get(leader_id, {}).items() if k not in ("status", "territory", "by")}
    leaders[leader_id] = {"status": LeaderStatus.CAPTURED.value, **kept, "by": HARKONNEN}
    state.event("leader-captured", "harkonnen.capture.keep", leader=leader_id, by=HARKONNEN)


@rule("harkonnen.capture.kill")
def kill_captive(state: NextSnapshot, leader_id: str) -> None:
    """A killed captive goes to the Tanks face down and the Harkonnen take 2 spice."""
    if leader_id == DUKE:
        state.wire["duke_vidal"] = duke_dies(state.wire["duke_vidal"])
    else:
        native = catalog().leaders[leader_id].faction
        state.wire["factions"][native]["leaders"][leader_id] = {"status": LeaderStatus.TANKS.value}
    state.event("leader-killed", "harkonnen.capture.kill", leader=leader_id)
    state.pay_from_bank(HARKONNEN, KILL_PAYMENT, "harkonnen.capture.kill", "captive killed")


@rule("duke-vidal.capture.kept")
def duke_captured(state: NextSnapshot) -> None:
    """A kept Duke Vidal becomes the Harkonnen's captive; the faction he was taken from is recorded,
    since where he goes when returned is open (question duke-capture-return)."""
    duke = state.wire["duke_vidal"]
    history = {k: duke[k] for k in ("acquired_turn", "deaths") if duke.get(k)}
    loan = {k: duke[k] for k in ("loaned_by", "loan_turn") if duke.get(k) is not None}
    state.wire["duke_vidal"] = {
        "status": "captured",
        "controller": None,
        "by": HARKONNEN,
        "captured_from": duke.get("controller"),
        **loan,  # kept: a return to the borrower may restore the loan, or find it lapsed
        **history,
    }
    state.event("leader-captured", "duke-vidal.capture.kept", leader=DUKE, by=HARKONNEN)


@ruled(answers(DecisionType.HARKONNEN_CAPTURE.value))
def capture_leader(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    leader = str(action.fields["leader"])
    choice = action.fields["choice"]
    state = NextSnapshot(snapshot)
    battle = snapshot.battle
    if leader == DUKE and battle is not None and battle.resolution is not None:
        # the draw that named him rested on a reading of an open question: that ruling carries over
        plan = battle.plans.get(str(battle.resolution.loser))
        if plan is not None and plan.leader == DUKE:
            duke_in_capture_pool("capture-pool-first")
        else:
            unused_duke_in_pool("in-pool")
    if choice == "keep":
        keep_captive(state, leader)
    else:
        kill_captive(state, leader)
    state.wire["battle"]["resolution"]["steps"].pop(0)
    summary = {"capture": {"leader": leader, "choice": choice}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.CAPTURE_LEADER: capture_leader,
    },
    decisions={
        DecisionType.HARKONNEN_CAPTURE.value: DecisionKind(capture_options, self_contained=True),
    },
    steps={
        DecisionType.HARKONNEN_CAPTURE.value: _capture_decision,
    },
    implements={
        DUKE_CAPTURE_QUESTION: ("release-first", "capture-pool-first"),
        DUKE_RETURN_QUESTION: ("prior-controller", "native-ecaz", "set-aside"),
    },
)
