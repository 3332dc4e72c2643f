"""The working state's Moritani Terror and Extortion, Traitor deck, Face Dancers, spice piles and skills."""

from __future__ import annotations

import random
from dataclasses import replace

from adjudicator.core.catalog import catalog
from adjudicator.core.records import (
    ExtortionRecord,
    MentatPause,
)
from adjudicator.core.snapshot import (
    FactionState,
    SpicePile,
    Terror,
    TerrorToken,
)
from adjudicator.core.vocabulary import (
    TLEILAXU,
    LeaderStatus,
)
from adjudicator.rules.state.base import WorkingCopy


class MoritaniState(WorkingCopy):
    """Terror, Extortion, the Traitor deck, Face Dancers and board spice of the working state."""

    # --- Moritani's Terror and Extortion, the Traitor deck, Face Dancers, skills ---
    @property
    def extortion(self) -> ExtortionRecord | None:
        """The revealed Extortion still outstanding, if any."""
        raw = self.wire.get("extortion")
        return None if raw is None else ExtortionRecord.from_wire(raw)

    def set_extortion(self, record: ExtortionRecord | None) -> None:
        """Keep the Extortion's record, or drop it once the token is paid off or recovered."""
        if record is None:
            self.wire.pop("extortion", None)
        else:
            self.wire["extortion"] = record.to_wire()

    @property
    def mentat(self) -> MentatPause | None:
        """The Mentat Pause under way, if any."""
        raw = self.wire.get("mentat")
        return None if raw is None else MentatPause.from_wire(raw)

    def set_mentat(self, pause: MentatPause) -> None:
        self.wire["mentat"] = pause.to_wire()

    def mentat_step_done(self) -> None:
        """The Mentat Pause's open step is over: its next one (if any) comes up."""
        self.wire["mentat"]["steps"].pop(0)

    @property
    def terror(self) -> Terror | None:
        """Moritani's Terror tokens, if Moritani has any."""
        raw = self.wire.get("terror")
        return None if raw is None else Terror.from_dict(raw)

    def _keep_terror(self, terror: Terror) -> None:
        self.wire["terror"] = terror.to_dict()

    def _terror_now(self) -> Terror:
        terror = self.terror
        assert terror is not None, "Moritani's Terror tokens are in this game"
        return terror

    def reveal_terror(self, token_id: str) -> TerrorToken:
        """A placed Terror token is turned face up: it leaves its stronghold (and is returned)."""
        terror = self._terror_now()
        token = next(t for t in terror.placed if t.id == token_id)
        self._keep_terror(replace(terror, placed=tuple(t for t in terror.placed if t is not token)))
        return token

    def place_terror(self, token_id: str, territory: str) -> bool:
        """Moritani puts a token from its supply into `territory` (True), or moves a placed one there."""
        terror = self._terror_now()
        token = next((t for t in terror.supply if t.id == token_id), None)
        if token is not None:
            self._keep_terror(
                replace(
                    terror,
                    supply=tuple(t for t in terror.supply if t is not token),
                    placed=(*terror.placed, replace(token, territory=territory)),
                )
            )
            return True
        moved = tuple(replace(t, territory=territory) if t.id == token_id else t for t in terror.placed)
        self._keep_terror(replace(terror, placed=moved))
        return False

    def terror_out_of_play(self, token: TerrorToken) -> None:
        terror = self._terror_now()
        self._keep_terror(replace(terror, out_of_play=(*terror.out_of_play, token)))

    def renew_terror_supply(self, supply: tuple[TerrorToken, ...]) -> None:
        """Moritani's hidden supply as it now stands (a token recovered, the ids reissued)."""
        self._keep_terror(replace(self._terror_now(), supply=supply))

    @property
    def traitor_deck(self) -> tuple[str, ...]:
        """The face-down Traitor deck, top first (empty when the snapshot does not give it)."""
        return tuple(self.wire.get("traitor_deck") or ())

    def draw_traitor_cards(self, count: int) -> tuple[str, ...]:
        """Take the Traitor deck's top `count` cards."""
        deck = self.wire["traitor_deck"]
        drawn, self.wire["traitor_deck"] = deck[:count], deck[count:]
        return tuple(drawn)

    def return_to_traitor_deck(self, *cards: str) -> None:
        """Put cards back at the bottom of the Traitor deck (a shuffle usually follows)."""
        self.wire["traitor_deck"] = [*self.wire["traitor_deck"], *cards]

    def shuffle_traitor_deck(self, rng: random.Random) -> None:
        """Shuffle the Traitor deck with `rng` (seeded by the rule that shuffles)."""
        deck = list(self.wire["traitor_deck"])
        rng.shuffle(deck)
        self.wire["traitor_deck"] = deck

    def faction_state(self, faction: str) -> FactionState:
        """A faction's state as it now stands."""
        return FactionState.from_dict(self.wire["factions"][faction])

    def assassinated(self, faction: str) -> tuple[str, ...]:
        """The Traitor cards a faction (Moritani) revealed to assassinate a leader."""
        return tuple(self.wire["factions"][faction].get("assassinated", ()))

    def record_assassination(self, faction: str, leader: str) -> None:
        """The Traitor card of `leader` is revealed to assassinate: it stays held until the turn ends."""
        entry = self.wire["factions"][faction]
        entry["assassinated"] = [*entry.get("assassinated", []), leader]

    def assassination_forfeited(self, faction: str) -> bool:
        return bool(self.wire["factions"][faction].get("assassination_forfeited", False))

    def forfeit_assassination(self, faction: str) -> None:
        self.wire["factions"][faction]["assassination_forfeited"] = True

    def replace_traitor_card(self, faction: str, old: str, new: str | None) -> None:
        """Traitor card `old` leaves the hand (set aside); `new`, drawn, takes its place (none: the deck was empty)."""
        held = self.wire["factions"][faction]["traitors"]
        if new is None:
            held.remove(old)
        else:
            held[held.index(old)] = new

    def exchange_traitor_card(self, faction: str, old: str, new: str) -> None:
        """A faction gives back Traitor card `old` and keeps `new` in its place."""
        held = self.wire["factions"][faction]["traitors"]
        held[held.index(old)] = new

    @property
    def face_dancers(self) -> tuple[str, ...]:
        """The Tleilaxu's unrevealed Face Dancers (none without the Tleilaxu)."""
        tleilaxu = self.wire["factions"].get(TLEILAXU)
        return () if tleilaxu is None else tuple(tleilaxu.get("face_dancers", ()))

    @property
    def has_face_dancers(self) -> bool:
        """Whether the Tleilaxu hold an unrevealed Face Dancer (checked after every battle)."""
        tleilaxu = self.wire["factions"].get(TLEILAXU)
        return tleilaxu is not None and bool(tleilaxu.get("face_dancers"))

    @property
    def revealed_face_dancers(self) -> tuple[str, ...]:
        tleilaxu = self.wire["factions"].get(TLEILAXU)
        return () if tleilaxu is None else tuple(tleilaxu.get("revealed_face_dancers", ()))

    def exchange_face_dancer(self, old: str, new: str) -> None:
        """The Tleilaxu give back Face Dancer `old` and keep `new` in its place."""
        held = self.wire["factions"][TLEILAXU]["face_dancers"]
        held[held.index(old)] = new

    def reveal_face_dancer(self, leader: str) -> None:
        tleilaxu = self.wire["factions"][TLEILAXU]
        tleilaxu["face_dancers"] = [f for f in tleilaxu["face_dancers"] if f != leader]
        tleilaxu["revealed_face_dancers"] = [*tleilaxu.get("revealed_face_dancers", []), leader]

    def new_face_dancers(self, drawn: tuple[str, ...]) -> None:
        """The Tleilaxu hold `drawn` as their Face Dancers; none is revealed any more."""
        tleilaxu = self.wire["factions"][TLEILAXU]
        tleilaxu["face_dancers"] = list(drawn)
        tleilaxu["revealed_face_dancers"] = []

    def all_in_tanks(self, faction: str, leader_ids: list[str]) -> bool:
        """Whether `faction` is in the game and every one of its leaders `leader_ids` is in the Tanks."""
        entry = self.wire["factions"].get(faction)
        if entry is None:
            return False
        leaders = entry["leaders"]
        return all(leaders.get(leader_id, {}).get("status") == LeaderStatus.TANKS for leader_id in leader_ids)

    def leader_in_tanks(self, leader_id: str) -> bool:
        native = catalog().leaders[leader_id].faction
        leader = self.wire["factions"][native]["leaders"].get(leader_id, {})
        return bool(leader.get("status") == LeaderStatus.TANKS)  # a StrEnum equals its value

    def battle_leader(self, faction: str) -> str | None:
        """The leader disc a side of the battle fights with (None for a Cheap Hero or no plan)."""
        plan = self.wire["battle"]["plans"].get(faction) or {}
        leader: str | None = plan.get("leader")
        return leader

    @property
    def board_spice(self) -> tuple[SpicePile, ...]:
        return tuple(SpicePile.from_dict(p) for p in self.wire["board_spice"])

    def add_spice_to_pile(self, territory: str, sector: int | None, amount: int) -> None:
        """Spice from the bank joins the pile in a territory's sector."""
        for pile in self.wire["board_spice"]:
            if pile["territory"] == territory and pile["sector"] == sector:
                pile["amount"] += amount

    def add_banker_gain(self, faction: str, phase: str) -> None:
        """The faction's Spice Banker gains 1 in this phase, owed to it until the turn ends."""
        entry = self.wire["factions"][faction]
        entry["banker_gains"] = [*entry.get("banker_gains", ()), phase]

    def add_bureaucrat_use(self, faction: str, phase: str) -> None:
        """The faction's face-up Bureaucrat acted in this phase (once a phase)."""
        entry = self.wire["factions"][faction]
        entry["bureaucrat_uses"] = [*entry.get("bureaucrat_uses", ()), phase]

    def clear_bureaucrat_uses(self) -> None:
        """The turn ends: every Bureaucrat may act again."""
        for entry in self.wire["factions"].values():
            entry.pop("bureaucrat_uses", None)

    def collect_banker_gains(self, faction: str) -> int:
        """The faction takes the spice its Spice Banker gained this turn; how much."""
        gains = self.wire["factions"][faction].pop("banker_gains", [])
        self.wire["factions"][faction]["spice"] += len(gains)
        return len(gains)

    def collect_bribe_spice(self, faction: str) -> int:
        """The spice waiting in front of the faction's shield goes behind it; how much."""
        amount = int(self.wire["factions"][faction].pop("bribe_spice", 0))
        self.wire["factions"][faction]["spice"] += amount
        return amount

    def take_from_pile(self, territory: str, sector: int | None, amount: int) -> None:
        """Spice a faction takes off the pile in a territory's sector (an emptied pile leaves the board)."""
        piles = []
        for pile in self.wire["board_spice"]:
            if pile["territory"] == territory and pile["sector"] == sector:
                pile = {**pile, "amount": pile["amount"] - amount}
                if pile["amount"] <= 0:
                    continue
            piles.append(pile)
        self.wire["board_spice"] = piles

    def some_forces_to_reserves(
        self,
        faction: str,
        territory: str,
        regular: int | None,
        elite: int | None,
        sectors: frozenset[int] | None = None,
    ) -> tuple[int, int]:
        """`regular` and `elite` forces (None: all) of a faction in a territory (only in `sectors`, if
        given) go back to its reserves, stack by stack in the board's order; (regular, elite) moved."""
        moved_regular, moved_elite = self.lift_forces(faction, territory, regular, elite, sectors)
        reserves = self.wire["factions"][faction]["reserves"]
        reserves["regular"] += moved_regular
        reserves["elite"] += moved_elite
        return moved_regular, moved_elite

    def gain_spice(self, faction: str, amount: int) -> None:
        """Spice a faction takes into its spendable spice (the caller records why)."""
        self.wire["factions"][faction]["spice"] += amount

    def transfer_spice(self, payer: str, payee: str, amount: int, rule_id: str, reason: str) -> None:
        self.wire["factions"][payer]["spice"] -= amount
        self.wire["factions"][payee]["spice"] += amount
        self.event("spice-paid", rule_id, payer=payer, payee=payee, amount=amount, reason=reason)

    def forces_in(self, faction: str, territory: str, sectors: frozenset[int] | None = None) -> int:
        """A faction's forces in a territory, all sectors (only `sectors`, if given)."""
        return sum(
            int(s["regular"]) + int(s["elite"])
            for s in self.wire["forces"]
            if s["faction"] == faction and s["territory"] == territory and (sectors is None or s["sector"] in sectors)
        )

    def move_forces(
        self,
        faction: str,
        territory: str,
        regular: int,
        elite: int,
        sectors: frozenset[int] | None,
        to: tuple[str, int | None],
    ) -> tuple[int, int]:
        """`regular` and `elite` forces of a faction in a territory (only in `sectors`, if given) move to
        the place `to` (territory, sector), stack by stack in the board's order; (regular, elite) moved."""
        moved_regular, moved_elite = self.lift_forces(faction, territory, regular, elite, sectors)
        stack = {"faction": faction, "territory": to[0], "sector": to[1]}
        stack |= {"regular": moved_regular, "elite": moved_elite}
        for held in self.wire["forces"]:
            if held["faction"] == faction and held["territory"] == to[0] and held.get("sector") == to[1]:
                held["regular"] += moved_regular
                held["elite"] += moved_elite
                break
        else:
            self.wire["forces"].append(stack)
        return moved_regular, moved_elite

    def occupied_territories(self) -> frozenset[str]:
        """The territories where any faction has forces (advisors and a No-Field token included)."""
        held = {str(s["territory"]) for s in self.wire["forces"] if int(s["regular"]) + int(s["elite"]) > 0}
        held |= {str(a["territory"]) for a in self.wire.get("advisors") or () if int(a["count"]) > 0}
        no_field = self.wire.get("no_field")
        if no_field is not None:
            held.add(str(no_field["territory"]))
        return frozenset(held)

    def forces_to_reserves(
        self, faction: str, territory: str, sectors: frozenset[int] | None = None
    ) -> tuple[int, int]:
        """All of a faction's forces in a territory (only in `sectors`, if given) go back to its reserves;
        (regular, elite) moved."""
        return self.some_forces_to_reserves(faction, territory, None, None, sectors)

    def bring_in_forces(
        self,
        faction: str,
        territory: str,
        sector: int | None,
        from_reserves: int,
        from_board: tuple[tuple[str, int | None, int], ...],
    ) -> int:
        """Put regular forces into a territory's sector, from reserves and from board stacks
        (territory, sector, count); how many came in."""
        self.wire["factions"][faction]["reserves"]["regular"] -= from_reserves
        moved = from_reserves
        for where, where_sector, count in from_board:
            remaining = count
            moved += remaining
            for stack in self.wire["forces"]:
                if (
                    remaining
                    and stack["faction"] == faction
                    and stack["territory"] == where
                    and stack["sector"] == where_sector
                ):
                    stack["regular"] -= remaining
                    remaining = 0
        self.wire["forces"] = [s for s in self.wire["forces"] if s["regular"] or s["elite"]]
        if moved:
            target = next(
                (
                    s
                    for s in self.wire["forces"]
                    if s["faction"] == faction and s["territory"] == territory and s["sector"] == sector
                ),
                None,
            )
            if target is None:
                self.wire["forces"].append(
                    {"faction": faction, "territory": territory, "sector": sector, "regular": moved, "elite": 0}
                )
            else:
                target["regular"] += moved
        return moved
