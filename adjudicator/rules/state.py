"""The working state of a ruling: the next snapshot being built, changed only through named methods.

`NextSnapshot` starts as a copy of the request's snapshot and records an event for every change; a
rule reads typed values from it (records, ids, counts) and changes it by calling its methods, never by
indexing the wire mapping it keeps. The battle's cleanup steps run in the order `CLEANUP_ORDER`
declares; `finish` opens the next one (or clears the battle) and builds the resolved ruling.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from adjudicator.core.action import Context, Rules
from adjudicator.core.catalog import catalog
from adjudicator.core.records import (
    ExtortionRecord,
    MentatPause,
    Resolution,
    RetentionRecord,
    RihaniRecord,
    SandmasterRecord,
    SemutaBatch,
)
from adjudicator.core.results import Adjudication, NextStep, rulings_of
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import provenance_of
from adjudicator.core.snapshot import (
    Decision,
    DukeVidal,
    FactionState,
    LeaderState,
    Plan,
    Snapshot,
    SpicePile,
    Terror,
    TerrorToken,
)
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import (
    DUKE,
    TLEILAXU,
    BattleResult,
    DecisionType,
    DukeStatus,
    FactionId,
    LeaderStatus,
    Phase,
    RulingStatus,
)

AWAKENING_LOSSES = 7

# The cleanup steps of a resolved battle, in the order they are taken, each only when it has a choice
# (base rulebook pp.10-11 for the winner's casualties and cards; the expansion steps after them, as
# the rules register's cleanup-order entries state). A step may hand over to its follow-up in place,
# and a Semuta opportunity interrupts whichever step is next.
CLEANUP_ORDER: tuple[str, ...] = (
    DecisionType.BATTLE_CASUALTIES.value,
    DecisionType.MORITANI_SPECIAL_KARAMA.value,
    DecisionType.WINNER_CARDS.value,
    DecisionType.SANDMASTER_PILE.value,
    DecisionType.RIHANI_DRAW_OFFER.value,
    DecisionType.MORITANI_RETENTION.value,
    DecisionType.HARKONNEN_CAPTURE.value,
    DecisionType.FACE_DANCER_REVEAL.value,
)
FOLLOW_UPS: Mapping[str, str] = MappingProxyType(
    {
        DecisionType.MORITANI_RETENTION.value: DecisionType.RETENTION_KARAMA.value,
        DecisionType.RIHANI_DRAW_OFFER.value: DecisionType.RIHANI_EXCHANGE.value,
    }
)
INTERRUPTS: tuple[str, ...] = (DecisionType.SEMUTA_OPPORTUNITY.value,)


def in_cleanup_order(steps: Iterable[str]) -> list[str]:
    """The given cleanup steps in the declared order."""
    wanted = set(steps)
    return [step for step in CLEANUP_ORDER if step in wanted]


def duke_in_custody(
    duke: DukeVidal,
    status: DukeStatus,
    controller: str | None = None,
    *,
    by: str | None = None,
    captured_from: str | None = None,
    loaned_by: str | None = None,
    loan_turn: int | None = None,
) -> DukeVidal:
    """The same disc in new custody: of the old record only its history carries over (the turn
    Moritani last took him, his deaths)."""
    return DukeVidal(
        status,
        controller,
        acquired_turn=duke.acquired_turn,
        loaned_by=loaned_by,
        by=by,
        deaths=duke.deaths,
        captured_from=captured_from,
        loan_turn=loan_turn,
    )


@rule("duke-vidal.tenure.one-battle")
def duke_set_aside_after_battle(duke: DukeVidal) -> DukeVidal:
    """Duke Vidal serves his holder for one battle: surviving it, he leaves active custody (set aside)."""
    return duke_in_custody(duke, DukeStatus.SET_ASIDE)


def duke_dies(duke: DukeVidal) -> DukeVidal:
    """The same disc goes to the Tanks, his death recorded (no one else takes custody)."""
    return replace(duke_in_custody(duke, DukeStatus.TANKS), deaths=duke.deaths + 1)


@rule("atreides.kwisatz-haderach.awakens")
def kwisatz_haderach_awakens(token: dict[str, Any]) -> None:
    """Advanced: once the Atreides have lost 7 forces in battles, the Kwisatz Haderach becomes active."""
    token["status"] = "active"


class NextSnapshot:
    """A working copy of the wire snapshot that records an event for every change."""

    def __init__(self, snapshot: Snapshot) -> None:
        # to_dict builds a fresh structure every time, so it can be changed without touching `snapshot`.
        self.wire: dict[str, Any] = snapshot.to_dict()
        self.events: list[dict[str, Any]] = []
        # battle cards discarded in this step, one batch per discarding faction (for Semuta Drug)
        self.batches: dict[str, list[str]] = {}

    def event(self, kind: str, rule_id: str, /, **data: Any) -> None:
        self.events.append({"type": kind, **data, "rule": rule_id})

    # the battle's resolution and its cleanup steps
    @property
    def resolution(self) -> Resolution:
        """The resolved battle's record (the working copy holds a resolved battle)."""
        return Resolution.from_wire(self.wire["battle"]["resolution"])

    def set_resolution(self, record: Resolution) -> None:
        self.wire["battle"]["resolution"] = record.to_wire()

    def update_resolution(self, **changes: Any) -> Resolution:
        """Change fields of the resolution record (an optional one set this way is kept from now on)."""
        record = self.resolution.with_(**changes)
        self.set_resolution(record)
        return record

    def clear_resolution(self, *keys: str) -> None:
        """Drop optional records of the resolution (a finished Sandmaster or Rihani step)."""
        self.set_resolution(self.resolution.without(*keys))

    @property
    def step(self) -> str | None:
        """The cleanup step now open, if any."""
        battle = self.wire["battle"]
        if battle is None or battle.get("resolution") is None:
            return None
        steps = battle["resolution"]["steps"]
        return str(steps[0]) if steps else None

    def step_done(self) -> None:
        """The open cleanup step is answered: the next one (if any) opens."""
        self.wire["battle"]["resolution"]["steps"].pop(0)

    def step_becomes(self, follow_up: str) -> None:
        """The open step hands over to its follow-up in place (a retention to its Karama window)."""
        self.wire["battle"]["resolution"]["steps"][0] = follow_up

    def interrupt(self, step: str) -> None:
        """Open `step` before whatever step is next, unless it is already open."""
        steps = self.wire["battle"]["resolution"]["steps"]
        if not steps or steps[0] != step:
            steps.insert(0, step)

    @property
    def battle_territory(self) -> str:
        return str(self.wire["battle"]["territory"])

    def plan_card(self, faction: str, slot: str) -> str | None:
        """The card still in a battle plan's slot (`cheap_hero`, `weapon`, `defense`)."""
        card: str | None = self.wire["battle"]["plans"][faction][slot]
        return card

    # the open decision
    @property
    def pending(self) -> dict[str, Any] | None:
        pending: dict[str, Any] | None = self.wire["pending"]
        return pending

    def set_pending(self, decision: dict[str, Any] | None) -> None:
        self.wire["pending"] = decision

    # forces
    def forces_to_tanks(
        self, faction: str, territory: str, rule_id: str, regular: int | None = None, elite: int | None = None
    ) -> tuple[int, int]:
        """Move forces of one faction in a territory to its Tanks (None: all of them)."""
        lost_regular = lost_elite = 0
        want_regular = regular if regular is not None else 10**6
        want_elite = elite if elite is not None else 10**6
        kept = []
        for stack in self.wire["forces"]:
            if stack["faction"] == faction and stack["territory"] == territory:
                take_r = min(stack["regular"], want_regular - lost_regular)
                take_e = min(stack["elite"], want_elite - lost_elite)
                stack = {**stack, "regular": stack["regular"] - take_r, "elite": stack["elite"] - take_e}
                lost_regular += take_r
                lost_elite += take_e
                if stack["regular"] == 0 and stack["elite"] == 0:
                    continue
            kept.append(stack)
        self.wire["forces"] = kept
        tanks = self.wire["factions"][faction]["tanks"]
        tanks["regular"] += lost_regular
        tanks["elite"] += lost_elite
        token = self.wire["factions"][faction].get("kwisatz_haderach")
        if token is not None and faction == FactionId.ATREIDES.value and self.wire["ruleset"]["advanced"]:
            self.count_toward_kwisatz_haderach(token, lost_regular + lost_elite)
        if lost_regular or lost_elite:
            self.event(
                "forces-lost", rule_id, faction=faction, territory=territory, regular=lost_regular, elite=lost_elite
            )
        return lost_regular, lost_elite

    def count_toward_kwisatz_haderach(self, token: dict[str, Any], lost: int) -> None:
        token["battle_losses"] = token.get("battle_losses", 0) + lost
        if token["status"] == "inactive" and token["battle_losses"] >= AWAKENING_LOSSES:
            kwisatz_haderach_awakens(token)
            self.event(
                "kwisatz-haderach-awakened", "atreides.kwisatz-haderach.awakens", battle_losses=token["battle_losses"]
            )

    def advisors_to_tanks(self, territory: str, rule_id: str) -> int:
        lost: int = sum(a["count"] for a in self.wire["advisors"] if a["territory"] == territory)
        if lost:
            self.wire["advisors"] = [a for a in self.wire["advisors"] if a["territory"] != territory]
            self.wire["factions"][FactionId.BENE_GESSERIT.value]["tanks"]["regular"] += lost
            self.event(
                "forces-lost",
                rule_id,
                faction=FactionId.BENE_GESSERIT.value,
                territory=territory,
                regular=lost,
                elite=0,
                advisors=True,
            )
        return lost

    def spice_destroyed(self, territory: str, rule_id: str) -> None:
        lost = sum(p["amount"] for p in self.wire["board_spice"] if p["territory"] == territory)
        if lost:
            self.wire["board_spice"] = [p for p in self.wire["board_spice"] if p["territory"] != territory]
            self.event("spice-destroyed", rule_id, territory=territory, amount=lost)

    # spice
    def pay_from_bank(self, faction: str, amount: int, rule_id: str, reason: str) -> None:
        if amount:
            self.wire["factions"][faction]["spice"] += amount
            self.event("spice-paid", rule_id, payer="bank", payee=faction, amount=amount, reason=reason)

    def pay_to_bank(self, faction: str, amount: int, rule_id: str, reason: str) -> None:
        if amount:
            self.wire["factions"][faction]["spice"] -= amount
            self.event("spice-paid", rule_id, payer=faction, payee="bank", amount=amount, reason=reason)

    # cards
    def discard_from_plan(self, faction: str, slot: str, rule_id: str) -> str | None:
        plan = self.wire["battle"]["plans"][faction]
        card: str | None = plan[slot]
        if card is not None:
            plan[slot] = None
            self.wire["discard"].append(card)
            self.event("card-discarded", rule_id, faction=faction, card=card)
            self.batches.setdefault(faction, []).append(card)
        return card

    def return_to_hand(self, faction: str, slot: str, rule_id: str) -> str | None:
        plan = self.wire["battle"]["plans"][faction]
        card: str | None = plan[slot]
        if card is not None:
            plan[slot] = None
            self.wire["factions"][faction]["hand"].append(card)
            self.event("card-kept", rule_id, faction=faction, card=card)
        return card

    # leaders
    def leader_to_tanks(self, leader_id: str, cause: str) -> None:
        if leader_id == DUKE:
            duke = self.duke
            assert duke is not None, "a Duke Vidal in play"
            self.set_duke(duke_dies(duke))
        else:
            native = catalog().leaders[leader_id].faction
            self.wire["factions"][native]["leaders"][leader_id] = {"status": LeaderStatus.TANKS.value}
        self.event("leader-killed", cause, leader=leader_id)

    def leader_fought(self, leader_id: str, territory: str) -> None:
        """A surviving leader stays committed to this territory for the rest of the phase."""
        if leader_id == DUKE:
            duke = self.duke
            assert duke is not None, "a Duke Vidal in play"
            self.set_duke(duke_set_aside_after_battle(duke))
            self.event("duke-vidal-set-aside", "duke-vidal.tenure.one-battle")
            return
        native = catalog().leaders[leader_id].faction
        leaders = self.wire["factions"][native]["leaders"]
        state = {k: v for k, v in leaders.get(leader_id, {}).items() if k not in ("by", "status", "territory")}
        leaders[leader_id] = {"status": LeaderStatus.USED.value, **state, "territory": territory}

    # --- custody: Duke Vidal, leaders, captives, ambassadors, alliances ---
    @property
    def duke(self) -> DukeVidal | None:
        """Duke Vidal's custody as it now stands (None: not in this game)."""
        raw = self.wire["duke_vidal"]
        return None if raw is None else DukeVidal.from_dict(raw)

    def set_duke(self, duke: DukeVidal | None) -> None:
        """Duke Vidal changes custody (written in the order `_duke_wire` keeps)."""
        self.wire["duke_vidal"] = None if duke is None else self._duke_wire(duke)

    @staticmethod
    def _duke_wire(duke: DukeVidal) -> dict[str, Any]:
        # Custody changes have always written the record in this order (holder, captor and whom he was
        # taken from, a loan, then his history), which differs from DukeVidal.to_dict once a captor or
        # a loan is recorded; answers keep it.
        out: dict[str, Any] = {"status": duke.status.value, "controller": duke.controller}
        if duke.by is not None:
            out["by"] = duke.by
        if duke.status is DukeStatus.CAPTURED:
            out["captured_from"] = duke.captured_from  # named even when nobody held him
        if duke.loaned_by is not None:
            out["loaned_by"] = duke.loaned_by
        if duke.loan_turn is not None:
            out["loan_turn"] = duke.loan_turn
        if duke.acquired_turn is not None:
            out["acquired_turn"] = duke.acquired_turn
        if duke.deaths:
            out["deaths"] = duke.deaths
        if duke.fought_in is not None:
            out["fought_in"] = duke.fought_in
        return out

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
        self, faction: str, leader_id: str, status: LeaderStatus, forget: tuple[str, ...] = (), **after: str
    ) -> None:
        # built in place of the old entry, its other fields in their order, so answers keep their key order
        leaders = self.wire["factions"][faction]["leaders"]
        kept = {k: v for k, v in leaders.get(leader_id, {}).items() if k != "status" and k not in forget}
        leaders[leader_id] = {"status": status.value, **kept, **after}

    def revive_leader(self, faction: str, leader_id: str) -> None:
        """A leader leaves the Tanks for its faction's pool."""
        self._leader_becomes(faction, leader_id, LeaderStatus.AVAILABLE)

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

    def form_alliance(self, first: str, second: str) -> None:
        self.wire["factions"][first]["ally"] = second
        self.wire["factions"][second]["ally"] = first

    def enter_phase(self, phase: Phase) -> None:
        self.wire["phase"] = phase.value

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

    # --- battle cards, retention and Semuta ---
    # The resolution's parts are read and written one by one here: a whole `Resolution` round trip costs
    # more than resolve-battle can afford on every step.
    def battle_resolved(
        self,
        result: BattleResult,
        winner: str | None,
        loser: str | None,
        steps: Iterable[str],
        used_cards: Iterable[str],
        capture: str | None,
        retention: RetentionRecord | None,
        sandmaster: SandmasterRecord | None = None,
        rihani: RihaniRecord | None = None,
        duke_in_capture_pool: bool = False,
    ) -> None:
        """Record what the battle decided and the cleanup steps to come (in the order given)."""
        resolution: dict[str, Any] = {
            "result": result.value,
            "winner": winner,
            "loser": loser,
            "decided_by_traitor": result is BattleResult.SINGLE_TRAITOR,
            "steps": list(steps),
            "used_cards": list(used_cards),
            "capture": capture,
            "retention": None if retention is None else retention.to_wire(),
        }
        if sandmaster is not None:
            resolution["sandmaster"] = sandmaster.to_wire()
        if rihani is not None:
            resolution["rihani"] = rihani.to_wire()
        if duke_in_capture_pool:
            resolution["duke_in_capture_pool"] = True
        self.wire["battle"]["resolution"] = resolution

    def schedule_step(self, step: str) -> None:
        """Add a cleanup step in its declared place among the steps to come."""
        steps = self.wire["battle"]["resolution"]["steps"]
        rank = CLEANUP_ORDER.index(step)
        later = (i for i, s in enumerate(steps) if s in CLEANUP_ORDER and CLEANUP_ORDER.index(s) > rank)
        steps.insert(next(later, len(steps)), step)

    @property
    def winner(self) -> str | None:
        """The resolved battle's winner (None when it has none)."""
        winner: str | None = self.wire["battle"]["resolution"]["winner"]
        return winner

    @property
    def retention(self) -> RetentionRecord | None:
        raw = self.wire["battle"]["resolution"].get("retention")
        return None if raw is None else RetentionRecord.from_wire(raw)

    def set_retention(self, record: RetentionRecord) -> None:
        self.wire["battle"]["resolution"]["retention"] = record.to_wire()

    @property
    def semuta_queue(self) -> tuple[SemutaBatch, ...]:
        """The discard batches still waiting for Semuta answers, the one asked about first."""
        return tuple(SemutaBatch.from_wire(b) for b in self.wire["battle"]["resolution"].get("semuta") or ())

    def queue_semuta(self, batches: Iterable[SemutaBatch]) -> None:
        """Queue fresh batches behind the waiting ones (the queue is kept, even empty, once begun)."""
        self.wire["battle"]["resolution"].setdefault("semuta", []).extend(b.to_wire() for b in batches)

    def set_semuta_queue(self, batches: Iterable[SemutaBatch]) -> None:
        self.wire["battle"]["resolution"]["semuta"] = [b.to_wire() for b in batches]

    @property
    def advanced(self) -> bool:
        return bool(self.wire["ruleset"]["advanced"])

    @property
    def storm_order(self) -> tuple[str, ...]:
        return tuple(self.wire["storm_order"])

    def hand(self, faction: str) -> tuple[str, ...]:
        return tuple(self.wire["factions"][faction]["hand"])

    @property
    def discard_pile(self) -> tuple[str, ...]:
        return tuple(self.wire["discard"])

    def special_karama_used(self, faction: str) -> bool:
        return bool(self.wire["factions"][faction].get("special_karama_used", False))

    def traitors(self, faction: str) -> tuple[str, ...]:
        return tuple(self.wire["factions"][faction]["traitors"])

    def called_traitors(self, faction: str) -> tuple[str, ...]:
        return tuple(self.wire["factions"][faction].get("called_traitors", ()))

    def plan(self, faction: str) -> Plan:
        """A battle plan as it stands now (cards leave it as they are kept or discarded)."""
        return Plan.from_dict(self.wire["battle"]["plans"][faction])

    def has_plan(self, faction: str) -> bool:
        return faction in self.wire["battle"]["plans"]

    def commit_plan(self, faction: str, plan: Plan) -> None:
        """A side's plan is set in the battle, its cards leaving the hand."""
        hand = self.wire["factions"][faction]["hand"]
        for card in plan.cards:
            hand.remove(card)
        self.wire["battle"]["plans"][faction] = plan.to_dict()

    def reveal_plans(self) -> None:
        self.wire["battle"]["revealed"] = True

    def take_from_discard(self, faction: str, card: str) -> None:
        """A card leaves the discard pile for the hand (the caller records the event)."""
        self.wire["discard"].remove(card)
        self.wire["factions"][faction]["hand"].append(card)

    def add_to_batch(self, faction: str, card: str) -> None:
        """Count a discard not made from a plan in the faction's fresh batch of this step (Semuta Drug)."""
        self.batches.setdefault(faction, []).append(card)

    def take_batches(self) -> list[tuple[str, tuple[str, ...]]]:
        """This step's fresh discard batches, each faction's once; none remain afterwards."""
        batches = [(faction, tuple(cards)) for faction, cards in self.batches.items()]
        self.batches.clear()
        return batches

    def spend_special_karama(self, faction: str) -> None:
        """The faction's once-a-game special Karama power is used."""
        self.wire["factions"][faction]["special_karama_used"] = True

    def mark_traitor_called(self, faction: str, leader: str) -> None:
        """The Traitor card of `leader` is called: it can no longer be exchanged."""
        entry = self.wire["factions"][faction]
        entry["called_traitors"] = [*entry.get("called_traitors", []), leader]

    def kwisatz_haderach_fought(self, territory: str) -> None:
        """The Kwisatz Haderach joined a battle here: the one territory it may join this turn."""
        self.wire["factions"][FactionId.ATREIDES.value]["kwisatz_haderach"]["used_in"] = territory

    def kwisatz_haderach_to_tanks(self) -> None:
        self.wire["factions"][FactionId.ATREIDES.value]["kwisatz_haderach"]["status"] = "tanks"

    def duke_stays_in(self, territory: str) -> None:
        """A loaned Duke Vidal stays with his recipient for the turn, fighting again only in `territory`."""
        self.wire["duke_vidal"]["fought_in"] = territory

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

    def leader_in_tanks(self, leader_id: str) -> bool:
        native = catalog().leaders[leader_id].faction
        leader = self.wire["factions"][native]["leaders"].get(leader_id, {})
        return bool(leader.get("status") == LeaderStatus.TANKS.value)

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

    def gain_spice(self, faction: str, amount: int) -> None:
        """Spice a faction takes into its spendable spice (the caller records why)."""
        self.wire["factions"][faction]["spice"] += amount

    def transfer_spice(self, payer: str, payee: str, amount: int, rule_id: str, reason: str) -> None:
        self.wire["factions"][payer]["spice"] -= amount
        self.wire["factions"][payee]["spice"] += amount
        self.event("spice-paid", rule_id, payer=payer, payee=payee, amount=amount, reason=reason)

    def forces_in(self, faction: str, territory: str) -> int:
        """A faction's forces in a territory, all sectors."""
        return sum(
            int(s["regular"]) + int(s["elite"])
            for s in self.wire["forces"]
            if s["faction"] == faction and s["territory"] == territory
        )

    def forces_to_reserves(self, faction: str, territory: str) -> tuple[int, int]:
        """All of a faction's forces in a territory go back to its reserves; (regular, elite) moved."""
        regular = elite = 0
        kept = []
        for stack in self.wire["forces"]:
            if stack["faction"] == faction and stack["territory"] == territory:
                regular += stack["regular"]
                elite += stack["elite"]
            else:
                kept.append(stack)
        self.wire["forces"] = kept
        reserves = self.wire["factions"][faction]["reserves"]
        reserves["regular"] += regular
        reserves["elite"] += elite
        return regular, elite

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


def open_next_step(state: NextSnapshot, rulebook: Rules) -> dict[str, Any] | None:
    """Set `pending` to the battle's next cleanup decision, or clear the battle when none remains."""
    step = state.step
    if step is None:
        state.wire["battle"] = None
        state.set_pending(None)
        return None
    decision = rulebook.step_decision(step, state)
    state.set_pending(decision)
    return decision


def finish(
    snapshot: Snapshot, state: NextSnapshot, summary: dict[str, Any], trace: list[str], context: Context
) -> Adjudication:
    if state.batches and state.wire["battle"] is not None:
        for hook in context.rulebook.after_discards:
            hook(state)
    decision = open_next_step(state, context.rulebook)
    # The working copy is already in wire form; the value objects are built only when listing the
    # options needs more than the decision itself.
    options: list[dict[str, Any]] = []
    if decision is not None:
        if context.rulebook.is_self_contained(decision["type"]):
            options = context.rulebook.options_of(snapshot, Decision.from_dict(decision))
        else:
            options = context.rulebook.options(Snapshot.from_dict(state.wire))
    return Adjudication(
        status=RulingStatus.RESOLVED,
        outcome=MappingProxyType({"summary": summary, "events": state.events, "snapshot": state.wire}),
        next=NextStep(decision, tuple(options)),
        violations=(),
        rulings=rulings_of(trace),
        alternatives=(),
        provenance=provenance_of(context),
    )


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule()
