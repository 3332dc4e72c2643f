"""Wire schemas shared by the resources: snapshot, action, decision, rulings (docs/contract.md,
"Snapshot" and "Response envelope").

Closed vocabularies are checked here; ids that depend on the catalog (leaders, territories, cards)
are checked by the engine's consistency validation so that every problem gets a precise code.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from adjudicator.core.catalog import catalog
from adjudicator.core.vocabulary import (
    SNAPSHOT_FORMAT,
    ActionType,
    BattlePower,
    BattleResult,
    DecisionType,
    DukeStatus,
    Evidence,
    FactionId,
    LeaderStatus,
    PageKind,
    PageStatus,
    Phase,
    RulingStatus,
)
from adjudicator.rules.battle.prescience import ASK_READINGS
from adjudicator.rules.battle.voice import VOICE_READINGS

from .extensions import Schema
from .fields import BoundedInteger, Choice, Pattern, StrictBoolean, StrictInteger, StrictNumber

FACTIONS = [f.value for f in FactionId]


class FullMatch(validate.Regexp):
    """A pattern the whole string must match (`re.match` with `$` would let a final newline through)."""

    def __call__(self, value: Any) -> Any:
        if self.regex.fullmatch(value) is None:
            raise ValidationError(self._format_error(value))
        return value


ID_PATTERN = r"^[a-z0-9][a-z0-9#'-]*$"
SECTOR_KEY_PATTERN = r"^(?:[0-9]|1[0-7])$"  # a sector number as a mapping key
_ID = FullMatch(ID_PATTERN)


class PropertyCount(validate.Validator):
    """Bounds the number of keys of a mapping (documented as minProperties/maxProperties)."""

    bounds_size = True  # checked before the mapping's entries are loaded (api/fields.py)

    def __init__(self, minimum: int = 0, maximum: int | None = None) -> None:
        self.minimum = minimum
        self.maximum = maximum

    def __call__(self, value: Any) -> Any:
        if len(value) < self.minimum:
            raise ValidationError(f"Length must be at least {self.minimum}.")
        if self.maximum is not None and len(value) > self.maximum:
            raise ValidationError(f"Length must be at most {self.maximum}.")
        return value


def property_count(minimum: int = 0, maximum: int | None = None) -> dict[str, Any]:
    """Field keywords for a bounded mapping: the validator and its OpenAPI description."""
    metadata: dict[str, Any] = {"minProperties": minimum} if minimum else {}
    if maximum is not None:
        metadata["maxProperties"] = maximum
    return {"validate": PropertyCount(minimum, maximum), "metadata": metadata}


def faction_field(**kwargs: Any) -> fields.String:
    return Choice(FACTIONS, **kwargs)


def id_field(description: str, **kwargs: Any) -> fields.String:
    metadata = {"description": description, **kwargs.pop("metadata", {})}
    return Pattern(ID_PATTERN, 64, metadata=metadata, **kwargs)


def count_field(maximum: int, description: str, **kwargs: Any) -> StrictInteger:
    return BoundedInteger(0, maximum, metadata={"description": description}, **kwargs)


def sector_field() -> StrictInteger:
    return BoundedInteger(
        0,
        17,
        allow_none=True,
        metadata={"description": "sector 0-17 (0 = Storm Start wedge, counter-clockwise); null where there is none"},
    )


class RulesetSchema(Schema):
    """The rules in play: expansions, advanced rules and optional modules."""

    expansions = fields.List(
        fields.String(validate=validate.OneOf(list(catalog().expansions))),
        validate=validate.Length(max=3),
        metadata={"description": "expansions in play"},
    )
    advanced = StrictBoolean(metadata={"description": "advanced rules (default false)"})
    variants = fields.List(
        fields.String(validate=validate.OneOf(list(catalog().variants))),
        validate=validate.Length(max=10),
        metadata={"description": "optional modules in play, e.g. leader-skills"},
    )


class ForceCountSchema(Schema):
    """Forces off the board (reserves or Tleilaxu Tanks), by kind."""

    regular = count_field(20, "regular forces (default 0)")
    elite = count_field(20, "elite forces: Sardaukar, Fedaykin or Cyborgs (default 0)")


class LeaderStateSchema(Schema):
    """A leader that is not simply available: killed, captured, used this phase, or carrying a skill."""

    status = Choice([s.value for s in LeaderStatus], required=True)
    by = faction_field(metadata={"description": "captor, with status captured"})
    skill = fields.String(allow_none=True, validate=_ID, metadata={"description": "leader skill id"})
    skill_face_up = StrictBoolean(metadata={"description": "whether the skill card is face up"})
    territory = id_field("with status used: the territory where the leader fought this phase")
    ghola = StrictBoolean(
        metadata={"description": "advanced: revived by the Tleilaxu as a ghola, it serves them (default false)"}
    )


class KwisatzHaderachSchema(Schema):
    """The Atreides Kwisatz Haderach token (advanced rules)."""

    status = fields.String(required=True, validate=validate.OneOf(["inactive", "active", "tanks"]))
    used_in = id_field("the territory it joined this turn, or null", allow_none=True)
    battle_losses = count_field(1000, "Atreides forces lost in battles so far; it awakens at 7 (default 0)")


class FactionSchema(Schema):
    """One faction's position: spice, forces off the board, cards, leaders, alliance and faction tokens."""

    spice = count_field(10000, "spice behind the shield", required=True)
    reserves = fields.Nested(ForceCountSchema)
    tanks = fields.Nested(ForceCountSchema)
    hand = fields.List(id_field("treachery card id"), validate=validate.Length(max=40))
    traitors = fields.List(id_field("leader id of a held Traitor card"), validate=validate.Length(max=20))
    leaders = fields.Dict(
        keys=id_field("leader id"),
        values=fields.Nested(LeaderStateSchema),
        validate=PropertyCount(0, 10),
        metadata={
            "description": "leaders whose state is not `available`; unlisted leaders are available",
            "maxProperties": 10,
        },
    )
    ally = faction_field(allow_none=True)
    kwisatz_haderach = fields.Nested(
        KwisatzHaderachSchema, metadata={"description": "Atreides only (advanced): the Kwisatz Haderach token"}
    )
    leader_revived_turn = StrictInteger(
        allow_none=True,
        validate=validate.Range(min=1, max=99),
        metadata={"description": "the turn it last revived a leader the ordinary way (one a turn)"},
    )
    special_karama_used = StrictBoolean(
        metadata={"description": "advanced: its once-a-game special Karama power is spent (default false)"}
    )
    face_dancers = fields.List(
        id_field("leader id"),
        validate=validate.Length(max=3),
        metadata={"description": "Tleilaxu only: unrevealed Face Dancers (secret; omitted or empty otherwise)"},
    )
    called_traitors = fields.List(
        id_field("leader id"),
        validate=validate.Length(max=4),
        metadata={"description": "its Traitor cards already called in a battle (public; default none)"},
    )
    revealed_face_dancers = fields.List(
        id_field("leader id"),
        validate=validate.Length(max=3),
        metadata={"description": "Tleilaxu only: Face Dancers revealed since the last redraw (public)"},
    )
    bribe_spice = count_field(
        10000,
        "spice given to it as bribes, waiting in front of its shield until the Mentat Pause (public; default 0)",
    )
    banker_gains = fields.List(
        fields.String(validate=validate.OneOf([p.value for p in Phase])),
        validate=validate.Length(max=len(Phase)),
        metadata={
            "description": "Leader Skills: the phases of this turn in which its face-up Spice Banker gained 1"
            " spice, each owed to it until the turn ends (public; default none)"
        },
    )
    bureaucrat_uses = fields.List(
        fields.String(validate=validate.OneOf([p.value for p in Phase])),
        validate=validate.Length(max=len(Phase)),
        metadata={
            "description": "Leader Skills: the phases of this turn in which its face-up Bureaucrat sent 2 of a"
            " payment to the bank, cleared as the turn ends (public; default none)"
        },
    )
    assassinated = fields.List(
        id_field("leader id"),
        validate=validate.Length(max=12),
        metadata={
            "description": "Moritani only (advanced): the Traitor cards it revealed to assassinate a leader, at most"
            " one per opposing faction (public; still held until the turn ends, then set aside; default none)"
        },
    )
    assassination_forfeited = StrictBoolean(
        metadata={
            "description": "Moritani only (advanced): it called a traitor the ordinary way, which forfeits its"
            " Assassinate Leaders (public; default false)"
        }
    )


class ForceStackSchema(Schema):
    """A faction's forces in one sector of a territory."""

    faction = faction_field(required=True)
    territory = id_field("territory id", required=True)
    sector = sector_field()
    regular = count_field(20, "regular forces (default 0)")
    elite = count_field(20, "elite forces (default 0)")


class AdvisorStackSchema(Schema):
    """Bene Gesserit advisors (the spiritual side) in one sector of a territory."""

    territory = id_field("territory id", required=True)
    sector = sector_field()
    count = BoundedInteger(1, 20, required=True)


class AmbassadorSchema(Schema):
    """An Ecaz Ambassador token placed in a stronghold."""

    token = faction_field(required=True, metadata={"description": "the faction the Ambassador token shows"})
    territory = id_field("the stronghold it was placed in", required=True)


class NoFieldSchema(Schema):
    """Richese's face-down No-Field token on the board."""

    territory = id_field("territory id", required=True)
    sector = sector_field()
    forces = BoundedInteger(
        0,
        5,
        required=True,
        validate=validate.OneOf([0, 3, 5]),
        metadata={"description": "the forces it stands for: 0, 3 or 5 (secret until revealed)"},
    )


class SpicePileSchema(Schema):
    """Spice lying in one sector of a territory."""

    territory = id_field("territory id", required=True)
    sector = sector_field()
    amount = BoundedInteger(1, 1000, required=True)


class DukeVidalSchema(Schema):
    """Duke Vidal, the leader whose holder changes during the game: who has him and on what terms."""

    status = fields.String(required=True, validate=validate.OneOf([s.value for s in DukeStatus]))
    controller = faction_field(allow_none=True)
    acquired_turn = StrictInteger(
        allow_none=True,
        validate=validate.Range(min=1, max=99),
        metadata={"description": "the turn Moritani last took him (kept after his battle, for the once-a-turn limit)"},
    )
    loaned_by = faction_field(allow_none=True)
    by = faction_field(allow_none=True)
    deaths = count_field(99, "how many times he has died (default 0)")
    loan_turn = StrictInteger(
        allow_none=True,
        validate=validate.Range(min=1, max=99),
        metadata={"description": "a loaned Duke: the turn the loan lasts (it ends with that turn)"},
    )
    fought_in = id_field(
        "a loaned Duke kept for the whole turn (question duke-loan-tenure): the territory he fought in",
        allow_none=True,
    )
    captured_from = faction_field(
        allow_none=True,
        metadata={"description": "a captured Duke: the faction that held him when Harkonnen captured him"},
    )


class PlanSchema(Schema):
    """A battle plan: leader or Cheap Hero, dial, cards and support spice."""

    leader = id_field("leader id, or null", allow_none=True)
    cheap_hero = id_field("Cheap Hero/Heroine card id used as the leader, or null", allow_none=True)
    dial = StrictNumber(
        required=True, validate=validate.Range(min=0, max=40), metadata={"description": "forces dialed; halves allowed"}
    )
    weapon = id_field("card id, or null", allow_none=True)
    defense = id_field("card id, or null", allow_none=True)
    spice = count_field(1000, "spice paid to support forces (advanced)")
    kwisatz_haderach = StrictBoolean(metadata={"description": "Atreides only"})
    ally_spice = count_field(
        1000, "the part of spice the side's ally pays (only under ally-support-payment: ally-may-pay); 0 if absent"
    )
    banker_spice = count_field(
        3, "spice a Spice Banker leader spends on its own strength, 1 to 3, apart from spice; 0 if absent"
    )
    special_karama = id_field(
        "the Karama card the advanced Ecaz commit with the plan for their special Karama (only under"
        " ecaz-special-karama-timing: with-plan); absent: none",
        allow_none=True,
    )


class RetentionRecordSchema(Schema):
    """Moritani's defeated ally: its reserved played cards, the eligible ones, the declared card and the
    Karama holders still to answer."""

    player = faction_field(required=True)
    played = fields.List(id_field("card id"), required=True, validate=validate.Length(max=3))
    eligible = fields.List(id_field("card id"), required=True, validate=validate.Length(max=4))
    card = id_field("the declared card, once declared", allow_none=True)
    responders = fields.List(faction_field(), required=True, validate=validate.Length(max=12))
    karama_timing = Choice(
        ["karama-before-declaration"],
        metadata={
            "description": "the reading of question retention-karama-timing the retention opened under: its "
            "Karama window comes before the ally names a card (absent: declare-then-karama)"
        },
    )


class SemutaBatchSchema(Schema):
    """Cards discarded together, waiting for Semuta Drug holders to answer."""

    discarder = faction_field(required=True)
    cards = fields.List(id_field("card id"), required=True, validate=validate.Length(max=40))
    responders = fields.List(faction_field(), required=True, validate=validate.Length(max=12))


class SandmasterRecordSchema(Schema):
    """A Sandmaster holder still to choose the spice pile its skill adds to."""

    player = faction_field(required=True)
    sectors = fields.List(
        sector_field(),
        required=True,
        validate=validate.Length(max=18),
        metadata={"description": "the piles to choose from"},
    )


class SukRescueRecordSchema(Schema):
    """A winner's dialed losses waiting for it to name those its Suk Graduate saves."""

    owner = faction_field(required=True, metadata={"description": "whose forces were lost"})
    regular = count_field(20, "regular forces lost", required=True)
    elite = count_field(20, "elite forces lost", required=True)
    saved = count_field(3, "how many of them the Suk Graduate saves", required=True)
    staying = count_field(1, "how many of the saved stay in the territory (the rest go to the reserves)", required=True)


class SmugglerRecordSchema(Schema):
    """A Smuggler's collection waiting for its side to name the piles it takes from."""

    player = faction_field(required=True, metadata={"description": "the side that collects"})
    amount = count_field(20, "the spice it takes in all (the leader's strength)", required=True)


class FaceDancerRevealRecordSchema(Schema):
    """A Face Dancer reveal waiting for the Karama window on it to close (question face-dancer-karama)."""

    leader = id_field("the Face Dancer revealed: the winner's leader", required=True)
    sector = sector_field()
    from_reserves = count_field(20, "Tleilaxu forces the reveal takes from reserves", required=True)
    from_board = fields.List(
        fields.Nested(lambda: BoardSourceSchema()),
        required=True,
        validate=validate.Length(max=20),
        metadata={"description": "Tleilaxu forces the reveal takes from the board"},
    )
    responders = fields.List(
        faction_field(),
        required=True,
        validate=validate.Length(min=1, max=12),
        metadata={"description": "the factions still to answer the window, the one asked first"},
    )


class RihaniRecordSchema(Schema):
    """A Rihani Decipherer exchange of Traitor cards under way."""

    player = faction_field(required=True)
    eligible = fields.List(
        id_field("leader id"),
        required=True,
        validate=validate.Length(max=4),
        metadata={"description": "unused Traitor cards (Tleilaxu: unrevealed Face Dancers) it may give back"},
    )
    drawn = fields.List(
        id_field("leader id"),
        required=True,
        validate=validate.Length(max=2),
        metadata={"description": "the two Traitor cards drawn, once drawn (secret)"},
    )
    inspect_after = StrictBoolean(
        required=True, metadata={"description": "the normal effect's inspection comes after the exchange"}
    )


class ResolutionSchema(Schema):
    """What a resolved battle decided, kept while its cleanup decisions remain."""

    result = fields.String(required=True, validate=validate.OneOf([r.value for r in BattleResult]))
    winner = faction_field(required=True, allow_none=True)
    loser = faction_field(required=True, allow_none=True)
    decided_by_traitor = StrictBoolean(required=True)
    steps = fields.List(
        fields.String(validate=validate.OneOf([d.value for d in DecisionType])),
        required=True,
        validate=validate.Length(max=20),
        metadata={"description": "cleanup decisions still to come, in order"},
    )
    casualties = StrictNumber(
        allow_none=True, metadata={"description": "the dialed strength the winner still has to lose"}
    )
    used_cards = fields.List(
        id_field("card id"),
        validate=validate.Length(max=10),
        metadata={"description": "played cards whose effect was used"},
    )
    capture = id_field("advanced Harkonnen win: the loser's leader drawn for capture", allow_none=True)
    duke_in_capture_pool = StrictBoolean(
        metadata={
            "description": "the loser's Duke Vidal was among the leaders drawn from "
            "(question duke-harkonnen-capture, choice capture-pool-first)"
        }
    )
    gholas_in_capture_pool = StrictBoolean(
        metadata={
            "description": "the gholas serving the losing Tleilaxu were among the leaders drawn from "
            "(question ghola-harkonnen-capture, choice in-draw)"
        }
    )
    retention = fields.Nested(RetentionRecordSchema, allow_none=True)
    sandmaster = fields.Nested(SandmasterRecordSchema, metadata={"description": "a Sandmaster's pile still to choose"})
    rihani = fields.Nested(RihaniRecordSchema, metadata={"description": "a Rihani Decipherer exchange under way"})
    semuta = fields.List(
        fields.Nested(SemutaBatchSchema),
        validate=validate.Length(max=20),
        metadata={"description": "fresh discard batches awaiting a Semuta answer"},
    )
    cyborgs_lost = count_field(
        7, "the Cyborgs the Ixian winner lost in this battle, kept while its Suboid swap is to come"
    )
    withdrawing = faction_field(
        metadata={
            "description": "the side whose Harass and Withdraw leaves it to name the forces it dialed, kept "
            "while its harass-withdrawal step is to come"
        }
    )
    reinforcing = faction_field(
        metadata={
            "description": "the side that names the reserve forces its Reinforcements sends, kept while its "
            "reinforcements-forces step is to come"
        }
    )
    retreat_left = count_field(
        20,
        "the forces a side that lost with its Diplomat may still retreat, kept while its diplomat-retreat "
        "step is to come",
    )
    occupy_partner = faction_field(
        metadata={
            "description": "the faction Ecaz's Occupy joined to a side when the battle was resolved (Ecaz beside "
            "its fighting ally, or the ally whose forces Ecaz dialed), kept with every resolution of such a "
            "battle: its cleanup steps read it here, whatever Occupy's losses took from the board"
        }
    )
    dialed_traits = Choice(
        ["ordinary-forces"],
        metadata={
            "description": "the reading of question occupy-dialed-force-traits the winner's casualties, or "
            "Ecaz's Harass and Withdraw ways, were counted under, kept while that battle-casualties or "
            "harass-withdrawal step is to come when Ecaz dialed its ally's forces"
        },
    )
    suk_rescue = fields.Nested(
        SukRescueRecordSchema,
        metadata={
            "description": "a winner's dialed losses its Suk Graduate saves some of, kept while its "
            "suk-graduate-forces step is to come (question suk-graduate-saved-forces: owner-chooses)"
        },
    )
    smuggler = fields.Nested(
        SmugglerRecordSchema,
        metadata={
            "description": "a Smuggler's collection whose piles its side names, kept while its "
            "smuggler-collection step is to come (question smuggler-several-piles: smuggler-chooses)"
        },
    )
    face_dancer_reading = Choice(
        ["battle-sectors", "whole-territory"],
        metadata={
            "description": "a battle on one side of the storm: the reading of question face-dancer-storm-split "
            "it was resolved under, kept while its face-dancer-reveal step is to come"
        },
    )
    own_leader_bounty = BoundedInteger(
        1,
        20,
        metadata={
            "description": "the spice the winner was paid for its own leader killed in the battle, kept while "
            "its face-dancer-reveal step (or the Karama window on the reveal) is to come (question "
            "face-dancer-earlier-bounty)"
        },
    )
    face_dancer_reveal = fields.Nested(
        FaceDancerRevealRecordSchema,
        metadata={"description": "a Face Dancer reveal waiting while its face-dancer-karama window is open"},
    )
    cyborg_losses = Choice(
        ["one-each"],
        metadata={
            "description": "an Ixian winner's casualties, or the dialed forces its Harass and Withdraw keeps, "
            "chosen under the one-each reading of question cyborg-losses, kept while its battle-casualties or "
            "harass-withdrawal step is to come (absent: as dialed)"
        },
    )
    held_discards = fields.List(
        id_field("card id"),
        validate=validate.Length(min=1, max=3),
        metadata={
            "description": "the winner's played cards its cleanup discards by rule, held in its plan for "
            "Moritani's special Karama (question moritani-special-karama-precedence, special-overrides), kept "
            "while its moritani-special-karama step is to come"
        },
    )


VOICE_COMMANDS = ["play", "not-play"]
PRESCIENCE_ELEMENTS = ["leader", "weapon", "defense", "dial"]
BATTLE_STEPS = ["occupy-fighter", "mentat-question", "pre-battle-cards", "voice", "prescience", "battle-karama"]


class VoiceSchema(Schema):
    """The Voice in force for this battle."""

    player = faction_field(required=True, metadata={"description": "the Bene Gesserit"})
    target = faction_field(required=True, metadata={"description": "the side commanded"})
    command = Choice(VOICE_COMMANDS, required=True, metadata={"description": "play, or not play"})
    subject = id_field(
        "the kind of card: poison-weapon, projectile-weapon, poison-defense, projectile-defense, worthless,"
        " cheap-hero, or a special card's kind (e.g. lasgun)",
        required=True,
    )
    readings = fields.Dict(
        keys=id_field("a question id"),
        values=id_field("the choice recorded"),
        validate=PropertyCount(0, len(VOICE_READINGS)),
        metadata={
            "description": "the question readings the command was spoken under that change how it binds",
            "maxProperties": len(VOICE_READINGS),
        },
    )


class PrescienceAnswerSchema(Schema):
    """The element of the plan shown (only the asked element's fields)."""

    leader = id_field("leader id, or null", allow_none=True)
    cheap_hero = id_field("Cheap Hero/Heroine card id, or null", allow_none=True)
    weapon = id_field("card id, or null", allow_none=True)
    defense = id_field("card id, or null", allow_none=True)
    dial = StrictNumber(validate=validate.Range(min=0, max=40), metadata={"description": "the number dialed"})
    spice = StrictInteger(
        validate=validate.Range(min=0, max=40),
        metadata={"description": "the support spice, with the dial under prescience-dial-support with-support"},
    )


class PrescienceSchema(Schema):
    """The Prescience asked in this battle, and its answer once given (it binds the plan)."""

    player = faction_field(required=True, metadata={"description": "the Atreides"})
    target = faction_field(required=True, metadata={"description": "the side asked"})
    element = Choice(PRESCIENCE_ELEMENTS, required=True, metadata={"description": "the element asked for"})
    answer = fields.Nested(PrescienceAnswerSchema, allow_none=True)
    readings = fields.Dict(
        keys=id_field("a question id"),
        values=id_field("the choice recorded"),
        validate=PropertyCount(0, len(ASK_READINGS)),
        metadata={
            "description": "the question readings it was asked under that change what it discloses",
            "maxProperties": len(ASK_READINGS),
        },
    )
    earlier = fields.Nested(
        PrescienceAnswerSchema, metadata={"description": "the no-leader answer that allowed this further question"}
    )


class MentatQuestionSchema(Schema):
    """A face-up Mentat's question in this battle: who asked whom about which weapon, whether the card
    was shown, and which (redacted for every viewer but the two sides)."""

    player = faction_field(required=True, metadata={"description": "the side whose Mentat asks"})
    target = faction_field(required=True, metadata={"description": "the side it faces, asked"})
    weapon = id_field("the weapon card named (null: the side declined to ask)", required=True, allow_none=True)
    answered = StrictBoolean(
        required=True, metadata={"description": "the asked side has shown its card (true for a declined question)"}
    )
    shown = id_field(
        "once answered: the card shown (null with an empty hand), seen by the asker and the side asked alone",
        allow_none=True,
    )


class KaramaUseSchema(Schema):
    """A faction power a Karama card cancelled in this battle."""

    player = faction_field(required=True, metadata={"description": "who played the Karama"})
    power = Choice(
        [p.value for p in BattlePower],
        required=True,
        metadata={"description": "the power cancelled (docs/contract.md, Faction powers in battle)"},
    )
    target = faction_field(required=True, metadata={"description": "whose power"})
    card = id_field("the card played as Karama", required=True)


TRUTHTRANCE_ANSWERS = ["yes", "no"]


class TruthtranceAnswerSchema(Schema):
    """A Truthtrance answer held against a side's plan in this battle (question truthtrance-binds-plan)."""

    player = faction_field(required=True, metadata={"description": "who played the Truthtrance"})
    target = faction_field(required=True, metadata={"description": "the side that answered"})
    subject = id_field("the kind of card asked about (a Voice subject)", required=True)
    answer = Choice(
        TRUTHTRANCE_ANSWERS, required=True, metadata={"description": "yes: it will play one; no: it will not"}
    )


class PlanSeenSchema(Schema):
    """The advanced Atreides' special Karama used in this battle: whose whole plan it sees."""

    player = faction_field(required=True, metadata={"description": "the Atreides"})
    target = faction_field(required=True, metadata={"description": "the side whose plan it sees (it plans first)"})
    dial_hidden = StrictBoolean(
        metadata={
            "description": "the plan is Richese's, made with a No-Field token in the battle: its dial and "
            "support are not shown (question no-field-see-plan-dial, choice dial-hidden)"
        }
    )


class BattleSchema(Schema):
    """The battle being fought: where, who, the plans and what has been resolved so far."""

    territory = id_field("territory id", required=True)
    sectors = fields.List(
        BoundedInteger(0, 17),
        validate=validate.Length(min=1, max=18),
        metadata={
            "description": "the sectors of the territory this battle covers, all on one side of the storm "
            "(optional; absent: the whole territory, or the one side of a storm-divided territory where both "
            "combatants have forces; required where the storm divides the territory and both sides could "
            "battle on each side of it)"
        },
    )
    aggressor = faction_field(required=True)
    defender = faction_field(required=True)
    plans = fields.Dict(
        keys=Choice(FACTIONS),
        values=fields.Nested(PlanSchema),
        required=True,
        **property_count(0, 2),
    )
    traitor_calls = fields.List(faction_field(), validate=validate.Length(max=2))
    poison_tooth_withheld = fields.List(faction_field(), validate=validate.Length(max=2))
    stone_burner = Choice(
        ["kill-leaders", "zero-leaders"],
        allow_none=True,
        metadata={
            "description": "the choice of the side that played the Stone Burner, made after the reveal: "
            "kill both leaders, or both leaders count 0 (absent: no Stone Burner in the plans)"
        },
    )
    mirror_stone_burner = Choice(
        ["kill-leaders", "zero-leaders"],
        allow_none=True,
        metadata={
            "description": "the choice of a side whose Mirror Weapon faces the Stone Burner, made after the reveal "
            "for its copy (read under question mirror-weapon-stone-burner: own-choice)"
        },
    )
    stone_burner_dialed = fields.Dict(
        keys=Choice(FACTIONS),
        values=fields.Nested(ForceCountSchema),
        validate=PropertyCount(0, 2),
        metadata={
            "maxProperties": 2,
            "description": "the forces each side names as the ones it dialed under a Stone Burner, made after the "
            "reveal (question stone-burner-undialed-forces: casualty-choice)",
        },
    )
    portable_snooper = fields.List(
        faction_field(),
        validate=validate.Length(max=2),
        metadata={"description": "the sides adding a Portable Snooper as their defense once the plans are revealed"},
    )
    ecaz_karama = id_field(
        "the Karama card the advanced Ecaz play for their special Karama once the plans are revealed"
        " (absent: not used in this battle)",
        allow_none=True,
    )
    resolution = fields.Nested(ResolutionSchema, allow_none=True)
    prelude = fields.List(
        Choice(BATTLE_STEPS),
        validate=validate.Length(max=len(BATTLE_STEPS)),
        metadata={"description": "the steps still to come before the plans are made, in order"},
    )
    pre_battle_cards_after = fields.List(
        Choice(["voice", "prescience"]),
        validate=validate.Length(max=2),
        metadata={
            "description": "under question cache-cards-battle-timing until-plans, once the first window on "
            "Residual Poison and Juice of Sapho is over: what the window has opened after (a standing Voice, a "
            "Prescience answer; empty: neither yet); a later pre-battle-cards step opens only for one not listed "
            "(absent: the first window is not over, or the reading is before-voice)"
        },
    )
    voice = fields.Nested(VoiceSchema, allow_none=True)
    prescience = fields.Nested(PrescienceSchema, allow_none=True)
    mentat = fields.List(
        fields.Nested(MentatQuestionSchema),
        validate=validate.Length(max=2),
        metadata={"description": "the face-up Mentats' questions before the plans, in the order asked"},
    )
    karama = fields.List(
        fields.Nested(KaramaUseSchema),
        validate=validate.Length(max=12),
        metadata={"description": "faction powers a Karama cancelled in this battle"},
    )
    plan_seen = fields.Nested(PlanSeenSchema, allow_none=True)
    truthtrance = fields.List(
        fields.Nested(TruthtranceAnswerSchema),
        validate=validate.Length(max=12),
        metadata={"description": "Truthtrance answers that bind a plan in this battle"},
    )
    revealed = StrictBoolean(
        metadata={
            "description": "whether the locked plans have been revealed (default true: traitor calls and a "
            "withheld Poison Tooth follow the reveal); false keeps opposing plans out of views"
        }
    )


class BattleCandidateSchema(Schema):
    """A battle still to be fought: where (the sectors of one side of the storm when it divides the
    territory) and between whom."""

    territory = id_field("territory id", required=True)
    sectors = fields.List(BoundedInteger(0, 17), validate=validate.Length(max=18), allow_none=True)
    factions = fields.List(faction_field(), required=True, validate=validate.Length(equal=2))


class DecisionSchema(Schema):
    """An open decision: type, who decides, and what the choice ranges over."""

    type = fields.String(required=True, validate=validate.OneOf([d.value for d in DecisionType]))
    player = faction_field(allow_none=True, metadata={"description": "the deciding faction"})
    owner = faction_field(
        allow_none=True,
        metadata={"description": "the power's owner (moritani-retention, the Karama windows)"},
    )
    played = fields.List(id_field("card id"), validate=validate.Length(max=3))
    eligible = fields.List(id_field("card id"), validate=validate.Length(max=4))
    territory = id_field("the battle's territory", allow_none=True)
    strength = StrictNumber(allow_none=True, metadata={"description": "battle-casualties: dialed strength to lose"})
    leader = id_field(
        "harkonnen-capture: the drawn leader; face-dancer-reveal: the winner's leader; "
        "face-dancer-karama: the Face Dancer revealed",
        allow_none=True,
    )
    opponent = faction_field(allow_none=True, metadata={"description": "battle-plan: the opposing side"})
    ally = faction_field(allow_none=True, metadata={"description": "moritani-retention-karama: the defeated ally"})
    card = id_field("moritani-retention-karama: the card the ally declared", allow_none=True)
    karama = fields.List(
        id_field("card id"),
        validate=validate.Length(max=40),
        metadata={"description": "moritani-special-karama: Karama cards to spend"},
    )
    responders = fields.List(
        faction_field(),
        validate=validate.Length(max=12),
        metadata={"description": "duke-vidal-karama: Karama holders still to ask"},
    )
    fighters = fields.List(
        faction_field(),
        validate=validate.Length(max=2),
        metadata={"description": "occupy-fighter: Ecaz and its ally, the two of which one fights"},
    )
    dial_max = StrictNumber(allow_none=True, metadata={"description": "battle-plan: the highest legal dial"})
    dialed_traits = Choice(
        ["ordinary-forces"],
        metadata={
            "description": "battle-karama on the later powers: the reading of question occupy-dialed-force-traits "
            "their list was made under, kept when it lists other powers than the default reading"
        },
    )
    spice_max = count_field(10000, "battle-plan: the most support spice it may commit", allow_none=True)
    face_up_leader = Choice(
        ["must-commit"],
        metadata={
            "description": "battle-plan: the reading of question skill-face-up-leader-required it opened under, "
            "kept when every leader the side could play lies face up with its skill (absent: the default)"
        },
    )
    winner = faction_field(allow_none=True, metadata={"description": "face-dancer-reveal: the battle's winner"})
    sectors = fields.List(
        sector_field(),
        validate=validate.Length(max=18),
        metadata={
            "description": "sandmaster-pile: the sectors whose pile may grow; smuggler-collection: the sectors "
            "whose piles the Smuggler takes from"
        },
    )
    token = id_field("extortion-payment: the Extortion token", allow_none=True)
    amount = count_field(
        1000,
        "extortion-payment: the spice asked; gift-karama: the spice the Emperor gives; "
        "smuggler-collection: the spice the Smuggler takes in all",
    )
    to = faction_field(allow_none=True, metadata={"description": "gift-karama: the Emperor's ally, who receives"})
    resumes = fields.Nested(
        lambda: DecisionSchema(exclude=("resumes",)),
        allow_none=True,
        metadata={"description": "gift-karama: the decision the gift interrupted, open again once the window closes"},
    )
    strongholds = fields.List(
        id_field("territory id"),
        validate=validate.Length(max=20),
        metadata={"description": "terror-placement: strongholds a token may go to"},
    )
    drawn = fields.List(
        id_field("card id"),
        validate=validate.Length(max=2),
        metadata={
            "description": "rihani-exchange: cards drawn; audit-payment: the cards drawn for the Auditor (after-draw)"
        },
    )
    forces = count_field(
        100,
        "face-dancer-reveal: the winner's forces in the territory, the most the Tleilaxu may replace; "
        "diplomat-retreat: the most forces that may still retreat",
    )
    swap_max = count_field(7, "suboid-swap: the most surviving Suboids that may replace lost Cyborgs")
    count = count_field(2, "audit-payment: the cards CHOAM's Auditor is to look at")
    scope = Choice(
        ["all-or-nothing", "per-card"],
        allow_none=True,
        metadata={"description": "audit-payment: the reading of auditor-payment-scope the payment opened under"},
    )
    battles = fields.List(
        fields.Nested(BattleCandidateSchema),
        validate=validate.Length(max=60),
        metadata={"description": "battle-choice: every battle still to be fought this phase"},
    )
    element = Choice(
        PRESCIENCE_ELEMENTS, allow_none=True, metadata={"description": "prescience-answer: the element asked for"}
    )
    power = id_field("battle-karama: the faction power that may be cancelled", allow_none=True)
    subject = id_field("truthtrance-answer: the kind of card the question asks about", allow_none=True)
    asker = faction_field(allow_none=True, metadata={"description": "mentat-answer: the side whose Mentat asked"})
    weapon = id_field("mentat-answer: the weapon card the Mentat named", allow_none=True)
    names = Choice(
        ["any-weapon-role"],
        allow_none=True,
        metadata={
            "description": "mentat-question: the reading of mentat-two-role-weapons it opened under (null: the default)"
        },
    )


class TerrorTokenSchema(Schema):
    """One Moritani Terror token: its public handle, kind and place."""

    id = id_field("the token's public handle (its kind is secret until revealed)", required=True)
    kind = Choice(
        ["assassination", "atomics", "extortion", "robbery", "sabotage", "sneak-attack"],
        required=True,
        metadata={"description": "the Terror token's kind"},
    )
    territory = id_field("where it is placed (placed tokens only)", allow_none=True)


class TerrorSchema(Schema):
    """Moritani's Terror tokens."""

    supply = fields.List(fields.Nested(TerrorTokenSchema), required=True, validate=validate.Length(max=6))
    placed = fields.List(fields.Nested(TerrorTokenSchema), required=True, validate=validate.Length(max=6))
    out_of_play = fields.List(
        fields.Nested(TerrorTokenSchema),
        validate=validate.Length(max=6),
        metadata={"description": "revealed tokens that left the game (default none)"},
    )


class ExtortionSchema(Schema):
    """A revealed Extortion: the 5 spice waiting in front of Moritani's shield, then the payment window."""

    token = id_field("the revealed token's public id", required=True)
    owner = faction_field(required=True)
    turn = BoundedInteger(1, 99, required=True, metadata={"description": "the turn it was revealed"})
    credit = count_field(5, "spice waiting in front of Moritani's shield", required=True)
    collected = StrictBoolean(required=True, metadata={"description": "the 5 spice were collected at the Mentat Pause"})
    payers = fields.List(
        faction_field(),
        allow_none=True,
        validate=validate.Length(max=12),
        metadata={"description": "the payer queue, fixed when the payment window opens (null before)"},
    )
    next = count_field(12, "index of the next payer to ask")


class MentatSchema(Schema):
    """The Mentat Pause under way: its remaining decisions, and the reading it began under."""

    steps = fields.List(
        Choice([DecisionType.TERROR_PLACEMENT.value, DecisionType.EXTORTION_PAYMENT.value]),
        required=True,
        validate=validate.Length(max=2),
        metadata={"description": "the Mentat Pause's remaining decisions, in order"},
    )
    order = Choice(
        ["placement-first", "recovery-first"],
        metadata={"description": "the reading of extortion-mentat-order this Mentat Pause began under, if it arose"},
    )


class SnapshotSchema(Schema):
    """A board snapshot (`dune-snapshot/1`): the whole game state a ruling is made on."""

    format = fields.String(required=True, validate=validate.Equal(SNAPSHOT_FORMAT))
    ruleset = fields.Nested(RulesetSchema, required=True)
    turn = BoundedInteger(1, 99, required=True)
    phase = Choice([p.value for p in Phase], required=True)
    storm_sector = BoundedInteger(0, 17, required=True)
    storm_order = fields.List(faction_field(), required=True, validate=validate.Length(max=12))
    seed = BoundedInteger(0, 2**53, required=True)
    factions = fields.Dict(
        keys=Choice(FACTIONS),
        values=fields.Nested(FactionSchema),
        required=True,
        **property_count(1, 12),
    )
    forces = fields.List(fields.Nested(ForceStackSchema), validate=validate.Length(max=600))
    advisors = fields.List(fields.Nested(AdvisorStackSchema), validate=validate.Length(max=60))
    board_spice = fields.List(fields.Nested(SpicePileSchema), validate=validate.Length(max=100))
    discard = fields.List(id_field("card id"), validate=validate.Length(max=100))
    duke_vidal = fields.Nested(DukeVidalSchema, allow_none=True)
    battle = fields.Nested(BattleSchema, allow_none=True)
    pending = fields.Nested(DecisionSchema, allow_none=True)
    ambassadors = fields.List(
        fields.Nested(AmbassadorSchema),
        validate=validate.Length(max=11),
        metadata={"description": "Ecaz Ambassador tokens on the board (omitted or empty without Ecaz)"},
    )
    terror = fields.Nested(TerrorSchema, allow_none=True, metadata={"description": "Moritani's Terror tokens"})
    extortion = fields.Nested(ExtortionSchema, allow_none=True)
    mentat = fields.Nested(MentatSchema, allow_none=True, metadata={"description": "the Mentat Pause under way"})
    no_field = fields.Nested(
        NoFieldSchema, allow_none=True, metadata={"description": "Richese's face-down No-Field token on the board"}
    )
    traitor_deck = fields.List(
        id_field("leader id"),
        allow_none=True,
        validate=validate.Length(max=80),
        metadata={"description": "the face-down Traitor deck, top card first (omitted or null: not given)"},
    )
    aggressor_order = fields.List(
        faction_field(),
        allow_none=True,
        validate=validate.Length(max=12),
        metadata={
            "description": "the Battle phase's order of aggressors once Juice of Sapho changed it: storm order with"
            " the card's player moved first or last, kept for the phase (omitted or null: storm order)"
        },
    )


class BoardSourceSchema(Schema):
    """Forces taken from one stack on the board."""

    territory = id_field("territory id", required=True)
    sector = sector_field()
    count = BoundedInteger(1, 20, required=True, metadata={"description": "how many forces"})


class ActionSchema(Schema):
    """A proposed action; options are listed in the same form, so any option can be sent back."""

    type = Choice([a.value for a in ActionType], required=True)
    player = faction_field(allow_none=True, metadata={"description": "the acting faction"})
    card = id_field(
        "retain-card: the card kept, or null to decline; show-mentat-card: the card shown, or null with an empty hand",
        allow_none=True,
    )
    cards = fields.List(id_field("card id"), validate=validate.Length(max=3), metadata={"description": "keep-cards"})
    keep = fields.List(
        id_field("card id"),
        validate=validate.Length(max=10),
        metadata={"description": "force-winner-cards: cards the winner must keep"},
    )
    discard = fields.List(
        id_field("card id"),
        validate=validate.Length(max=10),
        metadata={"description": "force-winner-cards: cards the winner must discard"},
    )
    regular = count_field(
        20,
        "choose-casualties: regular forces lost; choose-withdrawal: regular forces dialed, which stay; "
        "choose-reinforcements: regular reserve forces sent; choose-saved-forces: regular forces saved; "
        "trigger-tleilaxu-ambassador: forces revived; retreat-forces: regular forces retreating",
    )
    elite = count_field(
        20,
        "choose-casualties: elite forces lost; choose-withdrawal: elite forces dialed, which stay; "
        "choose-reinforcements: elite reserve forces sent; choose-saved-forces: elite forces saved; "
        "trigger-tleilaxu-ambassador: elite forces revived; retreat-forces: elite forces retreating",
    )
    leader = id_field(
        "capture-leader: the drawn leader; lock-battle-plan: the leader; "
        "reveal-face-dancer: the Face Dancer revealed; trigger-tleilaxu-ambassador: the leader revived; "
        "assassinate-leader: the leader of the Traitor card revealed, or null to decline",
        allow_none=True,
    )
    cheap_hero = id_field("lock-battle-plan: a Cheap Hero/Heroine instead of a leader", allow_none=True)
    weapon = id_field("lock-battle-plan; ask-mentat: the weapon card the Mentat names", allow_none=True)
    defense = id_field("lock-battle-plan", allow_none=True)
    dial = StrictNumber(validate=validate.Range(min=0, max=40), metadata={"description": "lock-battle-plan"})
    spice = count_field(1000, "lock-battle-plan: support spice")
    ally_spice = count_field(
        1000, "lock-battle-plan: the part of spice the side's ally pays (only under ally-support-payment: ally-may-pay)"
    )
    banker_spice = count_field(3, "lock-battle-plan: spice a Spice Banker leader spends on its own strength, 1 to 3")
    special_karama = id_field(
        "lock-battle-plan: the Karama card Ecaz commits for its special Karama (under ecaz-special-karama-timing:"
        " with-plan)",
        allow_none=True,
    )
    kwisatz_haderach = StrictBoolean(metadata={"description": "lock-battle-plan"})
    staying = fields.String(
        allow_none=True,
        validate=validate.OneOf(["regular", "elite"]),
        metadata={
            "description": "choose-saved-forces: the kind of the saved force that stays in the territory "
            "(null when none stays)"
        },
    )
    choice = fields.String(
        validate=validate.OneOf(["keep", "kill", "decline"]),
        metadata={"description": "capture-leader: keep or kill the drawn leader, or decline to capture anyone"},
    )
    territory = id_field(
        "trigger-*-ambassador, reveal-extortion: the stronghold entered; place-terror-token: where the token goes; "
        "retreat-forces: the territory retreated to",
        allow_none=True,
    )
    entrant = faction_field(metadata={"description": "trigger-*-ambassador: the faction entering the stronghold"})
    effect = fields.String(
        validate=validate.OneOf(["duke-vidal", "alliance"]),
        metadata={"description": "trigger-ecaz-ambassador: gain Duke Vidal, or ally with the entrant (who agrees)"},
    )
    token = id_field("place-terror-token: the token placed or moved (null: none)", allow_none=True)
    new_card = id_field("rihani-keep: the drawn Traitor card kept")
    old_card = id_field("rihani-keep: the unused Traitor card (Tleilaxu: Face Dancer) given back")
    beneficiary = faction_field(
        metadata={"description": "trigger-tleilaxu-ambassador: who receives the benefit, Ecaz or its ally"}
    )
    sector = sector_field()
    from_reserves = count_field(20, "reveal-face-dancer: Tleilaxu forces taken from reserves (default 0)")
    from_board = fields.List(
        fields.Nested(BoardSourceSchema),
        validate=validate.Length(max=20),
        metadata={"description": "reveal-face-dancer: Tleilaxu forces taken from the board"},
    )
    count = count_field(
        7,
        "swap-suboids: surviving Suboids sent to the Tanks for as many lost Cyborgs (0: none);"
        " prevent-audit: the cards of the inspection paid away, 1 spice each",
    )
    opponent = faction_field(metadata={"description": "choose-battle: the faction the aggressor fights"})
    fighter = faction_field(
        metadata={"description": "choose-occupy-fighter: which of Ecaz and its ally fights the Occupy battle"}
    )
    sectors = fields.List(
        BoundedInteger(0, 17),
        validate=validate.Length(max=18),
        allow_none=True,
        metadata={"description": "choose-battle: the side of a storm-divided territory (null: the whole territory)"},
    )
    piles = fields.Dict(
        keys=Pattern(SECTOR_KEY_PATTERN, 2, metadata={"description": "a sector number, 0-17"}),
        values=count_field(1000, "the spice taken from that sector's pile (0: none)"),
        validate=PropertyCount(1, 18),
        metadata={
            "minProperties": 1,
            "maxProperties": 18,
            "description": "choose-smuggler-piles: the spice taken from each pile of the decision's sectors, "
            "by sector number",
        },
    )
    command = Choice(VOICE_COMMANDS, metadata={"description": "use-voice: play, or not play"})
    subject = id_field(
        "use-voice: the kind of card commanded; play-truthtrance (optional): the kind of card the question asks"
        " whether the target will play in this battle"
    )
    answer = Choice(TRUTHTRANCE_ANSWERS, metadata={"description": "answer-truthtrance: yes or no"})
    to = faction_field(metadata={"description": "give-spice: the Emperor's ally receiving the spice"})
    amount = count_field(1000, "give-spice: the spice given (at least 1)")
    element = Choice(PRESCIENCE_ELEMENTS, metadata={"description": "use-prescience: the element asked for"})
    position = Choice(
        ["first", "last"],
        metadata={"description": "play-sapho-order: go first or last in the Battle phase's order of aggressors"},
    )
    power = id_field("karama-cancel in the battle-karama window on the later powers: the power cancelled")
    target = faction_field(
        metadata={
            "description": "karama-cancel in the battle-karama window: whose power; karama-see-plan: the side whose"
            " plan is seen; play-truthtrance: the faction asked"
        }
    )
    question = fields.String(
        validate=validate.Length(min=1, max=300),
        metadata={"description": "play-truthtrance: the yes/no question asked, as put to the table"},
    )
    lend_duke_vidal = StrictBoolean(
        metadata={
            "description": "trigger-ecaz-ambassador, alliance: give Ecaz's Duke Vidal to the new ally for this turn"
        }
    )


# --- views: the same snapshot with hidden parts redacted ------------------------------------------


class ViewLeaderStateSchema(LeaderStateSchema):
    pass


class ViewFactionSchema(FactionSchema):
    """A faction as one viewer may see it: hidden hands, traitors and Face Dancers become counts."""

    spice = count_field(
        10000,
        "spice behind the shield; null when hidden (another faction's, or any for a spectator)",
        required=True,
        allow_none=True,
    )
    hand = fields.List(id_field("card id"), allow_none=True, metadata={"description": "null when hidden"})
    traitors = fields.List(id_field("leader id"), allow_none=True, metadata={"description": "null when hidden"})
    hand_count = StrictInteger(metadata={"description": "in a redacted view: how many Treachery cards it holds"})
    traitor_count = StrictInteger(metadata={"description": "in a redacted view: how many Traitor cards it holds"})
    face_dancers = fields.List(id_field("leader id"), allow_none=True, metadata={"description": "null when hidden"})
    face_dancer_count = StrictInteger(
        metadata={"description": "in a redacted view: how many unrevealed Face Dancers the Tleilaxu hold"}
    )


class ViewRihaniRecordSchema(RihaniRecordSchema):
    """A Rihani Decipherer exchange as one viewer may see it: the cards are null when hidden."""

    eligible = fields.List(
        id_field("leader id"), required=True, allow_none=True, metadata={"description": "null when hidden"}
    )
    drawn = fields.List(
        id_field("leader id"), required=True, allow_none=True, metadata={"description": "null when hidden"}
    )


class ViewResolutionSchema(ResolutionSchema):
    """A battle's resolution as one viewer may see it."""

    rihani = fields.Nested(ViewRihaniRecordSchema)


class ViewPlanSchema(PlanSchema):
    """A battle plan as one viewer may see it: a plan the Atreides' special Karama sees with its dial
    hidden (question no-field-see-plan-dial) has a null dial and support."""

    dial = StrictNumber(
        required=True,
        allow_none=True,
        validate=validate.Range(min=0, max=40),
        metadata={"description": "forces dialed; halves allowed; null when hidden"},
    )
    spice = count_field(1000, "spice paid to support forces (advanced); null when hidden", allow_none=True)
    ally_spice = count_field(1000, "the part of spice the side's ally pays; null when hidden", allow_none=True)


class ViewBattleSchema(BattleSchema):
    """The battle as one viewer may see it: an unrevealed opposing plan is null."""

    resolution = fields.Nested(ViewResolutionSchema, allow_none=True)
    plans = fields.Dict(
        keys=Choice(FACTIONS),
        values=fields.Nested(ViewPlanSchema, allow_none=True),
        required=True,
        metadata={"description": "an unrevealed opposing plan is null"},
    )


class ViewTerrorTokenSchema(TerrorTokenSchema):
    """A Terror token as one viewer may see it: its kind is null while hidden."""

    kind = Choice(
        ["assassination", "atomics", "extortion", "robbery", "sabotage", "sneak-attack"],
        required=True,
        allow_none=True,
        metadata={"description": "null when hidden"},
    )


class ViewTerrorSchema(TerrorSchema):
    """Moritani's Terror tokens as one viewer may see it: the supply becomes a count."""

    supply = fields.List(
        fields.Nested(ViewTerrorTokenSchema),
        required=True,
        allow_none=True,
        metadata={"description": "null when hidden"},
    )
    placed = fields.List(fields.Nested(ViewTerrorTokenSchema), required=True)
    supply_count = StrictInteger(metadata={"description": "in a redacted view: tokens in Moritani's supply"})


class ViewNoFieldSchema(NoFieldSchema):
    """Richese's No-Field token as one viewer may see it: its forces are null while hidden."""

    forces = BoundedInteger(
        0,
        5,
        required=True,
        allow_none=True,
        validate=validate.OneOf([0, 3, 5]),
        metadata={"description": "null when hidden"},
    )


class ViewSnapshotSchema(SnapshotSchema):
    """A snapshot as one viewer may see it (or in full, for the referee); redacted parts are null or counts."""

    seed = StrictInteger(
        required=True, allow_none=True, metadata={"description": "null in a redacted view: it decides future draws"}
    )
    factions = fields.Dict(keys=Choice(FACTIONS), values=fields.Nested(ViewFactionSchema), required=True)
    traitor_deck_count = StrictInteger(metadata={"description": "in a redacted view: cards left in the Traitor deck"})
    terror = fields.Nested(ViewTerrorSchema, allow_none=True)
    battle = fields.Nested(ViewBattleSchema, allow_none=True)
    no_field = fields.Nested(ViewNoFieldSchema, allow_none=True)


# --- response parts ---------------------------------------------------------------------------------


class CitationSchema(Schema):
    """Where a ruling's rule is written: a register source and its page, section or timestamp."""

    source = fields.String(required=True, metadata={"description": "source register id"})
    page = StrictInteger(metadata={"description": "page number"})
    page_kind = fields.String(
        validate=validate.OneOf([k.value for k in PageKind]),
        metadata={"description": "with `page`: printed page number or the PDF's physical page"},
    )
    page_status = fields.String(
        validate=validate.OneOf([k.value for k in PageStatus]),
        metadata={
            "description": "with `page` (always present then): `read` when the page was read in a copy of the "
            "publication, `inferred` when it is only likely (from a secondary page map, another audit or a copy "
            "without page breaks); an inferred page's `note` says where it comes from"
        },
    )
    timestamp = fields.String(metadata={"description": "video timestamp (mm:ss), instead of a page"})
    section = fields.String()
    note = fields.String()


EVIDENCE = [e.value for e in Evidence]


class RulingRecordSchema(Schema):
    """A rule that decided part of the answer: its id, claim, evidence class and citations."""

    rule = fields.String(required=True)
    claim = fields.String(required=True)
    evidence = fields.String(required=True, validate=validate.OneOf(EVIDENCE))
    citations = fields.List(fields.Nested(CitationSchema), required=True)


class ViolationSchema(Schema):
    """Why an action is illegal: a stable code, the JSON pointer of the offending part and the rule broken."""

    code = fields.String(required=True)
    message = fields.String(required=True)
    path = fields.String(required=True, metadata={"description": "JSON pointer into the request"})
    rule = fields.String(required=True, allow_none=True)


class NextSchema(Schema):
    """The decision open after the ruling, and its legal options."""

    decision = fields.Nested(DecisionSchema, required=True, allow_none=True)
    options = fields.List(fields.Nested(ActionSchema), required=True)


class OutcomeSchema(Schema):
    """What the action resolved to: a structured summary, the events in order and the next snapshot."""

    summary = fields.Dict(required=True, metadata={"description": "structured summary, one key per rules area"})
    events = fields.List(fields.Dict(), required=True)
    snapshot = fields.Nested(ViewSnapshotSchema, required=True)


class AlternativeSchema(Schema):
    """The outcome under one choice of interpretations, when the rules do not settle the answer."""

    interpretations = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    outcome = fields.Nested(OutcomeSchema, required=True)
    evidence = fields.String(required=True, validate=validate.OneOf(EVIDENCE))


class ProvenanceSchema(Schema):
    """What produced the answer: engine version, rules digest and the interpretations applied."""

    engine = fields.String(required=True)
    rules_digest = fields.String(required=True)
    interpretations = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class RulingResponseSchema(Schema):
    """A ruling: status, evidence, outcome, next decision, violations and the cited rulings behind it."""

    status = fields.String(required=True, validate=validate.OneOf([s.value for s in RulingStatus]))
    evidence = fields.String(required=True, allow_none=True, validate=validate.OneOf(EVIDENCE))
    outcome = fields.Nested(OutcomeSchema, required=True, allow_none=True)
    next = fields.Nested(NextSchema, required=True)
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    rulings = fields.List(fields.Nested(RulingRecordSchema), required=True)
    citations = fields.List(fields.Nested(CitationSchema), required=True)
    alternatives = fields.List(fields.Nested(AlternativeSchema), required=True)
    provenance = fields.Nested(ProvenanceSchema, required=True)
