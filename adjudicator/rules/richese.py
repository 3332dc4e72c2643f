"""Richese's No-Field token in a battle.

The snapshot's `no_field` is the one face-down token on the board. Until it is revealed it counts as a
Richese force where it lies, so it meets other factions in battle there; Richese, who knows its value,
plans its battle with the forces it stands for (no more than its reserves hold), and the Atreides'
Prescience cannot ask that plan's dial. The token is revealed as the plans are revealed (question
no-field-battle-reveal, with-plans): `resolve-battle` replaces it with those forces before anything
else, and the battle is resolved on the board so revealed; or as the battle begins (before-plans):
`choose-battle` replaces it, and a battle left without a Richese force is not fought.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Context
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, NoFieldToken, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import FactionId
from adjudicator.rules.state import NextSnapshot

RICHESE = FactionId.RICHESE.value
REVEAL_QUESTION = "no-field-battle-reveal"
WITH_PLANS = "with-plans"
BEFORE_PLANS = "before-plans"


def token_in(snapshot: Snapshot, territory: str, covered: frozenset[int] | None = None) -> NoFieldToken | None:
    """The No-Field token when it lies in the territory (in `covered`, if given), else None."""
    token = snapshot.no_field
    if token is None or token.territory != territory or (covered is not None and token.sector not in covered):
        return None
    return token


@rule("richese.no-field.presence")
def present_as_force(token: NoFieldToken) -> int | None:
    return token.sector


@rule("richese.no-field.battle-forces")
def forces_under(shown: int, reserves: int) -> int:
    return min(shown, reserves)


def battle_forces(snapshot: Snapshot, faction: str, territory: str, covered: frozenset[int] | None) -> int:
    """The forces Richese's No-Field token in this battle stands for (0 for any other side)."""
    if faction != RICHESE or RICHESE not in snapshot.factions:
        return 0
    battle = snapshot.battle
    if battle is None or battle.territory != territory or RICHESE not in (battle.aggressor, battle.defender):
        return 0
    token = token_in(snapshot, territory, covered)
    if token is None:
        return 0
    return forces_under(token.forces, snapshot.factions[RICHESE].reserves.regular)


def in_battle(snapshot: Snapshot, battle: Battle, covered: frozenset[int] | None) -> NoFieldToken | None:
    """The No-Field token when Richese fights this battle and the token lies within it."""
    if RICHESE not in (battle.aggressor, battle.defender):
        return None
    return token_in(snapshot, battle.territory, covered)


def fights_on_no_field(snapshot: Snapshot, battle: Battle, faction: str, covered: frozenset[int] | None) -> bool:
    """Whether this side is Richese with its No-Field token in the battle (a side on a zero token, or
    with empty reserves, has no force to dial, yet battles); its plan counts the token's forces."""
    if faction != RICHESE or snapshot.no_field is None:
        return False
    token = in_battle(snapshot, battle, covered)
    if token is None:
        return False
    present_as_force(token)
    forces_under(token.forces, snapshot.factions[RICHESE].reserves.regular)
    return True


@rule("richese.no-field.prescience-dial")
def dial_not_asked(snapshot: Snapshot, battle: Battle, target: str | None, covered: frozenset[int] | None) -> bool:
    return target == RICHESE and in_battle(snapshot, battle, covered) is not None


def dial_kept_from_prescience(
    snapshot: Snapshot, battle: Battle, target: str | None, covered: frozenset[int] | None
) -> bool:
    """Whether the Prescience against `target` may not ask the dial (traced only where a token lies)."""
    if snapshot.no_field is None or target != RICHESE:
        return False
    return dial_not_asked(snapshot, battle, target, covered)


@rule("richese.no-field.battle-reveal")
def reveal_in_battle(state: NextSnapshot, token: NoFieldToken, reserves: int, choice: str) -> None:
    assert choice == WITH_PLANS  # under before-plans resolve-battle refuses a token still face down
    state.reveal_no_field(forces_under(token.forces, reserves), "richese.no-field.battle-reveal")


@rule("richese.no-field.reveal-as-battle-begins")
def reveal_as_battle_begins(
    snapshot: Snapshot, state: NextSnapshot, token: NoFieldToken, sectors: frozenset[int] | None
) -> bool:
    placed = forces_under(token.forces, snapshot.factions[RICHESE].reserves.regular)
    state.reveal_no_field(placed, "richese.no-field.reveal-as-battle-begins")
    return placed > 0 or any(
        s.faction == RICHESE and s.territory == token.territory and (sectors is None or s.sector in sectors)
        for s in snapshot.forces
    )


def unrevealed_under_before_plans(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    """Under before-plans the token was revealed as the battle began: a locked battle still holding it
    face down was made under the other reading, and is not resolved as if it had been."""
    token = in_battle(snapshot, battle, None) if snapshot.no_field is not None else None
    if token is None or context.choice(REVEAL_QUESTION) != BEFORE_PLANS:
        return []
    return [
        Violation(
            "no-field-unrevealed",
            f"under {REVEAL_QUESTION} {BEFORE_PLANS} the No-Field token is revealed as its battle begins",
            "/snapshot/no_field",
            "richese.no-field.reveal-as-battle-begins",
        )
    ]


def revealed_before_plans(
    snapshot: Snapshot,
    state: NextSnapshot,
    territory: str,
    sides: tuple[str, str],
    sectors: frozenset[int] | None,
    context: Context,
) -> bool | None:
    """Under before-plans, a No-Field token in the battle just chosen is revealed: whether Richese still
    fights it, or None when no token was revealed (the question is read only where a token lies)."""
    token = token_in(snapshot, territory, sectors)
    if token is None or RICHESE not in sides or context.choice(REVEAL_QUESTION) != BEFORE_PLANS:
        return None
    return reveal_as_battle_begins(snapshot, state, token, sectors)


def revealed_for_battle(
    snapshot: Snapshot, covered: frozenset[int] | None, context: Context
) -> tuple[Snapshot, list[dict[str, Any]]]:
    """The snapshot the locked battle is resolved on, with the events that made it: the request's own
    when no No-Field token lies in the battle; else the token revealed and replaced by its forces (the
    sectors the battle covers recorded first, since the token no longer shows them)."""
    battle = snapshot.battle
    assert battle is not None
    token = in_battle(snapshot, battle, covered)
    if token is None:
        return snapshot, []
    state = NextSnapshot(snapshot)
    if covered is not None and battle.sectors is None:
        state.cover_sectors(covered)
    reveal_in_battle(state, token, snapshot.factions[RICHESE].reserves.regular, context.choice(REVEAL_QUESTION))
    return state.as_snapshot(), state.events


DECLARED = RuleModule(implements={REVEAL_QUESTION: (WITH_PLANS, BEFORE_PLANS)})
