"""The working state's core: the wire copy, its events, the battle's resolution and steps, forces,
spice, cards and leaders; Duke Vidal's custody helpers and the Kwisatz Haderach's awakening."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from adjudicator.core.catalog import catalog
from adjudicator.core.records import (
    Resolution,
)
from adjudicator.core.snapshot import (
    DukeVidal,
    Snapshot,
)
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import (
    DUKE,
    DecisionType,
    DukeStatus,
    FactionId,
    LeaderStatus,
)

AWAKENING_LOSSES = 7

# The steps before a battle's plans, in the order they are taken, each only when it applies: Ecaz's
# choice of which of itself and its ally fights an Occupy battle first (rule ecaz.occupy.fighter: the
# fighter's leader, cards and Mentat are the side's), then a face-up Mentat's question (Leader Skills
# before faction powers, as the rules register's skills.mentat.question.first states), then the window
# on Residual Poison and Juice of Sapho (rule richese.cards.window: before the Voice; its later steps,
# rule richese.cards.later-openings, are added as it closes), the Voice before
# Prescience (base rulebook Q&A, as the rules register's battle.prelude.order states), then one Karama
# window on the powers that act once the plans are made.
PRELUDE_ORDER: tuple[str, ...] = (
    DecisionType.OCCUPY_FIGHTER.value,
    DecisionType.MENTAT_QUESTION.value,
    DecisionType.PRE_BATTLE_CARDS.value,
    DecisionType.VOICE.value,
    DecisionType.PRESCIENCE.value,
    DecisionType.BATTLE_KARAMA.value,
)

# The cleanup steps of a resolved battle, in the order they are taken, each only when it has a choice
# (base rulebook pp.10-11 for the winner's casualties and cards; a Smuggler's piles first, since it
# collects as the plans are revealed, rule skills.smuggler.chooses-first; the Auditor's inspection before the
# others and the other expansion steps after them, as the rules register's cleanup-order entries state; the
# choice of the forces a Harass and Withdraw side dialed before the losses that follow from it, rule
# battle.card.harass-and-withdraw-choice, and the reserve forces Reinforcements sends beside them, rule
# battle.card.reinforcements-choice). Moritani's retention opens with its ally's choice, or with its
# Karama window under question retention-karama-timing's karama-before-declaration (the one or the
# other, in the same place). A step may hand over to its follow-up in place, and a Semuta opportunity
# interrupts whichever step is next.
CLEANUP_ORDER: tuple[str, ...] = (
    DecisionType.SMUGGLER_COLLECTION.value,
    DecisionType.AUDIT_PAYMENT.value,
    DecisionType.HARASS_WITHDRAWAL.value,
    DecisionType.REINFORCEMENTS_FORCES.value,
    DecisionType.DIPLOMAT_RETREAT.value,
    DecisionType.BATTLE_CASUALTIES.value,
    DecisionType.SUK_GRADUATE_FORCES.value,
    DecisionType.SUBOID_SWAP.value,
    DecisionType.MORITANI_SPECIAL_KARAMA.value,
    DecisionType.WINNER_CARDS.value,
    DecisionType.SANDMASTER_PILE.value,
    DecisionType.RIHANI_DRAW_OFFER.value,
    DecisionType.RETENTION_KARAMA.value,
    DecisionType.MORITANI_RETENTION.value,
    DecisionType.MORITANI_ASSASSINATION.value,
    DecisionType.HARKONNEN_CAPTURE.value,
    DecisionType.FACE_DANCER_REVEAL.value,
)
# Moritani's retention steps, which question retention-continuation-order's continuations-first puts
# after the Harkonnen capture and the Face Dancer reveal (rule moritani.retention.after-continuations)
RETENTION_STEPS: tuple[str, ...] = (DecisionType.RETENTION_KARAMA.value, DecisionType.MORITANI_RETENTION.value)
RETENTION_LAST_ORDER: tuple[str, ...] = (
    *(step for step in CLEANUP_ORDER if step not in RETENTION_STEPS),
    *RETENTION_STEPS,
)
FOLLOW_UPS: Mapping[str, str] = MappingProxyType(
    {
        # the ally's declared card to its Karama window; under karama-before-declaration the window,
        # closed unstopped, to the ally's choice
        DecisionType.MORITANI_RETENTION.value: DecisionType.RETENTION_KARAMA.value,
        DecisionType.RETENTION_KARAMA.value: DecisionType.MORITANI_RETENTION.value,
        DecisionType.RIHANI_DRAW_OFFER.value: DecisionType.RIHANI_EXCHANGE.value,
        DecisionType.FACE_DANCER_REVEAL.value: DecisionType.FACE_DANCER_KARAMA.value,
    }
)
INTERRUPTS: tuple[str, ...] = (DecisionType.SEMUTA_OPPORTUNITY.value,)
# the steps an interruption waits for (rules skills.smuggler.chooses-first, choam.auditor.cleanup-order)
UNINTERRUPTED: frozenset[str] = frozenset({DecisionType.SMUGGLER_COLLECTION.value, DecisionType.AUDIT_PAYMENT.value})


def cleanup_order(retention_last: bool) -> tuple[str, ...]:
    """The order a battle's cleanup steps are taken in: `CLEANUP_ORDER`, or with Moritani's retention
    after the continuations (`retention_last`, question retention-continuation-order)."""
    return RETENTION_LAST_ORDER if retention_last else CLEANUP_ORDER


def in_cleanup_order(steps: Iterable[str], order: tuple[str, ...] = CLEANUP_ORDER) -> list[str]:
    """The given cleanup steps in the declared order (or in `order`, one of `cleanup_order`'s)."""
    wanted = set(steps)
    return [step for step in order if step in wanted]


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
    return duke_in_custody(duke, DukeStatus.SET_ASIDE)


def duke_dies(duke: DukeVidal) -> DukeVidal:
    """The same disc goes to the Tanks, his death recorded (no one else takes custody)."""
    return replace(duke_in_custody(duke, DukeStatus.TANKS), deaths=duke.deaths + 1)


@rule("atreides.kwisatz-haderach.awakens")
def kwisatz_haderach_awakens(token: dict[str, Any]) -> None:
    token["status"] = "active"


class WorkingCopy:
    """A working copy of the wire snapshot that records an event for every change."""

    def __init__(self, snapshot: Snapshot) -> None:
        # to_dict builds a fresh structure every time, so it can be changed without touching `snapshot`.
        self.wire: dict[str, Any] = snapshot.to_dict()
        self.events: list[dict[str, Any]] = []
        # the request's readings of open questions, for the step builders (set by `finish`)
        self.readings: Mapping[str, str] = {}
        # battle cards discarded in this step, one batch per discarding faction (for Semuta Drug)
        self.batches: dict[str, list[str]] = {}
        # the battle the step just ended, once it is cleared (for the builder of the next battle-choice)
        self.ended_battle: Mapping[str, Any] | None = None

    def event(self, kind: str, rule_id: str, /, **data: Any) -> None:
        self.events.append({"type": kind, **data, "rule": rule_id})

    def follows(self, earlier: list[dict[str, Any]]) -> None:
        """The events of an earlier working state of the same ruling (the state this one was built
        from) come first."""
        self.events[:0] = earlier

    # Duke Vidal's custody
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
        # a Smuggler's piles belong to the reveal, and the Auditor's cards are the hand as the battle
        # left it: both stay ahead
        at = 0
        while at < len(steps) and steps[at] in UNINTERRUPTED:
            at += 1
        if len(steps) <= at or steps[at] != step:
            steps.insert(at, step)

    # the battle before its plans
    def begin_battle(self, territory: str, aggressor: str, defender: str, sectors: tuple[int, ...] | None) -> None:
        """The aggressor's chosen battle begins: no plan is made yet, the steps before them to come."""
        battle: dict[str, Any] = {"territory": territory}
        if sectors is not None:
            battle["sectors"] = sorted(sectors)
        battle.update(
            aggressor=aggressor,
            defender=defender,
            plans={},
            traitor_calls=[],
            poison_tooth_withheld=[],
            revealed=False,
            prelude=list(PRELUDE_ORDER),
        )
        self.wire["battle"] = battle
        self.event(
            "battle-chosen",
            "battle.order.aggressor",
            territory=territory,
            sectors=None if sectors is None else sorted(sectors),
            aggressor=aggressor,
            defender=defender,
        )

    @property
    def prelude_step(self) -> str | None:
        """The step before the plans now open, if any."""
        battle = self.wire["battle"]
        steps = battle.get("prelude") if battle is not None else None
        return str(steps[0]) if steps else None

    def reorder_prelude(self, steps: list[str]) -> None:
        """The steps still to come before the plans, in a new order (a reading of their order)."""
        self.wire["battle"]["prelude"] = list(steps)

    def prelude_done(self, step: str) -> None:
        """The step before the plans now open, `step`, is over: the next one (or the plans) follows."""
        battle = self.wire["battle"]
        assert self.prelude_step == step, f"{step} is not the open step before the plans"
        battle["prelude"].pop(0)
        if not battle["prelude"]:
            del battle["prelude"]

    def record_cards_window_after(self, after: list[str]) -> None:
        """What the window on Residual Poison and Juice of Sapho has now opened after (`voice`,
        `prescience`; empty once its first opening is over), so a later step opens for news only."""
        self.wire["battle"]["pre_battle_cards_after"] = list(after)

    @property
    def battle_territory(self) -> str:
        return str(self.wire["battle"]["territory"])

    @property
    def battle_cover(self) -> frozenset[int] | None:
        """The sectors the battle covers as recorded in it (None: the whole territory)."""
        sectors = self.wire["battle"].get("sectors")
        return frozenset(sectors) if sectors else None

    def cover_sectors(self, sectors: frozenset[int]) -> None:
        """Record the sectors the battle covers (continuations read them from the battle)."""
        self.wire["battle"]["sectors"] = sorted(sectors)

    def cards_in_plan(self, faction: str, slots: tuple[str, ...] = ("weapon", "defense")) -> list[str]:
        """The cards still in a battle plan's `slots`, in slot order (cards leave as they are kept or
        discarded)."""
        plan = self.wire["battle"]["plans"][faction]
        return [card for card in (plan[slot] for slot in slots) if card is not None]

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
    def lift_forces(
        self, faction: str, territory: str, regular: int | None, elite: int | None, sectors: frozenset[int] | None
    ) -> tuple[int, int]:
        """Take up to `regular` and `elite` forces (None: all) of a faction off a territory (only in
        `sectors`, if given), stack by stack in the board's order: the (regular, elite) taken."""
        want_regular = regular if regular is not None else 10**6
        want_elite = elite if elite is not None else 10**6
        taken_regular = taken_elite = 0
        kept = []
        for stack in self.wire["forces"]:
            if (
                stack["faction"] == faction
                and stack["territory"] == territory
                and (sectors is None or stack["sector"] in sectors)
            ):
                take_r = min(stack["regular"], want_regular - taken_regular)
                take_e = min(stack["elite"], want_elite - taken_elite)
                stack = {**stack, "regular": stack["regular"] - take_r, "elite": stack["elite"] - take_e}
                taken_regular += take_r
                taken_elite += take_e
                if stack["regular"] == 0 and stack["elite"] == 0:
                    continue
            kept.append(stack)
        self.wire["forces"] = kept
        return taken_regular, taken_elite

    def forces_to_tanks(
        self,
        faction: str,
        territory: str,
        rule_id: str,
        regular: int | None = None,
        elite: int | None = None,
        sectors: frozenset[int] | None = None,
        count_for_kwisatz_haderach: bool = True,
    ) -> tuple[int, int]:
        """Move forces of one faction in a territory (only in `sectors`, if given) to its Tanks (None:
        all of them); Atreides losses count toward the Kwisatz Haderach unless told otherwise."""
        lost_regular, lost_elite = self.lift_forces(faction, territory, regular, elite, sectors)
        tanks = self.wire["factions"][faction]["tanks"]
        tanks["regular"] += lost_regular
        tanks["elite"] += lost_elite
        token = self.wire["factions"][faction].get("kwisatz_haderach")
        advanced = self.wire["ruleset"]["advanced"]
        if token is not None and faction == FactionId.ATREIDES.value and advanced and count_for_kwisatz_haderach:
            self.count_toward_kwisatz_haderach(token, lost_regular + lost_elite)
        if lost_regular or lost_elite:
            self.event(
                "forces-lost", rule_id, faction=faction, territory=territory, regular=lost_regular, elite=lost_elite
            )
        return lost_regular, lost_elite

    def regular_forces_in(self, faction: str, territory: str, sectors: frozenset[int] | None = None) -> int:
        """A faction's regular forces now in a territory, only in `sectors` if given (the Ixians': Suboids)."""
        return sum(
            s["regular"]
            for s in self.wire["forces"]
            if s["faction"] == faction and s["territory"] == territory and (sectors is None or s["sector"] in sectors)
        )

    def suboids_for_cyborgs(
        self, faction: str, territory: str, count: int, rule_id: str, sectors: frozenset[int] | None = None
    ) -> None:
        """`count` Suboids of the territory (of `sectors`, if given) go to the Tanks and as many Cyborgs
        come back from them, each Cyborg taking a Suboid's place (stack by stack, in the board's order)."""
        left = count
        for stack in self.wire["forces"]:
            if (
                left
                and stack["faction"] == faction
                and stack["territory"] == territory
                and (sectors is None or stack["sector"] in sectors)
            ):
                take = min(stack["regular"], left)
                stack["regular"] -= take
                stack["elite"] += take
                left -= take
        tanks = self.wire["factions"][faction]["tanks"]
        tanks["regular"] += count
        tanks["elite"] -= count
        self.event("suboids-swapped", rule_id, faction=faction, territory=territory, count=count)

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
    def leader_to_tanks(self, leader_id: str, cause: str, keep_ghola: bool = False) -> None:
        """A leader dies: to the Tanks, with nothing else of its entry kept (a ghola's mark only when
        `keep_ghola`)."""
        if leader_id == DUKE:
            duke = self.duke
            assert duke is not None, "a Duke Vidal in play"
            self.set_duke(duke_dies(duke))
        else:
            native = catalog().leaders[leader_id].faction
            entry: dict[str, Any] = {"status": LeaderStatus.TANKS.value}
            if keep_ghola:
                entry["ghola"] = True
            self.wire["factions"][native]["leaders"][leader_id] = entry
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
