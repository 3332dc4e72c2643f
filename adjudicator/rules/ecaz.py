"""The Ecaz Ambassador token and Duke Prad Vidal (E3 pp.7, 9).

When a faction other than Ecaz or its ally enters, with forces, a stronghold holding the Ecaz
Ambassador, Ecaz may trigger it: either Ecaz gains Duke Vidal (unless he is in the Tanks or a
captive), keeping him until he fights or Moritani takes him, or Ecaz allies with the entrant (both
unallied, the entrant agreeing) and may give its Duke Vidal to the new ally for this turn. The
triggered token leaves the board for Ecaz's supply. The loan keeps the owner (`loaned_by`), the
holder (`controller`) and the turn it lasts (`loan_turn`) apart, because where an unused loaned Duke
goes at turn end is an open question (duke-loan-expiry). The printed exclusion of a ghola Duke
cannot arise here: no faction but Ecaz may revive him, so he is never a foreign ghola.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import catalog
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import (
    DUKE,
    ECAZ,
    TLEILAXU,
    ActionType,
    DukeStatus,
    FactionId,
    LeaderStatus,
    Phase,
)
from adjudicator.rules.revival import duke_joins_ecaz, duke_revival
from adjudicator.rules.state import NextSnapshot, duke_in_custody


@rule("ecaz.ambassador.trigger")
def trigger_violations(snapshot: Snapshot, action: Action, token: str = ECAZ) -> list[Violation]:
    found: list[Violation] = []
    rule_id = "ecaz.ambassador.trigger"
    if ECAZ not in snapshot.factions:
        return [Violation("faction-not-in-game", "Ecaz is not in this game", "/snapshot/factions", rule_id)]
    if action.player != ECAZ:
        found.append(Violation("wrong-player", "only Ecaz triggers its Ambassador", "/action/player", rule_id))
    if snapshot.phase is not Phase.SHIPMENT_MOVEMENT:
        found.append(Violation("wrong-phase", "Ambassadors trigger as a faction enters", "/snapshot/phase", rule_id))
    if snapshot.pending is not None:
        found.append(Violation("decision-pending", "answer the open decision first", "/snapshot/pending", rule_id))
    territory = action.fields.get("territory")
    entrant = action.fields.get("entrant")
    for key, value in (("territory", territory), ("entrant", entrant)):
        if value is None:
            found.append(Violation("missing-field", f"name the {key}", f"/action/{key}", rule_id))
    if territory is None or entrant is None:
        return found
    if not any(a.token == token and a.territory == territory for a in snapshot.ambassadors):
        found.append(
            Violation(
                f"no-{token}-ambassador", f"no {token} Ambassador token is in {territory}", "/action/territory", rule_id
            )
        )
    if entrant not in snapshot.factions:
        found.append(Violation("faction-not-in-game", f"{entrant} is not in this game", "/action/entrant", rule_id))
        return found
    if entrant == ECAZ or snapshot.factions[ECAZ].ally == entrant:
        found.append(
            Violation(
                "entrant-not-eligible",
                "Ecaz and its ally do not trigger Ecaz's Ambassadors",
                "/action/entrant",
                rule_id,
            )
        )
    elif entrant == token:
        found.append(
            Violation(
                "entrant-not-eligible", f"the {token} do not trigger their own Ambassador", "/action/entrant", rule_id
            )
        )
    if not any(s.faction == entrant and s.territory == territory for s in snapshot.forces):
        found.append(
            Violation(
                "entrant-not-present",
                f"{entrant} has no forces in {territory} (advisors alone do not trigger an Ambassador)",
                "/action/entrant",
                rule_id,
            )
        )
    return found


@rule("ecaz.ambassador.duke-vidal")
def duke_violation(snapshot: Snapshot) -> Violation | None:
    duke = snapshot.duke_vidal
    if duke is None:
        return Violation("no-duke-vidal", "this game has no Duke Vidal", "/snapshot/duke_vidal")
    if duke.status is DukeStatus.TANKS:
        return Violation("duke-in-tanks", "Duke Vidal is in the Tanks", "/snapshot/duke_vidal/status")
    if duke.status is DukeStatus.CAPTURED:
        return Violation("duke-captured", "a captive Duke Vidal cannot be gained", "/snapshot/duke_vidal/status")
    if duke.status is DukeStatus.HELD and duke.controller == ECAZ:
        return Violation("already-held", "Ecaz already holds Duke Vidal", "/snapshot/duke_vidal/controller")
    return None


@rule("ecaz.ambassador.alliance")
def alliance_violation(snapshot: Snapshot, entrant: str) -> Violation | None:
    if snapshot.factions[ECAZ].ally is not None or snapshot.factions[entrant].ally is not None:
        return Violation("already-allied", "Ecaz and the entrant must both be unallied", "/action/effect")
    return None


@rule("ecaz.ambassador.lend-duke")
def lend_violation(snapshot: Snapshot) -> Violation | None:
    duke = snapshot.duke_vidal
    if duke is None or duke.status is not DukeStatus.HELD or duke.controller != ECAZ:
        return Violation("cannot-lend", "Ecaz can lend only a Duke Vidal it holds", "/action/lend_duke_vidal")
    return None


@ruled()
def trigger_ecaz_ambassador(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = trigger_violations(snapshot, action)
    effect = action.fields.get("effect")
    if effect is None:
        problems.append(Violation("missing-field", "name the effect", "/action/effect"))
    entrant = str(action.fields.get("entrant"))
    lend = bool(action.fields.get("lend_duke_vidal", False))
    if not problems:
        if effect == "duke-vidal":
            problem = duke_violation(snapshot)
            if lend:
                problem = problem or Violation(
                    "lend-without-alliance", "Duke is lent only with the alliance effect", "/action/lend_duke_vidal"
                )
        else:
            problem = alliance_violation(snapshot, entrant)
            if problem is None and lend:
                problem = lend_violation(snapshot)
        problems = [problem] if problem is not None else []
    if problems:
        return illegal(snapshot, problems, trace, context)
    state = NextSnapshot(snapshot)
    territory = str(action.fields["territory"])
    state.remove_ambassador(ECAZ, territory)
    state.event("ambassador-triggered", "ecaz.ambassador.trigger", token=ECAZ, territory=territory, entrant=entrant)
    summary: dict[str, Any] = {"token": ECAZ, "territory": territory, "entrant": entrant, "effect": effect}
    duke = snapshot.duke_vidal
    if effect == "duke-vidal":
        assert duke is not None  # duke_violation: the game has him
        previous = duke.controller if duke.status is DukeStatus.HELD else None
        state.set_duke(duke_in_custody(duke, DukeStatus.HELD, ECAZ))
        state.event("duke-vidal-acquired", "ecaz.ambassador.duke-vidal", faction=ECAZ, **{"from": previous})
    else:
        state.form_alliance(ECAZ, entrant)
        state.event("alliance-formed", "ecaz.ambassador.alliance", factions=sorted([ECAZ, entrant]))
        summary["lent_duke_vidal"] = lend
        if lend:
            assert duke is not None  # lend_violation: Ecaz holds him
            state.set_duke(duke_in_custody(duke, DukeStatus.HELD, entrant, loaned_by=ECAZ, loan_turn=snapshot.turn))
            state.event("duke-vidal-lent", "ecaz.ambassador.lend-duke", to=entrant, turn=snapshot.turn)
    return resolved(state.outcome({"ecaz_ambassador": summary}), None, (), trace, context)


SHARED_REVIVAL_QUESTION = "duke-revival-shared-ambassador"


@rule("ecaz.ambassador.for-ally")
def beneficiary_violation(snapshot: Snapshot, beneficiary: object) -> Violation | None:
    if beneficiary is None:
        return Violation("missing-field", "name the beneficiary (Ecaz or its ally)", "/action/beneficiary")
    if beneficiary != ECAZ and beneficiary != snapshot.factions[ECAZ].ally:
        return Violation(
            "beneficiary-not-eligible", "an Ambassador's benefit goes to Ecaz or its ally", "/action/beneficiary"
        )
    return None


@rule("ecaz.ambassador.tleilaxu")
def tleilaxu_ambassador_revives() -> None:
    pass


@rule("duke-vidal.revival.shared-ambassador")
def shared_ambassador_revival(beneficiary: str, choice: str) -> Violation | None:
    if beneficiary == ECAZ:
        return None
    if choice == "ecaz-only":
        return Violation(
            "only-ecaz-revives-duke",
            "under 'ecaz-only' only Ecaz itself may revive Duke Vidal",
            "/action/beneficiary",
            "duke-vidal.revival.shared-ambassador",
        )
    return None


TLEILAXU_AMBASSADOR_FORCES = 4


@rule("ecaz.ambassador.tleilaxu-leader")
def leader_revival_violation(snapshot: Snapshot, beneficiary: str, leader: str) -> Violation | None:
    known = catalog().leaders.get(leader)
    if known is None or known.faction != beneficiary:
        return Violation("not-your-leader", f"{leader} is not one of {beneficiary}'s leaders", "/action/leader")
    state = snapshot.factions[beneficiary].leaders.get(leader)
    if state is not None and state.ghola:
        return Violation("not-your-leader", f"{leader} lies in the Tanks as a Tleilaxu ghola", "/action/leader")
    if state is None or state.status is not LeaderStatus.TANKS:
        return Violation("not-in-tanks", f"{leader} is not in the Tanks", "/action/leader")
    return None


ELITE_QUESTION = "ambassador-elite-revival"
ELITE_LIMIT = "elite-limit"
NO_ELITE_LIMIT = "no-elite-limit"
# the factions whose elite forces are revived one a turn (Sardaukar, Fedaykin)
ONE_ELITE_A_TURN = (FactionId.EMPEROR.value, FactionId.FREMEN.value)


@rule("ecaz.ambassador.tleilaxu-forces")
def forces_revival_violation(
    snapshot: Snapshot, beneficiary: str, regular: int, elite: int, context: Context
) -> Violation | None:
    if regular + elite > TLEILAXU_AMBASSADOR_FORCES:
        return Violation(
            "too-many-forces",
            f"the Tleilaxu Ambassador revives up to {TLEILAXU_AMBASSADOR_FORCES} forces",
            "/action/elite" if elite else "/action/regular",
        )
    tanks = snapshot.factions[beneficiary].tanks
    if regular > tanks.regular:
        return Violation("not-in-tanks", f"{beneficiary} has fewer forces than that in the Tanks", "/action/regular")
    if elite > tanks.elite:
        return Violation(
            "not-in-tanks", f"{beneficiary} has fewer elite forces than that in the Tanks", "/action/elite"
        )
    limited = snapshot.ruleset.advanced and beneficiary in ONE_ELITE_A_TURN
    if elite > 1 and limited and elite_limit_holds(context.choice(ELITE_QUESTION)):
        return Violation(
            "one-elite-a-turn",
            f"{beneficiary} revive one elite force a turn (question {ELITE_QUESTION}, choice {ELITE_LIMIT})",
            "/action/elite",
            "ecaz.ambassador.tleilaxu-elite",
        )
    return None


@rule("ecaz.ambassador.tleilaxu-elite")
def elite_limit_holds(choice: str) -> bool:
    return choice == ELITE_LIMIT


def _revival_violation(snapshot: Snapshot, action: Action, beneficiary: str, context: Context) -> Violation | None:
    """What the named revival (a leader, or regular forces) breaks, after the token and beneficiary checks."""
    leader = action.fields.get("leader")
    regular = int(action.fields.get("regular") or 0)
    elite = int(action.fields.get("elite") or 0)
    if leader is not None and (regular or elite):
        return Violation(
            "leader-or-forces", "the Tleilaxu Ambassador revives one leader or forces, not both", "/action"
        )
    if leader is None and not (regular or elite):
        return Violation("missing-field", "name the leader (or the forces) to revive", "/action/leader")
    if leader is None:
        return forces_revival_violation(snapshot, beneficiary, regular, elite, context)
    if leader != DUKE:
        return leader_revival_violation(snapshot, beneficiary, str(leader))
    if snapshot.duke_vidal is None or snapshot.duke_vidal.status is not DukeStatus.TANKS:
        return Violation("not-in-tanks", "Duke Vidal is not in the Tanks", "/snapshot/duke_vidal/status")
    if beneficiary == ECAZ:
        duke_revival(ECAZ)
    return shared_ambassador_revival(beneficiary, context.choice(SHARED_REVIVAL_QUESTION))


@ruled()
def trigger_tleilaxu_ambassador(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = trigger_violations(snapshot, action, TLEILAXU)
    beneficiary = action.fields.get("beneficiary")
    if not problems:
        tleilaxu_ambassador_revives()
        problem = beneficiary_violation(snapshot, beneficiary)
        if problem is None:
            problem = _revival_violation(snapshot, action, str(beneficiary), context)
        problems = [problem] if problem is not None else []
    if problems:
        return illegal(snapshot, problems, trace, context)
    state = NextSnapshot(snapshot)
    territory = str(action.fields["territory"])
    entrant = str(action.fields["entrant"])
    state.remove_ambassador(TLEILAXU, territory)
    state.event("ambassador-triggered", "ecaz.ambassador.trigger", token=TLEILAXU, territory=territory, entrant=entrant)
    holder = str(beneficiary)
    leader = action.fields.get("leader")
    summary: dict[str, Any] = {"token": TLEILAXU, "territory": territory, "entrant": entrant, "beneficiary": holder}
    if leader == DUKE:
        assert snapshot.duke_vidal is not None  # checked above: he is in the Tanks
        state.set_duke(replace(duke_joins_ecaz(snapshot.duke_vidal), controller=holder))
        state.event("leader-revived", "ecaz.ambassador.tleilaxu", leader=DUKE, faction=holder, price=0)
        summary["revived"] = DUKE
    elif leader is not None:
        state.revive_leader(holder, str(leader))
        state.event("leader-revived", "ecaz.ambassador.tleilaxu-leader", leader=leader, faction=holder, price=0)
        summary["revived"] = leader
    else:
        regular = int(action.fields.get("regular") or 0)
        elite = int(action.fields.get("elite") or 0)
        state.revive_forces(holder, regular, elite)
        counts: dict[str, int] = {"regular": regular, **({"elite": elite} if elite else {})}
        state.event("forces-revived", "ecaz.ambassador.tleilaxu-forces", faction=holder, **counts, price=0)
        summary["revived_forces"] = regular + elite
        if elite:
            summary["revived_elite"] = elite
    return resolved(state.outcome({"ecaz_ambassador": summary}), None, (), trace, context)


@rule("ecaz.ambassador.explosion")
def ambassadors_return_to_ecaz(state: NextSnapshot, territory: str) -> None:
    for token in state.ambassadors_in(territory):
        state.remove_ambassador(token, territory)
        state.event("ambassador-returned", "ecaz.ambassador.explosion", token=token, territory=territory)


DECLARED = RuleModule(
    handlers={
        ActionType.TRIGGER_ECAZ_AMBASSADOR: trigger_ecaz_ambassador,
        ActionType.TRIGGER_TLEILAXU_AMBASSADOR: trigger_tleilaxu_ambassador,
    },
    implements={
        SHARED_REVIVAL_QUESTION: ("ecaz-only", "beneficiary-may-revive"),
        ELITE_QUESTION: (ELITE_LIMIT, NO_ELITE_LIMIT),
    },
)
