"""The working state's battle cards: plans, hands and discards, retention and Semuta batches."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from adjudicator.core.catalog import card_kind, copies_in_play
from adjudicator.core.records import (
    RetentionRecord,
    RihaniRecord,
    SandmasterRecord,
    SemutaBatch,
    SmugglerRecord,
    SukRescueRecord,
)
from adjudicator.core.snapshot import (
    KaramaUse,
    MentatQuestion,
    Plan,
    PrescienceRecord,
    TruthtranceAnswer,
    VoiceCommand,
)
from adjudicator.core.vocabulary import (
    BattleResult,
    FactionId,
)
from adjudicator.rules.state.base import CLEANUP_ORDER, WorkingCopy


class BattleCardsState(WorkingCopy):
    """Battle cards, Moritani's retention and the Semuta batches of the working state."""

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
        gholas_in_capture_pool: bool = False,
        cyborgs_lost: int = 0,
        withdrawing: str | None = None,
        reinforcing: str | None = None,
        retreat_left: int = 0,
        occupy_partner: str | None = None,
        suk_rescue: SukRescueRecord | None = None,
        smuggler: SmugglerRecord | None = None,
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
        if gholas_in_capture_pool:
            resolution["gholas_in_capture_pool"] = True
        if cyborgs_lost:
            resolution["cyborgs_lost"] = cyborgs_lost
        if withdrawing is not None:
            resolution["withdrawing"] = withdrawing
        if reinforcing is not None:
            resolution["reinforcing"] = reinforcing
        if retreat_left:
            resolution["retreat_left"] = retreat_left
        if occupy_partner is not None:  # the side stays Occupied whatever Occupy's losses take away
            resolution["occupy_partner"] = occupy_partner
        if suk_rescue is not None:
            resolution["suk_rescue"] = suk_rescue.to_wire()
        if smuggler is not None:
            resolution["smuggler"] = smuggler.to_wire()
        self.wire["battle"]["resolution"] = resolution

    def schedule_step(self, step: str, order: tuple[str, ...] = CLEANUP_ORDER) -> None:
        """Add a cleanup step in its declared place among the steps to come (in `order`, one of
        `cleanup_order`'s)."""
        steps = self.wire["battle"]["resolution"]["steps"]
        rank = order.index(step)
        later = (i for i, s in enumerate(steps) if s in order and order.index(s) > rank)
        steps.insert(next(later, len(steps)), step)

    @property
    def combatants(self) -> tuple[str, str]:
        """The battle's aggressor and defender."""
        battle = self.wire["battle"]
        return str(battle["aggressor"]), str(battle["defender"])

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

    def copies_outside_discard(self, kind: str) -> int:
        """How many copies of a card kind the ruleset has outside the discard pile: the only count of them
        every player knows, since where the others are (a hand, the deck, the Richese cache) is hidden."""
        ruleset = self.wire["ruleset"]
        total = copies_in_play(kind, frozenset(ruleset["expansions"]), frozenset(ruleset.get("variants", ())))
        return total - sum(1 for card in self.wire["discard"] if card_kind(card) == kind) if total else 0

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

    def become_aggressor(self, faction: str) -> None:
        """The battle's defender, `faction`, becomes its aggressor, and the aggressor its defender."""
        battle = self.wire["battle"]
        assert battle["defender"] == faction, "only the defender can become the aggressor"
        battle["aggressor"], battle["defender"] = faction, battle["aggressor"]

    def set_sides(self, aggressor: str, defender: str) -> None:
        """The battle's sides before any plan is made (Ecaz's choice of its Occupy side's fighter)."""
        battle = self.wire["battle"]
        assert not battle["plans"], "the sides are set before the plans"
        battle["aggressor"], battle["defender"] = aggressor, defender

    def withdraw_plan(self, faction: str) -> None:
        """A locked, unrevealed plan is taken back to be made again, its cards returning to the hand."""
        plan = Plan.from_dict(self.wire["battle"]["plans"].pop(faction))
        self.wire["factions"][faction]["hand"].extend(plan.cards)

    def see_plan(self, player: str, target: str, dial_hidden: bool = False) -> None:
        """The advanced Atreides' special Karama: `player` will see `target`'s whole plan (without its
        dial and support, when `dial_hidden`)."""
        seen: dict[str, Any] = {"player": player, "target": target}
        if dial_hidden:
            seen["dial_hidden"] = True
        self.wire["battle"]["plan_seen"] = seen

    def take_from_discard(self, faction: str, card: str) -> None:
        """A card leaves the discard pile for the hand (the caller records the event)."""
        self.wire["discard"].remove(card)
        self.wire["factions"][faction]["hand"].append(card)

    def add_to_batch(self, faction: str, card: str) -> None:
        """Count a discard not made from a plan in the faction's fresh batch of this step (Semuta Drug)."""
        self.batches.setdefault(faction, []).append(card)

    def drop_batches(self) -> None:
        """This step's fresh discard batches give no opportunity: none remain."""
        self.batches.clear()

    def take_batches(self) -> list[tuple[str, tuple[str, ...]]]:
        """This step's fresh discard batches, each faction's once; none remain afterwards."""
        batches = [(faction, tuple(cards)) for faction, cards in self.batches.items()]
        self.batches.clear()
        return batches

    def spend_ecaz_karama(self) -> None:
        """Ecaz's special Karama card named after the reveal is played: the battle no longer lists it."""
        self.wire["battle"].pop("ecaz_karama", None)

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

    def reserves_to_tanks(
        self, faction: str, regular: int, elite: int, rule_id: str, count_for_kwisatz_haderach: bool = True
    ) -> None:
        """Forces of a faction's reserves to its Tanks (Atreides losses count toward the Kwisatz Haderach
        unless told otherwise)."""
        entry = self.wire["factions"][faction]
        entry["reserves"]["regular"] -= regular
        entry["reserves"]["elite"] -= elite
        entry["tanks"]["regular"] += regular
        entry["tanks"]["elite"] += elite
        token = entry.get("kwisatz_haderach")
        atreides = faction == FactionId.ATREIDES.value and self.wire["ruleset"]["advanced"]
        if token is not None and atreides and count_for_kwisatz_haderach:
            self.count_toward_kwisatz_haderach(token, regular + elite)
        self.event("reserves-to-tanks", rule_id, faction=faction, regular=regular, elite=elite)

    def withdraw_undialed(
        self,
        faction: str,
        territory: str,
        sectors: frozenset[int] | None,
        keep_regular: int,
        keep_elite: int,
        rule_id: str,
    ) -> None:
        """A faction's forces in a territory (only in `sectors`, if given) go back to its reserves, but for
        `keep_regular` and `keep_elite` of them, which stay."""
        kept = []
        regular = elite = 0
        for stack in self.wire["forces"]:
            if (
                stack["faction"] == faction
                and stack["territory"] == territory
                and (sectors is None or stack["sector"] in sectors)
            ):
                stay_r = min(stack["regular"], keep_regular)
                stay_e = min(stack["elite"], keep_elite)
                keep_regular -= stay_r
                keep_elite -= stay_e
                regular += stack["regular"] - stay_r
                elite += stack["elite"] - stay_e
                stack = {**stack, "regular": stay_r, "elite": stay_e}
                if stay_r == 0 and stay_e == 0:
                    continue
            kept.append(stack)
        self.wire["forces"] = kept
        reserves = self.wire["factions"][faction]["reserves"]
        reserves["regular"] += regular
        reserves["elite"] += elite
        if regular or elite:
            self.event(
                "forces-to-reserves", rule_id, faction=faction, territory=territory, regular=regular, elite=elite
            )

    def kwisatz_haderach_to_tanks(self) -> None:
        self.wire["factions"][FactionId.ATREIDES.value]["kwisatz_haderach"]["status"] = "tanks"

    def duke_stays_in(self, territory: str) -> None:
        """A loaned Duke Vidal stays with his recipient for the turn, fighting again only in `territory`."""
        self.wire["duke_vidal"]["fought_in"] = territory

    # the steps before the plans: the Voice, Prescience and the Karama cancellations
    def set_voice(self, voice: VoiceCommand | None) -> None:
        """The Voice in force in this battle (None: none stands)."""
        battle = self.wire["battle"]
        if voice is None:
            battle.pop("voice", None)
        else:
            battle["voice"] = voice.to_dict()

    def set_prescience(self, record: PrescienceRecord | None) -> None:
        """The Prescience asked in this battle, with its answer once given (None: none stands)."""
        battle = self.wire["battle"]
        if record is None:
            battle.pop("prescience", None)
        else:
            battle["prescience"] = record.to_dict()

    def record_mentat_question(self, question: MentatQuestion) -> None:
        """A face-up Mentat's question in this battle, or its answer (the asker's entry replaced)."""
        battle = self.wire["battle"]
        entries = [m for m in battle.get("mentat", []) if m["player"] != question.player]
        at = next((i for i, m in enumerate(battle.get("mentat", [])) if m["player"] == question.player), len(entries))
        entries.insert(at, question.to_dict())
        battle["mentat"] = entries

    def hold_truthtrance(self, answer: TruthtranceAnswer) -> None:
        """A Truthtrance answer that binds a plan in this battle."""
        battle = self.wire["battle"]
        battle["truthtrance"] = [*battle.get("truthtrance", []), answer.to_dict()]

    def record_karama(self, use: KaramaUse) -> None:
        """A faction power cancelled by a Karama card in this battle."""
        battle = self.wire["battle"]
        battle["karama"] = [*battle.get("karama", []), use.to_dict()]
