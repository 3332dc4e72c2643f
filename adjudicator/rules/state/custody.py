"""The working state's custody: Duke Vidal, leaders, captives, Ambassadors, alliances, the turn and
its phases (the order of aggressors kept for a Battle phase among them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.catalog import catalog
from adjudicator.core.snapshot import (
    LeaderState,
    Snapshot,
)
from adjudicator.core.vocabulary import (
    LeaderStatus,
    Phase,
)
from adjudicator.rules.state.base import WorkingCopy


class CustodyState(WorkingCopy):
    """Custody, leaders and alliances of the working state."""

    # --- custody: Duke Vidal, leaders, captives, ambassadors, alliances ---
    @property
    def turn(self) -> int:
        return int(self.wire["turn"])

    @property
    def faction_ids(self) -> tuple[str, ...]:
        """The factions in the game, in snapshot order."""
        return tuple(self.wire["factions"])

    def has_faction(self, faction: str) -> bool:
        return faction in self.wire["factions"]

    def leader_states(self, faction: str) -> Mapping[str, LeaderState]:
        """A faction's own leaders that have a recorded state, by id."""
        return {k: LeaderState.from_dict(v) for k, v in self.wire["factions"][faction]["leaders"].items()}

    def leaders_in(self, status: LeaderStatus, by: str | None = None) -> tuple[tuple[str, str], ...]:
        """(faction, leader) for every leader in `status` (and held by `by`, when given), in snapshot order."""
        return tuple(
            (faction, leader_id)
            for faction, entry in self.wire["factions"].items()
            for leader_id, leader in entry["leaders"].items()
            if leader.get("status") == status.value and (by is None or leader.get("by") == by)
        )

    def _leader_becomes(
        self, faction: str, leader_id: str, status: LeaderStatus, forget: tuple[str, ...] = (), **after: Any
    ) -> None:
        # built in place of the old entry, its other fields in their order, so answers keep their key order
        leaders = self.wire["factions"][faction]["leaders"]
        kept = {k: v for k, v in leaders.get(leader_id, {}).items() if k != "status" and k not in forget}
        leaders[leader_id] = {"status": status.value, **kept, **after}

    def skill_card_face_down(self, leader_id: str) -> bool:
        """Whether a living leader's skill card is recorded face down (behind its faction's shield)."""
        native = catalog().leaders[leader_id].faction
        entry = self.wire["factions"][native]["leaders"].get(leader_id) or {}
        return entry.get("skill") is not None and entry.get("skill_face_up") is False

    def turn_skill_face_up(self, leader_id: str) -> str:
        """The leader's skill card goes face up beside it; its skill is returned."""
        native = catalog().leaders[leader_id].faction
        entry = self.wire["factions"][native]["leaders"][leader_id]
        entry["skill_face_up"] = True
        return str(entry["skill"])

    def turn_skill_face_down(self, leader_id: str) -> None:
        """The leader's skill card goes behind its faction's shield with it."""
        native = catalog().leaders[leader_id].faction
        self.wire["factions"][native]["leaders"][leader_id]["skill_face_up"] = False

    def revive_leader(self, faction: str, leader_id: str) -> None:
        """A leader leaves the Tanks for its faction's pool."""
        self._leader_becomes(faction, leader_id, LeaderStatus.AVAILABLE)

    def revive_ghola(self, leader_id: str) -> None:
        """A leader leaves the Tanks as a Tleilaxu ghola (it stays recorded under its own faction)."""
        native = catalog().leaders[leader_id].faction
        self._leader_becomes(native, leader_id, LeaderStatus.AVAILABLE, ("skill", "skill_face_up"), ghola=True)

    def revive_forces(self, faction: str, regular: int, elite: int = 0) -> None:
        """Forces leave the Tanks for the faction's reserves."""
        entry = self.wire["factions"][faction]
        entry["tanks"]["regular"] -= regular
        entry["reserves"]["regular"] += regular
        entry["tanks"]["elite"] -= elite
        entry["reserves"]["elite"] += elite

    def leader_returns_to_pool(self, faction: str, leader_id: str) -> None:
        """A leader that fought goes back to its pool, no longer tied to the territory it fought in."""
        self._leader_becomes(faction, leader_id, LeaderStatus.AVAILABLE, ("territory",))

    def release_captive(self, faction: str, leader_id: str) -> None:
        """A captive goes back to its own faction's pool."""
        self._leader_becomes(faction, leader_id, LeaderStatus.AVAILABLE, ("by",))

    def take_captive(self, leader_id: str, captor: str) -> None:
        """A leader becomes `captor`'s captive (it stays recorded under its own faction)."""
        native = catalog().leaders[leader_id].faction
        self._leader_becomes(native, leader_id, LeaderStatus.CAPTURED, ("territory", "by"), by=captor)

    def free_kwisatz_haderach(self, faction: str) -> None:
        """The faction's Kwisatz Haderach, if it has one, may join any battle again."""
        token = self.wire["factions"][faction].get("kwisatz_haderach")
        if token is not None:
            token["used_in"] = None

    def record_leader_revival(self, faction: str, turn: int) -> None:
        """The faction has used its ordinary leader revival for `turn`."""
        self.wire["factions"][faction]["leader_revived_turn"] = turn

    def discard_from_hand(self, faction: str, card: str) -> None:
        """A card played from the faction's hand goes to the discard pile."""
        self.wire["factions"][faction]["hand"].remove(card)
        self.wire["discard"].append(card)

    def remove_ambassador(self, token: str, territory: str) -> None:
        """A triggered Ambassador token leaves the stronghold it was in."""
        self.wire["ambassadors"] = [
            a for a in self.wire.get("ambassadors", ()) if not (a["token"] == token and a["territory"] == territory)
        ]

    def ambassadors_in(self, territory: str) -> tuple[str, ...]:
        """The Ambassador tokens placed in a territory."""
        return tuple(a["token"] for a in self.wire.get("ambassadors", ()) if a["territory"] == territory)

    def form_alliance(self, first: str, second: str) -> None:
        self.wire["factions"][first]["ally"] = second
        self.wire["factions"][second]["ally"] = first

    def enter_phase(self, phase: Phase) -> None:
        self.wire["phase"] = phase.value

    def set_aggressor_order(self, order: tuple[str, ...]) -> None:
        """The order of aggressors kept for the rest of the Battle phase (Juice of Sapho changed it)."""
        self.wire["aggressor_order"] = list(order)

    def start_turn(self, turn: int) -> None:
        """The next turn begins, in the Storm phase."""
        self.wire["turn"] = turn
        self.wire["phase"] = Phase.STORM.value

    def clear_mentat_pause(self) -> None:
        """The Mentat Pause is over: the next one starts afresh."""
        self.wire.pop("mentat", None)

    def as_snapshot(self) -> Snapshot:
        """The working copy as a frozen snapshot (to list the next decision's options)."""
        return Snapshot.from_dict(self.wire)

    def outcome(self, summary: dict[str, Any]) -> dict[str, Any]:
        """A resolved answer's outcome: the summary, the events recorded, and the next snapshot."""
        return {"summary": summary, "events": self.events, "snapshot": self.wire}
