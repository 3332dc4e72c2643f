"""The records a snapshot carries between steps, as frozen values built once from the wire.

A resolved battle keeps what it decided and the cleanup steps still to come (`Resolution`, with
Moritani's retention, the Semuta batches, a Smuggler's collection, a Sandmaster's pile, a Rihani
exchange and the Cyborgs an Ixian winner may get back for Suboids, the reading a Face Dancer reveal on
one side of the storm follows, the spice the winner was paid for its own leader and a reveal waiting
for its Karama window); Moritani's
revealed Extortion and the Mentat Pause keep theirs. Each record reads its wire mapping once
(`from_wire`) and writes it back (`to_wire`) key for key: an optional key the wire carries, even as
`null`, is kept (`given`), one it lacks stays absent, so a snapshot round-trips unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Self

from adjudicator.core.vocabulary import BattleResult


def _strings(value: Any) -> tuple[str, ...]:
    # the wire schema checked the items; they are kept as given (validation reports the odd ones)
    return tuple(value)


@dataclass(frozen=True, slots=True)
class Record:
    """Base of the wire records: required keys always written, optional ones when `given`."""

    given: frozenset[str] = field(default=frozenset(), kw_only=True, compare=False, repr=False)

    # key -> how the wire value becomes the field's value (plain values need none)
    READ: ClassVar[Mapping[str, Any]] = {}
    # the optional keys, in wire order after the required ones
    OPTIONAL: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def from_wire(cls, raw: Mapping[str, Any]) -> Self:
        values: dict[str, Any] = {}
        readers, optional = _reading(cls)
        for name, reader in readers:
            if name in raw:
                value = raw[name]
                values[name] = value if value is None or reader is None else reader(value)
        given = frozenset([k for k in optional if k in raw]) if optional else _NOTHING
        return cls(**values, given=given)

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        optional, given = self.OPTIONAL, self.given
        for name in _keys(type(self)):
            if name in given or name not in optional:
                out[name] = _wire(getattr(self, name))
        return out

    def with_(self, **changes: Any) -> Self:
        """A copy with `changes`; an optional key set this way is written from now on."""
        return replace(self, **changes, given=self.given | (frozenset(changes) & frozenset(self.OPTIONAL)))

    def without(self, *keys: str) -> Self:
        """A copy that no longer carries the optional `keys`."""
        cleared = {k: None for k in keys}
        return replace(self, **cleared, given=self.given - frozenset(keys))


_KEYS: dict[type, tuple[str, ...]] = {}
_READING: dict[type, tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]] = {}
_NOTHING: frozenset[str] = frozenset()


def _reading(cls: type[Record]) -> tuple[tuple[tuple[str, Any], ...], tuple[str, ...]]:
    """How a record class reads the wire: each key with its converter, and its optional keys
    (worked out once per class; a snapshot's records are read on every request)."""
    reading = _READING.get(cls)
    if reading is None:
        reading = _READING[cls] = (tuple((name, cls.READ.get(name)) for name in _keys(cls)), cls.OPTIONAL)
    return reading


def _keys(cls: type) -> tuple[str, ...]:
    """A record's wire keys, in field order (computed once per class: `fields()` is slow)."""
    keys = _KEYS.get(cls)
    if keys is None:
        keys = _KEYS[cls] = tuple(f.name for f in fields(cls) if f.name != "given")
    return keys


def _wire(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_wire()
    if isinstance(value, tuple):
        return [_wire(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class RetentionRecord(Record):
    """Moritani's defeated ally: the played cards it reserved, the eligible ones, the card it declared
    (once declared), the factions still to answer the Karama window, and the reading of
    retention-karama-timing the retention opened under when it is not the default."""

    player: str
    played: tuple[str, ...]
    eligible: tuple[str, ...]
    card: str | None = None
    responders: tuple[str, ...] = ()
    karama_timing: str | None = None

    READ: ClassVar[Mapping[str, Any]] = {"played": _strings, "eligible": _strings, "responders": _strings}
    OPTIONAL: ClassVar[tuple[str, ...]] = ("card", "karama_timing")


@dataclass(frozen=True, slots=True)
class SemutaBatch(Record):
    """A fresh batch of discarded battle cards and the factions still to be asked about it."""

    discarder: str
    cards: tuple[str, ...]
    responders: tuple[str, ...]

    READ: ClassVar[Mapping[str, Any]] = {"cards": _strings, "responders": _strings}


@dataclass(frozen=True, slots=True)
class SandmasterRecord(Record):
    """A winning Sandmaster's 3 spice, waiting for the winner to choose among the territory's piles."""

    player: str
    sectors: tuple[int | None, ...]

    READ: ClassVar[Mapping[str, Any]] = {"sectors": tuple}


@dataclass(frozen=True, slots=True)
class SukRescueRecord(Record):
    """A winner's dialed losses waiting for it to name those its Suk Graduate saves: the forces' owner,
    the regular and elite forces lost, how many are saved and how many of those stay in the territory."""

    owner: str
    regular: int
    elite: int
    saved: int
    staying: int


@dataclass(frozen=True, slots=True)
class SmugglerRecord(Record):
    """A Smuggler's collection waiting for its side to name the piles: who collects, and how much."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class RihaniRecord(Record):
    """A Rihani Decipherer's draw: who draws, the cards it may give back, the two drawn (secret), and
    whether the inspection of its normal effect follows the exchange."""

    player: str
    eligible: tuple[str, ...]
    drawn: tuple[str, ...]
    inspect_after: bool

    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings, "drawn": _strings}


@dataclass(frozen=True, slots=True)
class BoardSource(Record):
    """Forces taken from one stack on the board: its territory and sector (none where the territory has
    none; a source may leave it out), and how many."""

    territory: str
    sector: int | None = field(default=None, kw_only=True)
    count: int


@dataclass(frozen=True, slots=True)
class FaceDancerRevealRecord(Record):
    """A Face Dancer reveal the Tleilaxu made, waiting for the Karama window on it to close: the leader
    revealed, where the Tleilaxu forces go and where they come from (as the reveal named them), and the
    factions still to answer the window."""

    leader: str
    sector: int | None = field(default=None, kw_only=True)
    from_reserves: int
    from_board: tuple[BoardSource, ...]
    responders: tuple[str, ...]

    READ: ClassVar[Mapping[str, Any]] = {
        "from_board": lambda sources: tuple(BoardSource.from_wire(s) for s in sources),
        "responders": _strings,
    }


def _batches(value: Any) -> tuple[SemutaBatch, ...]:
    return tuple(SemutaBatch.from_wire(b) for b in value)


@dataclass(frozen=True, slots=True)
class Resolution(Record):
    """What a resolved battle decided, kept while its cleanup steps remain (`steps`, in order)."""

    result: BattleResult
    winner: str | None
    loser: str | None
    decided_by_traitor: bool
    steps: tuple[str, ...]
    casualties: int | float | None = None
    used_cards: tuple[str, ...] | None = None
    capture: str | None = None
    retention: RetentionRecord | None = None
    sandmaster: SandmasterRecord | None = None
    rihani: RihaniRecord | None = None
    duke_in_capture_pool: bool | None = None
    gholas_in_capture_pool: bool | None = None
    semuta: tuple[SemutaBatch, ...] | None = None
    cyborgs_lost: int | None = None
    face_dancer_reading: str | None = None
    own_leader_bounty: int | None = None
    face_dancer_reveal: FaceDancerRevealRecord | None = None
    withdrawing: str | None = None
    reinforcing: str | None = None
    retreat_left: int | None = None
    occupy_partner: str | None = None
    dialed_traits: str | None = None
    suk_rescue: SukRescueRecord | None = None
    cyborg_losses: str | None = None
    smuggler: SmugglerRecord | None = None
    held_discards: tuple[str, ...] | None = None

    READ: ClassVar[Mapping[str, Any]] = {
        "result": BattleResult,
        "steps": _strings,
        "used_cards": _strings,
        "held_discards": _strings,
        "retention": RetentionRecord.from_wire,
        "sandmaster": SandmasterRecord.from_wire,
        "rihani": RihaniRecord.from_wire,
        "semuta": _batches,
        "suk_rescue": SukRescueRecord.from_wire,
        "smuggler": SmugglerRecord.from_wire,
        "face_dancer_reveal": FaceDancerRevealRecord.from_wire,
    }
    OPTIONAL: ClassVar[tuple[str, ...]] = (
        "casualties",
        "used_cards",
        "capture",
        "retention",
        "sandmaster",
        "rihani",
        "duke_in_capture_pool",
        "gholas_in_capture_pool",
        "semuta",
        "cyborgs_lost",
        "face_dancer_reading",
        "own_leader_bounty",
        "face_dancer_reveal",
        "withdrawing",
        "reinforcing",
        "retreat_left",
        "occupy_partner",
        "dialed_traits",
        "suk_rescue",
        "cyborg_losses",
        "smuggler",
        "held_discards",
    )

    def to_wire(self) -> dict[str, Any]:
        out = Record.to_wire(self)
        out["result"] = self.result.value
        return out

    @property
    def step(self) -> str | None:
        """The cleanup step now open, if any."""
        return self.steps[0] if self.steps else None


@dataclass(frozen=True, slots=True)
class ExtortionRecord(Record):
    """A revealed Extortion: its token, the 5 spice waiting in front of Moritani's shield until the
    Mentat Pause, then the payer queue fixed as the payment window opens and the next payer."""

    token: str
    owner: str
    turn: int
    credit: int
    collected: bool
    payers: tuple[str, ...] | None = None
    next: int | None = None

    READ: ClassVar[Mapping[str, Any]] = {"payers": _strings}
    OPTIONAL: ClassVar[tuple[str, ...]] = ("payers", "next")


@dataclass(frozen=True, slots=True)
class MentatPause(Record):
    """The Mentat Pause under way: its remaining decisions, and the reading of extortion-mentat-order it
    began under, when that question arose."""

    steps: tuple[str, ...]
    order: str | None = None

    READ: ClassVar[Mapping[str, Any]] = {"steps": _strings}
    OPTIONAL: ClassVar[tuple[str, ...]] = ("order",)
