"""Moritani's Terror tokens: the Extortion token and the Mentat Pause (E3 pp.5-6; base pp.7, 9-10).

Moritani places its six Terror tokens face down in strongholds. When another faction (not Moritani's
ally) enters a stronghold holding Extortion, Moritani may reveal it: 5 spice come from the bank to wait
in front of Moritani's shield (the snapshot's `extortion` record, apart from its spendable spice).
In the Mentat Pause (`start-mentat-pause`) Moritani collects those 5, once; then the factions are asked
in this turn's storm order, each paying Moritani 3 or declining; one payment keeps the token out of
play, and if everyone declines it goes back to Moritani's hidden supply under a new public id. Moritani
also places or moves one Terror token during the Mentat Pause; which of the two comes first is the
register's open question extortion-mentat-order. Bribe spice waiting in front of a shield (rules/bribes.py)
is collected as the Pause starts, before the payment window, or, under question extortion-bribe-order's
payment-first, as the window closes; bribe spice still waiting while the Pause is under way is that
reading's, so a later step needs no record of it.

Token ids are public handles (`terror-1`, ...); a token's `kind` is known only to Moritani until it is
revealed. The payer queue is fixed when the payment window opens and kept in the record with the
next payer's index, so a saved snapshot continues without asking anyone twice or paying twice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context, InterpretationNeeded, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import ExtortionPayment, TerrorPlacement, opened
from adjudicator.core.records import ExtortionRecord, MentatPause
from adjudicator.core.results import Adjudication, Alternative, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import found, illegal, resolved, ruled, unresolved
from adjudicator.core.snapshot import Decision, Snapshot, Terror, TerrorToken
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import (
    HMS,
    MORITANI,
    ActionType,
    DecisionType,
    Evidence,
    FactionId,
    Phase,
    TerritoryType,
)
from adjudicator.rules.bribes import bribes_waiting, collect_bribes
from adjudicator.rules.skill_steps import banker_collects_at_pause_start
from adjudicator.rules.state import NextSnapshot

EXTORTION = "extortion"
BANK_CREDIT = 5
PAYMENT = 3
TERROR_KINDS = ("assassination", "atomics", "extortion", "robbery", "sabotage", "sneak-attack")

ORDER_QUESTION = "extortion-mentat-order"
SELF_QUESTION = "extortion-self-payment"
ALLY_QUESTION = "extortion-ally-payer"
BRIBE_QUESTION = "extortion-bribe-order"

PLACEMENT_STEP = DecisionType.TERROR_PLACEMENT.value
PAYMENT_STEP = DecisionType.EXTORTION_PAYMENT.value


# --- revelation ------------------------------------------------------------------------------------


@rule("extortion.reveal")
def reveal_violations(snapshot: Snapshot, action: Action) -> list[Violation]:
    rule_id = "extortion.reveal"
    found: list[Violation] = []
    if MORITANI not in snapshot.factions:
        return [Violation("faction-not-in-game", "Moritani is not in this game", "/snapshot/factions", rule_id)]
    if action.player != MORITANI:
        found.append(Violation("wrong-player", "only Moritani reveals its Terror tokens", "/action/player", rule_id))
    if snapshot.phase is not Phase.SHIPMENT_MOVEMENT:
        found.append(
            Violation("wrong-phase", "a Terror token is revealed as a faction enters", "/snapshot/phase", rule_id)
        )
    if snapshot.pending is not None:
        found.append(Violation("decision-pending", "answer the open decision first", "/snapshot/pending", rule_id))
    if snapshot.extortion is not None:
        found.append(
            Violation("extortion-pending", "an earlier Extortion is still outstanding", "/snapshot/extortion", rule_id)
        )
    territory, entrant = action.fields.get("territory"), action.fields.get("entrant")
    for key, value in (("territory", territory), ("entrant", entrant)):
        if value is None:
            found.append(Violation("missing-field", f"name the {key}", f"/action/{key}", rule_id))
    if territory is None or entrant is None:
        return found
    terror = snapshot.terror
    if terror is None or not any(t.kind == EXTORTION and t.territory == territory for t in terror.placed):
        found.append(
            Violation(
                "no-extortion-token", f"no Extortion token is placed in {territory}", "/action/territory", rule_id
            )
        )
    if entrant not in snapshot.factions:
        found.append(Violation("faction-not-in-game", f"{entrant} is not in this game", "/action/entrant", rule_id))
        return found
    if entrant == MORITANI or snapshot.factions[MORITANI].ally == entrant:
        found.append(
            Violation(
                "entrant-not-eligible", "Moritani and its ally do not trigger its tokens", "/action/entrant", rule_id
            )
        )
    present = any(s.faction == entrant and s.territory == territory for s in snapshot.forces)
    if entrant == FactionId.BENE_GESSERIT.value:
        present = present or any(a.territory == territory for a in snapshot.advisors)
    if not present:
        found.append(
            Violation("entrant-not-present", f"{entrant} has no forces in {territory}", "/action/entrant", rule_id)
        )
    return found


@ruled(found(reveal_violations))
def reveal_extortion(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    territory, entrant = str(action.fields["territory"]), str(action.fields["entrant"])
    assert snapshot.terror is not None
    token = next(t for t in snapshot.terror.placed if t.kind == EXTORTION and t.territory == territory)
    state.reveal_terror(token.id)
    state.set_extortion(credit_deferred(token.id, snapshot.turn))
    state.event(
        "terror-revealed",
        "extortion.reveal",
        token=token.id,
        kind=EXTORTION,
        territory=territory,
        entrant=entrant,
    )
    state.event("spice-deferred", "extortion.credit", faction=MORITANI, amount=BANK_CREDIT)
    summary = {"extortion": {"token": token.id, "territory": territory, "entrant": entrant, "credit": BANK_CREDIT}}
    return resolved(state.outcome(summary), None, (), trace, context)


@rule("extortion.credit")
def credit_deferred(token: str, turn: int) -> ExtortionRecord:
    return ExtortionRecord(token, MORITANI, turn, BANK_CREDIT, collected=False)


# --- the Mentat Pause ----------------------------------------------------------------------------------


@rule("extortion.collect")
def collect_credit(state: NextSnapshot) -> None:
    record = state.extortion
    assert record is not None
    state.gain_spice(MORITANI, record.credit)
    state.set_extortion(record.with_(collected=True))
    state.event("spice-collected", "extortion.collect", faction=MORITANI, amount=record.credit)


@rule("extortion.mentat-order")
def mentat_order(choice: str) -> list[str]:
    return [PLACEMENT_STEP, PAYMENT_STEP] if choice == "placement-first" else [PAYMENT_STEP, PLACEMENT_STEP]


@rule("extortion.bribe-order")
def bribes_before_window(choice: str | None) -> bool:
    # choice: the question's reading; None where no faction the window asks has bribe spice waiting
    return choice is None or choice == "bribes-first"


def _collects_bribes_first(snapshot: Snapshot, interpretations: Mapping[str, str]) -> bool:
    """Whether start-mentat-pause collects the waiting bribes. The question arises when the payment
    window is still to open and a faction it will ask has bribe spice waiting; public facts alone
    decide that, since whether the faction could pay without the bribe shows its hidden spice."""
    record = snapshot.extortion
    if record is None or record.payers is not None:
        return True
    waiting = bribes_waiting(snapshot)
    if any(faction in waiting for faction in payer_queue(snapshot, interpretations)):
        return bribes_before_window(choice_of(interpretations, BRIBE_QUESTION))
    return bribes_before_window(None)


def bribes_may_wait(pause: MentatPause | None) -> bool:
    """Bribe spice still waits in front of a shield before the Mentat Pause starts and, once it has,
    only ahead of its payment window (payment-first)."""
    return pause is None or PAYMENT_STEP in pause.steps


def _window_closed(state: NextSnapshot) -> None:
    """Bribe spice that waited through the payment window (payment-first) is collected as it closes."""
    if any(held.bribe_spice for held in map(state.faction_state, state.faction_ids)):
        bribes_before_window("payment-first")  # bribes left waiting show the Pause began under it
        collect_bribes(state)


def _stronghold_ids() -> list[str]:
    return sorted(
        t.id
        for t in catalog().territories.values()
        if t.type is TerritoryType.STRONGHOLD and t.id != HMS and t.variant is None
    )


@rule("terror.placement")
def placement_targets(terror: Terror | None) -> list[str]:
    taken = set() if terror is None else {t.territory for t in terror.placed}
    return [s for s in _stronghold_ids() if s not in taken]


def _can_place(snapshot: Snapshot, terror: Terror | None) -> bool:
    if terror is None or MORITANI not in snapshot.factions:
        return False
    return bool(terror.supply or terror.placed) and bool(placement_targets(terror))


@rule("extortion.payers")
def payer_queue(snapshot: Snapshot, interpretations: Mapping[str, str]) -> list[str]:
    moritani = snapshot.factions.get(MORITANI)
    ally = None if moritani is None else moritani.ally
    queue = []
    for faction in snapshot.storm_order:
        if faction == MORITANI and choice_of(interpretations, SELF_QUESTION) != "include-moritani":
            continue
        if faction == ally and choice_of(interpretations, ALLY_QUESTION) == "exclude-ally":
            continue
        queue.append(faction)
    return queue


@rule("extortion.recover")
def recover_token(state: NextSnapshot, seed: int, turn: int) -> str:
    record = state.extortion
    terror = state.terror
    assert record is not None and terror is not None
    state.set_extortion(None)
    supply = (*terror.supply, TerrorToken(record.token, EXTORTION))
    supply, renamed = reissue_supply_ids(terror, supply, seed, turn, record.token)
    state.renew_terror_supply(supply)
    state.event("terror-recovered", "extortion.recover", token=record.token, faction=MORITANI)
    state.event("terror-renamed", "extortion.recover", faction=MORITANI, ids=renamed, visible_to=[MORITANI])
    return renamed[EXTORTION]


def reissue_supply_ids(
    terror: Terror, supply: tuple[TerrorToken, ...], seed: int, turn: int, salt: str
) -> tuple[tuple[TerrorToken, ...], dict[str, str]]:
    """Every token in the supply gets a fresh opaque id from the seed, so that none of them, the returned
    Extortion included, can be followed from its old id (nor told apart by its number): the supply
    under its new ids, sorted by id, and kind -> new id."""
    taken = {t.id for t in (*terror.placed, *terror.out_of_play)} | {salt}
    rng = random.Random(f"{seed}:{turn}:{salt}:terror-ids")
    renamed: dict[str, str] = {}
    reissued = []
    for token in supply:
        new_id = f"terror-{rng.randrange(16**6):06x}"
        while new_id in taken:
            new_id = f"terror-{rng.randrange(16**6):06x}"
        taken.add(new_id)
        reissued.append(TerrorToken(new_id, token.kind, token.territory))
        renamed[token.kind] = new_id
    return tuple(sorted(reissued, key=lambda t: t.id)), renamed


def open_mentat_step(
    snapshot: Snapshot, state: NextSnapshot, interpretations: Mapping[str, str]
) -> dict[str, Any] | None:
    """Open the Mentat Pause's next decision, skipping steps with nothing to decide; None when done."""
    pause = state.mentat
    assert pause is not None
    if pause.order and pause.steps:
        mentat_order(pause.order)  # the remaining steps' order rests on that reading
    for step in pause.steps:
        if step == PAYMENT_STEP:
            record = state.extortion
            if record is not None and record.payers is None:
                record = record.with_(payers=tuple(payer_queue(snapshot, interpretations)), next=0)
                state.set_extortion(record)
                state.event("extortion-window-opened", "extortion.payers", payers=list(record.payers or ()))
            if record is not None and (record.next or 0) < len(record.payers or ()):
                return _payment_decision(record)
            if record is not None:
                recover_token(state, snapshot.seed, snapshot.turn)
                _window_closed(state)
        elif step == PLACEMENT_STEP:
            terror = state.terror
            if _can_place(snapshot, terror):
                return _placement_decision(terror)
        state.mentat_step_done()
    return None


def _payment_decision(record: ExtortionRecord) -> dict[str, Any]:
    payer = (record.payers or ())[record.next or 0]
    return opened(payer, ExtortionPayment(owner=MORITANI, token=record.token, amount=PAYMENT))


def _placement_decision(terror: Terror | None) -> dict[str, Any]:
    return opened(MORITANI, TerrorPlacement(strongholds=tuple(placement_targets(terror))))


def _start(snapshot: Snapshot, interpretations: Mapping[str, str]) -> tuple[NextSnapshot, dict[str, Any]]:
    state = NextSnapshot(snapshot)
    banker_collects_at_pause_start(snapshot, state, interpretations)
    bribes: dict[str, int] = {}
    if bribes_waiting(snapshot) and _collects_bribes_first(snapshot, interpretations):
        bribes = collect_bribes(state)
    record = snapshot.extortion
    collected = 0
    if record is not None and not record.collected:
        collect_credit(state)
        collected = BANK_CREDIT
    steps = []
    order = None
    # with a free stronghold the recovered token itself could be placed, so the order matters even when
    # nothing else is left to place
    if record is not None and placement_targets(state.terror):
        order = choice_of(interpretations, ORDER_QUESTION)
        steps = mentat_order(order)
    elif record is not None:
        steps = [PAYMENT_STEP]
    elif _can_place(snapshot, state.terror):
        steps = [PLACEMENT_STEP]
    pause = MentatPause(tuple(steps))
    state.set_mentat(pause if order is None else pause.with_(order=order))
    state.set_pending(open_mentat_step(snapshot, state, interpretations))
    summary = {"mentat": {"extortion_collected": collected, "bribes_collected": bribes}}
    return state, summary


def _pause_can_start(snapshot: Snapshot, action: Action) -> list[Violation]:
    """The Mentat Pause opens once, in its phase, with no decision open."""
    problems = []
    if snapshot.phase is not Phase.MENTAT_PAUSE:
        problems.append(Violation("wrong-phase", "this opens the Mentat Pause", "/snapshot/phase"))
    if snapshot.pending is not None or snapshot.battle is not None:
        problems.append(Violation("decision-pending", "answer the open decision first", "/snapshot/pending"))
    if snapshot.mentat is not None:
        problems.append(
            Violation("mentat-started", "the Mentat Pause has already begun (see snapshot.mentat)", "/snapshot/mentat")
        )
    return problems


@ruled(found(_pause_can_start))
def start_mentat_pause(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    try:
        state, summary = _start(snapshot, context.interpretations)
    except InterpretationNeeded:
        return unresolved(_start_alternatives(snapshot, context, {}), trace, context)
    return _answer(snapshot, state, summary, trace, context)


def _start_alternatives(snapshot: Snapshot, context: Context, chosen: dict[str, str]) -> list[Alternative]:
    """One alternative per combination of the open questions the start reaches (the bribes' collection
    and the Terror placement, each against the payment window)."""
    try:
        state, summary = _start(snapshot, {**context.interpretations, **chosen})
    except InterpretationNeeded as needed:
        found: list[Alternative] = []
        for choice in context.rulebook.implemented_choices(needed.question):
            found += _start_alternatives(snapshot, context, {**chosen, needed.question: choice})
        return found
    return [Alternative(MappingProxyType(chosen), state.outcome(summary), Evidence.PROVISIONAL_ORDERING)]


def _answer(
    snapshot: Snapshot, state: NextSnapshot, summary: dict[str, Any], trace: list[str], context: Context
) -> Adjudication:
    decision = state.pending
    options = context.rulebook.options(state.as_snapshot()) if decision else []
    return resolved(state.outcome(summary), decision, options, trace, context)


# --- the payment window ----------------------------------------------------------------------------


def payment_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """Paying is listed only for a faction that holds 3 spice now; declining always is."""
    player = str(decision.player)
    decline = {"type": ActionType.DECLINE_EXTORTION.value, "player": player}
    faction = snapshot.factions.get(player)
    if faction is not None and faction.spice >= PAYMENT:
        return [{"type": ActionType.PAY_EXTORTION.value, "player": player}, decline]
    return [decline]


def order_conflict(snapshot: Snapshot, interpretations: Mapping[str, str]) -> Violation | None:
    """A request continuing the Mentat Pause cannot choose another order than the one it began with."""
    stored = snapshot.mentat.order if snapshot.mentat is not None else None
    chosen = interpretations.get(ORDER_QUESTION)
    if stored is None or chosen is None or chosen == stored:
        return None
    return Violation(
        "interpretation-mismatch",
        f"this Mentat Pause began under {stored!r}; a later step cannot read it otherwise",
        f"/interpretations/{ORDER_QUESTION}",
        "extortion.mentat-order",
    )


def bribe_order_conflict(snapshot: Snapshot, interpretations: Mapping[str, str]) -> Violation | None:
    """Bribe spice still waiting in a Mentat Pause under way shows it began under payment-first."""
    if snapshot.mentat is None or not bribes_waiting(snapshot):
        return None
    if interpretations.get(BRIBE_QUESTION) in (None, "payment-first"):
        return None
    return Violation(
        "interpretation-mismatch",
        "bribe spice still waits in this Mentat Pause, which began under 'payment-first'; a later step cannot"
        " read it otherwise",
        f"/interpretations/{BRIBE_QUESTION}",
        "extortion.bribe-order",
    )


def _step_conflict(snapshot: Snapshot, interpretations: Mapping[str, str]) -> Violation | None:
    """A later step of the Mentat Pause reads its open questions as the Pause began."""
    return order_conflict(snapshot, interpretations) or bribe_order_conflict(snapshot, interpretations)


def _payment_problem(snapshot: Snapshot, action: Action) -> Violation | None:
    pending = snapshot.pending
    if pending is None or pending.type != PAYMENT_STEP or snapshot.extortion is None:
        return Violation("no-such-decision", "no Extortion payment is being asked for", "/action/type")
    if action.player != pending.player:
        return Violation("not-your-decision", f"{pending.player} is being asked now", "/action/player")
    return None


@rule("extortion.pay")
def pay(state: NextSnapshot, payer: str) -> None:
    state.transfer_spice(payer, MORITANI, PAYMENT, "extortion.pay", "extortion")
    record = state.extortion
    assert record is not None
    state.set_extortion(None)
    state.terror_out_of_play(TerrorToken(record.token, EXTORTION))
    state.event("terror-out-of-play", "extortion.pay", token=record.token)


def _payment_answer(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The payment window asks this faction, under the order the Mentat Pause began with."""
    problem = _payment_problem(snapshot, action) or _step_conflict(snapshot, context.interpretations)
    return [] if problem is None else [problem]


def _can_pay(snapshot: Snapshot, action: Action) -> Violation | None:
    held = snapshot.factions[str(action.player)].spice
    if held < PAYMENT:
        return Violation(
            "cannot-pay", f"{action.player} holds {held} spice, less than {PAYMENT}", "/action/player", "extortion.pay"
        )
    return None


@ruled(_payment_answer, found(_can_pay))
def pay_extortion(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    pay(state, str(action.player))
    _window_closed(state)
    state.mentat_step_done()
    state.set_pending(open_mentat_step(snapshot, state, context.interpretations))
    return _answer(snapshot, state, {"extortion": {"paid_by": action.player}}, trace, context)


@rule("extortion.decline")
def decline(state: NextSnapshot, faction: str) -> None:
    record = state.extortion
    assert record is not None
    state.set_extortion(record.with_(next=(record.next or 0) + 1))
    state.event("extortion-declined", "extortion.decline", faction=faction)


@ruled(_payment_answer)
def decline_extortion(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    decline(state, str(action.player))
    state.set_pending(open_mentat_step(snapshot, state, context.interpretations))
    recovered = state.extortion is None
    summary = {"extortion": {"declined_by": action.player, "recovered": recovered}}
    return _answer(snapshot, state, summary, trace, context)


# --- Terror placement --------------------------------------------------------------------------------


def placement_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    terror = snapshot.terror
    if terror is None:
        return []
    targets = placement_targets(terror)
    place = ActionType.PLACE_TERROR_TOKEN.value
    options = [
        {"type": place, "player": MORITANI, "token": t.id, "territory": target}
        for t in (*terror.supply, *terror.placed)
        for target in targets
    ]
    return [*options, {"type": place, "player": MORITANI, "token": None, "territory": None}]


@ruled()
def place_terror_token(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    if pending is None or pending.type != PLACEMENT_STEP:
        return illegal(
            snapshot, [Violation("no-such-decision", "no Terror placement is open", "/action/type")], trace, context
        )
    problem = _step_conflict(snapshot, context.interpretations)
    if problem is not None:
        return illegal(snapshot, [problem], trace, context)
    offered = placement_options(snapshot, pending)
    answer = {
        "type": ActionType.PLACE_TERROR_TOKEN.value,
        "player": action.player,
        "token": action.fields.get("token"),
        "territory": action.fields.get("territory"),
    }
    if answer not in offered or set(action.fields) - {"token", "territory"}:
        return illegal(
            snapshot,
            [
                Violation(
                    "not-an-option",
                    "the answer is not one of the decision's options",
                    "/action",
                    "terror.placement",
                )
            ],
            trace,
            context,
        )
    state = NextSnapshot(snapshot)
    token_id, territory = action.fields.get("token"), action.fields.get("territory")
    if token_id is not None:
        if state.place_terror(str(token_id), str(territory)):
            state.event("terror-placed", "terror.placement", token=token_id, territory=territory)
        else:
            state.event("terror-moved", "terror.placement", token=token_id, territory=territory)
    state.mentat_step_done()
    state.set_pending(open_mentat_step(snapshot, state, context.interpretations))
    summary = {"terror": {"token": token_id, "territory": territory}}
    return _answer(snapshot, state, summary, trace, context)


def terror_strongholds() -> list[str]:
    """The strongholds a Terror token can lie in, sorted: every stronghold but the Hidden Mobile
    Stronghold and a variant's."""
    return _stronghold_ids()


DECLARED = RuleModule(
    handlers={
        ActionType.REVEAL_EXTORTION: reveal_extortion,
        ActionType.START_MENTAT_PAUSE: start_mentat_pause,
        ActionType.PAY_EXTORTION: pay_extortion,
        ActionType.DECLINE_EXTORTION: decline_extortion,
        ActionType.PLACE_TERROR_TOKEN: place_terror_token,
    },
    decisions={
        PAYMENT_STEP: DecisionKind(payment_options),
        PLACEMENT_STEP: DecisionKind(placement_options),
    },
    implements={
        ORDER_QUESTION: ("placement-first", "recovery-first"),
        SELF_QUESTION: ("exclude-moritani", "include-moritani"),
        ALLY_QUESTION: ("include-ally", "exclude-ally"),
        BRIBE_QUESTION: ("bribes-first", "payment-first"),
    },
)
