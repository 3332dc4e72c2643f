"""What every part of the consistency check shares: the problem list with its JSON pointers, the
snapshot in wire form for the rule functions it asks, and the lookups more than one part needs (a
board place, the battle step a decision answers, the Karama cards a faction could play).

Every part appends to one list, so the order of problems is the order in which `snapshot_problems`
calls the parts.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from adjudicator.core.catalog import Catalog, Territory
from adjudicator.core.errors import Problem
from adjudicator.core.records import Resolution
from adjudicator.core.snapshot import Battle, Decision, Snapshot
from adjudicator.rules.moritani.retention import karama_cards


def pointer(*tokens: object) -> str:
    """A JSON pointer (RFC 6901) from path tokens."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


class Checker:
    """One part of the check: reads the snapshot and the catalog, appends to the shared problem list."""

    def __init__(self, snapshot: Snapshot, cat: Catalog, root: str, problems: list[Problem]) -> None:
        self.s = snapshot
        self.cat = cat
        self.root = root
        self.problems = problems
        self.in_game = set(snapshot.factions)

    def add(self, code: str, message: str, *tokens: object) -> None:
        self.problems.append(Problem(self.root + pointer(*tokens), code, message))

    @cached_property
    def wire(self) -> dict[str, Any]:
        """The snapshot as wire data: the form the rule functions read (built only when one is asked)."""
        return self.s.to_dict()

    def karama_cards_held(self, faction: str | None) -> list[str]:
        """The cards the rules let this faction play as a Karama (none for a faction not in the game)."""
        if faction is None or faction not in self.s.factions:
            return []
        return karama_cards(self.s, faction)

    def area(self, territory_id: str, *path: object) -> Territory | None:
        """Check that a territory (or, with the homeworlds variant, a homeworld) is on this game's board.

        Returns the territory, or None for a homeworld or an id already reported."""
        territory = self.cat.territories.get(territory_id)
        if territory is None:
            if territory_id not in self.cat.homeworlds:
                self.add("unknown-territory", f"no territory with id {territory_id!r}", *path)
            elif "homeworlds" not in self.s.ruleset.variants:
                self.add("territory-not-in-ruleset", "homeworlds need the 'homeworlds' variant", *path)
            return None
        if territory.expansion != "base" and territory.expansion not in self.s.ruleset.expansions:
            self.add("territory-not-in-ruleset", f"{territory_id} needs the {territory.expansion!r} expansion", *path)
        elif territory.variant is not None and territory.variant not in self.s.ruleset.variants:
            self.add("territory-not-in-ruleset", f"{territory_id} needs the {territory.variant!r} variant", *path)
        return territory

    def place(self, territory_id: str, sector: int | None, *path: object) -> None:
        """Check a place on the board: a known territory, and a sector exactly where it has sectors."""
        territory = self.area(territory_id, *path, "territory")
        if territory is None:
            if territory_id in self.cat.homeworlds and sector is not None:
                self.add("sector-not-allowed", "a homeworld has no sectors: use null", *path, "sector")
            return
        if not territory.has_sectors:
            if sector is not None:
                self.add("sector-not-allowed", f"{territory_id} has no sectors: use null", *path, "sector")
        elif sector is None:
            self.add(
                "missing-sector", f"{territory_id} lies in sectors {list(territory.sectors)}: name one", *path, "sector"
            )
        elif sector not in territory.sectors:
            self.add(
                "sector-outside-territory",
                f"sector {sector} is not part of {territory_id} (sectors {list(territory.sectors)})",
                *path,
                "sector",
            )

    def battle_step_answered(self) -> tuple[Decision, Battle, Resolution] | None:
        """The open decision and the resolved battle whose next cleanup step it is, or None (with the
        problem added): the first check of every battle cleanup decision."""
        decision = self.s.pending
        assert decision is not None
        current = self.current_battle_step(decision.type)
        return None if current is None else (decision, *current)

    def current_battle_step(self, decision_type: str) -> tuple[Battle, Resolution] | None:
        """The resolved battle whose next cleanup step is `decision_type`, or None (with the problem added)."""
        battle = self.s.battle
        resolution = battle.resolution if battle is not None else None
        steps = list(resolution.steps) if resolution is not None else []
        if battle is None or resolution is None or not steps or steps[0] != decision_type:
            self.add("decision-out-of-step", f"no resolved battle is waiting for {decision_type}", "pending", "type")
            return None
        return battle, resolution
