"""Moritani: its Terror tokens, a pending Extortion, the Mentat Pause, its ally's retention of a
played card and its advanced special Karama.

Checks the six Terror tokens (known kinds, one place each, placed ones in the strongholds the
extortion rules allow, one per stronghold), the Extortion record and its payer queue, the Mentat
Pause's steps and open decision and the bribe spice it leaves waiting, the retention decision and
its Karama window against the battle's retention record, and the special Karama decision. The
strongholds, the token kinds, the amounts, which cards could be kept and which cards are Karama
cards are asked of the Moritani rule modules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from adjudicator.core.catalog import card_kind
from adjudicator.core.decisions import (
    AssassinationDecision,
    ExtortionPayment,
    RetentionDecision,
    RetentionKaramaDecision,
    SpecialKaramaDecision,
    TerrorPlacement,
)
from adjudicator.core.records import Resolution
from adjudicator.core.snapshot import Decision
from adjudicator.core.vocabulary import DecisionType, FactionId, Phase
from adjudicator.rules.cards import can_retain_battle_card
from adjudicator.rules.moritani.assassination import assassination_cards
from adjudicator.rules.moritani.extortion import (
    BANK_CREDIT,
    PAYMENT,
    TERROR_KINDS,
    bribes_may_wait,
    terror_strongholds,
)
from adjudicator.rules.moritani.retention import KARAMA_FIRST
from adjudicator.rules.moritani.special import discarded_by_rule, forceable_cards, special_karama_cards
from adjudicator.validation.base import Checker

_MENTAT_STEPS = frozenset({DecisionType.TERROR_PLACEMENT.value, DecisionType.EXTORTION_PAYMENT.value})


class MoritaniChecks(Checker):
    """Terror, Extortion and the Mentat Pause; the ally's retention; the special Karama."""

    def decision_checks(self) -> Mapping[str, Callable[[], None]]:
        """The open decisions this part checks, by type (the Mentat Pause's are checked with it, in
        `terror`)."""
        return {
            DecisionType.MORITANI_RETENTION.value: self.retention,
            DecisionType.RETENTION_KARAMA.value: self.retention_record,
            DecisionType.MORITANI_SPECIAL_KARAMA.value: self.special_karama_decision,
            DecisionType.MORITANI_ASSASSINATION.value: self.assassination_decision,
        }

    def retention(self) -> None:
        """The retention decision itself, then its match with the battle's retention record."""
        self.retention_decision()
        self.retention_record()

    # -- Moritani's Terror tokens, a pending Extortion, the Mentat Pause ---------------------------
    def terror(self, decision_in_phase: bool = True) -> None:
        """Terror, Extortion and the Mentat Pause; a Mentat step open outside its phase is reported by
        the phase check alone (`decision_in_phase` false)."""
        terror, record, mentat = self.s.terror, self.s.extortion, self.s.mentat
        moritani = FactionId.MORITANI.value in self.in_game
        for key, value in (("terror", terror), ("extortion", record)):
            if value is not None and not moritani:
                self.add("faction-not-in-game", f"{key} needs Moritani in the game", key)
        if terror is not None:
            ids: Counter[str] = Counter()
            kinds: Counter[str] = Counter()
            places: Counter[str] = Counter()
            for group, tokens in (
                ("supply", terror.supply),
                ("placed", terror.placed),
                ("out_of_play", terror.out_of_play),
            ):
                for i, token in enumerate(tokens):
                    ids[token.id] += 1
                    kinds[token.kind] += 1
                    if token.kind not in TERROR_KINDS:
                        self.add(
                            "unknown-terror-token", f"no Terror token kind {token.kind!r}", "terror", group, i, "kind"
                        )
                    if group == "placed":
                        known = self.cat.territories.get(token.territory or "")
                        if known is None or known.id not in terror_strongholds():
                            self.add(
                                "terror-not-in-a-stronghold",
                                "a Terror token lies in a stronghold other than the Hidden Mobile Stronghold",
                                "terror",
                                group,
                                i,
                                "territory",
                            )
                        places[token.territory or ""] += 1
                    elif token.territory is not None:
                        self.add(
                            "terror-not-placed",
                            f"a token in {group} lies nowhere on the board",
                            "terror",
                            group,
                            i,
                            "territory",
                        )
            if record is not None:
                ids[str(record.token)] += 1
                kinds["extortion"] += 1
            if sum(kinds.values()) != len(TERROR_KINDS):
                self.add(
                    "terror-count",
                    f"Moritani has {len(TERROR_KINDS)} Terror tokens (supply, placed, out of play, a pending "
                    f"Extortion), not {sum(kinds.values())}",
                    "terror",
                )
            for token_id, n in ids.items():
                if n > 1:
                    self.add("terror-in-two-places", f"Terror token {token_id} is listed {n} times", "terror")
            for kind, n in kinds.items():
                if n > 1:
                    self.add("terror-in-two-places", f"there is one {kind} token, not {n}", "terror")
            for territory, n in places.items():
                if n > 1:
                    self.add("terror-stacked", f"{territory} holds {n} Terror tokens; one at most", "terror", "placed")
        if record is not None:
            if terror is None:
                self.add("missing-terror", "an Extortion record needs Moritani's terror tokens", "extortion")
            if record.credit != BANK_CREDIT or record.owner != FactionId.MORITANI.value:
                self.add("invalid-extortion", "the record is Moritani's 5-spice credit", "extortion", "credit")
            payers = record.payers
            if payers is not None:
                if not set(payers) <= self.in_game or len(set(payers)) != len(payers):
                    self.add("invalid-extortion", "payers are distinct factions in the game", "extortion", "payers")
                if not 0 <= (record.next or 0) <= len(payers):
                    self.add("invalid-extortion", "'next' points into the payer queue", "extortion", "next")
                if not record.collected:
                    self.add(
                        "invalid-extortion",
                        "payers are asked only after the 5 spice are collected",
                        "extortion",
                        "payers",
                    )
        pending = self.s.pending
        steps = list(mentat.steps) if mentat is not None else []
        if any(step not in _MENTAT_STEPS for step in steps):
            self.add("invalid-mentat", "Mentat steps are terror-placement and extortion-payment", "mentat", "steps")
        if mentat is not None and self.s.phase is not Phase.MENTAT_PAUSE:
            self.add("decision-out-of-step", "the Mentat Pause's steps belong to its phase", "mentat")
        if DecisionType.TERROR_PLACEMENT in steps and (terror is None or not moritani):
            self.add("missing-terror", "a Terror placement needs Moritani's tokens", "mentat", "steps")
        if DecisionType.EXTORTION_PAYMENT in steps and record is None:
            self.add("invalid-mentat", "a payment window needs the Extortion record", "mentat", "steps")
        if steps and pending is None:
            self.add("mentat-stalled", "the Mentat Pause has steps left but no open decision", "pending")
        if not bribes_may_wait(mentat):
            for fid, fs in self.s.factions.items():
                if fs.bribe_spice:
                    self.add(
                        "record-out-of-step",
                        "a Mentat Pause under way collected the bribes, or collects them as its payment window closes",
                        "factions",
                        fid,
                        "bribe_spice",
                    )
        if pending is not None and decision_in_phase and pending.type in _MENTAT_STEPS:
            if not steps or steps[0] != pending.type:
                self.add(
                    "decision-out-of-step", f"the Mentat Pause is not waiting for {pending.type}", "pending", "type"
                )
            elif pending.type == DecisionType.EXTORTION_PAYMENT:
                queue = list(record.payers or ()) if record is not None else []
                index = record.next or 0 if record is not None else 0
                if record is None or index >= len(queue) or pending.player != queue[index]:
                    self.add("wrong-decider", "the payer asked is the queue's next faction", "pending", "player")
                elif (payment := pending.as_(ExtortionPayment)).token != record.token:
                    self.add("decision-mismatch", "'token' must be the Extortion record's", "pending", "token")
                elif payment.amount != PAYMENT or payment.owner != FactionId.MORITANI:
                    self.add("decision-mismatch", "the payment is 3 spice to Moritani", "pending", "amount")
            elif pending.player != FactionId.MORITANI:
                self.add("wrong-decider", "Moritani places its Terror tokens", "pending", "player")
            elif terror is not None:
                taken = {t.territory for t in terror.placed}
                free = [t for t in terror_strongholds() if t not in taken]
                if list(pending.as_(TerrorPlacement).strongholds) != free:
                    self.add("decision-mismatch", f"'strongholds' must be {free!r}", "pending", "strongholds")

    # -- Moritani's alliance power: the defeated ally keeps a card ----------------------------------
    def retention_record(self) -> None:
        """A retention decision continues a resolved battle and matches the battle's retention record."""
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        resolution = battle.resolution if battle is not None else None
        record = resolution.retention if resolution is not None else None
        steps = list(resolution.steps) if resolution is not None else []
        if record is None or not steps or steps[0] != decision.type:
            self.add("decision-out-of-step", f"no resolved battle is waiting for {decision.type}", "pending", "type")
            return
        karama_first = record.karama_timing == KARAMA_FIRST
        if decision.type == DecisionType.MORITANI_RETENTION and karama_first and record.responders:
            self.add(
                "decision-out-of-step",
                "under karama-before-declaration the ally names its card once its Karama window has closed",
                "pending",
                "type",
            )
        if decision.type == DecisionType.MORITANI_RETENTION:
            used = set(resolution.used_cards or ()) if resolution is not None else set()
            by_traitor = bool(resolution.decided_by_traitor) if resolution is not None else False
            retention = decision.as_(RetentionDecision)
            for i, card in enumerate(retention.eligible):
                if self.cat.cards.get(card_kind(card)) is not None and not can_retain_battle_card(
                    card, used=card in used, decided_by_traitor=by_traitor
                ):
                    self.add("card-not-eligible", f"{card} could not be kept by a winner", "pending", "eligible", i)
            for key in ("player", "played", "eligible"):
                value = decision.player if key == "player" else list(getattr(retention, key))
                if value != (record.player if key == "player" else list(getattr(record, key))):
                    self.add("decision-mismatch", f"'{key}' differs from the battle's retention record", "pending", key)
        else:
            responders = list(record.responders)
            window = decision.as_(RetentionKaramaDecision)
            if not responders or decision.player != responders[0] or decision.player == FactionId.MORITANI:
                self.add(
                    "wrong-decider", "the next faction in storm order (never Moritani) answers", "pending", "player"
                )
            elif list(window.eligible) != self.karama_cards_held(decision.player):
                self.add(
                    "decision-mismatch", "'eligible' must be the Karama cards the decider holds", "pending", "eligible"
                )
            if karama_first and (window.card is not None or record.card is not None):
                self.add("decision-mismatch", "the window comes before the ally names a card", "pending", "card")
            elif not karama_first and (window.card != record.card or record.card is None):
                self.add("decision-mismatch", "'card' differs from the declared card", "pending", "card")

    def retention_decision(self) -> None:
        decision = self.s.pending
        assert decision is not None
        retention = decision.as_(RetentionDecision)
        if retention.owner != FactionId.MORITANI:
            self.add("wrong-owner", "the retention power belongs to Moritani", "pending", "owner")
        played = list(retention.played)
        eligible = list(retention.eligible)
        battle = self.s.battle
        plan = battle.plans.get(decision.player or "") if battle is not None else None
        plan_cards = set(plan.cards) if plan is not None else set()
        for i, card in enumerate(played):
            # a card the ally could never keep may already have left with the battle's first discards
            # (and a Semuta Drug may have taken it since): only the eligible cards stay reserved
            owner_state = self.s.factions.get(decision.player or "")
            own_hand = owner_state.hand if owner_state is not None else ()
            if card not in plan_cards and (card in retention.eligible or card in own_hand):
                self.add(
                    "card-not-where-decision-says",
                    f"{card} is not in {decision.player}'s battle plan",
                    "pending",
                    "played",
                    i,
                )
        for i, card in enumerate(eligible):
            if card not in played:
                self.add("eligible-not-played", f"{card} is not among the played cards", "pending", "eligible", i)
        decider = self.s.factions.get(decision.player or "")
        if decider is not None and decider.ally != FactionId.MORITANI:
            self.add("not-moritani-ally", f"{decision.player} is not Moritani's ally", "pending", "player")

    def moritani_loss_step(self, decision: Decision, waiting: str, power: str) -> Resolution | None:
        """The resolution of a battle Moritani lost whose next cleanup step is this decision, asked of
        Moritani; `None` (with the problem added) otherwise."""
        battle = self.s.battle
        resolution = battle.resolution if battle is not None else None
        steps = list(resolution.steps) if resolution is not None else []
        if resolution is None or not steps or steps[0] != decision.type or resolution.loser != "moritani":
            self.add("decision-out-of-step", f"no battle Moritani lost is waiting for {waiting}", "pending", "type")
            return None
        if decision.player != FactionId.MORITANI:
            self.add("wrong-decider", f"{power} is Moritani's", "pending", "player")
            return None
        return resolution

    # -- Moritani's advanced special Karama ---------------------------------------------------------
    def held_discards_record(self) -> None:
        """`held_discards` is kept exactly while Moritani's special Karama is to come, and names cards of
        the winner's plan that its cleanup discards by rule (question moritani-special-karama-precedence)."""
        battle = self.s.battle
        resolution = battle.resolution if battle is not None else None
        if battle is None or resolution is None or resolution.held_discards is None:
            return
        where = ("battle", "resolution", "held_discards")
        if DecisionType.MORITANI_SPECIAL_KARAMA not in resolution.steps or resolution.loser != FactionId.MORITANI:
            self.add(
                "record-out-of-step",
                "held_discards is kept exactly while the special Karama of a battle Moritani lost is to come",
                *where,
            )
            return
        plan = battle.plans.get(str(resolution.winner))
        in_plan = set(plan.cards) if plan is not None else set()
        used = set(resolution.used_cards or ())
        for i, card in enumerate(resolution.held_discards):
            if card not in in_plan:
                self.add("decision-mismatch", f"{card} is not in the winner's plan", *where, i)
            elif self.cat.cards.get(card_kind(card)) is not None and not discarded_by_rule(
                card, used=card in used, decided_by_traitor=resolution.decided_by_traitor
            ):
                self.add("card-not-eligible", f"{card} is not a card the winner must discard", *where, i)

    def special_karama_decision(self) -> None:
        """The special Karama opens after a battle Moritani lost; its cards are the rules' own lists."""
        decision = self.s.pending
        assert decision is not None
        battle = self.s.battle
        resolution = self.moritani_loss_step(decision, "its special Karama", "the special Karama")
        if resolution is not None:
            moritani = self.s.factions.get(FactionId.MORITANI.value)
            winner_plan = battle.plans.get(str(resolution.winner)) if battle is not None else None
            in_plan = set(forceable_cards(self.s, str(resolution.winner))) if winner_plan else set()
            if not self.s.ruleset.advanced or moritani is None or moritani.special_karama_used:
                self.add("not-available", "the special Karama is an unspent advanced power", "pending", "type")
            elif list(decision.as_(SpecialKaramaDecision).karama) != special_karama_cards(self.s):
                self.add("decision-mismatch", "'karama' must be the Karama cards Moritani holds", "pending", "karama")
            if not set(decision.as_(SpecialKaramaDecision).eligible) <= in_plan:
                self.add(
                    "card-not-where-decision-says",
                    "the forced cards are the winner's played cards",
                    "pending",
                    "eligible",
                )

    # -- Moritani's advanced Assassinate Leaders ------------------------------------------------------
    def assassination(self) -> None:
        """The public record of the power: Moritani's alone, in the advanced game; one revealed card per
        opposing faction; a card set aside (no longer held) lies nowhere else."""
        moritani = FactionId.MORITANI.value
        for fid, fs in self.s.factions.items():
            if not fs.assassinated and not fs.assassination_forfeited:
                continue
            key = "assassinated" if fs.assassinated else "assassination_forfeited"
            if fid != moritani or not self.s.ruleset.advanced:
                self.add(
                    "assassination-not-available",
                    "Assassinate Leaders is the advanced Moritani's power",
                    "factions",
                    fid,
                    key,
                )
                continue
            held_elsewhere = {
                leader
                for other, state in self.s.factions.items()
                for leader in (*state.traitors, *state.face_dancers, *state.revealed_face_dancers)
                if other != moritani or leader not in state.traitors
            } | set(self.s.traitor_deck or ())
            seen: set[str] = set()
            for i, leader_id in enumerate(fs.assassinated):
                leader = self.cat.leaders.get(leader_id)
                path = ("factions", fid, "assassinated", i)
                if leader is None:
                    self.add("unknown-leader", f"no leader with id {leader_id!r}", *path)
                    continue
                if not leader.traitor_card:
                    self.add("no-traitor-card", f"{leader_id} has no Traitor card", *path)
                    continue
                if leader.faction == moritani:
                    self.add(
                        "own-faction-assassinated",
                        "Moritani assassinates an opposing faction's leader, never one of its own",
                        *path,
                    )
                if leader_id in fs.called_traitors:
                    self.add(
                        "traitor-in-two-places",
                        f"the Traitor card of {leader_id} was revealed to assassinate: it was not also called",
                        *path,
                    )
                if leader.faction in seen:
                    self.add(
                        "assassinated-faction-twice",
                        f"Moritani assassinates a {leader.faction} leader once a game",
                        *path,
                    )
                seen.add(leader.faction)
                if leader_id not in fs.traitors and leader_id in held_elsewhere:
                    self.add(
                        "traitor-in-two-places",
                        f"the Traitor card of {leader_id} was set aside face up: it lies nowhere else",
                        *path,
                    )

    def assassination_decision(self) -> None:
        """Assassinate Leaders opens after a battle Moritani lost; its cards are the rule's own list."""
        decision = self.s.pending
        assert decision is not None
        resolution = self.moritani_loss_step(decision, "its Assassinate Leaders", "Assassinate Leaders")
        if resolution is not None and list(decision.as_(AssassinationDecision).eligible) != assassination_cards(self.s):
            self.add(
                "decision-mismatch",
                "'eligible' must be the Traitor cards Moritani could reveal against the winner",
                "pending",
                "eligible",
            )
