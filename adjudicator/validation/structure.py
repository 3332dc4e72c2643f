"""Structure: what a snapshot can describe at all, before any custody or battle question.

Checks the ruleset (variants and their expansions), each faction (expansion, alliance, leaders and
their skills, Traitor cards kept, elite forces), the force totals against what each faction owns,
the places on the board (force stacks, advisors, spice, storm order), the treachery cards (ids,
kinds in play, one place each, copies), and that an open decision's decider is in the game.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from adjudicator.core.catalog import card_kind, copies_in_play
from adjudicator.core.vocabulary import DECISION_PHASES, DecisionType, FactionId, LeaderStatus
from adjudicator.validation.base import Checker, pointer

_CARD_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:#[1-9][0-9]{0,3})?$")
# Traitor cards a faction keeps after selection: the Harkonnen keep all four, the Tleilaxu hold
# Face Dancers instead, everyone else keeps one (the Harkonnen and Tleilaxu faction sheets).
_TRAITORS_KEPT = {FactionId.HARKONNEN.value: 4, FactionId.TLEILAXU.value: 0}
_AUDITOR = "auditor"


class StructureChecks(Checker):
    """Ids, counts and places: the ruleset, the factions, the board and the cards."""

    def ruleset(self) -> None:
        rs = self.s.ruleset
        for i, variant in enumerate(rs.to_dict()["variants"]):
            needed = self.cat.variants.get(variant)
            if needed is not None and needed not in rs.expansions:
                self.add(
                    "variant-needs-expansion",
                    f"variant {variant!r} needs the {needed!r} expansion",
                    "ruleset",
                    "variants",
                    i,
                )
        for key in ("expansions", "variants"):
            for item, n in Counter(rs.to_dict()[key]).items():
                if n > 1:
                    self.add("duplicate", f"{item!r} is listed {n} times", "ruleset", key)

    # -- factions ---------------------------------------------------------------------------
    def factions(self) -> None:
        rs = self.s.ruleset
        traitor_places: dict[str, str] = {}
        skill_places: dict[str, str] = {}
        for fid, fs in self.s.factions.items():
            faction = self.cat.factions[fid]
            if faction.expansion != "base" and faction.expansion not in rs.expansions:
                self.add(
                    "faction-not-in-ruleset",
                    f"{fid} needs the {faction.expansion!r} expansion in ruleset.expansions",
                    "factions",
                    fid,
                )
            if fs.ally is not None:
                if fs.ally == fid:
                    self.add("self-alliance", f"{fid} cannot ally with itself", "factions", fid, "ally")
                elif fs.ally not in self.in_game:
                    self.add("ally-not-in-game", f"{fs.ally} is not in this game", "factions", fid, "ally")
                elif self.s.factions[fs.ally].ally != fid:
                    self.add(
                        "one-sided-alliance",
                        f"{fid} names {fs.ally} as ally but {fs.ally} does not name {fid}",
                        "factions",
                        fid,
                        "ally",
                    )
            for lid, state in fs.leaders.items():
                self.leader_entry(fid, lid, state.status, state.by, state.skill, state.skill_face_up, skill_places)
                if state.ghola:
                    self.ghola(fid, lid, state.status, state.skill)
            for i, leader_id in enumerate(fs.traitors):
                self.traitor(fid, i, leader_id, traitor_places)
            kept = _TRAITORS_KEPT.get(fid, 1)
            if len(fs.traitors) > kept:
                self.add(
                    "too-many-traitors",
                    f"{fid} keeps {kept} Traitor card(s), not {len(fs.traitors)}",
                    "factions",
                    fid,
                    "traitors",
                )
            for key, count in (("reserves", fs.reserves), ("tanks", fs.tanks)):
                if count.elite and not faction.elite_forces:
                    self.add("no-elite-forces", f"{fid} has no elite forces", "factions", fid, key, "elite")
        self.force_totals()

    def leader_entry(
        self,
        fid: str,
        lid: str,
        status: LeaderStatus,
        by: str | None,
        skill: str | None,
        face_up: bool | None,
        skill_places: dict[str, str],
    ) -> None:
        path = ("factions", fid, "leaders", lid)
        leader = self.cat.leaders.get(lid)
        if leader is None:
            self.add("unknown-leader", f"no leader with id {lid!r}", *path)
            return
        if leader.separate_disc:
            self.add(
                "duke-vidal-not-a-roster-leader",
                "Duke Vidal is a separate disc: describe him under duke_vidal, not in a faction's leaders",
                *path,
            )
            return
        if leader.faction != fid:
            self.add(
                "leader-not-native",
                f"{lid} is a {leader.faction} leader; list it under {leader.faction} (captured leaders use"
                " status 'captured' with 'by')",
                *path,
            )
        if leader.advanced_only and not self.s.ruleset.advanced:
            self.add("leader-not-in-ruleset", f"{lid} is used only in advanced games", *path)
        if status is LeaderStatus.CAPTURED:
            if by is None:
                self.add("captured-without-captor", "a captured leader needs 'by': the faction holding it", *path)
            elif by == fid or by not in self.in_game or by != FactionId.HARKONNEN:
                self.add(
                    "invalid-captor",
                    f"{by!r} cannot hold {lid} captive: only the Harkonnen capture leaders",
                    *path,
                    "by",
                )
        elif by is not None:
            self.add("captor-without-capture", "'by' is only for status 'captured'", *path, "by")
        if skill is not None:
            if "leader-skills" not in self.s.ruleset.variants:
                self.add("skills-not-in-ruleset", "leader skills need the 'leader-skills' variant", *path, "skill")
            if skill not in self.cat.skills:
                self.add("unknown-skill", f"no leader skill with id {skill!r}", *path, "skill")
            if lid == _AUDITOR:
                self.add("auditor-cannot-have-skill", "the Auditor cannot hold a leader skill", *path, "skill")
            if skill in skill_places:
                self.add(
                    "skill-in-two-places", f"skill {skill!r} is also held at {skill_places[skill]}", *path, "skill"
                )
            else:
                skill_places[skill] = self.root + "/factions/" + fid + "/leaders/" + lid
        elif face_up is not None:
            self.add("skill-state-without-skill", "'skill_face_up' needs a 'skill'", *path, "skill_face_up")

    def ghola(self, fid: str, lid: str, status: LeaderStatus, skill: str | None) -> None:
        """A foreign ghola: the advanced Tleilaxu at the table revived another faction's leader (not the
        Auditor), with no leader skill: serving them, held captive (it returns to them), or dead and
        still theirs (question ghola-death, choice stays-ghola)."""
        path = ("factions", fid, "leaders", lid, "ghola")
        tleilaxu = FactionId.TLEILAXU.value
        if not self.s.ruleset.advanced or tleilaxu not in self.in_game:
            self.add("ghola-not-allowed", "foreign gholas are the advanced Tleilaxu's, at the table", *path)
        elif fid == tleilaxu:
            self.add("ghola-not-allowed", "a ghola is another faction's leader the Tleilaxu revived", *path)
        elif lid == _AUDITOR:
            self.add("ghola-not-allowed", "the Auditor is never revived as a ghola", *path)
        if skill is not None:
            self.add(
                "ghola-has-skill", "a Tleilaxu ghola holds no leader skill", "factions", fid, "leaders", lid, "skill"
            )

    def traitor(self, fid: str, index: int, leader_id: str, places: dict[str, str]) -> None:
        path = ("factions", fid, "traitors", index)
        leader = self.cat.leaders.get(leader_id)
        if leader is None:
            self.add("unknown-leader", f"no leader with id {leader_id!r}", *path)
            return
        if not leader.traitor_card:
            self.add("no-traitor-card", f"{leader_id} has no Traitor card", *path)
            return
        if leader.faction not in self.in_game:
            self.add(
                "traitor-faction-not-in-game", f"{leader_id}'s faction {leader.faction} is not in this game", *path
            )
        if leader_id in places:
            self.add("traitor-in-two-places", f"the Traitor card of {leader_id} is also at {places[leader_id]}", *path)
        else:
            places[leader_id] = f"{self.root}/factions/{fid}/traitors/{index}"

    def force_totals(self) -> None:
        regular: Counter[str] = Counter()
        elite: Counter[str] = Counter()
        for fid, fs in self.s.factions.items():
            regular[fid] += fs.reserves.regular + fs.tanks.regular
            elite[fid] += fs.reserves.elite + fs.tanks.elite
        for stack in self.s.forces:
            regular[stack.faction] += stack.regular
            elite[stack.faction] += stack.elite
        for advisors in self.s.advisors:
            regular[FactionId.BENE_GESSERIT.value] += advisors.count
        for fid in self.s.factions:
            faction = self.cat.factions[fid]
            total = regular[fid] + elite[fid]
            if total > faction.forces_total:
                self.add(
                    "forces-over-total",
                    f"{fid} has {total} forces in reserves, tanks and on the board; it owns {faction.forces_total}",
                    "factions",
                    fid,
                )
            if faction.elite_forces and elite[fid] > faction.elite_forces:
                self.add(
                    "elite-over-total",
                    f"{fid} has {elite[fid]} elite forces; it owns {faction.elite_forces}",
                    "factions",
                    fid,
                )

    # -- places on the board ----------------------------------------------------------------
    def board(self) -> None:
        seen: dict[tuple[str, str, int | None], int] = {}
        for i, stack in enumerate(self.s.forces):
            if stack.faction not in self.in_game:
                self.add("faction-not-in-game", f"{stack.faction} is not in this game", "forces", i, "faction")
            elif stack.elite and not self.cat.factions[stack.faction].elite_forces:
                self.add("no-elite-forces", f"{stack.faction} has no elite forces", "forces", i, "elite")
            self.place(stack.territory, stack.sector, "forces", i)
            if stack.regular == 0 and stack.elite == 0:
                self.add("empty-stack", "a force stack holds at least one force: leave empty stacks out", "forces", i)
            key = (stack.faction, stack.territory, stack.sector)
            if key in seen:
                self.add("duplicate-stack", f"the same stack is also at /forces/{seen[key]}: merge them", "forces", i)
            else:
                seen[key] = i
        if self.s.advisors and FactionId.BENE_GESSERIT.value not in self.in_game:
            self.add(
                "advisors-without-bene-gesserit",
                "advisors belong to the Bene Gesserit, who are not in this game",
                "advisors",
            )
        advisor_places: dict[tuple[str, int | None], int] = {}
        for i, advisors in enumerate(self.s.advisors):
            self.place(advisors.territory, advisors.sector, "advisors", i)
            key2 = (advisors.territory, advisors.sector)
            if key2 in advisor_places:
                self.add(
                    "duplicate-stack", f"the same stack is also at /advisors/{advisor_places[key2]}", "advisors", i
                )
            else:
                advisor_places[key2] = i
        for i, pile in enumerate(self.s.board_spice):
            self.place(pile.territory, pile.sector, "board_spice", i)
        self.no_field()
        order = list(self.s.storm_order)
        if sorted(order) != sorted(self.in_game):
            self.add(
                "storm-order-mismatch", "storm_order must list every faction in the game exactly once", "storm_order"
            )

    def no_field(self) -> None:
        """Richese's face-down No-Field token: Richese plays, and the token lies in a place of the board."""
        token = self.s.no_field
        if token is None:
            return
        if FactionId.RICHESE.value not in self.in_game:
            self.add(
                "faction-not-in-game", "the No-Field token is Richese's, and Richese is not in this game", "no_field"
            )
        self.place(token.territory, token.sector, "no_field")

    # -- cards ---------------------------------------------------------------------------------
    def card_places(self) -> Iterable[tuple[str, tuple[object, ...]]]:
        for fid, fs in self.s.factions.items():
            for i, card in enumerate(fs.hand):
                yield card, ("factions", fid, "hand", i)
        if self.s.battle is not None:
            for fid, plan in self.s.battle.plans.items():
                for slot in ("cheap_hero", "weapon", "defense"):
                    card = getattr(plan, slot)
                    if card is not None:
                        yield card, ("battle", "plans", fid, slot)
        for i, card in enumerate(self.s.discard):
            yield card, ("discard", i)

    def cards(self) -> None:
        rs = self.s.ruleset
        first_place: dict[str, tuple[object, ...]] = {}
        per_kind: Counter[str] = Counter()
        for card, path in self.card_places():
            if not _CARD_ID.fullmatch(card):
                self.add("malformed-card-id", f"{card!r} is not a card id (kind, optionally '#n')", *path)
                continue
            kind = self.cat.cards.get(card_kind(card))
            if kind is None:
                self.add("unknown-card", f"no treachery card kind {card_kind(card)!r}", *path)
                continue
            limit = copies_in_play(kind.kind, rs.expansions, rs.variants)
            if limit == 0:
                self.add("card-not-in-ruleset", f"{kind.kind} is not in play with this ruleset", *path)
                continue
            if card in first_place:
                where = self.root + pointer(*first_place[card])
                self.add("card-in-two-places", f"{card} is already at {where}", *path)
                continue
            first_place[card] = path
            per_kind[kind.kind] += 1
            if per_kind[kind.kind] > limit:
                self.add("too-many-copies", f"only {limit} {kind.kind} card(s) exist with this ruleset", *path)

    def decider_in_game(self) -> None:
        decision = self.s.pending
        if decision is not None and decision.player is not None and decision.player not in self.in_game:
            self.add("faction-not-in-game", f"{decision.player} is not in this game", "pending", "player")

    def decision_in_phase(self) -> bool:
        """Whether the open decision is one the snapshot's phase can hold (`DECISION_PHASES`)."""
        decision = self.s.pending
        if decision is None:
            return True
        phases = DECISION_PHASES.get(DecisionType(decision.type))
        if phases is None or self.s.phase in phases:
            return True
        names = " or ".join(sorted(phases))
        self.add("decision-out-of-phase", f"the {decision.type} decision is open only in {names}", "pending", "type")
        return False
