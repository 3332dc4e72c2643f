"""Consistency checks of a snapshot (DESIGN §4): every problem with a JSON pointer and a stable code.

These checks concern what a snapshot can describe at all (ids, places, counts, custody); whether a
battle plan is legal under the rules is decided by the battle rules, not here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.core.catalog import Catalog, Territory, card_kind, catalog, copies_in_play
from adjudicator.core.errors import InvalidSnapshot, Problem
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.vocabulary import (
    CardCategory,
    DecisionType,
    DukeStatus,
    FactionId,
    LeaderStatus,
    Phase,
    TerritoryType,
)
from adjudicator.rules.cards import can_retain_battle_card
from adjudicator.rules.harkonnen import capture_pool, draw_from

_CARD_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:#[1-9][0-9]{0,3})?$")
_DUKE = "duke-vidal"
# Traitor cards a faction keeps after selection: the Harkonnen keep all four, the Tleilaxu hold
# Face Dancers instead, everyone else keeps one (RULES_FACTS §4.1-§4.2).
_TRAITORS_KEPT = {FactionId.HARKONNEN.value: 4, FactionId.TLEILAXU.value: 0}
_AUDITOR = "auditor"
FACE_DANCERS_HELD = 3
_TERROR_KINDS = frozenset({"assassination", "atomics", "extortion", "robbery", "sabotage", "sneak-attack"})
_HMS = "hidden-mobile-stronghold"


def _terror_strongholds(cat: Catalog) -> frozenset[str]:
    """Strongholds that can hold a Terror token: not the Hidden Mobile Stronghold, nor a variant's."""
    return frozenset(
        t.id
        for t in cat.territories.values()
        if t.type is TerritoryType.STRONGHOLD and t.id != _HMS and t.variant is None
    )


_MENTAT_STEPS = frozenset({DecisionType.TERROR_PLACEMENT.value, DecisionType.EXTORTION_PAYMENT.value})
# skill decision -> the battle resolution's record it answers
_SKILL_STEPS: dict[str, str] = {
    DecisionType.SANDMASTER_PILE.value: "sandmaster",
    DecisionType.RIHANI_DRAW_OFFER.value: "rihani",
    DecisionType.RIHANI_EXCHANGE.value: "rihani",
}


def pointer(*tokens: object) -> str:
    """A JSON pointer (RFC 6901) from path tokens."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


class _Checker:
    def __init__(self, snapshot: Snapshot, cat: Catalog, root: str) -> None:
        self.s = snapshot
        self.cat = cat
        self.root = root
        self.problems: list[Problem] = []
        self.in_game = set(snapshot.factions)

    def add(self, code: str, message: str, *tokens: object) -> None:
        self.problems.append(Problem(self.root + pointer(*tokens), code, message))

    # -- ruleset --------------------------------------------------------------------------
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
    def area(self, territory_id: str, *path: object) -> Territory | None:
        """Check that a territory (or, with the homeworlds variant, a homeworld) is on this game's board.

        Returns the territory, or None for a homeworld or an id already reported."""
        territory = self.cat.territories.get(territory_id)
        if territory is None:
            if territory_id not in self.cat.homeworlds:
                self.add("unknown-territory", f"no territory with id {territory_id!r}", *path)
            elif "homeworlds" not in self.s.ruleset.variants:
                self.add("territory-not-in-ruleset", "homeworlds need the 'homeworlds' variant", *path)
            return None
        if territory.expansion != "base" and territory.expansion not in self.s.ruleset.expansions:
            self.add("territory-not-in-ruleset", f"{territory_id} needs the {territory.expansion!r} expansion", *path)
        elif territory.variant is not None and territory.variant not in self.s.ruleset.variants:
            self.add("territory-not-in-ruleset", f"{territory_id} needs the {territory.variant!r} variant", *path)
        return territory

    def place(self, territory_id: str, sector: int | None, *path: object) -> None:
        territory = self.area(territory_id, *path, "territory")
        if territory is None:
            if territory_id in self.cat.homeworlds and sector is not None:
                self.add("sector-not-allowed", "a homeworld has no sectors: use null", *path, "sector")
            return
        if not territory.has_sectors:
            if sector is not None:
                self.add("sector-not-allowed", f"{territory_id} has no sectors: use null", *path, "sector")
        elif sector is None:
            self.add(
                "missing-sector", f"{territory_id} lies in sectors {list(territory.sectors)}: name one", *path, "sector"
            )
        elif sector not in territory.sectors:
            self.add(
                "sector-outside-territory",
                f"sector {sector} is not part of {territory_id} (sectors {list(territory.sectors)})",
                *path,
                "sector",
            )

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
        order = list(self.s.storm_order)
        if sorted(order) != sorted(self.in_game):
            self.add(
                "storm-order-mismatch", "storm_order must list every faction in the game exactly once", "storm_order"
            )

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

    # -- Duke Vidal, battle, pending ------------------------------------------------------------
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

    def controls_leader(self, fid: str, leader_id: str) -> bool:
        if leader_id == _DUKE:
            duke = self.s.duke_vidal
            if duke is not None and duke.status is DukeStatus.CAPTURED:
                return duke.by == fid
            return duke is not None and duke.status is DukeStatus.HELD and duke.controller == fid
        leader = self.cat.leaders[leader_id]
        native = self.s.factions.get(leader.faction)
        state = native.leaders.get(leader_id) if native is not None else None
        if state is not None and state.status is LeaderStatus.CAPTURED:
            return state.by == fid
        return leader.faction == fid

    def in_tanks(self, leader_id: str) -> bool:
        if leader_id == _DUKE:
            return self.s.duke_vidal is not None and self.s.duke_vidal.status is DukeStatus.TANKS
        native = self.s.factions.get(self.cat.leaders[leader_id].faction)
        state = native.leaders.get(leader_id) if native is not None else None
        return state is not None and state.status is LeaderStatus.TANKS

    def battle(self) -> None:
        battle = self.s.battle
        if battle is None:
            return
        territory = self.area(battle.territory, "battle", "territory")
        if territory is not None and territory.type is TerritoryType.POLAR_SINK:
            self.add("no-battle-in-polar-sink", "no battles occur in the Polar Sink", "battle", "territory")
        combatants = (battle.aggressor, battle.defender)
        for role in ("aggressor", "defender"):
            fid = getattr(battle, role)
            if fid not in self.in_game:
                self.add("faction-not-in-game", f"{fid} is not in this game", "battle", role)
        if battle.aggressor == battle.defender:
            self.add("same-faction-battle", "aggressor and defender must differ", "battle", "defender")
        pending = self.s.pending
        awaited = pending.player if pending is not None and pending.type == DecisionType.BATTLE_PLAN else None
        for fid in combatants:
            # While plans are being committed (a battle-plan decision is open) either may be missing.
            if fid not in battle.plans and awaited is None:
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
            if not self.controls_leader(fid, plan.leader):
                self.add("leader-not-controlled", f"{fid} does not control {plan.leader}", *path)
            elif self.in_tanks(plan.leader):
                self.add("leader-in-two-places", f"{plan.leader} is in the Tanks", *path)
            if plan.leader in leader_places:
                self.add("leader-in-two-places", f"{plan.leader} is also at {leader_places[plan.leader]}", *path)
            else:
                leader_places[plan.leader] = self.root + pointer(*path)
        resolution = battle.resolution
        if resolution is not None:
            for role in ("winner", "loser"):
                if resolution.get(role) is not None and resolution.get(role) not in combatants:
                    self.add(
                        "not-a-combatant",
                        f"{resolution.get(role)} did not fight this battle",
                        "battle",
                        "resolution",
                        role,
                    )
            if resolution.get("steps") and self.s.pending is None:
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

    def pending(self) -> None:
        decision = self.s.pending
        if decision is None:
            return
        if decision.player is not None and decision.player not in self.in_game:
            self.add("faction-not-in-game", f"{decision.player} is not in this game", "pending", "player")
        if decision.type == DecisionType.MORITANI_RETENTION:
            self.retention_decision()
            self.retention_record()
        elif decision.type == DecisionType.RETENTION_KARAMA:
            self.retention_record()
        elif decision.type in (DecisionType.DUKE_VIDAL_ACQUISITION, DecisionType.DUKE_VIDAL_KARAMA):
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
                elif list(decision.get("eligible") or ()) != _karama_cards(self.s, decision.player or ""):
                    self.add(
                        "decision-mismatch",
                        "'eligible' must be the Karama cards the decider holds",
                        "pending",
                        "eligible",
                    )
        elif decision.type == DecisionType.SEMUTA_OPPORTUNITY:
            self.semuta_decision()
        elif decision.type == DecisionType.MORITANI_SPECIAL_KARAMA:
            battle = self.s.battle
            resolution = battle.resolution if battle is not None else None
            steps = list(resolution.get("steps", ())) if resolution is not None else []
            if resolution is None or not steps or steps[0] != decision.type or resolution.get("loser") != "moritani":
                self.add(
                    "decision-out-of-step",
                    "no battle Moritani lost is waiting for its special Karama",
                    "pending",
                    "type",
                )
            elif decision.player != FactionId.MORITANI:
                self.add("wrong-decider", "the special Karama is Moritani's", "pending", "player")
            else:
                moritani = self.s.factions.get(FactionId.MORITANI.value)
                winner_plan = battle.plans.get(str(resolution.get("winner"))) if battle is not None else None
                in_plan = {c for c in (winner_plan.weapon, winner_plan.defense) if c} if winner_plan else set()
                if not self.s.ruleset.advanced or moritani is None or moritani.special_karama_used:
                    self.add("not-available", "the special Karama is an unspent advanced power", "pending", "type")
                elif list(decision.get("karama") or ()) != [c for c in moritani.hand if card_kind(c) == "karama"]:
                    self.add(
                        "decision-mismatch", "'karama' must be the Karama cards Moritani holds", "pending", "karama"
                    )
                if not set(decision.get("eligible") or ()) <= in_plan:
                    self.add(
                        "card-not-where-decision-says",
                        "the forced cards are the winner's played cards",
                        "pending",
                        "eligible",
                    )
        elif decision.type in (
            DecisionType.BATTLE_CASUALTIES,
            DecisionType.WINNER_CARDS,
            DecisionType.HARKONNEN_CAPTURE,
        ):
            self.battle_cleanup_decision()
        elif decision.type == DecisionType.FACE_DANCER_REVEAL:
            self.face_dancer_decision()
        elif decision.type in _SKILL_STEPS:
            self.skill_decision()

    def current_battle_step(self, decision_type: str) -> tuple[Battle, Mapping[str, Any]] | None:
        """The resolved battle whose next cleanup step is `decision_type`, or None (with the problem added)."""
        battle = self.s.battle
        resolution = battle.resolution if battle is not None else None
        steps = list(resolution.get("steps", ())) if resolution is not None else []
        if battle is None or resolution is None or not steps or steps[0] != decision_type:
            self.add("decision-out-of-step", f"no resolved battle is waiting for {decision_type}", "pending", "type")
            return None
        return battle, resolution

    def skill_decision(self) -> None:
        """A Sandmaster or Rihani decision answers the resolved battle's next step, with its record."""
        decision = self.s.pending
        assert decision is not None
        current = self.current_battle_step(decision.type)
        if current is None:
            return
        battle, resolution = current
        record = resolution.get(_SKILL_STEPS[decision.type]) or {}
        if decision.player != resolution.get("winner"):
            self.add("wrong-decider", "the battle's winner makes this decision", "pending", "player")
        keys: tuple[str, ...] = ("sectors",) if decision.type == DecisionType.SANDMASTER_PILE else ("eligible",)
        if decision.type == DecisionType.RIHANI_EXCHANGE:
            keys = ("eligible", "drawn")
        for key in keys:
            if list(decision.get(key) or ()) != list(record.get(key) or ()):
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
        steps = list(resolution.get("steps", ()))
        winner = resolution.get("winner")
        where = ("battle", "resolution")
        for step, key in (
            (DecisionType.SANDMASTER_PILE, "sandmaster"),
            (DecisionType.RIHANI_DRAW_OFFER, "rihani"),
        ):
            wanted = step in steps or (key == "rihani" and DecisionType.RIHANI_EXCHANGE in steps)
            record = resolution.get(key)
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
            if record.get("player") != winner:
                self.add("wrong-decider", "the record belongs to the battle's winner", *where, key, "player")
                continue
            if key == "sandmaster":
                piles = {p.sector for p in self.s.board_spice if p.territory == battle.territory and p.amount > 0}
                sectors = list(record.get("sectors") or ())
                if len(sectors) < 2 or len(set(sectors)) != len(sectors) or not set(sectors) <= piles:
                    self.add(
                        "decision-mismatch",
                        "the Sandmaster chooses between two or more spice piles of the battle territory",
                        *where,
                        key,
                        "sectors",
                    )
                continue
            faction = self.s.factions.get(str(winner))
            if faction is None:
                continue
            held = (
                set(faction.face_dancers)
                if winner == FactionId.TLEILAXU
                else set(faction.traitors) - set(faction.called_traitors)
            )
            eligible = list(record.get("eligible") or ())
            if not eligible or not set(eligible) <= held:
                self.add(
                    "decision-mismatch",
                    "the cards that may go back are unused Traitor cards (Tleilaxu: unrevealed Face Dancers) "
                    "the winner holds",
                    *where,
                    key,
                    "eligible",
                )
            drawn = list(record.get("drawn") or ())
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

    def face_dancer_decision(self) -> None:
        decision = self.s.pending
        assert decision is not None
        current = self.current_battle_step(decision.type)
        if current is None:
            return
        battle, resolution = current
        tleilaxu = self.s.factions.get(FactionId.TLEILAXU.value)
        if decision.player != FactionId.TLEILAXU or tleilaxu is None:
            self.add("wrong-decider", "revealing a Face Dancer is the Tleilaxu's decision", "pending", "player")
            return
        winner = resolution.get("winner")
        plan = battle.plans.get(str(winner))
        leader = self.cat.leaders.get(plan.leader or "") if plan is not None else None
        if (
            winner is None
            or winner == FactionId.TLEILAXU
            or leader is None
            or leader.id == _DUKE
            or not leader.traitor_card
        ):
            self.add(
                "decision-mismatch",
                "a Face Dancer follows a battle another faction won with a leader that has a Traitor card",
                "pending",
                "type",
            )
            return
        forces = sum(
            s.regular + s.elite for s in self.s.forces if s.faction == winner and s.territory == battle.territory
        )
        expected_fields = (
            ("winner", winner),
            ("leader", leader.id),
            ("territory", battle.territory),
            ("forces", forces),
        )
        for key, expected in expected_fields:
            if decision.get(key) != expected:
                self.add("decision-mismatch", f"'{key}' must be {expected!r}", "pending", key)
        if not tleilaxu.face_dancers:
            self.add("decision-mismatch", "the Tleilaxu hold no unrevealed Face Dancer", "pending", "type")

    # -- Moritani's Terror tokens, a pending Extortion, the Mentat Pause ---------------------------
    def terror(self) -> None:
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
                    if token.kind not in _TERROR_KINDS:
                        self.add(
                            "unknown-terror-token", f"no Terror token kind {token.kind!r}", "terror", group, i, "kind"
                        )
                    if group == "placed":
                        known = self.cat.territories.get(token.territory or "")
                        if known is None or known.id not in _terror_strongholds(self.cat):
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
                ids[str(record.get("token"))] += 1
                kinds["extortion"] += 1
            if sum(kinds.values()) != len(_TERROR_KINDS):
                self.add(
                    "terror-count",
                    f"Moritani has {len(_TERROR_KINDS)} Terror tokens (supply, placed, out of play, a pending "
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
            if record.get("credit") != 5 or record.get("owner") != FactionId.MORITANI.value:
                self.add("invalid-extortion", "the record is Moritani's 5-spice credit", "extortion", "credit")
            payers = record.get("payers")
            if payers is not None:
                if not set(payers) <= self.in_game or len(set(payers)) != len(payers):
                    self.add("invalid-extortion", "payers are distinct factions in the game", "extortion", "payers")
                if not 0 <= int(record.get("next", 0)) <= len(payers):
                    self.add("invalid-extortion", "'next' points into the payer queue", "extortion", "next")
                if not record.get("collected"):
                    self.add(
                        "invalid-extortion",
                        "payers are asked only after the 5 spice are collected",
                        "extortion",
                        "payers",
                    )
        pending = self.s.pending
        steps = list(mentat.get("steps", ())) if mentat is not None else []
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
        if pending is not None and pending.type in _MENTAT_STEPS:
            if not steps or steps[0] != pending.type:
                self.add(
                    "decision-out-of-step", f"the Mentat Pause is not waiting for {pending.type}", "pending", "type"
                )
            elif pending.type == DecisionType.EXTORTION_PAYMENT:
                payers = list(record.get("payers") or ()) if record is not None else []
                index = int(record.get("next", 0)) if record is not None else 0
                if record is None or index >= len(payers) or pending.player != payers[index]:
                    self.add("wrong-decider", "the payer asked is the queue's next faction", "pending", "player")
                elif pending.get("token") != record.get("token"):
                    self.add("decision-mismatch", "'token' must be the Extortion record's", "pending", "token")
                elif pending.get("amount") != 3 or pending.get("owner") != FactionId.MORITANI:
                    self.add("decision-mismatch", "the payment is 3 spice to Moritani", "pending", "amount")
            elif pending.player != FactionId.MORITANI:
                self.add("wrong-decider", "Moritani places its Terror tokens", "pending", "player")
            elif terror is not None:
                taken = {t.territory for t in terror.placed}
                free = [t for t in sorted(_terror_strongholds(self.cat)) if t not in taken]
                if list(pending.get("strongholds") or ()) != free:
                    self.add("decision-mismatch", f"'strongholds' must be {free!r}", "pending", "strongholds")

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
        record = (battle.resolution or {}).get("rihani") if battle is not None else None
        if record is not None:
            for i, leader_id in enumerate(record.get("drawn") or ()):
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

    def battle_cleanup_decision(self) -> None:
        decision = self.s.pending
        assert decision is not None
        current = self.current_battle_step(decision.type)
        if current is None:
            return
        battle, resolution = current
        if decision.player != resolution.get("winner"):
            self.add("wrong-decider", "the battle's winner makes this decision", "pending", "player")
            return
        if decision.type == DecisionType.HARKONNEN_CAPTURE and decision.get("leader") != resolution.get("capture"):
            self.add(
                "not-the-drawn-leader", "the decision names a leader other than the one drawn", "pending", "leader"
            )
        if decision.type == DecisionType.WINNER_CARDS:
            plan = battle.plans.get(decision.player or "")
            in_plan = set(plan.cards) if plan is not None else set()
            used = set(resolution.get("used_cards") or ())
            by_traitor = bool(resolution.get("decided_by_traitor"))
            for i, card in enumerate(decision.get("eligible") or ()):
                if card not in in_plan:
                    self.add(
                        "card-not-where-decision-says", f"{card} is not in the winner's plan", "pending", "eligible", i
                    )
                elif not _retainable(card, used=card in used, decided_by_traitor=by_traitor):
                    self.add("card-not-eligible", f"{card} cannot be kept by the winner", "pending", "eligible", i)
        if decision.type == DecisionType.HARKONNEN_CAPTURE:
            self.capture_draw(resolution)
            duke = self.s.duke_vidal
            if decision.get("leader") == _DUKE and (
                duke is None or duke.status is not DukeStatus.HELD or duke.controller != resolution.get("loser")
            ):
                self.add(
                    "decision-mismatch",
                    "a drawn Duke Vidal is still held by the loser until the capture is decided",
                    "duke_vidal",
                    "status",
                )

    def capture_draw(self, resolution: Any) -> None:
        """The captive is the one the seed draws from the loser's leaders; a client cannot pick it."""
        loser, battle = resolution.get("loser"), self.s.battle
        if loser not in self.s.factions or battle is None:
            return
        wire = self.s.to_dict()
        drawn = draw_from(
            capture_pool(wire, loser, battle.territory, bool(resolution.get("duke_in_capture_pool"))),
            self.s.seed,
            self.s.turn,
            battle.territory,
        )
        if resolution.get("capture") != drawn:
            self.add(
                "not-the-drawn-leader",
                f"the seed draws {drawn}, not {resolution.get('capture')}",
                "battle",
                "resolution",
                "capture",
            )

    def semuta_decision(self) -> None:
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        resolution = battle.resolution if battle is not None else None
        queue = list(resolution.get("semuta") or ()) if resolution is not None else []
        steps = list(resolution.get("steps", ())) if resolution is not None else []
        if not queue or not steps or steps[0] != decision.type:
            self.add("decision-out-of-step", "no discard batch is waiting for a Semuta answer", "pending", "type")
            return
        head = queue[0]
        responders = list(head.get("responders") or ())
        if not responders or decision.player != responders[0] or decision.player == head.get("discarder"):
            self.add(
                "wrong-decider", "the next faction in storm order (not the discarder) answers", "pending", "player"
            )
            return
        held = [c for c in self.s.factions[decision.player or ""].hand if card_kind(c) == "semuta-drug"]
        if decision.get("card") != (held[0] if held else None):
            self.add("decision-mismatch", "'card' must be the Semuta Drug the decider holds", "pending", "card")
        for i, card in enumerate(decision.get("eligible") or ()):
            if card not in head.get("cards", ()) or card not in self.s.discard:
                self.add(
                    "card-not-where-decision-says",
                    f"{card} is not a fresh discard of this batch",
                    "pending",
                    "eligible",
                    i,
                )

    def retention_record(self) -> None:
        """A retention decision continues a resolved battle and matches the battle's retention record."""
        decision = self.s.pending
        battle = self.s.battle
        assert decision is not None
        resolution = battle.resolution if battle is not None else None
        record = resolution.get("retention") if resolution is not None else None
        steps = list(resolution.get("steps", ())) if resolution is not None else []
        if record is None or not steps or steps[0] != decision.type:
            self.add("decision-out-of-step", f"no resolved battle is waiting for {decision.type}", "pending", "type")
            return
        if decision.type == DecisionType.MORITANI_RETENTION:
            used = set(resolution.get("used_cards") or ()) if resolution is not None else set()
            by_traitor = bool(resolution.get("decided_by_traitor")) if resolution is not None else False
            for i, card in enumerate(decision.get("eligible") or ()):
                if self.cat.cards.get(card_kind(card)) is not None and not _retainable(
                    card, used=card in used, decided_by_traitor=by_traitor
                ):
                    self.add("card-not-eligible", f"{card} could not be kept by a winner", "pending", "eligible", i)
            for key in ("player", "played", "eligible"):
                value = decision.player if key == "player" else list(decision.get(key) or ())
                if value != (record.get(key) if key == "player" else list(record.get(key) or ())):
                    self.add("decision-mismatch", f"'{key}' differs from the battle's retention record", "pending", key)
        else:
            responders = list(record.get("responders") or ())
            if not responders or decision.player != responders[0] or decision.player == FactionId.MORITANI:
                self.add(
                    "wrong-decider", "the next faction in storm order (never Moritani) answers", "pending", "player"
                )
            elif list(decision.get("eligible") or ()) != _karama_cards(self.s, decision.player or ""):
                self.add(
                    "decision-mismatch", "'eligible' must be the Karama cards the decider holds", "pending", "eligible"
                )
            if decision.get("card") != record.get("card") or record.get("card") is None:
                self.add("decision-mismatch", "'card' differs from the declared card", "pending", "card")

    def retention_decision(self) -> None:
        decision = self.s.pending
        assert decision is not None
        if decision.get("owner") != FactionId.MORITANI:
            self.add("wrong-owner", "the retention power belongs to Moritani", "pending", "owner")
        played = list(decision.get("played") or ())
        eligible = list(decision.get("eligible") or ())
        battle = self.s.battle
        plan = battle.plans.get(decision.player or "") if battle is not None else None
        plan_cards = set(plan.cards) if plan is not None else set()
        for i, card in enumerate(played):
            # a card the ally could never keep may already have left with the battle's first discards
            # (and a Semuta Drug may have taken it since): only the eligible cards stay reserved
            owner_state = self.s.factions.get(decision.player or "")
            own_hand = owner_state.hand if owner_state is not None else ()
            if card not in plan_cards and (card in (decision.get("eligible") or ()) or card in own_hand):
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


def _karama_cards(snapshot: Snapshot, faction: str) -> list[str]:
    """Cards a faction can play as a Karama: Karama cards, and Worthless ones for the advanced Bene Gesserit."""
    state = snapshot.factions.get(faction)
    if state is None:
        return []
    usable = [c for c in state.hand if card_kind(c) == "karama"]
    if faction == FactionId.BENE_GESSERIT and snapshot.ruleset.advanced:
        usable += [c for c in state.hand if catalog().cards[card_kind(c)].category is CardCategory.WORTHLESS]
    return usable


def _retainable(card: str, *, used: bool, decided_by_traitor: bool) -> bool:
    # The cleanup predicate, called outside any tracing (validation records no rulings).
    return can_retain_battle_card(card, used=used, decided_by_traitor=decided_by_traitor)


def snapshot_problems(snapshot: Snapshot, root: str = "/snapshot") -> list[Problem]:
    """Every consistency problem of the snapshot; empty when it is sound."""
    checker = _Checker(snapshot, catalog(), root)
    checker.ruleset()
    checker.factions()
    checker.board()
    checker.cards()
    checker.duke()
    checker.ambassadors()
    checker.face_dancers()
    checker.terror()
    checker.battle()
    checker.pending()
    checker.skill_records()
    return checker.problems


def validate_snapshot(snapshot: Snapshot, root: str = "/snapshot") -> Snapshot:
    problems = snapshot_problems(snapshot, root)
    if problems:
        raise InvalidSnapshot(problems)
    return snapshot
