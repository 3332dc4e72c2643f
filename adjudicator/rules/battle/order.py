"""Which battles the Battle phase holds, who is the aggressor, and choosing the next battle.

The battles still to fight are read from the board each time a battle is to be chosen, so a battle
that ends a faction's presence in a territory also ends the battles it would have fought there. The
first faction in the order of aggressors with a battle left is the aggressor; it picks which of its
battles is next, and whom it fights where it faces several opponents in one territory. The order of
aggressors is storm order, or the order Juice of Sapho set as the phase began (`aggressors`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import BattleChoiceDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import found, illegal, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId, Phase, TerritoryType
from adjudicator.rules.battle.aggressors import aggressor_rank, order_reading_conflict
from adjudicator.rules.battle.preconditions import STORM_QUESTION, storm_sector_battle
from adjudicator.rules.battle.sectors import sector_groups
from adjudicator.rules.richese import RICHESE, present_as_force, revealed_before_plans, token_in
from adjudicator.rules.state import NextSnapshot, finish

CHOICE = DecisionType.BATTLE_CHOICE.value
AFTER_LOSS_QUESTION = "battle-aggressor-after-loss"
SEQUENCE_QUESTION = "battle-aggressor-territory-sequence"
CHOOSE = ActionType.CHOOSE_BATTLE.value


@dataclass(frozen=True, slots=True)
class Candidate:
    """A battle still to be fought: a territory (one side of the storm where it divides it) and a
    pair of factions, in storm order."""

    territory: str
    sectors: tuple[int, ...] | None
    factions: tuple[str, str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "territory": self.territory,
            "sectors": None if self.sectors is None else list(self.sectors),
            "factions": list(self.factions),
        }


def _is_polar_sink(territory: str) -> bool:
    place = catalog().territories.get(territory)
    return place is not None and place.type is TerritoryType.POLAR_SINK


@rule("battle.order.polar-sink")
def no_battle_in_polar_sink() -> None:
    pass  # traced where forces of several factions share the Polar Sink


@rule("battle.order.allies")
def allies_never_battle() -> None:
    pass  # traced where allies share a territory


@rule("battle.order.advisors")
def advisors_never_battle() -> None:
    pass  # traced where Bene Gesserit advisors share a territory with other factions' forces


def fighters_in(snapshot: Snapshot, territory: str) -> dict[str, set[int | None]]:
    """The factions with forces in the territory and their sectors (Bene Gesserit advisors are
    kept apart from forces)."""
    present: dict[str, set[int | None]] = {}
    for stack in snapshot.forces:
        if stack.territory == territory and stack.regular + stack.elite > 0:
            present.setdefault(stack.faction, set()).add(stack.sector)
    token = token_in(snapshot, territory)
    if token is not None:  # Richese's face-down No-Field token counts as a force
        present.setdefault(RICHESE, set()).add(present_as_force(token))
    return present


def _fronts(
    snapshot: Snapshot,
    territory: str,
    sectors: Mapping[str, set[int | None]],
    pair: tuple[str, str],
    interpretations: Mapping[str, str],
) -> list[tuple[int, ...] | None]:
    """Where a pair of factions meets in a territory: the whole territory (None), or the sides of the
    storm holding forces of both (forces in the storm sector follow question battle-under-storm)."""
    place = catalog().territories.get(territory)
    storm = snapshot.storm_sector
    if place is None or storm not in place.sectors:
        return [None]
    one, other = (sectors[f] for f in pair)
    groups = sector_groups(place.sectors, storm)
    shared = [g for g in groups if g & one and g & other]
    under = storm in one or storm in other
    if under and storm_sector_battle(choice_of(interpretations, STORM_QUESTION)) and len(shared) < 2:
        return [None]  # they battle as usual: the battle covers the territory
    if len(groups) < 2:
        return [tuple(sorted(shared[0]))] if shared else []
    return [tuple(sorted(g)) for g in sorted(shared, key=min)]


@rule("battle.order.battles")
def battles_to_fight(snapshot: Snapshot, interpretations: Mapping[str, str]) -> list[Candidate]:
    # every battle the board still holds, each pair in the order of aggressors, territories by id
    rank = aggressor_rank(snapshot)
    advised = {a.territory for a in snapshot.advisors if a.count}
    found_: list[Candidate] = []
    placed = {s.territory for s in snapshot.forces} | ({snapshot.no_field.territory} if snapshot.no_field else set())
    for territory in sorted(placed):
        present = fighters_in(snapshot, territory)
        if len(present) < 2:
            if territory in advised and present and FactionId.BENE_GESSERIT.value not in present:
                advisors_never_battle()
            continue
        if _is_polar_sink(territory):
            no_battle_in_polar_sink()
            continue
        factions = sorted(present, key=lambda f: (rank[f], f))
        for i, one in enumerate(factions):
            for other in factions[i + 1 :]:
                if snapshot.factions[one].ally == other:
                    allies_never_battle()
                    continue
                for sectors in _fronts(snapshot, territory, present, (one, other), interpretations):
                    found_.append(Candidate(territory, sectors, (one, other)))
    return found_


@rule("battle.order.aggressor")
def aggressor_of(snapshot: Snapshot, candidates: list[Candidate]) -> str | None:
    rank = aggressor_rank(snapshot)
    involved = {f for c in candidates for f in c.factions}
    return min(involved, key=lambda f: (rank[f], f)) if involved else None


def choice_options(snapshot: Snapshot, aggressor: str, candidates: list[Candidate]) -> list[dict[str, Any]]:
    options = []
    for c in candidates:
        if aggressor not in c.factions:
            continue
        opponent = c.factions[1] if c.factions[0] == aggressor else c.factions[0]
        options.append(
            {
                "type": CHOOSE,
                "player": aggressor,
                "territory": c.territory,
                "sectors": None if c.sectors is None else list(c.sectors),
                "opponent": opponent,
            }
        )
    return options


def battle_choice(snapshot: Snapshot, interpretations: Mapping[str, str]) -> dict[str, Any] | None:
    """The aggressor's choice of its next battle, or None when no battle is left (or it is not the
    Battle phase)."""
    if snapshot.phase is not Phase.BATTLE:
        return None
    candidates = battles_to_fight(snapshot, interpretations)
    aggressor = aggressor_of(snapshot, candidates)
    if aggressor is None:
        return None
    return opened(aggressor, BattleChoiceDecision(battles=tuple(c.to_dict() for c in candidates)))


def battle_choice_step(state: NextSnapshot) -> dict[str, Any] | None:
    """The step builder: the next battle to choose once a battle is over. A reading that settles a
    territory before the battle order moves on names it in the decision's `territory`: the decider is
    then the first faction in the order of aggressors with a battle there, and only battles there are
    options."""
    snapshot = state.as_snapshot()
    decision = battle_choice(snapshot, state.readings)
    if decision is None or state.ended_battle is None:
        return decision
    ended = state.ended_battle
    territory = str(ended.get("territory"))
    settle = _after_the_aggressor_lost(snapshot, ended, decision, state.readings)
    settle = settle or _after_the_aggressor_won(ended, decision, state.readings)
    if not settle:
        return decision
    here = [b for b in decision["battles"] if b["territory"] == territory]
    rank = aggressor_rank(snapshot)
    decider = min((f for b in here for f in b["factions"]), key=lambda f: (rank[f], f))
    return {**decision, "player": decider, "territory": territory}


def _after_the_aggressor_won(
    ended: Mapping[str, Any], decision: Mapping[str, Any], readings: Mapping[str, str]
) -> bool:
    """Where the aggressor of the battle just over is still the aggressor and has battles left both in
    that territory and elsewhere, question battle-aggressor-territory-sequence is reached: True when
    its reading keeps the aggressor in that territory."""
    aggressor = ended.get("aggressor")
    if decision["player"] != aggressor:
        return False
    own = [b for b in decision["battles"] if aggressor in b["factions"]]
    here = [b for b in own if b["territory"] == ended.get("territory")]
    if here and len(here) < len(own):
        return not free_battle_order(choice_of(readings, SEQUENCE_QUESTION))
    return False


@rule("battle.order.territory-sequence")
def free_battle_order(choice: str) -> bool:
    return choice == "any-order"


def _after_the_aggressor_lost(
    snapshot: Snapshot, ended: Mapping[str, Any], decision: Mapping[str, Any], readings: Mapping[str, str]
) -> bool:
    """Where the battle just over left its aggressor without forces in a territory that still holds a
    battle, and the next aggressor has no part in it, question battle-aggressor-after-loss is reached:
    True when its reading has that battle fought at once."""
    territory, aggressor = ended.get("territory"), ended.get("aggressor")
    if aggressor in fighters_in(snapshot, str(territory)):
        return False
    left = [b for b in decision["battles"] if b["territory"] == territory]
    if left and all(decision["player"] not in b["factions"] for b in left):
        return not leftover_battle_waits(choice_of(readings, AFTER_LOSS_QUESTION))
    return False


@rule("battle.order.after-aggressor-loss")
def leftover_battle_waits(choice: str) -> bool:
    return choice == "deferred-to-own-turn"


def battle_choice_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """The choices of the battles the decision lists (listed under the request's readings when it was
    opened), or, where it lists none, of those the board holds."""
    if decision.player is None:
        return []
    if "battles" in decision.fields:
        listed = decision.as_(BattleChoiceDecision).battles
        candidates = [
            Candidate(str(b["territory"]), _sectors_of(b["sectors"]), (str(b["factions"][0]), str(b["factions"][1])))
            for b in listed
        ]
    else:
        candidates = battles_to_fight(snapshot, {})
    aggressor_of(snapshot, candidates)  # the decider, as the snapshot's validation checked
    return choice_options(snapshot, decision.player, _in_settled_territory(decision, candidates))


def _in_settled_territory(decision: Decision, candidates: list[Candidate]) -> list[Candidate]:
    """The battles a decision naming a `territory` to settle first leaves to choose from."""
    territory = decision.fields.get("territory")
    return candidates if territory is None else [c for c in candidates if c.territory == territory]


def _sectors_of(raw: Any) -> tuple[int, ...] | None:
    return None if raw is None else tuple(int(x) for x in raw)


def _choice_awaited(snapshot: Snapshot, action: Action) -> Violation | None:
    pending = snapshot.pending
    if pending is None or pending.type != CHOICE:
        return Violation("no-such-decision", "no battle is to be chosen", "/action/type")
    if action.player != pending.player:
        return Violation("not-your-decision", f"the aggressor is {pending.player}", "/action/player")
    return None


def _order_read_alike(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    problem = order_reading_conflict(snapshot, context.interpretations)
    return [] if problem is None else [problem]


def _a_listed_battle(snapshot: Snapshot, action: Action, context: Context) -> Violation | None:
    assert action.player is not None
    candidates = battles_to_fight(snapshot, context.interpretations)
    aggressor_of(snapshot, candidates)
    assert snapshot.pending is not None
    listed = choice_options(snapshot, action.player, _in_settled_territory(snapshot.pending, candidates))
    wanted = (action.fields.get("territory"), action.fields.get("sectors"), action.fields.get("opponent"))
    if any((o["territory"], o["sectors"], o["opponent"]) == wanted for o in listed):
        return None
    return Violation(
        "not-a-battle",
        f"{action.player} has no such battle to fight (listed: {len(listed)})",
        "/action/territory",
        "battle.order.aggressor",
    )


@ruled(found(_choice_awaited), _order_read_alike)
def choose_battle(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert action.player is not None
    problem = _a_listed_battle(snapshot, action, context)
    if problem is not None:
        return illegal(snapshot, [problem], trace, context)
    territory = str(action.fields["territory"])
    opponent = str(action.fields["opponent"])
    sectors = action.fields.get("sectors")
    state = NextSnapshot(snapshot)
    covered = None if sectors is None else frozenset(int(x) for x in sectors)
    fought = revealed_before_plans(snapshot, state, territory, (action.player, opponent), covered, context)
    summary: dict[str, Any] = {
        "territory": territory,
        "aggressor": action.player,
        "defender": opponent,
        "sectors": sectors,
    }
    if fought is False:
        summary["fought"] = False  # the No-Field token revealed left Richese no force there
    else:
        state.begin_battle(territory, action.player, opponent, None if sectors is None else tuple(sectors))
    return finish(snapshot, state, {"battle_chosen": summary}, trace, context)


DECLARED = RuleModule(
    handlers={ActionType.CHOOSE_BATTLE: choose_battle},
    decisions={CHOICE: DecisionKind(battle_choice_options)},
    steps={CHOICE: battle_choice_step},
    implements={
        AFTER_LOSS_QUESTION: ("deferred-to-own-turn", "next-in-storm-order-now"),
        SEQUENCE_QUESTION: ("any-order", "finish-territory-first"),
    },
)
