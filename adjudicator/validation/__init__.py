"""Consistency checks of a snapshot: every problem with a JSON pointer and a stable code
(docs/contract.md, "Snapshot validation").

These checks concern what a snapshot can describe at all (ids, places, counts, custody) and whether
its records and open decision agree with each other; whether a battle plan is legal under the rules
is decided by the battle rules, not here. Where a check needs a rule (which cards a winner may keep,
which leader the seed draws, which cards can be played as a Karama, ...) it asks the rule module.
The checks run outside any rule tracing, so they record no rulings.

The parts, in the order their problems are reported: `structure` (ruleset, factions, board, cards),
`custody` (Duke Vidal, Ambassadors, Face Dancers and Traitor cards), whether the open decision can be
open in the snapshot's phase, `moritani` (Terror, Extortion, the Mentat Pause), `battle`, `sapho` (the
order of aggressors Juice of Sapho set), then the open decision (checked by the part it belongs to),
then `skills` (the leader-skill records).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from adjudicator.core.catalog import catalog
from adjudicator.core.errors import InvalidSnapshot, Problem
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.vocabulary import DecisionType
from adjudicator.validation.battle import BattleChecks
from adjudicator.validation.custody import CustodyChecks
from adjudicator.validation.moritani import MoritaniChecks
from adjudicator.validation.sapho import SaphoChecks
from adjudicator.validation.skills import SkillChecks
from adjudicator.validation.structure import StructureChecks

__all__ = ["snapshot_problems", "validate_snapshot"]


def snapshot_problems(snapshot: Snapshot, root: str = "/snapshot") -> list[Problem]:
    """Every consistency problem of the snapshot; empty when it is sound."""
    if snapshot.pending is not None and snapshot.pending.type == DecisionType.GIFT_KARAMA.value:
        return _gift_window_problems(snapshot, root)
    problems: list[Problem] = []
    cat = catalog()
    structure = StructureChecks(snapshot, cat, root, problems)
    custody = CustodyChecks(snapshot, cat, root, problems)
    moritani = MoritaniChecks(snapshot, cat, root, problems)
    battle = BattleChecks(snapshot, cat, root, problems)
    skills = SkillChecks(snapshot, cat, root, problems)
    sapho = SaphoChecks(snapshot, cat, root, problems)
    structure.ruleset()
    structure.factions()
    structure.board()
    structure.cards()
    custody.duke()
    custody.ambassadors()
    custody.face_dancers()
    in_phase = structure.decision_in_phase()
    moritani.terror(in_phase)
    moritani.assassination()
    battle.battle()
    sapho.aggressor_order()
    moritani.held_discards_record()
    if snapshot.pending is not None:
        structure.decider_in_game()
        decision_checks: Mapping[str, Callable[[], None]] = {
            **custody.decision_checks(),
            **moritani.decision_checks(),
            **battle.decision_checks(),
            **skills.decision_checks(),
            **sapho.decision_checks(),
        }
        check = decision_checks.get(snapshot.pending.type)
        # a decision its phase cannot hold is reported once: its own checks assume the phase
        if check is not None and in_phase:
            check()
    skills.skill_records()
    skills.suk_rescue_record()
    skills.smuggler_record()
    skills.mentat_karama()
    skills.banker_gains()
    return problems


def _gift_window_problems(snapshot: Snapshot, root: str) -> list[Problem]:
    """A Karama window on the Emperor's gift stands in front of the decision it interrupted: the
    snapshot is checked with that decision open (its problems pointed at `pending/resumes`), then the
    window itself."""
    assert snapshot.pending is not None
    at = f"{root}/pending"
    resumed = snapshot.pending.fields.get("resumes")
    if resumed is not None and not (isinstance(resumed, Mapping) and isinstance(resumed.get("type"), str)):
        return [Problem(f"{at}/resumes", "decision-mismatch", "'resumes' must be a decision or null")]
    if resumed is not None and resumed["type"] == DecisionType.GIFT_KARAMA.value:  # one window, never nested
        return [Problem(f"{at}/resumes/type", "decision-out-of-step", "a gift never interrupts its own window")]
    inner = replace(snapshot, pending=None if resumed is None else Decision.from_dict(resumed), memo={})
    problems = [
        replace(p, path=f"{at}/resumes{p.path[len(at) :]}") if p.path.startswith(at) else p
        for p in snapshot_problems(inner, root)
    ]
    cat = catalog()
    structure = StructureChecks(snapshot, cat, root, problems)
    if structure.decision_in_phase():
        structure.decider_in_game()
        BattleChecks(snapshot, cat, root, problems).gift_window_decision()
    return problems


def validate_snapshot(snapshot: Snapshot, root: str = "/snapshot") -> Snapshot:
    """The snapshot itself when it is consistent; otherwise `InvalidSnapshot` with every problem."""
    problems = snapshot_problems(snapshot, root)
    if problems:
        raise InvalidSnapshot(problems)
    return snapshot
