"""The cleanup decision a Smuggler leaves to its side under smuggler-several-piles: smuggler-chooses:
`smuggler-collection`, where the side whose Smuggler collects from a battle territory holding spice in
several sectors, more than the leader's strength in all, names how much it takes from each pile. It is
the battle's first cleanup step (the collection belongs to the reveal of the plans), opened on the
resolution's `smuggler` record; the piles are public, so the decision and its options are too. A
winning Sandmaster's addition waits for the answer and is made on the piles the Smuggler leaves.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Action, Context, InterpretationNeeded
from adjudicator.core.decisions import SmugglerCollectionDecision, opened
from adjudicator.core.records import SmugglerRecord
from adjudicator.core.results import Adjudication, Alternative, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, found, ruled, unresolved
from adjudicator.core.snapshot import Battle, Decision, Snapshot
from adjudicator.core.tracing import Trace
from adjudicator.core.vocabulary import ActionType, DecisionType, Evidence
from adjudicator.rules.skill_steps import (
    SMUGGLER_CHOOSES,
    SMUGGLER_PILES_QUESTION,
    collect_named_piles,
    collection_opens_first,
    collection_piles,
    leader_killed,
    pile_ways,
    sandmaster_after_smuggler,
)
from adjudicator.rules.skills import SANDMASTER, battle_effect_applies, sandmaster_step, selected_skill
from adjudicator.rules.state import NextSnapshot, finish

STEP = DecisionType.SMUGGLER_COLLECTION.value
CHOSEN = "skills.smuggler.chooses"


def _cover(battle: Battle) -> frozenset[int] | None:
    """The sectors the resolved battle covers (None: the whole territory), as its resolution recorded."""
    return frozenset(battle.sectors) if battle.sectors else None


def _waiting(snapshot: Snapshot) -> tuple[Battle, SmugglerRecord] | None:
    battle = snapshot.battle
    record = battle.resolution.smuggler if battle is not None and battle.resolution is not None else None
    return None if battle is None or record is None else (battle, record)


def _as_map(piles: Mapping[int, int]) -> dict[str, int]:
    """A way of taking the spice on the wire: sector number (a string key) -> spice taken."""
    return {str(sector): amount for sector, amount in sorted(piles.items())}


def named_pile_violations(snapshot: Snapshot, action: Action) -> list[Violation]:
    """What makes the side's map of piles wrong, each at its path: a sector holding no pile at stake, more
    than a pile holds, a pile left unnamed, a total other than the Smuggler's. An answer to no open
    collection, or by another faction, is left to the decision's own check."""
    pending, waiting = snapshot.pending, _waiting(snapshot)
    if pending is None or pending.type != STEP or action.player != pending.player or waiting is None:
        return []
    battle, record = waiting
    named = action.fields.get("piles")
    if not isinstance(named, Mapping):
        message = "name the spice taken from each pile: piles, sector -> spice"
        return [Violation("missing-field", message, "/action/piles", CHOSEN)]
    piles = collection_piles(snapshot.board_spice, battle.territory, _cover(battle))
    violations: list[Violation] = []
    for key, amount in named.items():
        sector = int(key) if str(key).isdigit() else None  # the wire schema admits sector numbers alone
        if sector is None or sector not in piles:
            message = f"no spice pile at stake in sector {key} (the piles lie in sectors {sorted(piles)})"
            violations.append(Violation("no-such-pile", message, f"/action/piles/{key}", CHOSEN))
        elif amount > piles[sector]:
            message = f"more than the {piles[sector]} spice lying in sector {sector}"
            violations.append(Violation("exceeds-pile", message, f"/action/piles/{key}", CHOSEN))
    for sector in sorted(piles):
        if str(sector) not in named:
            message = f"name the spice taken from the pile in sector {sector} (0 for none)"
            violations.append(Violation("pile-not-named", message, f"/action/piles/{sector}", CHOSEN))
    total = sum(named.values())
    if total != record.amount:
        message = f"the piles named give {total} spice; the Smuggler takes {record.amount}"
        violations.append(Violation("wrong-total", message, "/action/piles", CHOSEN))
    return violations


def _apply(snapshot: Snapshot, action: Action, context: Context) -> tuple[NextSnapshot, dict[str, Any]]:
    waiting = _waiting(snapshot)
    assert waiting is not None and snapshot.battle is not None and snapshot.battle.resolution is not None
    battle, record = waiting
    taken = {int(sector): int(amount) for sector, amount in action.fields["piles"].items()}
    state = NextSnapshot(snapshot)
    collect_named_piles(state, record, battle.territory, taken)
    state.clear_resolution("smuggler")
    state.step_done()
    winner = snapshot.battle.resolution.winner
    plan = battle.plans.get(winner) if winner is not None else None
    if (
        winner is not None
        and plan is not None
        and selected_skill(snapshot, plan) == SANDMASTER
        and battle_effect_applies(not leader_killed(state, plan.leader))
    ):
        sandmaster_after_smuggler()
        sandmaster = sandmaster_step(snapshot, state, winner, battle.territory, context)
        if sandmaster is not None:
            state.update_resolution(sandmaster=sandmaster)
            state.schedule_step(DecisionType.SANDMASTER_PILE.value)
    summary = {"smuggler": {"faction": record.player, "amount": record.amount, "piles": _as_map(taken)}}
    return state, {"battle": summary}


def _alternatives(snapshot: Snapshot, action: Action, context: Context, chosen: dict[str, str]) -> list[Alternative]:
    """One alternative per combination of the open questions the answer reaches (a winning Sandmaster's
    pile among those the Smuggler left)."""
    under = context.under(chosen)
    try:
        state, summary = _apply(snapshot, action, under)
    except InterpretationNeeded as needed:
        alternatives: list[Alternative] = []
        for choice in context.rulebook.implemented_choices(needed.question):
            alternatives += _alternatives(snapshot, action, context, {**chosen, needed.question: choice})
        return alternatives
    outcome = finish(snapshot, state, summary, [], under).outcome
    assert outcome is not None
    return [Alternative(MappingProxyType(chosen), dict(outcome), Evidence.PROVISIONAL_ORDERING)]


def read_smuggler_chooses(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The decision opens only under smuggler-chooses; its answer cannot read the question otherwise."""
    chosen = context.interpretations.get(SMUGGLER_PILES_QUESTION)
    if chosen is None or chosen == SMUGGLER_CHOOSES:
        return []
    return [
        Violation(
            "interpretation-mismatch",
            f"this collection opened under {SMUGGLER_CHOOSES!r}; its answer cannot read the question otherwise",
            f"/interpretations/{SMUGGLER_PILES_QUESTION}",
            CHOSEN,
        )
    ]


@ruled(found(named_pile_violations), answers(STEP), read_smuggler_chooses)
def choose_smuggler_piles(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    if SMUGGLER_PILES_QUESTION not in context.interpretations:  # the answer follows the reading it opened under
        context = context.under({SMUGGLER_PILES_QUESTION: SMUGGLER_CHOOSES})
    try:
        state, summary = _apply(snapshot, action, context)
    except InterpretationNeeded:
        return unresolved(_alternatives(snapshot, action, context, {}), trace, context)
    return finish(snapshot, state, summary, trace, context)


def collection_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    waiting = _waiting(snapshot)
    if waiting is None:
        return []
    battle, record = waiting
    piles = collection_piles(snapshot.board_spice, battle.territory, _cover(battle))
    return [
        {"type": ActionType.CHOOSE_SMUGGLER_PILES.value, "player": decision.player, "piles": _as_map(way)}
        for way in pile_ways(piles, record.amount)
    ]


def _collection_decision(state: NextSnapshot) -> dict[str, Any]:
    record = state.resolution.smuggler
    assert record is not None  # the step is scheduled with its record
    collection_opens_first()
    territory = state.battle_territory
    sectors = tuple(sorted(collection_piles(state.board_spice, territory, state.battle_cover)))
    return opened(record.player, SmugglerCollectionDecision(territory=territory, amount=record.amount, sectors=sectors))


DECLARED = RuleModule(
    handlers={ActionType.CHOOSE_SMUGGLER_PILES: choose_smuggler_piles},
    decisions={STEP: DecisionKind(collection_options)},
    steps={STEP: _collection_decision},
)
