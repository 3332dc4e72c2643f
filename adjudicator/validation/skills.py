"""Leader skills in a resolved battle: the Smuggler's and the Sandmaster's pile choices, the Suk
Graduate's saved forces and the Rihani Decipherer's Traitor exchange.

Checks that a skill decision answers the battle's next step with its record's fields, and that the
records exist exactly while their steps remain and hold what the skill rules allow: the Sandmaster's
piles are the battle territory's spice piles, the Rihani cards that may go back are the winner's
unused Traitor cards (the Tleilaxu: unrevealed Face Dancers), and the draw takes two cards from a
known Traitor deck. The piles and the cards are asked of the skill rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adjudicator.core.decisions import SmugglerCollectionDecision
from adjudicator.core.records import RihaniRecord, SandmasterRecord
from adjudicator.core.vocabulary import BattlePower, BattleResult, DecisionType, Phase
from adjudicator.rules.skill_steps import (
    SMUGGLER,
    SUK_SAVED_MOST,
    collection_piles,
    saved_forces_options,
    smuggler_piles,
)
from adjudicator.rules.skills import sandmaster_piles, selected_skill, unused_traitor_cards
from adjudicator.validation.base import Checker

# skill decision -> the battle resolution's record it answers
SKILL_STEPS: dict[str, str] = {
    DecisionType.SANDMASTER_PILE.value: "sandmaster",
    DecisionType.RIHANI_DRAW_OFFER.value: "rihani",
    DecisionType.RIHANI_EXCHANGE.value: "rihani",
}


SUK_STEP = DecisionType.SUK_GRADUATE_FORCES.value
SMUGGLER_STEP = DecisionType.SMUGGLER_COLLECTION.value


class SkillChecks(Checker):
    """The Sandmaster and Rihani decisions and their records in the battle's resolution."""

    def decision_checks(self) -> Mapping[str, Callable[[], None]]:
        """The open decisions this part checks, by type."""
        return {
            **dict.fromkeys(SKILL_STEPS, self.skill_decision),
            SUK_STEP: self.saved_forces_decision,
            SMUGGLER_STEP: self.smuggler_decision,
        }

    def smuggler_decision(self) -> None:
        """A smuggler-collection decision answers the battle's next step, asked of the side the record
        names, with the record's amount and the sectors of the battle territory's piles at stake."""
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, resolution = current
        record = resolution.smuggler
        if record is None:
            return  # reported with the record
        if decision.player != record.player:
            self.add("wrong-decider", "the side whose Smuggler collects names the piles", "pending", "player")
        opened = decision.as_(SmugglerCollectionDecision)
        cover = frozenset(battle.sectors) if battle.sectors else None
        sectors = sorted(collection_piles(self.s.board_spice, battle.territory, cover))
        if opened.territory != battle.territory:
            self.add("decision-mismatch", f"'territory' must be {battle.territory!r}", "pending", "territory")
        if opened.amount != record.amount:
            self.add("decision-mismatch", "'amount' must be the battle record's", "pending", "amount")
        if list(opened.sectors) != sectors:
            self.add(
                "decision-mismatch", f"'sectors' must be those of the piles at stake, {sectors}", "pending", "sectors"
            )

    def smuggler_record(self) -> None:
        """`smuggler` is kept exactly while the smuggler-collection step remains, and holds a collection
        left to its side: a combatant whose plan's leader is a Smuggler, the leader's strength as the
        amount, and, in a battle that did not explode, spice in two or more sectors of the battle's
        territory (one pile to a sector) and more than that amount in all."""
        battle = self.s.battle
        resolution = battle.resolution if battle is not None else None
        if battle is None or resolution is None:
            return
        record = resolution.smuggler
        where = ("battle", "resolution", "smuggler")
        if (SMUGGLER_STEP in resolution.steps) != (record is not None):
            self.add(
                "record-out-of-step", "smuggler is kept exactly while the smuggler-collection step remains", *where
            )
            return
        if record is None:
            return
        plan = battle.plans.get(record.player) if record.player in (battle.aggressor, battle.defender) else None
        if plan is None or plan.leader is None or selected_skill(self.s, plan) != SMUGGLER:
            self.add(
                "wrong-decider", "the collecting side is a combatant that fought with a Smuggler", *where, "player"
            )
            return
        leader = self.cat.leaders.get(plan.leader)
        if leader is None or record.amount != (leader.strength or 0):
            self.add("decision-mismatch", "the Smuggler takes its leader's strength", *where, "amount")
        cover = frozenset(battle.sectors) if battle.sectors else None
        at_stake = smuggler_piles(self.s.board_spice, battle.territory, cover)
        seen: set[int | None] = set()
        for i, pile in enumerate(self.s.board_spice):
            if pile in at_stake and pile.sector in seen:
                self.add("duplicate", "the battle territory holds one spice pile to a sector", "board_spice", i)
            seen |= {pile.sector} if pile in at_stake else set()
        if (
            resolution.result is BattleResult.EXPLOSION
            or len(at_stake) < 2
            or sum(p.amount for p in at_stake) <= record.amount
        ):
            self.add(
                "decision-mismatch",
                "the Smuggler's side names its piles only with spice in two or more sectors of the battle "
                "territory, more than it takes, in a battle that did not explode",
                *where,
            )

    def saved_forces_decision(self) -> None:
        """A winner's suk-graduate-forces decision answers the battle's next step, asked of the winner,
        about the battle's territory."""
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, resolution = current
        if decision.player is None or decision.player != resolution.winner:
            self.add(
                "wrong-decider", "the battle's winner names the forces its Suk Graduate saves", "pending", "player"
            )
        if decision.get("territory") != battle.territory:
            self.add("decision-mismatch", f"'territory' must be {battle.territory!r}", "pending", "territory")

    def suk_rescue_record(self) -> None:
        """`suk_rescue` is kept exactly while the suk-graduate-forces step remains, and holds a rescue the
        Suk Graduate allows with more than one way to make it: the winner's (or, under Occupy, its ally's)
        forces still in the territory, up to 3 saved under the battle effect (one staying) or 1 under the
        normal one (none staying)."""
        battle = self.s.battle
        resolution = battle.resolution if battle is not None else None
        if battle is None or resolution is None:
            return
        record = resolution.suk_rescue
        where = ("battle", "resolution", "suk_rescue")
        if (SUK_STEP in resolution.steps) != (record is not None):
            self.add(
                "record-out-of-step", "suk_rescue is kept exactly while the suk-graduate-forces step remains", *where
            )
            return
        if record is None:
            return
        winner = resolution.winner
        partner = self.s.factions[winner].ally if winner is not None and winner in self.s.factions else None
        if record.owner not in (winner, partner):
            self.add("wrong-decider", "the forces saved are the winner's (or its Occupy ally's)", *where, "owner")
            return
        cover = set(battle.sectors) if battle.sectors else None
        stacks = [
            s
            for s in self.s.forces
            if s.faction == record.owner and s.territory == battle.territory and (cover is None or s.sector in cover)
        ]
        lost = record.regular + record.elite
        rescue = (min(SUK_SAVED_MOST, lost), min(1, lost)) if record.staying else (min(1, lost), 0)
        if record.regular > sum(s.regular for s in stacks) or record.elite > sum(s.elite for s in stacks):
            self.add("decision-mismatch", "the forces lost are still in the battle territory", *where)
        elif (record.saved, record.staying) != rescue or len(saved_forces_options(record)) < 2:
            self.add(
                "decision-mismatch",
                "a Suk Graduate saves up to 3 of the losses, one staying (battle effect), or 1 (normal effect), "
                "with more than one way to choose them",
                *where,
            )

    def skill_decision(self) -> None:
        """A Sandmaster or Rihani decision answers the resolved battle's next step, with its record."""
        current = self.battle_step_answered()
        if current is None:
            return
        decision, battle, resolution = current
        record = getattr(resolution, SKILL_STEPS[decision.type])
        if decision.player != resolution.winner:
            self.add("wrong-decider", "the battle's winner makes this decision", "pending", "player")
        keys: tuple[str, ...] = ("sectors",) if decision.type == DecisionType.SANDMASTER_PILE else ("eligible",)
        if decision.type == DecisionType.RIHANI_EXCHANGE:
            keys = ("eligible", "drawn")
        for key in keys:
            if list(decision.get(key) or ()) != list(getattr(record, key, None) or ()):
                self.add("decision-mismatch", f"'{key}' must be the battle record's", "pending", key)
        if decision.type == DecisionType.SANDMASTER_PILE and decision.get("territory") != battle.territory:
            self.add("decision-mismatch", f"'territory' must be {battle.territory!r}", "pending", "territory")

    def skill_records(self) -> None:
        """The battle's Sandmaster and Rihani records exist exactly while their steps remain, and hold what
        the rules allow: positive piles of the battle territory; unused Traitor cards (Tleilaxu: unrevealed
        Face Dancers) of the winner; no card drawn before the draw, two after it, from a known deck."""
        battle = self.s.battle
        resolution = battle.resolution if battle is not None else None
        if battle is None or resolution is None:
            return
        steps = list(resolution.steps)
        winner = resolution.winner
        where = ("battle", "resolution")
        for step, key in (
            (DecisionType.SANDMASTER_PILE, "sandmaster"),
            (DecisionType.RIHANI_DRAW_OFFER, "rihani"),
        ):
            wanted = step in steps or (key == "rihani" and DecisionType.RIHANI_EXCHANGE in steps)
            record: SandmasterRecord | RihaniRecord | None = (
                resolution.sandmaster if key == "sandmaster" else resolution.rihani
            )
            if wanted != (record is not None):
                self.add(
                    "record-out-of-step",
                    f"resolution.{key} is kept exactly while its decision is among the steps",
                    *where,
                    key,
                )
                continue
            if record is None:
                continue
            if record.player != winner:
                self.add("wrong-decider", "the record belongs to the battle's winner", *where, key, "player")
                continue
            if isinstance(record, SandmasterRecord):
                piles = {p.sector for p in sandmaster_piles(self.s.board_spice, battle.territory)}
                sectors = list(record.sectors)
                if len(sectors) < 2 or len(set(sectors)) != len(sectors) or not set(sectors) <= piles:
                    self.add(
                        "decision-mismatch",
                        "the Sandmaster chooses between two or more spice piles of the battle territory",
                        *where,
                        key,
                        "sectors",
                    )
                continue
            if str(winner) not in self.s.factions:
                continue
            held = set(unused_traitor_cards(self.s.factions[str(winner)], str(winner)))
            eligible = list(record.eligible)
            if not eligible or not set(eligible) <= held:
                self.add(
                    "decision-mismatch",
                    "the cards that may go back are unused Traitor cards (Tleilaxu: unrevealed Face Dancers) "
                    "the winner holds",
                    *where,
                    key,
                    "eligible",
                )
            drawn = list(record.drawn)
            deck = self.s.traitor_deck
            if DecisionType.RIHANI_EXCHANGE in steps:
                if len(drawn) != 2:
                    self.add("decision-mismatch", "an exchange holds the two cards drawn", *where, key, "drawn")
            elif drawn:
                self.add("decision-mismatch", "nothing is drawn before the draw", *where, key, "drawn")
            elif deck is None or len(deck) < 2:
                self.add("traitor-deck-required", "the draw needs two cards in the Traitor deck", "traitor_deck")
            if deck is None and drawn:
                self.add("traitor-deck-required", "the exchange returns cards to the Traitor deck", "traitor_deck")

    def mentat_karama(self) -> None:
        """A Karama recorded against a Mentat's question (mentat-question-karama: cancels-the-question)
        names a side that asked of a weapon and was answered with nothing shown, played by another."""
        battle = self.s.battle
        if battle is None:
            return
        for i, use in enumerate(battle.karama):
            if use.power != BattlePower.MENTAT_QUESTION:
                continue
            asked = next((m for m in battle.mentat if m.player == use.target and m.weapon is not None), None)
            if asked is None or not asked.answered or asked.shown is not None or use.player == use.target:
                self.add(
                    "record-out-of-step",
                    "a Karama cancels another side's Mentat question asked of a weapon, which then shows nothing",
                    "battle",
                    "karama",
                    i,
                )

    def banker_gains(self) -> None:
        """A faction's Spice Banker gains (and its Bureaucrat's uses) name distinct phases of this turn,
        none later than the current one, and need Leader Skills in play."""
        phases = list(Phase)
        for fid, key, gains in (
            *((fid, "banker_gains", list(fs.banker_gains)) for fid, fs in self.s.factions.items()),
            *((fid, "bureaucrat_uses", list(fs.bureaucrat_uses)) for fid, fs in self.s.factions.items()),
        ):
            if not gains:
                continue
            path = ("factions", fid, key)
            skill = "Spice Banker gain" if key == "banker_gains" else "Bureaucrat use"
            if "leader-skills" not in self.s.ruleset.variants:
                self.add("skills-not-in-ruleset", f"a {skill} needs the 'leader-skills' variant", *path)
            if len(set(gains)) != len(gains):
                once = "a Spice Banker gains" if key == "banker_gains" else "a Bureaucrat acts"
                self.add("duplicate", f"{once} at most once a phase", *path)
            for i, phase in enumerate(gains):
                if phase in phases and phases.index(Phase(phase)) > phases.index(self.s.phase):
                    self.add("record-out-of-step", f"the {phase} phase of this turn has not come yet", *path, i)
