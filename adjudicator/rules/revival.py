"""Leader revival (base rulebook, Revival; E3 pp.8-9 for Duke Vidal; the Tleilaxu Ghola card).

A faction revives one leader a turn from the Tanks, paying its strength, once it has no leader
available (each in the Tanks or held captive). A Tleilaxu Ghola card revives one of its own leaders at
any time, free, whatever the count. Duke Vidal is revived by Ecaz alone (with a Ghola card too), for 5
spice, with no prerequisite; Ecaz counts him among its five when reviving its other leaders. No other
faction revives him, by Ghola or as a Tleilaxu foreign ghola. Zoal, whose strength is X, has a price of
his own: 3 spice. The Tleilaxu and their ally pay half (rounded up) of any other price. The advanced
Tleilaxu revive another faction's dead leader as a ghola in the Revival phase, as their leader revival
of the turn, at their half price, while fewer than five leaders are available to them; it stays
recorded under its own faction, marked `ghola`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import DukeVidal, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import DUKE, ECAZ, TLEILAXU, ActionType, DukeStatus, LeaderStatus, Phase
from adjudicator.rules.skill_steps import banker_gain_from_payment
from adjudicator.rules.state import NextSnapshot, duke_in_custody

DUKE_PRICE = 5
ZOAL = "zoal"
ZOAL_PRICE = 3
GHOLA = "tleilaxu-ghola"
GHOLA_POOL_LIMIT = 5  # the Tleilaxu revive gholas while fewer leaders than this are available to them
# a leader in the Tanks or held captive by the Harkonnen is not available to its faction
UNAVAILABLE = (LeaderStatus.TANKS, LeaderStatus.CAPTURED)


def _unavailable(snapshot: Snapshot, faction: str) -> int:
    state = snapshot.factions[faction]
    return sum(
        1
        for leader in catalog().leaders_of(faction)
        if (entry := state.leaders.get(leader.id)) is not None and entry.status in UNAVAILABLE
    )


@rule("duke-vidal.revival.ecaz-only")
def duke_revival(faction: str) -> Violation | None:
    if faction != ECAZ:
        return Violation(
            "only-ecaz-revives-duke",
            "only Ecaz may revive Duke Vidal",
            "/action/player",
            "duke-vidal.revival.ecaz-only",
        )
    return None


@rule("duke-vidal.revival.joins-ecaz")
def duke_joins_ecaz(duke: DukeVidal) -> DukeVidal:
    return duke_in_custody(duke, DukeStatus.HELD, ECAZ)


@rule("duke-vidal.revival.price")
def duke_price() -> int:
    return DUKE_PRICE


@rule("leaders.revival.all-dead")
def may_revive_normally(snapshot: Snapshot, faction: str) -> bool:
    count = _unavailable(snapshot, faction)
    duke = snapshot.duke_vidal
    if faction == ECAZ and duke is not None and duke.status is DukeStatus.TANKS:
        count += duke_counts_for_ecaz()
    return count >= len(catalog().leaders_of(faction))


@rule("duke-vidal.revival.counts-for-ecaz")
def duke_counts_for_ecaz() -> int:
    return 1


@rule("leaders.revival.ghola")
def ghola_revival() -> None:
    pass


@rule("tleilaxu.revival.zoal-price")
def zoal_price() -> int:
    return ZOAL_PRICE


@rule("tleilaxu.revival.payments")
def pay_the_tleilaxu(state: NextSnapshot, payer: str, price: int) -> None:
    state.transfer_spice(payer, TLEILAXU, price, "tleilaxu.revival.payments", "leader revival")


@rule("choam.auditor.no-ghola")
def auditor_never_ghola() -> Violation:
    return Violation(
        "auditor-no-ghola", "the Auditor is never revived as a ghola", "/action/leader", "choam.auditor.no-ghola"
    )


def _in_tleilaxu_pool(snapshot: Snapshot) -> int:
    """The leaders the Tleilaxu have available: their own alive and free, and the gholas serving them."""
    own = len(catalog().leaders_of(TLEILAXU)) - _unavailable(snapshot, TLEILAXU)
    gholas = sum(
        1
        for state in snapshot.factions.values()
        for entry in state.leaders.values()
        if entry.ghola and entry.status in (LeaderStatus.AVAILABLE, LeaderStatus.USED)
    )
    return own + gholas


@rule("tleilaxu.ghola.revival")
def ghola_revival_violation(snapshot: Snapshot, leader: str) -> Violation | None:
    rule_id = "tleilaxu.ghola.revival"
    if leader == "auditor":
        return auditor_never_ghola()
    native = snapshot.factions.get(catalog().leaders[leader].faction)
    entry = native.leaders.get(leader) if native is not None else None
    if entry is None or entry.status is not LeaderStatus.TANKS:
        return Violation("not-in-tanks", f"{leader} is not in the Tanks", "/action/leader", rule_id)
    if _in_tleilaxu_pool(snapshot) >= GHOLA_POOL_LIMIT:
        return Violation(
            "ghola-pool-full",
            f"the Tleilaxu revive gholas only while fewer than {GHOLA_POOL_LIMIT} leaders are available to them",
            "/action/leader",
            rule_id,
        )
    return None


def revives_ghola(snapshot: Snapshot, faction: str, leader: object) -> bool:
    """Whether this revival is the advanced Tleilaxu's revival of another faction's leader as a ghola."""
    return (
        faction == TLEILAXU
        and snapshot.ruleset.advanced
        and isinstance(leader, str)
        and leader in catalog().leaders
        and catalog().leaders[leader].faction != TLEILAXU
    )


def dead_ghola(snapshot: Snapshot, leader: str) -> bool:
    """A leader in the Tanks still marked a ghola (question ghola-death, choice stays-ghola)."""
    native = snapshot.factions.get(catalog().leaders[leader].faction) if leader in catalog().leaders else None
    entry = native.leaders.get(leader) if native is not None else None
    return entry is not None and entry.ghola and entry.status is LeaderStatus.TANKS


@rule("tleilaxu.revival.half-price")
def half_price(price: int) -> int:
    return (price + 1) // 2


def _discounted(snapshot: Snapshot, faction: str) -> bool:
    tleilaxu = snapshot.factions.get(TLEILAXU)
    return tleilaxu is not None and faction in (TLEILAXU, tleilaxu.ally)


@ruled()
def revive_leader(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    faction = action.player
    leader = action.fields.get("leader")
    card = action.fields.get("card")
    problems: list[Violation] = []
    if faction is None or faction not in snapshot.factions:
        missing = Violation("missing-player", "name the reviving faction", "/action/player")
        return illegal(snapshot, [missing], trace, context)
    state = snapshot.factions[faction]
    if card is not None and (card_kind(str(card)) != GHOLA or card not in state.hand):
        problems.append(Violation("no-ghola", f"{faction} holds no Tleilaxu Ghola card {card}", "/action/card"))
    if card is None and snapshot.phase is not Phase.REVIVAL:
        problems.append(
            Violation(
                "wrong-phase", "leaders are revived in the Revival phase (or with a Ghola card)", "/snapshot/phase"
            )
        )
    as_ghola = card is None and leader != DUKE and revives_ghola(snapshot, faction, leader)
    if leader == DUKE:
        refusal = duke_revival(faction)
        if refusal is not None:
            problems.append(refusal)
        elif snapshot.duke_vidal is None or snapshot.duke_vidal.status is not DukeStatus.TANKS:
            problems.append(Violation("not-in-tanks", "Duke Vidal is not in the Tanks", "/action/leader"))
        price = 0 if card is not None else duke_price()
    elif as_ghola:
        refusal = ghola_revival_violation(snapshot, str(leader))
        if refusal is not None:
            problems.append(refusal)
        price = int(catalog().leaders[str(leader)].strength or 0)
    elif (
        leader not in catalog().leaders
        or catalog().leaders[str(leader)].faction != faction
        or dead_ghola(snapshot, str(leader))
    ):
        problems.append(
            Violation(
                "not-own-leader",
                f"{faction} revives only its own leaders (or Duke Vidal, for Ecaz)",
                "/action/leader",
            )
        )
        price = 0
    else:
        entry = state.leaders.get(str(leader))
        if entry is None or entry.status is not LeaderStatus.TANKS:
            problems.append(Violation("not-in-tanks", f"{leader} is not in the Tanks", "/action/leader"))
        if card is None and not may_revive_normally(snapshot, faction):
            problems.append(
                Violation(
                    "leaders-still-alive",
                    f"{faction} still has leaders outside the Tanks",
                    "/action/leader",
                    "leaders.revival.all-dead",
                )
            )
        if card is not None:
            price = 0
        elif leader == ZOAL:
            price = zoal_price()
        else:
            price = int(catalog().leaders[str(leader)].strength or 0)
    if card is None and state.leader_revived_turn == snapshot.turn:
        problems.append(
            Violation(
                "one-leader-a-turn",
                f"{faction} has revived a leader this turn",
                "/action/leader",
                "leaders.revival.all-dead",
            )
        )
    if not problems and price and leader != ZOAL and _discounted(snapshot, faction):
        price = half_price(price)
    if not problems and price > state.spice:
        problems.append(
            Violation("not-enough-spice", f"the revival costs {price}; {faction} has {state.spice}", "/action/leader")
        )
    if problems:
        return illegal(snapshot, problems, trace, context)
    next_state = NextSnapshot(snapshot)
    if card is not None:
        ghola_revival()
        next_state.discard_from_hand(faction, str(card))
    else:
        next_state.record_leader_revival(faction, snapshot.turn)
    if price:
        rule_id = {DUKE: "duke-vidal.revival.price", ZOAL: "tleilaxu.revival.zoal-price"}.get(
            str(leader), "tleilaxu.ghola.revival" if as_ghola else "leaders.revival.all-dead"
        )
        if TLEILAXU in snapshot.factions and faction != TLEILAXU:
            pay_the_tleilaxu(next_state, faction, price)
        else:
            next_state.pay_to_bank(faction, price, rule_id, "leader revival")
            banker_gain_from_payment(snapshot, next_state, faction, price)
    if leader == DUKE:
        assert snapshot.duke_vidal is not None  # checked above: he is in the Tanks
        next_state.set_duke(duke_joins_ecaz(snapshot.duke_vidal))
    elif as_ghola:
        next_state.revive_ghola(str(leader))
    else:
        next_state.revive_leader(faction, str(leader))
    cause = "leaders.revival.ghola" if card is not None else "leaders.revival.all-dead"
    next_state.event(
        "leader-revived",
        "tleilaxu.ghola.revival" if as_ghola else cause,
        faction=faction,
        leader=leader,
        paid=price,
        **({"as_ghola": True} if as_ghola else {}),
    )
    revival: dict[str, Any] = {"faction": faction, "leader": leader, "paid": price, "ghola": card}
    if as_ghola:
        revival["as_ghola"] = True
    summary: dict[str, Any] = {"revival": revival}
    decision = None if snapshot.pending is None else snapshot.pending.to_dict()
    # the open decision stays open; its options are the next snapshot's (a leader revived by a Ghola
    # during the Battle phase may fight in it)
    options = context.rulebook.options(next_state.as_snapshot())
    return resolved(next_state.outcome(summary), decision, options, trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.REVIVE_LEADER: revive_leader,
    },
)
