"""Advanced Harkonnen capture (base rulebook p.17).

After winning a battle in the advanced game, the Harkonnen draw one of the loser's leaders at random
(from those not used in another territory, the battle's surviving leader included) and either kill it
for 2 spice, keep it as a captive, or capture nobody (the capture is theirs to take or leave). The
draw happens once, when the battle resolves, from the snapshot's seed, and is stored in the battle's
resolution so that a reload never draws again.

Duke Vidal, used by the loser and surviving, is in the draw or not according to the register's
question duke-harkonnen-capture (his one-battle tenure may end before the draw or after it); the
resolution records `duke_in_capture_pool` so the draw can be checked again on reload.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import CaptureDecision, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Decision, DukeVidal, LeaderState, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import DUKE, HARKONNEN, ActionType, DecisionType, DukeStatus, FactionId, LeaderStatus
from adjudicator.rules.ghola import DEATH_QUESTION as GHOLA_DEATH_QUESTION
from adjudicator.rules.ghola import ghola_dies, is_ghola
from adjudicator.rules.state import NextSnapshot, duke_in_custody, finish

KILL_PAYMENT = 2
DECLINE = "decline"  # capture-leader's choice to capture nobody


DUKE_CAPTURE_QUESTION = "duke-harkonnen-capture"


@rule("duke-vidal.capture.pool-order")
def duke_in_capture_pool(choice: str) -> bool:
    return choice == "capture-pool-first"


@rule("duke-vidal.capture.unused")
def unused_duke_in_pool(choice: str) -> bool:
    return choice == "in-pool"


@rule("harkonnen.capture.auditor")
def auditor_not_captured() -> None:
    pass


def capture_pool(
    leaders: Mapping[str, LeaderState],
    loser: str,
    territory: str,
    with_duke: bool = False,
    gholas: tuple[str, ...] = (),
) -> list[str]:
    """The loser's leaders Harkonnen may draw (`leaders`: the loser's leader states): alive, not captive,
    not used in another territory, then the Tleilaxu's `gholas` when they are in the draw, and Duke
    Vidal last when he is. (While the capture decision is open the pool is unchanged, so the draw can be
    checked again.)"""
    pool = []
    for leader in catalog().leaders_of(loser):
        if leader.id == "auditor":
            auditor_not_captured()
            continue
        entry = leaders.get(leader.id)
        if entry is not None and entry.ghola:
            continue  # it serves the Tleilaxu
        if (
            entry is None
            or entry.status is LeaderStatus.AVAILABLE
            or (entry.status is LeaderStatus.USED and entry.territory == territory)
        ):
            pool.append(leader.id)
    pool.extend(gholas)
    if with_duke:
        pool.append(DUKE)
    return pool


def draw_from(pool: list[str], seed: int, turn: int, territory: str) -> str | None:
    if not pool:
        return None
    return pool[random.Random(f"{seed}:{turn}:{territory}:harkonnen-capture").randrange(len(pool))]


@rule("harkonnen.capture.draw")
def draw_captive(
    leaders: Mapping[str, LeaderState],
    loser: str,
    territory: str,
    seed: int,
    turn: int,
    with_duke: bool = False,
    gholas: tuple[str, ...] = (),
) -> str | None:
    return draw_from(capture_pool(leaders, loser, territory, with_duke, gholas), seed, turn, territory)


def capture_step(
    snapshot: Snapshot,
    state: NextSnapshot,
    winner: str | None,
    loser: str | None,
    with_duke: bool = False,
    gholas: tuple[str, ...] = (),
) -> str | None:
    """Called by the battle resolution: the capture decision's leader, or None when there is none."""
    if not capture_follows(snapshot, winner, loser):
        return None
    battle = snapshot.battle
    assert battle is not None and loser is not None
    leaders = state.leader_states(loser)
    leader = draw_captive(leaders, loser, battle.territory, snapshot.seed, snapshot.turn, with_duke, gholas)
    if leader is not None:
        state.event("leader-drawn", "harkonnen.capture.draw", faction=HARKONNEN, leader=leader, owner=loser)
    return leader


LOAN_EXPIRY_QUESTION = "duke-loan-expiry"
DUKE_RETURN_QUESTION = "duke-capture-return"


@rule("duke-vidal.capture.return")
def captive_duke_returns(state: NextSnapshot, interpretations: Any) -> None:
    choice = choice_of(interpretations, DUKE_RETURN_QUESTION)
    duke = state.duke
    assert duke is not None, "a captive Duke Vidal"
    holder = {"prior-controller": duke.captured_from, "native-ecaz": FactionId.ECAZ.value}.get(choice)
    loaned_by = loan_turn = None
    if choice == "prior-controller" and duke.loaned_by is not None:
        if duke.loan_turn == state.turn:
            loaned_by, loan_turn = duke.loaned_by, duke.loan_turn
        else:
            # the loan lapsed while he was a captive: where he goes is duke-loan-expiry's question
            expiry = choice_of(interpretations, LOAN_EXPIRY_QUESTION)
            holder = duke.loaned_by if expiry == "return-to-ecaz" else None
    if holder is not None and state.has_faction(holder):
        returned = duke_in_custody(duke, DukeStatus.HELD, holder, loaned_by=loaned_by, loan_turn=loan_turn)
    else:  # set aside, or native Ecaz in a game without Ecaz: nobody holds him
        returned = duke_in_custody(duke, DukeStatus.SET_ASIDE)
    state.set_duke(returned)
    state.event("captive-returned", "duke-vidal.capture.return", leader=DUKE, to=returned.controller)


def duke_held_by_harkonnen(duke: DukeVidal | None) -> bool:
    """Duke Vidal is the Harkonnen's captive."""
    return duke is not None and duke.status is DukeStatus.CAPTURED and duke.by == HARKONNEN


def capture_follows(snapshot: Snapshot, winner: str | None, loser: str | None) -> bool:
    return snapshot.ruleset.advanced and winner == HARKONNEN and loser is not None


@rule("harkonnen.capture.return-after-use")
def captive_returns(state: NextSnapshot, leader_id: str) -> None:
    state.event("captive-returned", "harkonnen.capture.return-after-use", leader=leader_id)


@rule("harkonnen.capture.return-all")
def captives_return_when_leaderless(state: NextSnapshot, interpretations: Any) -> None:
    if duke_held_by_harkonnen(state.duke):
        captive_duke_returns(state, interpretations)
    for faction, leader_id in state.leaders_in(LeaderStatus.CAPTURED, by=HARKONNEN):
        state.release_captive(faction, leader_id)
        state.event("captive-returned", "harkonnen.capture.return-all", leader=leader_id, owner=faction)


def harkonnen_leaderless(state: NextSnapshot) -> bool:
    return state.all_in_tanks(HARKONNEN, [leader.id for leader in catalog().leaders_of(HARKONNEN)])


def _capture_decision(state: NextSnapshot) -> dict[str, Any]:
    resolution = state.resolution
    return opened(
        HARKONNEN, CaptureDecision(territory=state.battle_territory, leader=resolution.capture, owner=resolution.loser)
    )


def capture_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    leader = decision.as_(CaptureDecision).leader
    return [
        {"type": ActionType.CAPTURE_LEADER.value, "player": HARKONNEN, "leader": leader, "choice": "keep"},
        {"type": ActionType.CAPTURE_LEADER.value, "player": HARKONNEN, "leader": leader, "choice": "kill"},
        {"type": ActionType.CAPTURE_LEADER.value, "player": HARKONNEN, "leader": leader, "choice": DECLINE},
    ]


@rule("harkonnen.capture.keep")
def keep_captive(state: NextSnapshot, leader_id: str) -> None:
    if leader_id == DUKE:
        duke_captured(state)
        return
    state.take_captive(leader_id, HARKONNEN)
    state.event("leader-captured", "harkonnen.capture.keep", leader=leader_id, by=HARKONNEN)


@rule("harkonnen.capture.kill")
def kill_captive(state: NextSnapshot, leader_id: str, keep_ghola: bool = False) -> None:
    state.leader_to_tanks(leader_id, "harkonnen.capture.kill", keep_ghola)
    state.pay_from_bank(HARKONNEN, KILL_PAYMENT, "harkonnen.capture.kill", "captive killed")


@rule("harkonnen.capture.decline")
def decline_capture(state: NextSnapshot, leader_id: str, owner: str | None) -> None:
    state.event("capture-declined", "harkonnen.capture.decline", leader=leader_id, owner=owner)


@rule("duke-vidal.capture.kept")
def duke_captured(state: NextSnapshot) -> None:
    duke = state.duke
    assert duke is not None, "a drawn Duke Vidal"
    captive = duke_in_custody(
        duke,
        DukeStatus.CAPTURED,
        by=HARKONNEN,
        captured_from=duke.controller,
        # the loan is kept: a return to the borrower may restore it, or find it lapsed
        loaned_by=duke.loaned_by,
        loan_turn=duke.loan_turn,
    )
    state.set_duke(captive)
    state.event("leader-captured", "duke-vidal.capture.kept", leader=DUKE, by=HARKONNEN)


@ruled(answers(DecisionType.HARKONNEN_CAPTURE.value))
def capture_leader(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    leader = str(action.fields["leader"])
    choice = action.fields["choice"]
    state = NextSnapshot(snapshot)
    battle = snapshot.battle
    duke_fought = False
    if leader == DUKE and battle is not None and battle.resolution is not None:
        # the draw that named him rested on a reading of an open question: that ruling carries over
        plan = battle.plans.get(str(battle.resolution.loser))
        duke_fought = plan is not None and plan.leader == DUKE
        if duke_fought:
            duke_in_capture_pool("capture-pool-first")
        else:
            unused_duke_in_pool("in-pool")
    if choice == "keep":
        keep_captive(state, leader)
    elif choice == DECLINE:
        assert snapshot.pending is not None and battle is not None  # answers() checked the decision
        decline_capture(state, leader, snapshot.pending.as_(CaptureDecision).owner)
        if duke_fought:
            # not taken, his one-battle tenure ends now, as it does when the draw names another leader
            state.leader_fought(DUKE, battle.territory)
    else:
        # a captive ghola killed goes to the Tanks as question ghola-death reads it
        stays = is_ghola(snapshot, leader) and ghola_dies(context.choice(GHOLA_DEATH_QUESTION))
        kill_captive(state, leader, stays)
    state.step_done()
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
