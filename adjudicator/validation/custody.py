"""Custody: who holds what, and that each piece is in one place only.

Checks Duke Vidal's custody (held, lent by Ecaz, captured by the Harkonnen, dead or set aside), an
open acquisition of him by Moritani and its Karama window, Ecaz's Ambassador tokens, the Face Dancers
and the Traitor cards (each in one place: a hand, the Face Dancers, the Traitor deck, a Rihani draw)
and the Traitor cards a faction has called. `controls_leader` and `in_tanks` answer, for the battle
plans, who controls a leader (a captor its captive) and whether it is dead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adjudicator.core.catalog import Catalog
from adjudicator.core.decisions import DukeVidalKarama
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.vocabulary import DecisionType, DukeStatus, FactionId, LeaderStatus, Phase
from adjudicator.rules.tleilaxu import FACE_DANCERS_HELD
from adjudicator.validation.base import Checker, pointer

DUKE = "duke-vidal"


class CustodyChecks(Checker):
    """Duke Vidal, the Ambassadors, the Face Dancers and the Traitor cards."""

    def decision_checks(self) -> Mapping[str, Callable[[], None]]:
        """The open decisions this part checks, by type."""
        return {
            DecisionType.DUKE_VIDAL_ACQUISITION.value: self.duke_decision,
            DecisionType.DUKE_VIDAL_KARAMA.value: self.duke_decision,
        }

    # -- Duke Vidal ------------------------------------------------------------------------------
    def duke(self) -> None:
        duke = self.s.duke_vidal
        if duke is None:
            return
        if "ecaz-moritani" not in self.s.ruleset.expansions:
            self.add("duke-vidal-not-in-ruleset", "Duke Vidal needs the 'ecaz-moritani' expansion", "duke_vidal")
            return
        if duke.status is DukeStatus.HELD:
            if duke.controller is None:
                self.add("missing-controller", "a held Duke Vidal needs a controller", "duke_vidal", "controller")
            elif duke.controller not in self.in_game:
                self.add("controller-not-in-game", f"{duke.controller} is not in this game", "duke_vidal", "controller")
            if duke.loaned_by is not None and (
                duke.loaned_by != FactionId.ECAZ
                or duke.loaned_by not in self.in_game
                or duke.controller == FactionId.ECAZ
            ):
                self.add(
                    "invalid-loan",
                    "only Ecaz, in the game, lends Duke Vidal to another faction",
                    "duke_vidal",
                    "loaned_by",
                )
            if (duke.loan_turn is None) != (duke.loaned_by is None):
                self.add("invalid-loan", "a loan names both loaned_by and loan_turn", "duke_vidal", "loan_turn")
            if duke.fought_in is not None:
                if duke.loaned_by is None:
                    self.add("invalid-loan", "fought_in is only for a loaned Duke Vidal", "duke_vidal", "fought_in")
                else:
                    self.area(duke.fought_in, "duke_vidal", "fought_in")
            if duke.loan_turn is not None and duke.loan_turn != self.s.turn:
                self.add(
                    "invalid-loan", f"a loan lasts its turn; this is turn {self.s.turn}", "duke_vidal", "loan_turn"
                )
            if duke.acquired_turn is not None and duke.acquired_turn > self.s.turn:
                self.add(
                    "invalid-turn",
                    f"acquired on turn {duke.acquired_turn}, after this turn {self.s.turn}",
                    "duke_vidal",
                    "acquired_turn",
                )
        else:
            # a captive keeps the loan he was on when captured, since his return may restore it
            loan_keys = ("loaned_by", "loan_turn") if duke.status is not DukeStatus.CAPTURED else ()
            for key in ("controller", "fought_in", *loan_keys):
                if getattr(duke, key) is not None:
                    self.add("custody-without-holder", f"{key!r} is only for status 'held'", "duke_vidal", key)
            if duke.status is DukeStatus.CAPTURED and duke.loaned_by is not None:
                if duke.loaned_by != FactionId.ECAZ or duke.loan_turn is None or duke.loan_turn > self.s.turn:
                    self.add(
                        "invalid-loan",
                        "a captive's loan names Ecaz and a turn no later than this one",
                        "duke_vidal",
                        "loaned_by",
                    )
                elif duke.captured_from is None or duke.captured_from == FactionId.ECAZ:
                    self.add(
                        "invalid-loan",
                        "a captive taken while on loan names the borrower he was captured from",
                        "duke_vidal",
                        "captured_from",
                    )
        if duke.status is DukeStatus.CAPTURED:
            if duke.by != FactionId.HARKONNEN or duke.by not in self.in_game:
                self.add(
                    "invalid-captor", "a captured Duke Vidal needs 'by': the Harkonnen, in the game", "duke_vidal", "by"
                )
            if duke.captured_from is not None and (
                duke.captured_from not in self.in_game or duke.captured_from == duke.by
            ):
                self.add(
                    "invalid-prior-holder",
                    "captured_from must be another faction in the game",
                    "duke_vidal",
                    "captured_from",
                )
        else:
            if duke.by is not None:
                self.add("captor-without-capture", "'by' is only for status 'captured'", "duke_vidal", "by")
            if duke.captured_from is not None:
                self.add(
                    "captor-without-capture",
                    "'captured_from' is only for status 'captured'",
                    "duke_vidal",
                    "captured_from",
                )

    def duke_decision(self) -> None:
        """Moritani's acquisition of Duke Vidal, or its Karama window, as Shipment and Movement ends."""
        decision = self.s.pending
        assert decision is not None
        if self.s.phase is not Phase.SHIPMENT_MOVEMENT or self.s.duke_vidal is None:
            self.add(
                "decision-out-of-step",
                "Duke Vidal's acquisition is decided as Shipment and Movement ends",
                "pending",
                "type",
            )
        if decision.type == DecisionType.DUKE_VIDAL_ACQUISITION and decision.player != FactionId.MORITANI:
            self.add("wrong-decider", "the acquisition is Moritani's", "pending", "player")
        duke = self.s.duke_vidal
        # custody only: whether Moritani may take him was the acquisition check's to rule when it opened
        if duke is not None and (
            duke.status in (DukeStatus.TANKS, DukeStatus.USED)
            or (duke.status is DukeStatus.HELD and duke.controller == FactionId.MORITANI)
        ):
            self.add(
                "decision-mismatch",
                "Moritani can be taking Duke Vidal only while he is alive and not already Moritani's",
                "duke_vidal",
                "status",
            )
        if decision.type == DecisionType.DUKE_VIDAL_KARAMA:
            if decision.player == FactionId.MORITANI:
                self.add(
                    "wrong-decider",
                    "Moritani cannot answer its own acquisition's Karama window",
                    "pending",
                    "player",
                )
            elif list(decision.as_(DukeVidalKarama).eligible) != self.karama_cards_held(decision.player):
                self.add(
                    "decision-mismatch",
                    "'eligible' must be the Karama cards the decider holds",
                    "pending",
                    "eligible",
                )

    # -- Ecaz's Ambassadors ------------------------------------------------------------------------
    def ambassadors(self) -> None:
        if not self.s.ambassadors:
            return
        if FactionId.ECAZ.value not in self.in_game:
            self.add(
                "ambassadors-without-ecaz", "Ambassador tokens belong to Ecaz, who is not in this game", "ambassadors"
            )
            return
        seen: dict[str, int] = {}
        holding: dict[str, int] = {}
        for i, ambassador in enumerate(self.s.ambassadors):
            if ambassador.token == FactionId.MORITANI.value:
                self.add("unknown-ambassador", "there is no Moritani Ambassador token", "ambassadors", i, "token")
            elif ambassador.token in seen:
                self.add(
                    "duplicate-ambassador",
                    f"the {ambassador.token} token is also at /ambassadors/{seen[ambassador.token]}",
                    "ambassadors",
                    i,
                    "token",
                )
            seen.setdefault(ambassador.token, i)
            territory = self.area(ambassador.territory, "ambassadors", i, "territory")
            if territory is None:
                continue
            if not territory.is_stronghold:
                self.add("not-a-stronghold", "Ambassadors are placed in strongholds", "ambassadors", i, "territory")
            elif ambassador.territory in holding:
                self.add(
                    "stronghold-has-ambassador",
                    f"a stronghold holds one Ambassador; see /ambassadors/{holding[ambassador.territory]}",
                    "ambassadors",
                    i,
                    "territory",
                )
            holding.setdefault(ambassador.territory, i)

    # -- Face Dancers and the Traitor deck --------------------------------------------------------
    def face_dancers(self) -> None:
        places: dict[str, str] = {}
        for fid, fs in self.s.factions.items():
            for i, leader_id in enumerate(fs.traitors):
                places.setdefault(leader_id, f"{self.root}/factions/{fid}/traitors/{i}")
        for fid, fs in self.s.factions.items():
            held = (("face_dancers", fs.face_dancers), ("revealed_face_dancers", fs.revealed_face_dancers))
            if fid != FactionId.TLEILAXU and (fs.face_dancers or fs.revealed_face_dancers):
                self.add(
                    "face-dancers-not-tleilaxu", "only the Tleilaxu hold Face Dancers", "factions", fid, "face_dancers"
                )
                continue
            for key, ids in held:
                for i, leader_id in enumerate(ids):
                    self.traitor_card_place(places, leader_id, "factions", fid, key, i)
            total = len(fs.face_dancers) + len(fs.revealed_face_dancers)
            if total > FACE_DANCERS_HELD:
                self.add(
                    "too-many-face-dancers",
                    f"the Tleilaxu hold {FACE_DANCERS_HELD} Face Dancers, not {total}",
                    "factions",
                    fid,
                    "face_dancers",
                )
        for i, leader_id in enumerate(self.s.traitor_deck or ()):
            self.traitor_card_place(places, leader_id, "traitor_deck", i)
        battle = self.s.battle
        record = battle.resolution.rihani if battle is not None and battle.resolution is not None else None
        if record is not None:
            for i, leader_id in enumerate(record.drawn):
                self.traitor_card_place(places, leader_id, "battle", "resolution", "rihani", "drawn", i)
        for fid, fs in self.s.factions.items():
            for i, leader_id in enumerate(fs.called_traitors):
                if leader_id not in fs.traitors:
                    self.add(
                        "called-traitor-not-held",
                        f"{fid} holds no Traitor card of {leader_id}",
                        "factions",
                        fid,
                        "called_traitors",
                        i,
                    )

    def traitor_card_place(self, places: dict[str, str], leader_id: str, *path: object) -> None:
        leader = self.cat.leaders.get(leader_id)
        if leader is None:
            self.add("unknown-leader", f"no leader with id {leader_id!r}", *path)
        elif not leader.traitor_card:
            self.add("no-traitor-card", f"{leader_id} has no Traitor card", *path)
        elif leader.faction not in self.in_game:
            self.add(
                "traitor-faction-not-in-game", f"{leader_id}'s faction {leader.faction} is not in this game", *path
            )
        elif leader_id in places:
            self.add("traitor-in-two-places", f"the Traitor card of {leader_id} is also at {places[leader_id]}", *path)
        else:
            places[leader_id] = self.root + pointer(*path)


def controls_leader(snapshot: Snapshot, cat: Catalog, fid: str, leader_id: str) -> bool:
    """Whether the faction commands the leader: its own, or a captive it holds (Duke Vidal: his holder)."""
    if leader_id == DUKE:
        duke = snapshot.duke_vidal
        if duke is not None and duke.status is DukeStatus.CAPTURED:
            return duke.by == fid
        return duke is not None and duke.status is DukeStatus.HELD and duke.controller == fid
    leader = cat.leaders[leader_id]
    native = snapshot.factions.get(leader.faction)
    state = native.leaders.get(leader_id) if native is not None else None
    if state is not None and state.status is LeaderStatus.CAPTURED:
        return state.by == fid
    if state is not None and state.ghola:  # a foreign ghola serves the Tleilaxu
        return fid == FactionId.TLEILAXU
    return leader.faction == fid


def in_tanks(snapshot: Snapshot, cat: Catalog, leader_id: str) -> bool:
    if leader_id == DUKE:
        return snapshot.duke_vidal is not None and snapshot.duke_vidal.status is DukeStatus.TANKS
    native = snapshot.factions.get(cat.leaders[leader_id].faction)
    state = native.leaders.get(leader_id) if native is not None else None
    return state is not None and state.status is LeaderStatus.TANKS
