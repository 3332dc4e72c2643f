"""The battle: its combatants and plans, and the cleanup decisions that continue a resolved battle.

Checks the battle's territory and combatants, the plans (locked or awaited; a plan's leader
controlled by its faction and alive, in one plan only), the resolution's winner and loser, traitor
calls and withheld Poison Tooth; then the cleanup decisions: the winner's casualties and kept cards,
the Harkonnen capture (the seed's draw, asked of the Harkonnen rules), a Semuta Drug opportunity,
and the Tleilaxu Face Dancer reveal. Which cards a winner may keep, which leader the seed draws and
when a Face Dancer may follow are the rule modules' answers; this part compares the snapshot to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adjudicator.core.catalog import Territory, catalog
from adjudicator.core.decisions import (
    AuditPayment,
    BattleChoiceDecision,
    BattlePlanDecision,
    CaptureDecision,
    FaceDancerKaramaDecision,
    FaceDancerReveal,
    GiftKaramaDecision,
    MentatAnswerDecision,
    OccupyFighterDecision,
    SemutaOpportunity,
    SuboidSwapDecision,
    WinnerCardsDecision,
)
from adjudicator.core.records import Resolution
from adjudicator.core.snapshot import Battle
from adjudicator.core.vocabulary import BattlePower, BattleResult, DecisionType, DukeStatus, FactionId, TerritoryType
from adjudicator.rules.auditor import PAYMENT_SCOPES, draw_cards, expected_audit
from adjudicator.rules.battle.aggressors import aggressor_rank
from adjudicator.rules.battle.cache_cards import snapshot_playable
from adjudicator.rules.battle.commands import ELEMENT_FIELDS, PRESCIENCE, VOICE, facing, voice_subjects
from adjudicator.rules.battle.karama_window import listed_under
from adjudicator.rules.battle.mentat_question import askers as mentat_askers
from adjudicator.rules.battle.order import aggressor_of, battles_to_fight
from adjudicator.rules.battle.plan_decision import face_up_reading, kept_face_up
from adjudicator.rules.battle.plan_decision import limits as plan_limits
from adjudicator.rules.battle.plans import (
    ECAZ,
    dialed_forces_of,
    ecaz_presence,
    face_up_leaders,
    occupy_partner_on_board,
)
from adjudicator.rules.battle.preconditions import STORM_QUESTION
from adjudicator.rules.battle.sectors import battle_sectors as covered_sectors
from adjudicator.rules.battle.sectors import combatant_sectors, contested_sides, sector_groups
from adjudicator.rules.battle.voice import BENE_GESSERIT
from adjudicator.rules.cards import can_retain_battle_card, is_leader_substitute
from adjudicator.rules.emperor import KARAMA_WINDOWS as GIFT_WAITS_FOR
from adjudicator.rules.ghola import gholas_at_hand
from adjudicator.rules.harkonnen import draw_captive
from adjudicator.rules.ixians import IXIANS, swap_limit
from adjudicator.rules.semuta import semuta_cards
from adjudicator.rules.tleilaxu import (
    declared_reveal_violations,
    face_dancer_opportunity,
    replaced_sectors,
    window_responders,
    winner_forces,
    winner_leader,
)
from adjudicator.validation.base import Checker, pointer
from adjudicator.validation.custody import DUKE, controls_leader, in_tanks

# the readings of battle-under-storm a battle-choice may have been opened with, the default first
STORM_READINGS = ("no-battle", "battle-blind")
# the readings of residual-poison-pool a pre-battle-cards window may have been opened with
POOL_READINGS = ("own-leaders", "any-playable-leader")
# the readings of occupy-dialed-force-traits a battle-plan decision may have been opened with
TRAITS_READINGS = ("ally-traits", "ordinary-forces")

# decisions open before a battle's plans are made
BEFORE_PLANS = frozenset(
    {
        DecisionType.VOICE.value,
        DecisionType.PRESCIENCE.value,
        DecisionType.PRESCIENCE_ANSWER.value,
        DecisionType.MENTAT_QUESTION.value,
        DecisionType.MENTAT_ANSWER.value,
        DecisionType.BATTLE_KARAMA.value,
        DecisionType.TRUTHTRANCE_ANSWER.value,
        DecisionType.PRE_BATTLE_CARDS.value,
        DecisionType.OCCUPY_FIGHTER.value,
    }
)


def prelude_step_of(kind: str, power: object) -> str:
    """The step of `battle.prelude` a decision before the plans belongs to: the Voice's and the Karama
    window on it to "voice", Prescience's, its answer's and the window on it to "prescience", the window
    on the later powers to its own step."""
    if kind == DecisionType.BATTLE_KARAMA.value:
        if power == BattlePower.MENTAT_QUESTION:  # the window on the Mentat's question (mentat-question-karama)
            return DecisionType.MENTAT_QUESTION.value
        return str(power) if power in (VOICE, PRESCIENCE) else kind
    if kind == DecisionType.PRESCIENCE_ANSWER.value:
        return DecisionType.PRESCIENCE.value
    return kind


class BattleChecks(Checker):
    """The battle, its plans and resolution, and the cleanup decisions of the winner, the Harkonnen
    capture, a Semuta Drug and a Face Dancer."""

    def decision_checks(self) -> Mapping[str, Callable[[], None]]:
        """The open decisions this part checks, by type."""
        return {
            DecisionType.BATTLE_PLAN.value: self.battle_plan_decision,
            DecisionType.BATTLE_CASUALTIES.value: self.battle_cleanup_decision,
            DecisionType.HARASS_WITHDRAWAL.value: self.withdrawal_decision,
            DecisionType.REINFORCEMENTS_FORCES.value: self.reinforcements_decision,
            DecisionType.DIPLOMAT_RETREAT.value: self.retreat_decision,
            DecisionType.WINNER_CARDS.value: self.battle_cleanup_decision,
            DecisionType.HARKONNEN_CAPTURE.value: self.battle_cleanup_decision,
            DecisionType.SEMUTA_OPPORTUNITY.value: self.semuta_decision,
            DecisionType.FACE_DANCER_REVEAL.value: self.face_dancer_decision,
            DecisionType.FACE_DANCER_KARAMA.value: self.face_dancer_window_decision,
            DecisionType.SUBOID_SWAP.value: self.suboid_swap_decision,
            DecisionType.BATTLE_CHOICE.value: self.battle_choice_decision,
            DecisionType.VOICE.value: self.prelude_decision,
            DecisionType.PRESCIENCE.value: self.prelude_decision,
            DecisionType.PRESCIENCE_ANSWER.value: self.prelude_decision,
            DecisionType.BATTLE_KARAMA.value: self.prelude_decision,
            DecisionType.MENTAT_QUESTION.value: self.mentat_decision,
            DecisionType.MENTAT_ANSWER.value: self.mentat_decision,
            DecisionType.PRE_BATTLE_CARDS.value: self.prelude_decision,
            DecisionType.TRUTHTRANCE_ANSWER.value: self.truthtrance_decision,
            DecisionType.GIFT_KARAMA.value: self.gift_window_decision,
            DecisionType.AUDIT_PAYMENT.value: self.audit_decision,
            DecisionType.OCCUPY_FIGHTER.value: self.occupy_fighter_decision,
        }

    def battle(self) -> None:
        battle = self.s.battle
        if battle is None:
            return
        territory = self.area(battle.territory, "battle", "territory")
        if territory is not None and territory.type is TerritoryType.POLAR_SINK:
            self.add("no-battle-in-polar-sink", "no battles occur in the Polar Sink", "battle", "territory")
        if territory is not None:
            self.battle_sectors(battle, territory)
        combatants = (battle.aggressor, battle.defender)
        for role in ("aggressor", "defender"):
            fid = getattr(battle, role)
            if fid not in self.in_game:
                self.add("faction-not-in-game", f"{fid} is not in this game", "battle", role)
        if battle.aggressor == battle.defender:
            self.add("same-faction-battle", "aggressor and defender must differ", "battle", "defender")
        pending = self.s.pending
        awaited = pending.player if pending is not None and pending.type == DecisionType.BATTLE_PLAN else None
        before_plans = bool(battle.prelude) or (pending is not None and pending.type in BEFORE_PLANS)
        if battle.prelude and (battle.plans or battle.resolution is not None):
            self.add("decision-out-of-step", "the steps before the plans come before any plan", "battle", "prelude")
        for fid in combatants:
            # While plans are being committed (a battle-plan decision is open), or before they are
            # made, either may be missing.
            if fid not in battle.plans and awaited is None and not before_plans:
                self.add("missing-plan", f"the locked battle needs {fid}'s plan", "battle", "plans")
        if awaited is not None:
            if awaited in battle.plans:
                self.add("plan-already-locked", f"{awaited} has locked its plan already", "pending", "player")
            if battle.revealed:
                self.add("revealed-too-early", "plans are revealed only once both are locked", "battle", "revealed")
        leader_places: dict[str, str] = {}
        for fid, plan in battle.plans.items():
            if fid not in combatants:
                self.add("plan-for-non-combatant", f"{fid} is not fighting this battle", "battle", "plans", fid)
                continue
            if plan.leader is None or battle.resolution is not None:
                continue  # a resolved battle's plans record what was played
            path = ("battle", "plans", fid, "leader")
            if plan.leader not in self.cat.leaders:
                self.add("unknown-leader", f"no leader with id {plan.leader!r}", *path)
                continue
            if not controls_leader(self.s, self.cat, fid, plan.leader):
                self.add("leader-not-controlled", f"{fid} does not control {plan.leader}", *path)
            elif in_tanks(self.s, self.cat, plan.leader):
                self.add("leader-in-two-places", f"{plan.leader} is in the Tanks", *path)
            if plan.leader in leader_places:
                self.add("leader-in-two-places", f"{plan.leader} is also at {leader_places[plan.leader]}", *path)
            else:
                leader_places[plan.leader] = self.root + pointer(*path)
        seen = battle.plan_seen
        if seen is not None and (seen.target not in combatants or seen.target == seen.player):
            self.add(
                "not-a-combatant",
                f"the plan seen must be a combatant's other than {seen.player}'s",
                "battle",
                "plan_seen",
                "target",
            )
        resolution = battle.resolution
        if resolution is not None:
            for role in ("winner", "loser"):
                if getattr(resolution, role) is not None and getattr(resolution, role) not in combatants:
                    self.add(
                        "not-a-combatant",
                        f"{getattr(resolution, role)} did not fight this battle",
                        "battle",
                        "resolution",
                        role,
                    )
            self.cyborgs_lost_record(resolution)
            self.face_dancer_reading_record(resolution)
            self.own_leader_bounty_record(resolution)
            self.face_dancer_reveal_record(battle, resolution)
            self.occupy_partner_record(battle, resolution)
            self.dialed_traits_record(battle, resolution)
            self.cyborg_losses_record(resolution)
            self.retreat_left_record(battle, resolution)
            if resolution.steps and self.s.pending is None:
                self.add(
                    "decision-missing",
                    "a resolved battle with cleanup steps left needs its pending decision",
                    "pending",
                )
        for key in ("traitor_calls", "poison_tooth_withheld"):
            values = getattr(battle, key)
            if values and not battle.revealed:
                self.add(
                    "before-reveal", "traitor calls and withheld Poison Tooth follow the plans' reveal", "battle", key
                )
            for i, fid in enumerate(values):
                if fid not in combatants:
                    self.add("not-a-combatant", f"{fid} is not fighting this battle", "battle", key, i)
            if len(set(values)) != len(values):
                self.add("duplicate", "a faction is listed twice", "battle", key)
        if battle.stone_burner is not None and not battle.revealed:
            self.add("before-reveal", "the Stone Burner's choice follows the plans' reveal", "battle", "stone_burner")
        for key in ("mirror_stone_burner", "stone_burner_dialed"):
            if getattr(battle, key) and not battle.revealed:
                self.add("before-reveal", "the Stone Burner's choices follow the plans' reveal", "battle", key)
        for fid in battle.stone_burner_dialed:
            if fid not in combatants:
                self.add("not-a-combatant", f"{fid} is not fighting this battle", "battle", "stone_burner_dialed", fid)
        for i, fid in enumerate(battle.portable_snooper):
            if not battle.revealed:
                self.add(
                    "before-reveal",
                    "a Portable Snooper is added once the plans are revealed",
                    "battle",
                    "portable_snooper",
                )
            if fid not in combatants:
                self.add("not-a-combatant", f"{fid} is not fighting this battle", "battle", "portable_snooper", i)
        if len(set(battle.portable_snooper)) != len(battle.portable_snooper):
            self.add("duplicate", "a faction is listed twice", "battle", "portable_snooper")
        opened_after = battle.pre_battle_cards_after or ()
        if len(set(opened_after)) != len(opened_after):
            self.add("duplicate", "a step is listed twice", "battle", "pre_battle_cards_after")
        if battle.ecaz_karama is not None:
            if not battle.revealed:
                self.add("before-reveal", "Ecaz's special Karama follows the plans' reveal", "battle", "ecaz_karama")
            if "ecaz" not in combatants:
                self.add("not-a-combatant", "ecaz is not fighting this battle", "battle", "ecaz_karama")
        if battle.voice is not None or battle.prescience is not None:
            self.prelude_records(battle)
        if battle.mentat:
            self.mentat_records(battle)
        for i, held in enumerate(battle.truthtrance):
            if held.target not in combatants or held.player == held.target or held.player not in self.s.factions:
                self.add(
                    "power-record-mismatch",
                    "a Truthtrance answer is a side's, to another faction",
                    "battle",
                    "truthtrance",
                    i,
                )
            elif held.subject not in voice_subjects(self.s):
                self.add(
                    "power-record-mismatch", f"no subject {held.subject!r} here", "battle", "truthtrance", i, "subject"
                )

    def prelude_records(self, battle: Battle) -> None:
        """A Voice is the Bene Gesserit's on the side facing them or their ally, naming a subject of the
        ruleset; a Prescience is the Atreides' on the side facing them or their ally, its answer the
        asked element's plan fields."""
        voice, record = battle.voice, battle.prescience
        if voice is not None:
            target = facing(self.s, battle, BENE_GESSERIT)
            if voice.player != BENE_GESSERIT or voice.target != target:
                self.add(
                    "power-record-mismatch", f"the Voice here is the Bene Gesserit's on {target}", "battle", "voice"
                )
            elif voice.subject not in voice_subjects(self.s):
                self.add(
                    "power-record-mismatch", f"no Voice subject {voice.subject!r} here", "battle", "voice", "subject"
                )
        if record is not None:
            target = facing(self.s, battle, FactionId.ATREIDES.value)
            if record.player != FactionId.ATREIDES or record.target != target:
                self.add(
                    "power-record-mismatch", f"Prescience here is the Atreides' on {target}", "battle", "prescience"
                )
            elif record.answer is not None and set(record.answer) - {"spice"} != set(ELEMENT_FIELDS[record.element]):
                self.add(
                    "power-record-mismatch",
                    f"a {record.element} answer names {list(ELEMENT_FIELDS[record.element])}",
                    "battle",
                    "prescience",
                    "answer",
                )

    def mentat_records(self, battle: Battle) -> None:
        """The Mentats' questions: each a side's, once, to the side it faces, naming a weapon card (or
        none, declined and so answered); a question awaiting its card has its answer open."""
        sides = (battle.aggressor, battle.defender)
        seen: set[str] = set()
        for i, asked in enumerate(battle.mentat):
            facing_side = sides[1] if asked.player == sides[0] else sides[0]
            if asked.player not in sides or asked.target != facing_side or asked.player in seen:
                self.add(
                    "power-record-mismatch",
                    "a Mentat's question is a side's, once, to the side it faces",
                    "battle",
                    "mentat",
                    i,
                )
            seen.add(asked.player)
            if asked.weapon is not None and asked.weapon not in catalog().cards:
                self.add("unknown-card", f"no card kind {asked.weapon!r}", "battle", "mentat", i, "weapon")
            if asked.weapon is None and not asked.answered:
                self.add(
                    "power-record-mismatch", "a declined question has no answer to wait for", "battle", "mentat", i
                )
            pending = self.s.pending
            waiting = asked.weapon is not None and not asked.answered
            in_window = (  # the Karama window on the question (mentat-question-karama: cancels-the-question)
                pending is not None
                and pending.type == DecisionType.BATTLE_KARAMA
                and pending.fields.get("power") == BattlePower.MENTAT_QUESTION
            )
            if waiting and not in_window and (pending is None or pending.type != DecisionType.MENTAT_ANSWER):
                self.add(
                    "decision-missing",
                    "a Mentat's question awaits its mentat-answer decision, or the Karama window on it",
                    "pending",
                )

    def mentat_decision(self) -> None:
        """The Mentat's question is open at a side with a face-up Mentat that has not asked, naming the
        side it faces; its answer at the side asked, naming the asker and the weapon the battle records;
        either heads `battle.prelude` before any plan."""
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        if battle is None or battle.resolution is not None or battle.plans:
            self.add("decision-out-of-step", "it is open only before a battle's plans", "pending", "type")
            return
        if not battle.prelude or battle.prelude[0] != DecisionType.MENTAT_QUESTION.value:
            self.add(
                "decision-out-of-step",
                f"an open {decision.type} decision is the mentat-question step: battle.prelude must begin with it",
                "battle",
                "prelude",
            )
            return
        waiting = next((m for m in battle.mentat if m.weapon is not None and not m.answered), None)
        if decision.type == DecisionType.MENTAT_QUESTION.value:
            if waiting is not None or decision.player not in mentat_askers(self.s, battle):
                self.add(
                    "decision-out-of-step",
                    f"{decision.player} has no face-up Mentat in this battle, or a question awaits its answer",
                    "pending",
                    "player",
                )
                return
            if decision.player in {m.player for m in battle.mentat}:
                self.add("decision-out-of-step", f"{decision.player}'s Mentat has asked already", "pending", "player")
            facing_side = battle.defender if decision.player == battle.aggressor else battle.aggressor
            if decision.fields.get("opponent") not in (None, facing_side):
                self.add("decision-mismatch", f"'opponent' must be {facing_side!r}", "pending", "opponent")
            return
        answer = decision.as_(MentatAnswerDecision)
        if waiting is None:
            self.add("decision-out-of-step", "no Mentat's question awaits its answer", "pending", "type")
            return
        if decision.player != waiting.target:
            self.add("wrong-decider", f"this decision is {waiting.target}'s", "pending", "player")
        if answer.asker != waiting.player:
            self.add("decision-mismatch", f"'asker' must be {waiting.player!r}", "pending", "asker")
        if answer.weapon != waiting.weapon:
            self.add("decision-mismatch", f"'weapon' must be {waiting.weapon!r}", "pending", "weapon")

    def battle_sectors(self, battle: Battle, territory: Territory) -> None:
        """The sectors a battle covers: of its territory, outside the storm, one whole side of it, with
        forces of both combatants (until it is resolved); named where the storm divides the territory
        and both sides hold forces of both combatants."""
        storm = self.s.storm_sector
        if battle.sectors is None:
            sides = contested_sides(self.s, battle)
            if sides is not None and len(sides) > 1:
                self.add(
                    "battle-sectors-required",
                    f"the storm divides {territory.id} and both combatants have forces on each side of it"
                    f" (sides {[sorted(side) for side in sides]}): name the battle's sectors",
                    "battle",
                    "sectors",
                )
            return
        if not territory.has_sectors:
            self.add("sector-not-allowed", f"{territory.id} has no sectors: omit 'sectors'", "battle", "sectors")
            return
        if len(set(battle.sectors)) != len(battle.sectors):
            self.add("duplicate", "a sector is listed twice", "battle", "sectors")
        named = set(battle.sectors)
        for i, sector in enumerate(battle.sectors):
            if sector not in territory.sectors:
                self.add(
                    "sector-outside-territory",
                    f"sector {sector} is not part of {territory.id} (sectors {list(territory.sectors)})",
                    "battle",
                    "sectors",
                    i,
                )
            elif sector == storm:
                self.add("sector-under-storm", f"sector {sector} is under the storm", "battle", "sectors", i)
        if not named <= set(territory.sectors) or storm in named:
            return
        sides = sector_groups(territory.sectors, storm)
        if named not in sides:
            self.add(
                "sectors-not-one-side",
                "a battle covers the sectors of one side of the storm, all of them"
                f" (sides {[sorted(side) for side in sides]})",
                "battle",
                "sectors",
            )
            return
        if battle.resolution is not None:
            return  # the loser's forces have left by now
        placed = combatant_sectors(self.s, battle)
        for fid in (battle.aggressor, battle.defender):
            if placed.get(fid) and not placed[fid] & named:
                self.add(
                    "no-forces-in-battle-sectors",
                    f"{fid} has no forces in sectors {sorted(named)}",
                    "battle",
                    "sectors",
                )

    def prelude_decision(self) -> None:
        """A decision before the plans is open in an unresolved battle with no plan locked, at the
        faction it asks: the Bene Gesserit's Voice, the Atreides' Prescience, the asked side's answer,
        and a Karama window never at the power's user; its step heads `battle.prelude`."""
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        if battle is None or battle.resolution is not None or battle.plans:
            self.add("decision-out-of-step", "it is open only before a battle's plans", "pending", "type")
            return
        kind = decision.type
        if decision.player not in self.s.factions:
            self.add("wrong-decider", "a faction of this game decides", "pending", "player")
            return
        expected: str | None = None
        if kind == DecisionType.VOICE.value:
            expected = FactionId.BENE_GESSERIT.value
        elif kind == DecisionType.PRESCIENCE.value:
            expected = FactionId.ATREIDES.value
        if expected is not None:
            # the side the power is used on is the battle's, as the step builder gives it
            side = facing(self.s, battle, expected)
            if side is None:
                self.add(
                    "decision-out-of-step", f"neither {expected} nor its ally fights this battle", "pending", "type"
                )
                return
            if "opponent" in decision.fields and decision.fields["opponent"] != side:
                self.add("decision-mismatch", f"'opponent' must be {side!r}", "pending", "opponent")
        elif kind == DecisionType.PRE_BATTLE_CARDS.value:
            # the window before the Voice asks a side of the battle, about the side it faces
            sides = (battle.aggressor, battle.defender)
            if decision.player not in sides:
                self.add("wrong-decider", "this window asks a side of the battle", "pending", "player")
                return
            facing_side = battle.defender if decision.player == battle.aggressor else battle.aggressor
            if decision.fields.get("opponent", facing_side) != facing_side:
                self.add("decision-mismatch", f"'opponent' must be {facing_side!r}", "pending", "opponent")
            # the cards it may play under one reading of residual-poison-pool, the default first
            readings = [list(snapshot_playable(self.s, decision.player, reading)) for reading in POOL_READINGS]
            held = readings[0]
            if "eligible" in decision.fields and list(decision.fields["eligible"] or ()) not in readings:
                self.add(
                    "decision-mismatch", f"'eligible' must be {held!r}, the cards it may play", "pending", "eligible"
                )
            expected = decision.player
        elif kind == DecisionType.PRESCIENCE_ANSWER.value:
            if battle.prescience is None or battle.prescience.answer is not None:
                self.add("decision-out-of-step", "no Prescience question awaits its answer", "pending", "type")
                return
            expected = battle.prescience.target
            element = decision.fields.get("element")
            if element is not None and element != battle.prescience.element:
                self.add("decision-mismatch", f"Prescience asked the {battle.prescience.element}", "pending", "element")
        else:
            power = decision.fields.get("power")
            used = {"voice": battle.voice, "prescience": battle.prescience}
            record = used.get(power) if isinstance(power, str) else None
            if power == BattlePower.MENTAT_QUESTION:
                asked = next((m for m in battle.mentat if m.weapon is not None and not m.answered), None)
                if asked is None:
                    self.add("decision-out-of-step", "no Mentat's question awaits its answer", "pending", "power")
                elif decision.fields.get("owner") != asked.player:
                    self.add("decision-mismatch", f"'owner' must be {asked.player!r}, who asked", "pending", "owner")
            elif power in used and record is None:
                self.add("decision-out-of-step", f"no {power} is used in this battle", "pending", "power")
            elif record is not None and decision.fields.get("owner") != record.player:
                # the window on a used Voice or Prescience names its user, whose power it may cancel
                self.add("decision-mismatch", f"'owner' must be {record.player!r}, who used it", "pending", "owner")
            if decision.fields.get("owner") is not None and decision.player == decision.fields.get("owner"):
                self.add("wrong-decider", "a Karama window never asks the power's user", "pending", "player")
            traits = decision.fields.get("dialed_traits")
            if traits is not None and (power is not None or listed_under(self.s, battle, str(traits)) is None):
                # kept only on the window on the later powers, where that reading changes their list
                self.add(
                    "decision-mismatch",
                    "'dialed_traits' is kept only where that reading changes the later powers listed",
                    "pending",
                    "dialed_traits",
                )
        if expected is not None and decision.player != expected:
            self.add("wrong-decider", f"this decision is {expected}'s", "pending", "player")
        step = prelude_step_of(kind, decision.fields.get("power"))
        if not battle.prelude or battle.prelude[0] != step:
            self.add(
                "decision-out-of-step",
                f"an open {kind} decision is the {step} step before the plans: battle.prelude must begin with it",
                "battle",
                "prelude",
            )

    def occupy_fighter_decision(self) -> None:
        """Ecaz's choice of its Occupy side's fighter: open first before the plans of a battle Ecaz and
        its ally both have forces in, one of them a side, asking Ecaz about the two of them and naming
        the side they face."""
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        if battle is None or battle.resolution is not None or battle.plans:
            self.add("decision-out-of-step", "it is open only before a battle's plans", "pending", "type")
            return
        pair = ecaz_presence(self.s, battle)
        if pair is None:
            self.add(
                "decision-out-of-step", "Ecaz and its ally do not both take part in this battle", "pending", "type"
            )
            return
        if decision.player != FactionId.ECAZ.value:
            self.add("wrong-decider", "Ecaz chooses which of itself and its ally fights", "pending", "player")
            return
        if not battle.prelude or battle.prelude[0] != DecisionType.OCCUPY_FIGHTER.value:
            self.add(
                "decision-out-of-step",
                "an open occupy-fighter decision is the first step before the plans: battle.prelude must begin with it",
                "battle",
                "prelude",
            )
        window = decision.as_(OccupyFighterDecision)
        opponent = battle.defender if battle.aggressor in pair else battle.aggressor
        expected_fields = (
            ("territory", window.territory, battle.territory),
            ("opponent", window.opponent, opponent),
            ("fighters", list(window.fighters), list(pair)),
        )
        for key, given, expected in expected_fields:
            if given != expected:
                self.add("decision-mismatch", f"'{key}' must be {expected!r}", "pending", key)

    def gift_window_decision(self) -> None:
        """A Karama window on the Emperor's gift: to the allied Emperor's ally, no more than the Emperor
        holds, asking a faction other than the Emperor the Karama cards it holds, the factions still to
        ask those after it in storm order; the decision it interrupted is no Karama window (that
        decision itself is checked as the open one, `gift_resumes_problems`)."""
        decision = self.s.pending
        assert decision is not None
        window = decision.as_(GiftKaramaDecision)
        emperor = self.s.factions.get(FactionId.EMPEROR.value)
        if emperor is None or emperor.ally is None or window.to != emperor.ally:
            self.add("decision-mismatch", "'to' must be the allied Emperor's ally", "pending", "to")
        if emperor is not None and not 1 <= window.amount <= emperor.spice:
            self.add("decision-mismatch", "'amount' must be from 1 to the Emperor's spice", "pending", "amount")
        asked = [f for f in self.s.storm_order if f != FactionId.EMPEROR]
        if decision.player not in asked:
            self.add(
                "wrong-decider", "the window on the gift asks a faction other than the Emperor", "pending", "player"
            )
        elif list(window.responders) != asked[asked.index(decision.player) + 1 :]:
            self.add(
                "decision-mismatch",
                "'responders' must be the factions after the decider in storm order, the Emperor left out",
                "pending",
                "responders",
            )
        if decision.player in self.in_game and list(window.eligible) != self.karama_cards_held(decision.player):
            self.add(
                "decision-mismatch", "'eligible' must be the Karama cards the decider holds", "pending", "eligible"
            )
        resumed = window.resumes
        if resumed is not None and resumed.get("type") in GIFT_WAITS_FOR:
            self.add(
                "decision-out-of-step",
                "a gift waits for an open Karama window to close, so none is interrupted",
                "pending",
                "resumes",
                "type",
            )

    def truthtrance_decision(self) -> None:
        """A Truthtrance question awaits its answer from a side of an unrevealed battle, put by another
        faction, on a kind of card of the ruleset."""
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        if battle is None or battle.resolution is not None or battle.revealed:
            self.add("decision-out-of-step", "it is open only before a battle's plans are revealed", "pending", "type")
            return
        if decision.player not in (battle.aggressor, battle.defender):
            self.add("wrong-decider", "a side of the battle answers", "pending", "player")
        owner = decision.fields.get("owner")
        if owner not in self.s.factions or owner == decision.player:
            self.add("decision-mismatch", "another faction of this game asked", "pending", "owner")
        if decision.fields.get("subject") not in voice_subjects(self.s):
            self.add("decision-mismatch", "name a kind of card of this game", "pending", "subject")

    def battle_choice_decision(self) -> None:
        """The next battle is chosen between battles, by the aggressor the board and the order of
        aggressors give; the battles it lists (may be omitted) are those the board holds."""
        decision = self.s.pending
        assert decision is not None
        if self.s.battle is not None:
            self.add("decision-out-of-step", "a battle is under way", "pending", "type")
            return
        listed = [dict(b) for b in decision.as_(BattleChoiceDecision).battles]
        readings = [battles_to_fight(self.s, {STORM_QUESTION: choice}) for choice in STORM_READINGS]
        # the battles listed under the reading of battle-under-storm the decision was opened with
        matching = [c for c in readings if [b.to_dict() for b in c] == listed]
        candidates = matching[0] if matching else readings[0]
        aggressor = aggressor_of(self.s, candidates)
        if aggressor is None:
            self.add("decision-out-of-step", "no battle is left to fight", "pending", "type")
            return
        settled = decision.fields.get("territory")
        if settled is not None:
            # a reading that settles this territory first: its first faction in storm order decides
            here = [c for c in candidates if c.territory == settled]
            if not here:
                self.add("decision-mismatch", f"no battle is left in {settled}", "pending", "territory")
                return
            rank = aggressor_rank(self.s)
            aggressor = min((f for c in here for f in c.factions), key=lambda f: (rank.get(f, len(rank)), f))
        if decision.player != aggressor:
            self.add(
                "wrong-decider",
                f"the aggressor is {aggressor}, first in the order of aggressors with a battle",
                "pending",
                "player",
            )
        if "battles" in decision.fields and not matching:
            self.add("decision-mismatch", "'battles' must list the battles the board holds", "pending", "battles")

    def battle_plan_decision(self) -> None:
        """A battle plan is awaited from a side of an unresolved battle; the fields it states (each may be
        omitted) are the battle's, and its limits those the plan rules derive from the snapshot."""
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        if battle is None or battle.resolution is not None:
            self.add("decision-out-of-step", "no battle is waiting for a battle plan", "pending", "type")
            return
        if battle.prelude:
            self.add(
                "decision-out-of-step",
                "the plans follow the steps before them: battle.prelude is left",
                "battle",
                "prelude",
            )
            return
        if decision.player not in (battle.aggressor, battle.defender) or decision.player not in self.s.factions:
            self.add("wrong-decider", "a battle plan is awaited from a side of the battle", "pending", "player")
            return
        record = decision.as_(BattlePlanDecision)
        opponent = battle.defender if decision.player == battle.aggressor else battle.aggressor
        for key, given, expected in (
            ("territory", record.territory, battle.territory),
            ("opponent", record.opponent, opponent),
        ):
            if given is not None and given != expected:
                self.add("decision-mismatch", f"'{key}' must be {expected!r}", "pending", key)
        if opponent not in self.s.factions:
            return
        self.face_up_reading_kept(battle, decision.player, decision.fields)
        # the limits under one reading of occupy-dialed-force-traits, the default first
        readings = [plan_limits(self.s, battle, decision.player, reading) for reading in TRAITS_READINGS]
        matching = [
            (dial, spice)
            for dial, spice in readings
            if record.dial_max in (None, dial) and record.spice_max in (None, spice)
        ]
        dial_max, spice_max = matching[0] if matching else readings[0]
        # no number in the message: both limits count the spice behind the decider's shield
        limits: tuple[tuple[str, int | float | None, int | float], ...] = (
            ("dial_max", record.dial_max, dial_max),
            ("spice_max", record.spice_max, spice_max),
        )
        for key, stated, derived in limits:
            if stated is not None and stated != derived:
                self.add(
                    "decision-mismatch",
                    f"'{key}' is not what the decider's forces in the battle and its spice allow",
                    "pending",
                    key,
                )

    def face_up_reading_kept(self, battle: Battle, player: str, fields: Mapping[str, object]) -> None:
        """A battle-plan decision keeps a reading of skill-face-up-leader-required only where every
        leader the side could play lies face up with its skill, and there keeps the one a standing
        Prescience answer of the side was given under."""
        kept = kept_face_up(fields)
        if not face_up_leaders(self.s, battle, player):
            if "face_up_leader" in fields:
                self.add(
                    "decision-mismatch",
                    "'face_up_leader' is kept only where every leader the side could play lies face up with its skill",
                    "pending",
                    "face_up_leader",
                )
            return
        expected = face_up_reading(battle, player, kept)
        if expected != kept:
            self.add(
                "decision-mismatch",
                f"the side's plan follows {expected!r}, the reading its Prescience answer was given under",
                "pending",
                "face_up_leader",
            )

    def battle_cleanup_decision(self) -> None:
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, resolution = current
        if decision.player != resolution.winner:
            self.add("wrong-decider", "the battle's winner makes this decision", "pending", "player")
            return
        captured = decision.as_(CaptureDecision).leader if decision.type == DecisionType.HARKONNEN_CAPTURE else None
        if decision.type == DecisionType.HARKONNEN_CAPTURE and captured != resolution.capture:
            self.add(
                "not-the-drawn-leader", "the decision names a leader other than the one drawn", "pending", "leader"
            )
        if decision.type == DecisionType.WINNER_CARDS:
            plan = battle.plans.get(decision.player or "")
            in_plan = set(plan.cards) if plan is not None else set()
            used = set(resolution.used_cards or ())
            by_traitor = bool(resolution.decided_by_traitor)
            for i, card in enumerate(decision.as_(WinnerCardsDecision).eligible):
                if card not in in_plan:
                    self.add(
                        "card-not-where-decision-says", f"{card} is not in the winner's plan", "pending", "eligible", i
                    )
                elif by_traitor and is_leader_substitute(card):
                    continue  # offered under one reading of question traitor-winner-cheap-hero
                elif not can_retain_battle_card(card, used=card in used, decided_by_traitor=by_traitor):
                    self.add("card-not-eligible", f"{card} cannot be kept by the winner", "pending", "eligible", i)
        if decision.type == DecisionType.HARKONNEN_CAPTURE:
            self.capture_draw(resolution)
            duke = self.s.duke_vidal
            if captured == DUKE and (
                duke is None or duke.status is not DukeStatus.HELD or duke.controller != resolution.loser
            ):
                self.add(
                    "decision-mismatch",
                    "a drawn Duke Vidal is still held by the loser until the capture is decided",
                    "duke_vidal",
                    "status",
                )

    def _capture_gholas(self, resolution: Resolution, territory: str) -> tuple[str, ...]:
        """The gholas the draw took in, when the resolution says it did (the Tleilaxu lost)."""
        if not resolution.gholas_in_capture_pool or resolution.loser != FactionId.TLEILAXU.value:
            return ()
        return gholas_at_hand(((f, state.leaders) for f, state in self.s.factions.items()), territory)

    def capture_draw(self, resolution: Resolution) -> None:
        """The captive is the one the seed draws from the loser's leaders; a client cannot pick it."""
        loser, battle = resolution.loser, self.s.battle
        if loser is None or loser not in self.s.factions or battle is None:
            return
        drawn = draw_captive(
            self.s.factions[loser].leaders,
            loser,
            battle.territory,
            self.s.seed,
            self.s.turn,
            bool(resolution.duke_in_capture_pool),
            self._capture_gholas(resolution, battle.territory),
        )
        if resolution.capture != drawn:
            self.add(
                "not-the-drawn-leader",
                f"the seed draws {drawn}, not {resolution.capture}",
                "battle",
                "resolution",
                "capture",
            )

    def semuta_decision(self) -> None:
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        resolution = battle.resolution if battle is not None else None
        queue = list(resolution.semuta or ()) if resolution is not None else []
        steps = list(resolution.steps) if resolution is not None else []
        if not queue or not steps or steps[0] != decision.type:
            self.add("decision-out-of-step", "no discard batch is waiting for a Semuta answer", "pending", "type")
            return
        head = queue[0]
        responders = list(head.responders)
        if not responders or decision.player != responders[0] or decision.player == head.discarder:
            self.add(
                "wrong-decider", "the next faction in storm order (not the discarder) answers", "pending", "player"
            )
            return
        held = semuta_cards(self.s, decision.player or "")
        opportunity = decision.as_(SemutaOpportunity)
        if opportunity.card != (held[0] if held else None):
            self.add("decision-mismatch", "'card' must be the Semuta Drug the decider holds", "pending", "card")
        for i, card in enumerate(opportunity.eligible):
            if card not in head.cards or card not in self.s.discard:
                self.add(
                    "card-not-where-decision-says",
                    f"{card} is not a fresh discard of this batch",
                    "pending",
                    "eligible",
                    i,
                )

    def cyborgs_lost_record(self, resolution: Resolution) -> None:
        """`cyborgs_lost` is kept exactly while the Ixian winner's Suboid swap is among the steps, and
        names no more Cyborgs than the Ixian Tanks hold."""
        where = ("battle", "resolution", "cyborgs_lost")
        swap_to_come = DecisionType.SUBOID_SWAP in resolution.steps
        if swap_to_come != (resolution.cyborgs_lost is not None):
            self.add("record-out-of-step", "cyborgs_lost is kept exactly while the suboid-swap step remains", *where)
            return
        if resolution.cyborgs_lost is None:
            return
        ixians = self.s.factions.get(IXIANS)
        if ixians is None or not self.ixian_forces_won(resolution):
            self.add("wrong-decider", "only an Ixian winner swaps Suboids for lost Cyborgs", *where)
        elif not 0 < resolution.cyborgs_lost <= ixians.tanks.elite:
            self.add("decision-mismatch", "the Cyborgs lost are in the Ixian Tanks, at least one", *where)

    def ixian_forces_won(self, resolution: Resolution) -> bool:
        """The Ixians won, or Ecaz won dialing its Ixian ally's forces under Occupy (whose Cyborgs it lost)."""
        ixians = self.s.factions.get(IXIANS)
        ecaz = FactionId.ECAZ.value
        return resolution.winner == IXIANS or (resolution.winner == ecaz and ixians is not None and ixians.ally == ecaz)

    def face_dancer_reading_record(self, resolution: Resolution) -> None:
        """`face_dancer_reading` is kept exactly while the face-dancer-reveal step (or the Karama window
        on the reveal) remains after a battle that covered one side of the storm (question
        face-dancer-storm-split)."""
        one_side = covered_sectors(self.s) is not None
        to_come = _face_dancer_step_to_come(resolution) and one_side
        if to_come != (resolution.face_dancer_reading is not None):
            self.add(
                "record-out-of-step",
                "face_dancer_reading is kept exactly while the face-dancer-reveal step (or its Karama window) of"
                " a battle on one side of the storm remains",
                "battle",
                "resolution",
                "face_dancer_reading",
            )

    def own_leader_bounty_record(self, resolution: Resolution) -> None:
        """`own_leader_bounty` is kept only while the Face Dancer step (or its Karama window) remains,
        for a winner whose leader died in the battle."""
        if resolution.own_leader_bounty is None:
            return
        where = ("battle", "resolution", "own_leader_bounty")
        if not _face_dancer_step_to_come(resolution):
            self.add(
                "record-out-of-step",
                "own_leader_bounty is kept only while the face-dancer-reveal step (or its Karama window) remains",
                *where,
            )
            return
        _, leader = winner_leader(self.s)
        if leader is None or not in_tanks(self.s, self.cat, leader):
            self.add(
                "decision-mismatch",
                "own_leader_bounty is what the winner was paid for its own leader killed in the battle: that"
                " leader is in the Tanks",
                *where,
            )

    def face_dancer_reveal_record(self, battle: Battle, resolution: Resolution) -> None:
        """`face_dancer_reveal` is kept exactly while the Karama window on the reveal remains; the
        factions still to ask are the last ones of the storm order, the Tleilaxu left out, and the reveal
        is one the Tleilaxu could make now (the rule module's checks)."""
        record = resolution.face_dancer_reveal
        where = ("battle", "resolution", "face_dancer_reveal")
        if (DecisionType.FACE_DANCER_KARAMA in resolution.steps) != (record is not None):
            self.add(
                "record-out-of-step",
                "face_dancer_reveal is kept exactly while the face-dancer-karama window remains",
                *where,
            )
            return
        if record is None:
            return
        asked = list(window_responders(self.s.storm_order))
        responders = list(record.responders)
        if not responders or responders != asked[len(asked) - len(responders) :]:
            self.add(
                "decision-mismatch",
                "'responders' must be the factions still to ask: the last ones of the storm order, the Tleilaxu"
                " left out",
                *where,
                "responders",
            )
        for violation in declared_reveal_violations(self.s):
            tokens = violation.path.strip("/").split("/")
            at = (*where, *tokens[1:]) if tokens[0] == "action" else tuple(tokens[1:])
            self.add("decision-mismatch", f"the reveal waiting on its window: {violation.message}", *at)

    def occupy_partner_record(self, battle: Battle, resolution: Resolution) -> None:
        """`occupy_partner` names the faction Occupy joined to a side when the battle was resolved: Ecaz
        beside its fighting ally, or that ally beside Ecaz fighting, Occupy standing. Every resolution of
        such a battle keeps it; the board cannot stand in for it (Occupy's losses may have taken Ecaz's
        last forces away), but while both of the pair still stand in the battle's sectors it must be there."""
        where = ("battle", "resolution", "occupy_partner")
        partner = resolution.occupy_partner
        if partner is None:
            if any(occupy_partner_on_board(self.s, battle, side) for side in (battle.aggressor, battle.defender)):
                self.add(
                    "record-out-of-step",
                    "Ecaz and its ally both stand in the battle's sectors under Occupy: the resolution keeps"
                    " occupy_partner",
                    *where,
                )
            return
        ecaz = self.s.factions.get(ECAZ)
        ally = None if ecaz is None else ecaz.ally
        fighter = ally if partner == ECAZ else ECAZ
        combatants = (battle.aggressor, battle.defender)
        if ally is None or partner not in (ECAZ, ally) or fighter not in combatants or partner in combatants:
            self.add(
                "decision-mismatch", "occupy_partner is Ecaz or its ally, beside the other of the two fighting", *where
            )
        elif battle.cancelled(BattlePower.ECAZ_OCCUPY.value, ECAZ):
            self.add("record-out-of-step", "a Karama cancelled Occupy in this battle: no side was Occupied", *where)

    def dialed_traits_record(self, battle: Battle, resolution: Resolution) -> None:
        """`dialed_traits` is kept only while Ecaz, dialing its ally's forces under Occupy, is to choose
        them: the winner's battle-casualties step, or the harass-withdrawal step of the side recorded as
        `withdrawing` (question occupy-dialed-force-traits)."""
        if resolution.dialed_traits is None:
            return

        def dials_ally(side: str | None) -> bool:
            return side in self.s.factions and dialed_forces_of(self.s, battle, str(side)) != side

        casualties = DecisionType.BATTLE_CASUALTIES in resolution.steps and dials_ally(resolution.winner)
        withdrawal = DecisionType.HARASS_WITHDRAWAL in resolution.steps and dials_ally(resolution.withdrawing)
        if not (casualties or withdrawal):
            self.add(
                "record-out-of-step",
                "dialed_traits is kept only while the casualties or the withdrawal of Ecaz dialing its ally's"
                " forces are to be chosen",
                "battle",
                "resolution",
                "dialed_traits",
            )

    def cyborg_losses_record(self, resolution: Resolution) -> None:
        """`cyborg_losses` is kept only while a winner losing Ixian forces is to choose them: its
        battle-casualties step, or its own harass-withdrawal step (question cyborg-losses, one-each)."""
        if resolution.cyborg_losses is None:
            return
        own_withdrawal = resolution.withdrawing == resolution.winner and resolution.result == BattleResult.DECIDED
        withdrawal = DecisionType.HARASS_WITHDRAWAL in resolution.steps and own_withdrawal
        to_come = DecisionType.BATTLE_CASUALTIES in resolution.steps or withdrawal
        if not (to_come and self.ixian_forces_won(resolution)):
            self.add(
                "record-out-of-step",
                "cyborg_losses is kept only while a winner losing Ixian forces is to choose them (battle-casualties,"
                " or its harass-withdrawal)",
                "battle",
                "resolution",
                "cyborg_losses",
            )

    def retreat_left_record(self, battle: Battle, resolution: Resolution) -> None:
        """`retreat_left` is kept exactly while the diplomat-retreat step remains, and is no more than the
        strength of the loser's leader."""
        where = ("battle", "resolution", "retreat_left")
        to_come = DecisionType.DIPLOMAT_RETREAT in resolution.steps
        if to_come != (resolution.retreat_left is not None):
            self.add(
                "record-out-of-step", "retreat_left is kept exactly while the diplomat-retreat step remains", *where
            )
            return
        if resolution.retreat_left is None:
            return
        plan = battle.plans.get(resolution.loser or "")
        leader = catalog().leaders.get(plan.leader or "") if plan is not None else None
        strength = leader.strength if leader is not None else None
        if not isinstance(strength, int) or not 0 < resolution.retreat_left <= strength:
            self.add("decision-mismatch", "at least 1 force retreats, and no more than the leader's strength", *where)

    def retreat_decision(self) -> None:
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, resolution = current
        if decision.player is None or decision.player != resolution.loser:
            self.add("wrong-decider", "the side that lost with its Diplomat decides its retreat", "pending", "player")
            return
        if decision.fields.get("territory") != battle.territory:
            self.add("decision-mismatch", f"'territory' must be {battle.territory!r}", "pending", "territory")
        if decision.fields.get("forces") != resolution.retreat_left:
            self.add("decision-mismatch", "'forces' must be the resolution's retreat_left", "pending", "forces")

    def withdrawal_decision(self) -> None:
        self.recorded_side_decision("withdrawing")

    def reinforcements_decision(self) -> None:
        self.recorded_side_decision("reinforcing")

    def recorded_side_decision(self, role: str) -> None:
        """A card choice after the reveal (Harass and Withdraw, Reinforcements): asked of the side the
        resolution records under `role`, about the battle's territory."""
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, resolution = current
        if decision.player is None or decision.player != getattr(resolution, role):
            self.add("wrong-decider", f"the side recorded as {role} decides", "pending", "player")
            return
        if decision.fields.get("territory") != battle.territory:
            self.add("decision-mismatch", f"'territory' must be {battle.territory!r}", "pending", "territory")

    def suboid_swap_decision(self) -> None:
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, resolution = current
        if decision.player != IXIANS or not self.ixian_forces_won(resolution):
            self.add("wrong-decider", "the Ixian winner decides the Suboid swap", "pending", "player")
            return
        swap = decision.as_(SuboidSwapDecision)
        cover = set(battle.sectors) if battle.sectors else None  # a resolved battle records the sectors it covered
        suboids = sum(
            s.regular
            for s in self.s.forces
            if s.faction == IXIANS and s.territory == battle.territory and (cover is None or s.sector in cover)
        )
        expected_fields = (
            ("territory", swap.territory, battle.territory),
            ("swap_max", swap.swap_max, swap_limit(resolution.cyborgs_lost or 0, suboids)),
        )
        for key, given, expected in expected_fields:
            if given != expected:
                self.add("decision-mismatch", f"'{key}' must be {expected!r}", "pending", key)

    def audit_decision(self) -> None:
        """The Auditor's payment decision answers an Auditor's battle, asks CHOAM's opponent, and names
        CHOAM and the cards at stake as the board stands (the opponent's hand, the Auditor's fate)."""
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, _ = current
        expected = expected_audit(self.s)
        if expected is None:
            self.add(
                "decision-mismatch",
                "the Auditor's inspection follows a battle it fought, unless a Karama cancelled it",
                "pending",
                "type",
            )
            return
        choam, opponent, count = expected
        if decision.player != opponent:
            self.add("wrong-decider", f"the Auditor's opponent, {opponent}, decides", "pending", "player")
        audit = decision.as_(AuditPayment)
        expected_fields = (
            ("territory", audit.territory, battle.territory),
            ("owner", audit.owner, choam),
            ("count", audit.count, count),
        )
        for key, given, wanted in expected_fields:
            if given != wanted:
                self.add("decision-mismatch", f"'{key}' must be {wanted!r}", "pending", key)
        if count == 0:
            self.add("decision-mismatch", "an inspection of no card opens no decision", "pending", "count")
        if audit.scope not in PAYMENT_SCOPES:
            self.add("decision-mismatch", f"'scope' must be one of {list(PAYMENT_SCOPES)}", "pending", "scope")
        if audit.drawn and list(audit.drawn) != draw_cards(self.s, self.s.factions[opponent].hand, count):
            self.add("decision-mismatch", "'drawn' must be the cards the seed draws from the hand", "pending", "drawn")

    def face_dancer_decision(self) -> None:
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, _ = current
        tleilaxu = self.s.factions.get(FactionId.TLEILAXU.value)
        if decision.player != FactionId.TLEILAXU or tleilaxu is None:
            self.add("wrong-decider", "revealing a Face Dancer is the Tleilaxu's decision", "pending", "player")
            return
        if not face_dancer_opportunity(*winner_leader(self.s)):
            self.add(
                "decision-mismatch",
                "a Face Dancer follows a battle another faction won with a leader that has a Traitor card",
                "pending",
                "type",
            )
            return
        winner, leader = winner_leader(self.s)
        reveal = decision.as_(FaceDancerReveal)
        expected_fields = (
            ("winner", reveal.winner, winner),
            ("leader", reveal.leader, leader),
            ("territory", reveal.territory, battle.territory),
            ("forces", reveal.forces, winner_forces(self.s, str(winner), battle.territory, replaced_sectors(self.s))),
        )
        for key, given, expected in expected_fields:
            if given != expected:
                self.add("decision-mismatch", f"'{key}' must be {expected!r}", "pending", key)
        if not tleilaxu.face_dancers:
            self.add("decision-mismatch", "the Tleilaxu hold no unrevealed Face Dancer", "pending", "type")

    def face_dancer_window_decision(self) -> None:
        """The Karama window on a Face Dancer reveal asks the first faction of the reveal's record, names
        the revealed leader and the Karama cards the asked faction holds."""
        current = self.battle_step_answered()
        if current is None:
            return
        decision, _, resolution = current
        record = resolution.face_dancer_reveal
        if record is None:
            return  # reported with the record
        if not record.responders or decision.player != record.responders[0]:
            self.add(
                "wrong-decider",
                "the window asks the first faction of face_dancer_reveal.responders",
                "pending",
                "player",
            )
        window = decision.as_(FaceDancerKaramaDecision)
        if window.owner != FactionId.TLEILAXU:
            self.add("wrong-owner", "the Face Dancer reveal is the Tleilaxu's", "pending", "owner")
        if window.leader != record.leader:
            self.add("decision-mismatch", "'leader' must be the Face Dancer the reveal names", "pending", "leader")
        if list(window.eligible) != self.karama_cards_held(decision.player):
            self.add(
                "decision-mismatch", "'eligible' must be the Karama cards the decider holds", "pending", "eligible"
            )


def _face_dancer_step_to_come(resolution: Resolution) -> bool:
    """The Face Dancer decision, or the Karama window on its reveal, is among the steps still to come."""
    steps = resolution.steps
    return DecisionType.FACE_DANCER_REVEAL in steps or DecisionType.FACE_DANCER_KARAMA in steps
