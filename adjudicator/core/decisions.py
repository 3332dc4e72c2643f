"""The open decisions' type-specific fields, one frozen record per decision type.

A snapshot's `pending` (`Decision`) keeps its envelope (type, deciding player) and its wire fields
as given, so it round-trips unchanged, even when a client sends fields of another type (the wire
schema is flat) or leaves some out. Its typed view is read through `decision.as_(RetentionDecision)`:
the accessor names the record it expects, so the reader gets that class's fields typed without a
cast, and it checks that the decision is of that record's type. The record is built from the wire
on first use and cached on the decision, so a decision whose fields nobody reads costs nothing.

A record read from the wire is a view: the fields it does not know stay on the envelope, and a
missing one takes the default under which the rules behave as they did reading the raw mapping
(`None`, or no cards). The builders write a fresh decision with `opened(player, record)`, every field
in the record's order. The one exception is resolve-battle's own decision, winner-cards: on the
benchmarked path its builder writes the same keys as a dict and its lister reads the raw field,
since building a record there costs more than the whole listing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self

from adjudicator.core.records import Record
from adjudicator.core.vocabulary import DecisionType

# the list fields are read as tuples of the items as given: the wire schema checked them, and
# validation reports the odd ones
_strings: Callable[[Any], tuple[str, ...]] = tuple


@dataclass(frozen=True, slots=True)
class DecisionRecord(Record):
    """Base of the decision records: the decision type each one stands for. Every field is written;
    the fields read by a converter are lists on the wire (a null one reads as none)."""

    TYPE: ClassVar[DecisionType]

    # a decision is read and written on the battle's hot path: the keys and converters are looked up
    # once per class, and the base's `given` bookkeeping is left out (no field is optional)
    @classmethod
    def from_wire(cls, raw: Mapping[str, Any]) -> Self:
        values: dict[str, Any] = {}
        for name, reader in _layout(cls):
            if name in raw:
                value = raw[name]
                if reader is None:
                    values[name] = value
                elif value is not None:
                    values[name] = reader(value)
        return cls(**values)

    def to_wire(self) -> dict[str, Any]:
        return {
            name: getattr(self, name) if reader is None else list(getattr(self, name))
            for name, reader in _layout(type(self))
        }


_LAYOUTS: dict[type, tuple[tuple[str, Any], ...]] = {}


def _layout(cls: type[DecisionRecord]) -> tuple[tuple[str, Any], ...]:
    """A decision record's wire keys in field order, each with its converter (None for plain values)."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        read = cls.READ
        names = (f.name for f in fields(cls) if f.name != "given")
        layout = _LAYOUTS[cls] = tuple((name, read.get(name)) for name in names)
    return layout


@dataclass(frozen=True, slots=True)
class BattlePlanDecision(DecisionRecord):
    """A side's battle plan awaited: the opposing side and the highest legal dial and support spice; the
    non-default reading of skill-face-up-leader-required it opened under (`face_up_leader`), where every
    leader the side could play lies face up with its skill."""

    territory: str | None = None
    opponent: str | None = None
    dial_max: int | float | None = None
    spice_max: int | None = None
    face_up_leader: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.BATTLE_PLAN


@dataclass(frozen=True, slots=True)
class CasualtiesDecision(DecisionRecord):
    """The winner's dialed strength in forces to lose."""

    territory: str | None = None
    strength: int | float | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.BATTLE_CASUALTIES


@dataclass(frozen=True, slots=True)
class WithdrawalDecision(DecisionRecord):
    """Which forces a side playing Harass and Withdraw dialed (the others return to its reserves)."""

    territory: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.HARASS_WITHDRAWAL


@dataclass(frozen=True, slots=True)
class ReinforcementsDecision(DecisionRecord):
    """Which of its reserve forces a side playing Reinforcements sends to the Tanks."""

    territory: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.REINFORCEMENTS_FORCES


@dataclass(frozen=True, slots=True)
class SukForcesDecision(DecisionRecord):
    """Which of a winner's dialed losses its Suk Graduate saves (the resolution's `suk_rescue`)."""

    territory: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.SUK_GRADUATE_FORCES


@dataclass(frozen=True, slots=True)
class SmugglerCollectionDecision(DecisionRecord):
    """The spice a Smuggler's side takes in all (`amount`) from the battle territory's piles in
    `sectors`, how much from each being its choice (the resolution's `smuggler`)."""

    territory: str | None = None
    amount: int | None = None
    sectors: tuple[int | None, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.SMUGGLER_COLLECTION
    READ: ClassVar[Mapping[str, Any]] = {"sectors": tuple}


@dataclass(frozen=True, slots=True)
class RetreatDecision(DecisionRecord):
    """How many of its undialed forces, and where, a side that lost with its Diplomat retreats."""

    territory: str | None = None
    forces: int = 0

    TYPE: ClassVar[DecisionType] = DecisionType.DIPLOMAT_RETREAT


@dataclass(frozen=True, slots=True)
class WinnerCardsDecision(DecisionRecord):
    """The winner's played cards it may keep."""

    territory: str | None = None
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.WINNER_CARDS
    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings}


@dataclass(frozen=True, slots=True)
class CaptureDecision(DecisionRecord):
    """The Harkonnen's drawn leader of the loser (`owner`): keep it, kill it, or capture nobody."""

    territory: str | None = None
    leader: str | None = None
    owner: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.HARKONNEN_CAPTURE


@dataclass(frozen=True, slots=True)
class RetentionDecision(DecisionRecord):
    """Moritani's defeated ally choosing one of its reserved played cards (or none) to keep."""

    owner: str | None = None
    played: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.MORITANI_RETENTION
    READ: ClassVar[Mapping[str, Any]] = {"played": _strings, "eligible": _strings}


@dataclass(frozen=True, slots=True)
class RetentionKaramaDecision(DecisionRecord):
    """The Karama window on the card Moritani's ally declared: the asked faction's Karama cards."""

    owner: str | None = None
    ally: str | None = None
    card: str | None = None
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.RETENTION_KARAMA
    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings}


@dataclass(frozen=True, slots=True)
class SpecialKaramaDecision(DecisionRecord):
    """Moritani's special Karama on the winner's cards: the cards it may force and the Karamas it could
    spend (none: it may only decline; other viewers never see this field)."""

    owner: str | None = None
    opponent: str | None = None
    territory: str | None = None
    eligible: tuple[str, ...] = ()
    karama: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.MORITANI_SPECIAL_KARAMA
    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings, "karama": _strings}


@dataclass(frozen=True, slots=True)
class AssassinationDecision(DecisionRecord):
    """Moritani's Assassinate Leaders after a battle it lost: the winner, and the Traitor cards Moritani
    could reveal against it (none: it may only decline; other viewers never see this field)."""

    owner: str | None = None
    opponent: str | None = None
    territory: str | None = None
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.MORITANI_ASSASSINATION
    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings}


@dataclass(frozen=True, slots=True)
class SemutaOpportunity(DecisionRecord):
    """One asked faction's turn at a discarded batch, holder or not: the batch's cards still in the
    discard pile and the Semuta Drug it would spend (none: it may only pass; hidden from other viewers)."""

    owner: str | None = None
    eligible: tuple[str, ...] = ()
    card: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.SEMUTA_OPPORTUNITY
    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings}


@dataclass(frozen=True, slots=True)
class DukeVidalAcquisition(DecisionRecord):
    """Moritani offered Duke Vidal, held by `owner`."""

    owner: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.DUKE_VIDAL_ACQUISITION


@dataclass(frozen=True, slots=True)
class DukeVidalKarama(DecisionRecord):
    """The Karama window on the acquisition: the asked faction's Karama cards and those still to ask."""

    owner: str | None = None
    responders: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.DUKE_VIDAL_KARAMA
    READ: ClassVar[Mapping[str, Any]] = {"responders": _strings, "eligible": _strings}


@dataclass(frozen=True, slots=True)
class FaceDancerReveal(DecisionRecord):
    """The Tleilaxu's chance to reveal the winner's leader as a Face Dancer and replace its forces."""

    territory: str | None = None
    winner: str | None = None
    leader: str | None = None
    forces: int | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.FACE_DANCER_REVEAL


@dataclass(frozen=True, slots=True)
class FaceDancerKaramaDecision(DecisionRecord):
    """The Karama window on a Face Dancer reveal (question face-dancer-karama): the Face Dancer revealed
    and the asked faction's Karama cards; the factions still to ask are the resolution's record."""

    owner: str | None = None
    leader: str | None = None
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.FACE_DANCER_KARAMA
    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings}


@dataclass(frozen=True, slots=True)
class SandmasterPileDecision(DecisionRecord):
    """A winning Sandmaster's 3 spice: the sectors whose pile may grow."""

    territory: str | None = None
    sectors: tuple[int | None, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.SANDMASTER_PILE
    READ: ClassVar[Mapping[str, Any]] = {"sectors": tuple}


@dataclass(frozen=True, slots=True)
class RihaniDrawOffer(DecisionRecord):
    """A Rihani Decipherer's offer to draw two cards; `eligible`, the cards it could give back."""

    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.RIHANI_DRAW_OFFER
    READ: ClassVar[Mapping[str, Any]] = {"eligible": _strings}


@dataclass(frozen=True, slots=True)
class RihaniExchange(DecisionRecord):
    """The Rihani exchange: the two cards drawn (secret) and the cards one of them may replace."""

    drawn: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.RIHANI_EXCHANGE
    READ: ClassVar[Mapping[str, Any]] = {"drawn": _strings, "eligible": _strings}


@dataclass(frozen=True, slots=True)
class ExtortionPayment(DecisionRecord):
    """A payer asked for the Extortion's spice, owed to `owner`."""

    owner: str | None = None
    token: str | None = None
    amount: int | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.EXTORTION_PAYMENT


@dataclass(frozen=True, slots=True)
class AuditPayment(DecisionRecord):
    """CHOAM's Auditor is to look at `count` random cards of the asked faction's hand, unless it pays
    `owner` (CHOAM) to prevent it; `scope` is the reading of auditor-payment-scope it opened under, and
    `drawn` the cards already drawn (after-draw reading of auditor-payment-timing; none before the draw)."""

    territory: str | None = None
    owner: str | None = None
    count: int | None = None
    scope: str | None = None
    drawn: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.AUDIT_PAYMENT
    READ: ClassVar[Mapping[str, Any]] = {"drawn": _strings}


@dataclass(frozen=True, slots=True)
class TerrorPlacement(DecisionRecord):
    """Moritani's Terror placement at the Mentat Pause: the strongholds a token may go to."""

    strongholds: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.TERROR_PLACEMENT
    READ: ClassVar[Mapping[str, Any]] = {"strongholds": _strings}


@dataclass(frozen=True, slots=True)
class SuboidSwapDecision(DecisionRecord):
    """The Ixian winner's swap: at most `swap_max` surviving Suboids go to the Tanks for lost Cyborgs."""

    territory: str | None = None
    swap_max: int | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.SUBOID_SWAP


@dataclass(frozen=True, slots=True)
class BattleChoiceDecision(DecisionRecord):
    """The aggressor choosing its next battle; `battles`, every battle still to be fought this phase
    (`{territory, sectors, factions}`)."""

    battles: tuple[Mapping[str, Any], ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.BATTLE_CHOICE
    READ: ClassVar[Mapping[str, Any]] = {"battles": tuple}


@dataclass(frozen=True, slots=True)
class VoiceDecision(DecisionRecord):
    """The Bene Gesserit may use the Voice on `opponent`, the side facing them or their ally."""

    territory: str | None = None
    opponent: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.VOICE


@dataclass(frozen=True, slots=True)
class PrescienceDecision(DecisionRecord):
    """The Atreides may ask `opponent`, the side facing them or their ally, for one plan element."""

    territory: str | None = None
    opponent: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.PRESCIENCE


@dataclass(frozen=True, slots=True)
class PrescienceAnswerDecision(DecisionRecord):
    """The side asked shows the `element` of its plan to `owner` (the Atreides)."""

    territory: str | None = None
    owner: str | None = None
    element: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.PRESCIENCE_ANSWER


@dataclass(frozen=True, slots=True)
class MentatQuestionDecision(DecisionRecord):
    """A side with a face-up Mentat may ask `opponent`, the side it faces, whether it holds a named
    weapon."""

    territory: str | None = None
    opponent: str | None = None
    # the reading of mentat-two-role-weapons it was opened under (None: the default)
    names: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.MENTAT_QUESTION


@dataclass(frozen=True, slots=True)
class MentatAnswerDecision(DecisionRecord):
    """The side asked by `asker`'s Mentat shows it a card: the named `weapon` when it holds one."""

    territory: str | None = None
    asker: str | None = None
    weapon: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.MENTAT_ANSWER


@dataclass(frozen=True, slots=True)
class TruthtranceAnswerDecision(DecisionRecord):
    """The side asked by `owner`'s Truthtrance answers yes or no: will it play a card of `subject`
    (a Voice subject) in this battle?"""

    territory: str | None = None
    owner: str | None = None
    subject: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.TRUTHTRANCE_ANSWER


@dataclass(frozen=True, slots=True)
class BattleKaramaDecision(DecisionRecord):
    """A Karama window on `owner`'s `power` in this battle: the asked faction's Karama cards and the
    factions still to ask; on the later powers, the non-default reading of occupy-dialed-force-traits
    their list was made under (`dialed_traits`), when it changes the list."""

    owner: str | None = None
    power: str | None = None
    responders: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()
    dialed_traits: str | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.BATTLE_KARAMA
    READ: ClassVar[Mapping[str, Any]] = {"responders": _strings, "eligible": _strings}


@dataclass(frozen=True, slots=True)
class PreBattleCardsDecision(DecisionRecord):
    """The window before a battle's Voice for Residual Poison and Juice of Sapho: the side asked faces
    `opponent`; `responders` are the sides still to ask, `eligible` the asked side's cards it may play
    now (hidden from other viewers)."""

    opponent: str | None = None
    responders: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.PRE_BATTLE_CARDS
    READ: ClassVar[Mapping[str, Any]] = {"responders": _strings, "eligible": _strings}


@dataclass(frozen=True, slots=True)
class SaphoOrderDecision(DecisionRecord):
    """The window as the Battle phase begins on Juice of Sapho's turn-order use: `responders` are the
    factions still to ask, `eligible` the asked faction's copies it may play (hidden from other
    viewers)."""

    responders: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.SAPHO_ORDER
    READ: ClassVar[Mapping[str, Any]] = {"responders": _strings, "eligible": _strings}


@dataclass(frozen=True, slots=True)
class OccupyFighterDecision(DecisionRecord):
    """Ecaz choosing which of itself and its ally fights a battle both share under Occupy: the side
    faces `opponent`; `fighters` are the two it may choose."""

    territory: str | None = None
    opponent: str | None = None
    fighters: tuple[str, ...] = ()

    TYPE: ClassVar[DecisionType] = DecisionType.OCCUPY_FIGHTER
    READ: ClassVar[Mapping[str, Any]] = {"fighters": _strings}


@dataclass(frozen=True, slots=True)
class GiftKaramaDecision(DecisionRecord):
    """A Karama window on the Emperor's gift of `amount` spice to `to`: the asked faction's Karama
    cards, the factions still to ask, and the decision the gift interrupted (`resumes`, its wire
    form, or None), open again once the window closes."""

    to: str | None = None
    amount: int = 0
    responders: tuple[str, ...] = ()
    eligible: tuple[str, ...] = ()
    resumes: Mapping[str, Any] | None = None

    TYPE: ClassVar[DecisionType] = DecisionType.GIFT_KARAMA
    READ: ClassVar[Mapping[str, Any]] = {"responders": _strings, "eligible": _strings}


DECISION_RECORDS: Mapping[str, type[DecisionRecord]] = {
    kind.TYPE.value: kind
    for kind in (
        BattlePlanDecision,
        CasualtiesDecision,
        WithdrawalDecision,
        ReinforcementsDecision,
        SukForcesDecision,
        SmugglerCollectionDecision,
        RetreatDecision,
        WinnerCardsDecision,
        CaptureDecision,
        RetentionDecision,
        RetentionKaramaDecision,
        SpecialKaramaDecision,
        AssassinationDecision,
        SemutaOpportunity,
        DukeVidalAcquisition,
        DukeVidalKarama,
        FaceDancerReveal,
        FaceDancerKaramaDecision,
        SandmasterPileDecision,
        RihaniDrawOffer,
        RihaniExchange,
        ExtortionPayment,
        AuditPayment,
        TerrorPlacement,
        SuboidSwapDecision,
        PreBattleCardsDecision,
        SaphoOrderDecision,
        OccupyFighterDecision,
        BattleChoiceDecision,
        VoiceDecision,
        PrescienceDecision,
        PrescienceAnswerDecision,
        MentatQuestionDecision,
        MentatAnswerDecision,
        BattleKaramaDecision,
        TruthtranceAnswerDecision,
        GiftKaramaDecision,
    )
}


def opened(player: str | None, record: DecisionRecord) -> dict[str, Any]:
    """The wire form of a fresh decision: its type, who decides, then the record's fields in order."""
    return {"type": record.TYPE.value, "player": player, **record.to_wire()}
