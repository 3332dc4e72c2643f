"""The board snapshot (docs/contract.md, "Snapshot") as immutable value objects.

`Snapshot.from_dict` takes JSON-shaped data whose types the wire schema already checked (or that a
library caller built the same way); `validate_snapshot` in `adjudicator.validation` checks its consistency.
`to_dict` gives back the wire form, so a snapshot round-trips unchanged.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from adjudicator.core.decisions import DECISION_RECORDS, DecisionRecord
from adjudicator.core.records import ExtortionRecord, MentatPause, Resolution
from adjudicator.core.vocabulary import DukeStatus, LeaderStatus, Phase


def _opt(out: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def _plain(value: Any) -> Any:
    """A deep, JSON-shaped copy (mappings to dicts, tuples to lists)."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    """A read-only deep copy (mappings become mapping proxies, lists tuples)."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def halves_to_number(halves: int) -> int | float:
    """Integer half-points to ordinary strength units (`11` -> `5.5`, `10` -> `5`)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


@dataclass(frozen=True, slots=True)
class Ruleset:
    expansions: frozenset[str]
    advanced: bool
    variants: frozenset[str]
    _order: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Ruleset:
        expansions = tuple(raw.get("expansions", ()))
        variants = tuple(raw.get("variants", ()))
        return cls(frozenset(expansions), bool(raw.get("advanced", False)), frozenset(variants), (expansions, variants))

    def to_dict(self) -> dict[str, Any]:
        return {"expansions": list(self._order[0]), "advanced": self.advanced, "variants": list(self._order[1])}


@dataclass(frozen=True, slots=True)
class ForceCount:
    regular: int
    elite: int

    @property
    def total(self) -> int:
        return self.regular + self.elite

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ForceCount:
        return cls(int(raw.get("regular", 0)), int(raw.get("elite", 0)))

    def to_dict(self) -> dict[str, int]:
        return {"regular": self.regular, "elite": self.elite}


@dataclass(frozen=True, slots=True)
class LeaderState:
    status: LeaderStatus
    by: str | None = None
    skill: str | None = None
    skill_face_up: bool | None = None
    territory: str | None = None  # where a `used` leader fought this phase
    ghola: bool = False  # revived by the advanced Tleilaxu as a ghola: it serves them

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> LeaderState:
        return cls(
            LeaderStatus(raw["status"]),
            raw.get("by"),
            raw.get("skill"),
            raw.get("skill_face_up"),
            raw.get("territory"),
            bool(raw.get("ghola", False)),
        )

    def to_dict(self) -> dict[str, Any]:
        # written out rather than through _opt: this runs for every leader whenever a snapshot is copied
        out: dict[str, Any] = {"status": self.status.value}
        if self.by is not None:
            out["by"] = self.by
        if self.territory is not None:
            out["territory"] = self.territory
        if self.skill is not None:
            out["skill"] = self.skill
        if self.skill_face_up is not None:
            out["skill_face_up"] = self.skill_face_up
        if self.ghola:
            out["ghola"] = True
        return out


@dataclass(frozen=True, slots=True)
class KwisatzHaderach:
    """The Atreides' Kwisatz Haderach token (advanced): inactive until 7 forces were lost in battles."""

    status: str  # inactive | active | tanks
    used_in: str | None = None  # the one territory it may join this turn, once used
    battle_losses: int = 0  # Atreides forces lost in battles so far (it awakens at 7)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> KwisatzHaderach:
        return cls(raw["status"], raw.get("used_in"), int(raw.get("battle_losses", 0)))

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "used_in": self.used_in, "battle_losses": self.battle_losses}


@dataclass(frozen=True, slots=True)
class FactionState:
    spice: int
    reserves: ForceCount
    tanks: ForceCount
    hand: tuple[str, ...]
    traitors: tuple[str, ...]
    leaders: Mapping[str, LeaderState]
    ally: str | None
    kwisatz_haderach: KwisatzHaderach | None = None
    special_karama_used: bool = False  # advanced: the faction's once-a-game special Karama power is spent
    leader_revived_turn: int | None = None  # the turn it last revived a leader the ordinary way
    face_dancers: tuple[str, ...] = ()  # Tleilaxu: unrevealed Face Dancers (leader ids; secret)
    revealed_face_dancers: tuple[str, ...] = ()  # Tleilaxu: Face Dancers revealed since the last redraw
    called_traitors: tuple[str, ...] = ()  # its Traitor cards already called in a battle (public)
    bribe_spice: int = 0  # spice given to it as bribes, waiting in front of its shield (public)
    banker_gains: tuple[str, ...] = ()  # the phases of this turn its Spice Banker gained 1 (public)
    bureaucrat_uses: tuple[str, ...] = ()  # the phases of this turn its face-up Bureaucrat acted (public)
    assassinated: tuple[str, ...] = ()  # Moritani: Traitor cards revealed to assassinate (public)
    assassination_forfeited: bool = False  # Moritani: a normal traitor call forfeited the power (public)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> FactionState:
        return cls(
            spice=int(raw.get("spice", 0)),
            reserves=ForceCount.from_dict(raw.get("reserves") or {}),
            tanks=ForceCount.from_dict(raw.get("tanks") or {}),
            hand=tuple(raw.get("hand", ())),
            traitors=tuple(raw.get("traitors", ())),
            leaders=MappingProxyType({k: LeaderState.from_dict(v) for k, v in (raw.get("leaders") or {}).items()}),
            ally=raw.get("ally"),
            kwisatz_haderach=None
            if raw.get("kwisatz_haderach") is None
            else KwisatzHaderach.from_dict(raw["kwisatz_haderach"]),
            special_karama_used=bool(raw.get("special_karama_used", False)),
            leader_revived_turn=raw.get("leader_revived_turn"),
            face_dancers=tuple(raw.get("face_dancers", ())),
            revealed_face_dancers=tuple(raw.get("revealed_face_dancers", ())),
            called_traitors=tuple(raw.get("called_traitors", ())),
            bribe_spice=int(raw.get("bribe_spice", 0)),
            banker_gains=tuple(raw.get("banker_gains", ())),
            bureaucrat_uses=tuple(raw.get("bureaucrat_uses", ())),
            assassinated=tuple(raw.get("assassinated", ())),
            assassination_forfeited=bool(raw.get("assassination_forfeited", False)),
        )

    def to_dict(self) -> dict[str, Any]:
        out = {
            "spice": self.spice,
            # the force counts and stacks are written out here: every ruling copies the whole snapshot
            "reserves": {"regular": self.reserves.regular, "elite": self.reserves.elite},
            "tanks": {"regular": self.tanks.regular, "elite": self.tanks.elite},
            "hand": list(self.hand),
            "traitors": list(self.traitors),
            "leaders": {k: v.to_dict() for k, v in self.leaders.items()},
            "ally": self.ally,
        }
        if self.kwisatz_haderach is not None:
            out["kwisatz_haderach"] = self.kwisatz_haderach.to_dict()
        if self.special_karama_used:
            out["special_karama_used"] = True
        if self.leader_revived_turn is not None:
            out["leader_revived_turn"] = self.leader_revived_turn
        if self.face_dancers or self.revealed_face_dancers:  # only the Tleilaxu hold them
            out["face_dancers"] = list(self.face_dancers)
            out["revealed_face_dancers"] = list(self.revealed_face_dancers)
        if self.called_traitors:
            out["called_traitors"] = list(self.called_traitors)
        if self.bribe_spice:
            out["bribe_spice"] = self.bribe_spice
        if self.banker_gains:
            out["banker_gains"] = list(self.banker_gains)
        if self.bureaucrat_uses:
            out["bureaucrat_uses"] = list(self.bureaucrat_uses)
        if self.assassinated:
            out["assassinated"] = list(self.assassinated)
        if self.assassination_forfeited:
            out["assassination_forfeited"] = True
        return out


@dataclass(frozen=True, slots=True)
class ForceStack:
    faction: str
    territory: str
    sector: int | None
    regular: int
    elite: int

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ForceStack:
        return cls(
            raw["faction"], raw["territory"], raw.get("sector"), int(raw.get("regular", 0)), int(raw.get("elite", 0))
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "faction": self.faction,
            "territory": self.territory,
            "sector": self.sector,
            "regular": self.regular,
            "elite": self.elite,
        }


@dataclass(frozen=True, slots=True)
class AdvisorStack:
    territory: str
    sector: int | None
    count: int

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> AdvisorStack:
        return cls(raw["territory"], raw.get("sector"), int(raw["count"]))

    def to_dict(self) -> dict[str, Any]:
        return {"territory": self.territory, "sector": self.sector, "count": self.count}


@dataclass(frozen=True, slots=True)
class AmbassadorToken:
    """An Ecaz Ambassador token placed face up in a stronghold (`token` names its faction)."""

    token: str
    territory: str

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> AmbassadorToken:
        return cls(raw["token"], raw["territory"])

    def to_dict(self) -> dict[str, Any]:
        return {"token": self.token, "territory": self.territory}


@dataclass(frozen=True, slots=True)
class NoFieldToken:
    """Richese's face-down No-Field token on the board: where it lies and the forces it stands for
    (`forces`, hidden from every other viewer until it is revealed)."""

    territory: str
    sector: int | None
    forces: int

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> NoFieldToken:
        return cls(raw["territory"], raw.get("sector"), int(raw["forces"]))

    def to_dict(self) -> dict[str, Any]:
        return {"territory": self.territory, "sector": self.sector, "forces": self.forces}


@dataclass(frozen=True, slots=True)
class SpicePile:
    territory: str
    sector: int | None
    amount: int

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> SpicePile:
        return cls(raw["territory"], raw.get("sector"), int(raw["amount"]))

    def to_dict(self) -> dict[str, Any]:
        return {"territory": self.territory, "sector": self.sector, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class DukeVidal:
    """The one Duke Vidal disc: custody (status, controller, loan; for a captive, who held him when he
    was captured), the turn Moritani last took him, and how many times he has died."""

    status: DukeStatus
    controller: str | None = None
    acquired_turn: int | None = None
    loaned_by: str | None = None
    by: str | None = None
    deaths: int = 0
    captured_from: str | None = None
    loan_turn: int | None = None
    fought_in: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> DukeVidal:
        return cls(
            DukeStatus(raw["status"]),
            raw.get("controller"),
            raw.get("acquired_turn"),
            raw.get("loaned_by"),
            raw.get("by"),
            int(raw.get("deaths", 0)),
            raw.get("captured_from"),
            raw.get("loan_turn"),
            raw.get("fought_in"),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status.value, "controller": self.controller}
        _opt(out, "acquired_turn", self.acquired_turn)
        _opt(out, "loaned_by", self.loaned_by)
        _opt(out, "by", self.by)
        if self.deaths:
            out["deaths"] = self.deaths
        _opt(out, "captured_from", self.captured_from)
        _opt(out, "loan_turn", self.loan_turn)
        _opt(out, "fought_in", self.fought_in)
        return out


@dataclass(frozen=True, slots=True)
class Plan:
    leader: str | None
    cheap_hero: str | None
    dial_halves: int
    weapon: str | None
    defense: str | None
    spice: int
    kwisatz_haderach: bool
    # the part of `spice` the side's ally pays (question ally-support-payment); 0 under its default
    ally_spice: int = 0
    # spice a Spice Banker leader spends on its own strength, apart from the support (0: none)
    banker_spice: int = 0
    # the Karama card Ecaz commits with its plan for its special Karama (question ecaz-special-karama-timing)
    special_karama: str | None = None

    @property
    def own_spice(self) -> int:
        """The support spice the side pays itself."""
        return self.spice - self.ally_spice

    @property
    def dial(self) -> int | float:
        return halves_to_number(self.dial_halves)

    @property
    def cards(self) -> tuple[str, ...]:
        """The treachery cards committed to this plan, slot order: leader substitute, weapon, defense."""
        return tuple(c for c in (self.cheap_hero, self.weapon, self.defense) if c is not None)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Plan:
        return cls(
            leader=raw.get("leader"),
            cheap_hero=raw.get("cheap_hero"),
            dial_halves=round(float(raw.get("dial", 0)) * 2),
            weapon=raw.get("weapon"),
            defense=raw.get("defense"),
            spice=int(raw.get("spice", 0)),
            kwisatz_haderach=bool(raw.get("kwisatz_haderach", False)),
            ally_spice=int(raw.get("ally_spice", 0)),
            banker_spice=int(raw.get("banker_spice", 0)),
            special_karama=raw.get("special_karama"),
        )

    def to_dict(self) -> dict[str, Any]:
        out = {
            "leader": self.leader,
            "cheap_hero": self.cheap_hero,
            "dial": self.dial,
            "weapon": self.weapon,
            "defense": self.defense,
            "spice": self.spice,
            "kwisatz_haderach": self.kwisatz_haderach,
        }
        if self.ally_spice:  # written only when an ally pays, so a plan without one keeps its old form
            out["ally_spice"] = self.ally_spice
        if self.banker_spice:  # written only when a Spice Banker spends, for the same reason
            out["banker_spice"] = self.banker_spice
        if self.special_karama is not None:  # written only when Ecaz commits one with its plan
            out["special_karama"] = self.special_karama
        return out


@dataclass(frozen=True, slots=True)
class VoiceCommand:
    """The Bene Gesserit's Voice in force for this battle: `target` must (`play`) or must not
    (`not-play`) play a card of `subject` (a card class such as `poison-weapon`, or a card kind)."""

    player: str
    target: str
    command: str
    subject: str
    # the question readings the command was spoken under that change how it binds (empty: the defaults)
    readings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> VoiceCommand:
        readings = MappingProxyType(dict(raw.get("readings") or {}))
        return cls(raw["player"], raw["target"], raw["command"], raw["subject"], readings)

    def to_dict(self) -> dict[str, Any]:
        wire = {"player": self.player, "target": self.target, "command": self.command, "subject": self.subject}
        return {**wire, "readings": dict(self.readings)} if self.readings else wire


@dataclass(frozen=True, slots=True)
class PrescienceRecord:
    """The Atreides' Prescience in this battle: the `element` of `target`'s plan asked for, and the
    answer once given (the plan fields of that element, e.g. `{"weapon": null}`); it binds the plan."""

    player: str
    target: str
    element: str
    answer: Mapping[str, Any] | None = None
    # the question readings it was asked under that change what it discloses (empty: the defaults)
    readings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # an earlier answer of this use that allowed this further question (prescience-second-question)
    earlier: Mapping[str, Any] | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> PrescienceRecord:
        answer, earlier = raw.get("answer"), raw.get("earlier")
        return cls(
            raw["player"],
            raw["target"],
            raw["element"],
            None if answer is None else MappingProxyType(dict(answer)),
            MappingProxyType(dict(raw.get("readings") or {})),
            None if earlier is None else MappingProxyType(dict(earlier)),
        )

    def to_dict(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "player": self.player,
            "target": self.target,
            "element": self.element,
            "answer": None if self.answer is None else dict(self.answer),
        }
        if self.readings:
            wire["readings"] = dict(self.readings)
        if self.earlier is not None:
            wire["earlier"] = dict(self.earlier)
        return wire


@dataclass(frozen=True, slots=True)
class MentatQuestion:
    """A face-up Mentat's question before this battle's plans: `player` asked `target` whether it holds
    the `weapon` named (None: it declined to ask), whether `target` has shown its card yet, and the
    card shown (None with an empty hand), which only the two of them see."""

    player: str
    target: str
    weapon: str | None
    answered: bool
    shown: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> MentatQuestion:
        return cls(raw["player"], raw["target"], raw.get("weapon"), bool(raw.get("answered")), raw.get("shown"))

    def to_dict(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "player": self.player,
            "target": self.target,
            "weapon": self.weapon,
            "answered": self.answered,
        }
        if self.answered and self.weapon is not None:
            wire["shown"] = self.shown
        return wire


@dataclass(frozen=True, slots=True)
class TruthtranceAnswer:
    """A Truthtrance answer held against `target`'s plan in this battle (question
    truthtrance-binds-plan): whether it will (`yes`) or will not (`no`) play a card of `subject`."""

    player: str
    target: str
    subject: str
    answer: str

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TruthtranceAnswer:
        return cls(raw["player"], raw["target"], raw["subject"], raw["answer"])

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "target": self.target, "subject": self.subject, "answer": self.answer}


@dataclass(frozen=True, slots=True)
class PlanSeen:
    """The advanced Atreides' special Karama in this battle: `player` sees `target`'s whole plan,
    which `target` therefore makes first."""

    player: str
    target: str
    dial_hidden: bool = False  # a plan made with a No-Field token: its dial and support are not shown

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> PlanSeen:
        return cls(raw["player"], raw["target"], bool(raw.get("dial_hidden", False)))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "target": self.target}
        if self.dial_hidden:
            out["dial_hidden"] = True
        return out


@dataclass(frozen=True, slots=True)
class KaramaUse:
    """A faction power cancelled by a Karama card in this battle: who played which card against
    which faction's `power`."""

    player: str
    power: str
    target: str
    card: str

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> KaramaUse:
        return cls(raw["player"], raw["power"], raw["target"], raw["card"])

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "power": self.power, "target": self.target, "card": self.card}


@dataclass(frozen=True, slots=True)
class Battle:
    territory: str
    aggressor: str
    defender: str
    plans: Mapping[str, Plan]
    traitor_calls: tuple[str, ...]
    poison_tooth_withheld: tuple[str, ...]
    revealed: bool = True
    resolution: Resolution | None = None  # set once resolved, while cleanup decisions remain
    sectors: tuple[int, ...] | None = None  # the sectors it covers; None: the whole territory
    prelude: tuple[str, ...] = ()  # the steps still to come before the plans (voice, prescience)
    # what the window on Residual Poison and Juice of Sapho has opened after (voice, prescience), once
    # its first opening is over under cache-cards-battle-timing until-plans; None before that
    pre_battle_cards_after: tuple[str, ...] | None = None
    voice: VoiceCommand | None = None
    prescience: PrescienceRecord | None = None
    mentat: tuple[MentatQuestion, ...] = ()  # the face-up Mentats' questions before the plans
    karama: tuple[KaramaUse, ...] = ()  # faction powers cancelled in this battle
    plan_seen: PlanSeen | None = None  # the advanced Atreides' special Karama: whose plan it sees
    truthtrance: tuple[TruthtranceAnswer, ...] = ()  # Truthtrance answers held against a plan
    stone_burner: str | None = None  # the Stone Burner player's choice after the reveal
    mirror_stone_burner: str | None = None  # a Mirror Weapon player's own choice for its copy of it
    stone_burner_dialed: Mapping[str, ForceCount] = field(default_factory=lambda: MappingProxyType({}))
    portable_snooper: tuple[str, ...] = ()  # the sides adding a Portable Snooper once plans are revealed
    ecaz_karama: str | None = None  # the Karama card Ecaz plays for its special Karama once plans are revealed

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Battle:
        return cls(
            territory=raw["territory"],
            aggressor=raw["aggressor"],
            defender=raw["defender"],
            plans=MappingProxyType({k: Plan.from_dict(v) for k, v in (raw.get("plans") or {}).items()}),
            traitor_calls=tuple(raw.get("traitor_calls", ())),
            poison_tooth_withheld=tuple(raw.get("poison_tooth_withheld", ())),
            revealed=bool(raw.get("revealed", True)),
            resolution=None if raw.get("resolution") is None else Resolution.from_wire(raw["resolution"]),
            sectors=None if raw.get("sectors") is None else tuple(int(x) for x in raw["sectors"]),
            prelude=tuple(raw.get("prelude") or ()),
            pre_battle_cards_after=(
                None if raw.get("pre_battle_cards_after") is None else tuple(raw["pre_battle_cards_after"])
            ),
            voice=None if raw.get("voice") is None else VoiceCommand.from_dict(raw["voice"]),
            prescience=None if raw.get("prescience") is None else PrescienceRecord.from_dict(raw["prescience"]),
            mentat=tuple(MentatQuestion.from_dict(m) for m in raw.get("mentat") or ()),
            karama=tuple(KaramaUse.from_dict(k) for k in raw.get("karama") or ()),
            plan_seen=None if raw.get("plan_seen") is None else PlanSeen.from_dict(raw["plan_seen"]),
            truthtrance=tuple(TruthtranceAnswer.from_dict(t) for t in raw.get("truthtrance") or ()),
            stone_burner=raw.get("stone_burner"),
            mirror_stone_burner=raw.get("mirror_stone_burner"),
            stone_burner_dialed=MappingProxyType(
                {k: ForceCount.from_dict(v) for k, v in (raw.get("stone_burner_dialed") or {}).items()}
            ),
            portable_snooper=tuple(raw.get("portable_snooper") or ()),
            ecaz_karama=raw.get("ecaz_karama"),
        )

    def cancelled(self, power: str, target: str) -> bool:
        """Whether a Karama cancelled `target`'s `power` in this battle."""
        return any(use.power == power and use.target == target for use in self.karama)

    def to_dict(self) -> dict[str, Any]:
        return {
            "territory": self.territory,
            **({} if self.sectors is None else {"sectors": list(self.sectors)}),
            "aggressor": self.aggressor,
            "defender": self.defender,
            "plans": {k: v.to_dict() for k, v in self.plans.items()},
            "traitor_calls": list(self.traitor_calls),
            "poison_tooth_withheld": list(self.poison_tooth_withheld),
            **({"portable_snooper": list(self.portable_snooper)} if self.portable_snooper else {}),
            **({} if self.ecaz_karama is None else {"ecaz_karama": self.ecaz_karama}),
            "revealed": self.revealed,
            **({"prelude": list(self.prelude)} if self.prelude else {}),
            **(
                {}
                if self.pre_battle_cards_after is None
                else {"pre_battle_cards_after": list(self.pre_battle_cards_after)}
            ),
            **({} if self.voice is None else {"voice": self.voice.to_dict()}),
            **({} if self.prescience is None else {"prescience": self.prescience.to_dict()}),
            **({"mentat": [m.to_dict() for m in self.mentat]} if self.mentat else {}),
            **({"karama": [k.to_dict() for k in self.karama]} if self.karama else {}),
            **({} if self.plan_seen is None else {"plan_seen": self.plan_seen.to_dict()}),
            **({"truthtrance": [t.to_dict() for t in self.truthtrance]} if self.truthtrance else {}),
            **({} if self.stone_burner is None else {"stone_burner": self.stone_burner}),
            **({} if self.mirror_stone_burner is None else {"mirror_stone_burner": self.mirror_stone_burner}),
            **(
                {"stone_burner_dialed": {k: v.to_dict() for k, v in self.stone_burner_dialed.items()}}
                if self.stone_burner_dialed
                else {}
            ),
            **({} if self.resolution is None else {"resolution": self.resolution.to_wire()}),
        }


_DecisionRecordT = TypeVar("_DecisionRecordT", bound=DecisionRecord)


@dataclass(frozen=True, slots=True)
class Decision:
    """An open decision: its type, who decides, and what the choice ranges over (type-specific fields)."""

    type: str
    player: str | None
    fields: Mapping[str, Any]
    # the typed view of `fields`, built on first use (see adjudicator.core.decisions)
    _record: DecisionRecord | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Decision:
        rest = {k: v for k, v in raw.items() if k not in ("type", "player")}
        return cls(raw["type"], raw.get("player"), MappingProxyType(rest))

    def as_(self, kind: builtins.type[_DecisionRecordT]) -> _DecisionRecordT:
        """The decision's fields as `kind`, the record of its type (a mismatch is a programming error)."""
        record = self._record
        if record is None:
            if DECISION_RECORDS.get(self.type) is not kind:
                raise TypeError(f"a {self.type} decision is not read as {kind.__name__}")
            record = kind.from_wire(self.fields)
            object.__setattr__(self, "_record", record)
        if not isinstance(record, kind):
            raise TypeError(f"a {self.type} decision is not read as {kind.__name__}")
        return record

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "player": self.player}
        for key, value in self.fields.items():
            out[key] = _plain(value)
        return out


@dataclass(frozen=True, slots=True)
class TerrorToken:
    """A Moritani Terror token: a public handle (`id`), its kind (secret until revealed) and, when
    placed, its stronghold."""

    id: str
    kind: str
    territory: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TerrorToken:
        return cls(raw["id"], raw["kind"], raw.get("territory"))

    def to_dict(self) -> dict[str, Any]:
        out = {"id": self.id, "kind": self.kind}
        if self.territory is not None:
            out["territory"] = self.territory
        return out


@dataclass(frozen=True, slots=True)
class Terror:
    """Moritani's Terror tokens: its hidden supply, those placed face down, and those out of play."""

    supply: tuple[TerrorToken, ...]
    placed: tuple[TerrorToken, ...]
    out_of_play: tuple[TerrorToken, ...] = ()

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Terror:
        return cls(
            tuple(TerrorToken.from_dict(t) for t in raw.get("supply", ())),
            tuple(TerrorToken.from_dict(t) for t in raw.get("placed", ())),
            tuple(TerrorToken.from_dict(t) for t in raw.get("out_of_play", ())),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "supply": [t.to_dict() for t in self.supply],
            "placed": [t.to_dict() for t in self.placed],
        }
        if self.out_of_play:
            out["out_of_play"] = [t.to_dict() for t in self.out_of_play]
        return out


@dataclass(frozen=True, slots=True)
class Snapshot:
    format: str
    ruleset: Ruleset
    turn: int
    phase: Phase
    storm_sector: int
    storm_order: tuple[str, ...]
    seed: int
    factions: Mapping[str, FactionState]
    forces: tuple[ForceStack, ...]
    advisors: tuple[AdvisorStack, ...]
    board_spice: tuple[SpicePile, ...]
    discard: tuple[str, ...]
    duke_vidal: DukeVidal | None
    battle: Battle | None
    pending: Decision | None
    ambassadors: tuple[AmbassadorToken, ...] = ()
    traitor_deck: tuple[str, ...] | None = None  # the face-down Traitor deck, top first; None: not given
    terror: Terror | None = None  # Moritani's Terror tokens
    extortion: ExtortionRecord | None = None  # a revealed Extortion awaiting the Mentat Pause
    mentat: MentatPause | None = None  # the Mentat Pause under way: its remaining steps
    no_field: NoFieldToken | None = None  # Richese's face-down No-Field token on the board
    # the Battle phase's order of aggressors once Juice of Sapho changed it; None: storm order
    aggressor_order: tuple[str, ...] | None = None
    # per-snapshot memo of derived values (the snapshot never changes); not part of its value
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Snapshot:
        return cls(
            format=raw["format"],
            ruleset=Ruleset.from_dict(raw.get("ruleset") or {}),
            turn=int(raw["turn"]),
            phase=Phase(raw["phase"]),
            storm_sector=int(raw["storm_sector"]),
            storm_order=tuple(raw.get("storm_order", ())),
            seed=int(raw.get("seed", 0)),
            factions=MappingProxyType({k: FactionState.from_dict(v) for k, v in raw["factions"].items()}),
            forces=tuple(ForceStack.from_dict(f) for f in raw.get("forces", ())),
            advisors=tuple(AdvisorStack.from_dict(a) for a in raw.get("advisors", ())),
            board_spice=tuple(SpicePile.from_dict(s) for s in raw.get("board_spice", ())),
            discard=tuple(raw.get("discard", ())),
            duke_vidal=None if raw.get("duke_vidal") is None else DukeVidal.from_dict(raw["duke_vidal"]),
            battle=None if raw.get("battle") is None else Battle.from_dict(raw["battle"]),
            pending=None if raw.get("pending") is None else Decision.from_dict(raw["pending"]),
            ambassadors=tuple(AmbassadorToken.from_dict(a) for a in raw.get("ambassadors", ())),
            traitor_deck=None if raw.get("traitor_deck") is None else tuple(raw["traitor_deck"]),
            terror=None if raw.get("terror") is None else Terror.from_dict(raw["terror"]),
            extortion=None if raw.get("extortion") is None else ExtortionRecord.from_wire(raw["extortion"]),
            mentat=None if raw.get("mentat") is None else MentatPause.from_wire(raw["mentat"]),
            no_field=None if raw.get("no_field") is None else NoFieldToken.from_dict(raw["no_field"]),
            aggressor_order=None if raw.get("aggressor_order") is None else tuple(raw["aggressor_order"]),
        )

    def to_dict(self) -> dict[str, Any]:
        out = {
            "format": self.format,
            "ruleset": self.ruleset.to_dict(),
            "turn": self.turn,
            "phase": self.phase.value,
            "storm_sector": self.storm_sector,
            "storm_order": list(self.storm_order),
            "seed": self.seed,
            "factions": {k: v.to_dict() for k, v in self.factions.items()},
            "forces": [
                {
                    "faction": f.faction,
                    "territory": f.territory,
                    "sector": f.sector,
                    "regular": f.regular,
                    "elite": f.elite,
                }
                for f in self.forces
            ],
            "advisors": [a.to_dict() for a in self.advisors],
            "board_spice": [s.to_dict() for s in self.board_spice],
            "discard": list(self.discard),
            "duke_vidal": None if self.duke_vidal is None else self.duke_vidal.to_dict(),
            "battle": None if self.battle is None else self.battle.to_dict(),
            "pending": None if self.pending is None else self.pending.to_dict(),
        }
        if self.ambassadors:  # only with Ecaz in the game
            out["ambassadors"] = [a.to_dict() for a in self.ambassadors]
        if self.traitor_deck is not None:
            out["traitor_deck"] = list(self.traitor_deck)
        if self.terror is not None:
            out["terror"] = self.terror.to_dict()
        if self.extortion is not None:
            out["extortion"] = self.extortion.to_wire()
        if self.mentat is not None:
            out["mentat"] = self.mentat.to_wire()
        if self.no_field is not None:
            out["no_field"] = self.no_field.to_dict()
        if self.aggressor_order is not None:
            out["aggressor_order"] = list(self.aggressor_order)
        return out
