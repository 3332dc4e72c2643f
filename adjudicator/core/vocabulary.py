"""Closed vocabularies of the wire contract (docs/contract.md) as string enums."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType


class FactionId(StrEnum):
    ATREIDES = "atreides"
    HARKONNEN = "harkonnen"
    EMPEROR = "emperor"
    GUILD = "guild"
    FREMEN = "fremen"
    BENE_GESSERIT = "bene-gesserit"
    IXIANS = "ixians"
    TLEILAXU = "tleilaxu"
    CHOAM = "choam"
    RICHESE = "richese"
    ECAZ = "ecaz"
    MORITANI = "moritani"


class Expansion(StrEnum):
    IXIANS_TLEILAXU = "ixians-tleilaxu"
    CHOAM_RICHESE = "choam-richese"
    ECAZ_MORITANI = "ecaz-moritani"


class Phase(StrEnum):
    STORM = "storm"
    SPICE_BLOW = "spice-blow"
    CHOAM_CHARITY = "choam-charity"
    BIDDING = "bidding"
    REVIVAL = "revival"
    SHIPMENT_MOVEMENT = "shipment-movement"
    BATTLE = "battle"
    SPICE_COLLECTION = "spice-collection"
    MENTAT_PAUSE = "mentat-pause"


class LeaderStatus(StrEnum):
    AVAILABLE = "available"
    USED = "used"
    TANKS = "tanks"
    CAPTURED = "captured"


class DukeStatus(StrEnum):
    SET_ASIDE = "set-aside"
    HELD = "held"
    USED = "used"
    TANKS = "tanks"
    CAPTURED = "captured"


class TerritoryType(StrEnum):
    STRONGHOLD = "stronghold"
    ROCK = "rock"
    SAND = "sand"
    SAND_SHIELDED = "sand-shielded"
    POLAR_SINK = "polar-sink"


class CardCategory(StrEnum):
    PROJECTILE_WEAPON = "projectile-weapon"
    POISON_WEAPON = "poison-weapon"
    SPECIAL_WEAPON = "special-weapon"
    PROJECTILE_DEFENSE = "projectile-defense"
    POISON_DEFENSE = "poison-defense"
    SPECIAL_DEFENSE = "special-defense"
    WORTHLESS = "worthless"
    LEADER_SUBSTITUTE = "leader-substitute"
    SPECIAL = "special"


class Evidence(StrEnum):
    """Evidence classes, strongest first (docs/contract.md, "Evidence classes")."""

    PRINTED_RULE = "printed_rule"
    OFFICIAL_FAQ = "official_faq"
    DESIGNER_STATEMENT = "designer_statement"
    COMPOSITION = "composition"
    PROVISIONAL_ORDERING = "provisional_ordering"
    UNRESOLVED = "unresolved"

    @property
    def rank(self) -> int:
        return _EVIDENCE_ORDER.index(self)

    @classmethod
    def weakest(cls, classes: list[Evidence]) -> Evidence | None:
        return max(classes, key=lambda e: e.rank) if classes else None


_EVIDENCE_ORDER = list(Evidence)


class PageKind(StrEnum):
    """How a page number is counted: as printed on the page, or as the PDF's physical page."""

    PRINTED = "printed"
    PHYSICAL = "physical"


class PageStatus(StrEnum):
    """Whether a cited page was read in a copy of the publication, or is only likely (taken from a
    secondary page map, another audit or a copy without page breaks)."""

    READ = "read"
    INFERRED = "inferred"


class RulingStatus(StrEnum):
    RESOLVED = "resolved"
    ILLEGAL = "illegal"
    NEEDS_CHOICE = "needs_choice"
    UNRESOLVED = "unresolved"


class ActionType(StrEnum):
    """Action types the wire contract names. Types without a handler yet answer `not-implemented`."""

    LOCK_BATTLE_PLAN = "lock-battle-plan"
    RESOLVE_BATTLE = "resolve-battle"
    CHOOSE_CASUALTIES = "choose-casualties"
    CHOOSE_WITHDRAWAL = "choose-withdrawal"
    CHOOSE_REINFORCEMENTS = "choose-reinforcements"
    KEEP_CARDS = "keep-cards"
    CAPTURE_LEADER = "capture-leader"
    RETAIN_CARD = "retain-card"
    KARAMA_CANCEL = "karama-cancel"
    KARAMA_PASS = "karama-pass"
    FORCE_WINNER_CARDS = "force-winner-cards"
    ASSASSINATE_LEADER = "assassinate-leader"
    CHOAM_CASH_IN = "choam-cash-in"
    END_TURN = "end-turn"
    REVIVE_LEADER = "revive-leader"
    ACQUIRE_DUKE_VIDAL = "acquire-duke-vidal"
    DECLINE_DUKE_VIDAL = "decline-duke-vidal"
    SEMUTA_TAKE = "semuta-take"
    SEMUTA_PASS = "semuta-pass"
    END_SHIPMENT_MOVEMENT = "end-shipment-movement"
    TRIGGER_ECAZ_AMBASSADOR = "trigger-ecaz-ambassador"
    TRIGGER_TLEILAXU_AMBASSADOR = "trigger-tleilaxu-ambassador"
    REVEAL_EXTORTION = "reveal-extortion"
    START_MENTAT_PAUSE = "start-mentat-pause"
    PLACE_TERROR_TOKEN = "place-terror-token"
    PAY_EXTORTION = "pay-extortion"
    DECLINE_EXTORTION = "decline-extortion"
    REVEAL_FACE_DANCER = "reveal-face-dancer"
    DECLINE_FACE_DANCER = "decline-face-dancer"
    CHOOSE_SPICE_PILE = "choose-spice-pile"
    RIHANI_DRAW = "rihani-draw"
    RIHANI_DECLINE = "rihani-decline"
    RIHANI_KEEP = "rihani-keep"
    SWAP_SUBOIDS = "swap-suboids"
    CHOOSE_BATTLE = "choose-battle"
    USE_VOICE = "use-voice"
    DECLINE_VOICE = "decline-voice"
    USE_PRESCIENCE = "use-prescience"
    DECLINE_PRESCIENCE = "decline-prescience"
    ANSWER_PRESCIENCE = "answer-prescience"
    ASK_MENTAT = "ask-mentat"
    DECLINE_MENTAT = "decline-mentat"
    SHOW_MENTAT_CARD = "show-mentat-card"
    KARAMA_SEE_PLAN = "karama-see-plan"
    PLAY_TRUTHTRANCE = "play-truthtrance"
    ANSWER_TRUTHTRANCE = "answer-truthtrance"
    GIVE_SPICE = "give-spice"
    PREVENT_AUDIT = "prevent-audit"
    ACCEPT_AUDIT = "accept-audit"
    PLAY_RESIDUAL_POISON = "play-residual-poison"
    PLAY_JUICE_OF_SAPHO = "play-juice-of-sapho"
    PASS_PRE_BATTLE_CARDS = "pass-pre-battle-cards"
    PLAY_SAPHO_ORDER = "play-sapho-order"
    PASS_SAPHO_ORDER = "pass-sapho-order"
    CHOOSE_OCCUPY_FIGHTER = "choose-occupy-fighter"
    RETREAT_FORCES = "retreat-forces"
    DECLINE_RETREAT = "decline-retreat"
    CHOOSE_SAVED_FORCES = "choose-saved-forces"
    CHOOSE_SMUGGLER_PILES = "choose-smuggler-piles"


class DecisionType(StrEnum):
    """Open-decision types a snapshot's `pending` may hold (each issue adds its own)."""

    BATTLE_PLAN = "battle-plan"
    BATTLE_CASUALTIES = "battle-casualties"
    HARASS_WITHDRAWAL = "harass-withdrawal"
    REINFORCEMENTS_FORCES = "reinforcements-forces"
    WINNER_CARDS = "winner-cards"
    HARKONNEN_CAPTURE = "harkonnen-capture"
    MORITANI_RETENTION = "moritani-retention"
    RETENTION_KARAMA = "moritani-retention-karama"
    MORITANI_SPECIAL_KARAMA = "moritani-special-karama"
    MORITANI_ASSASSINATION = "moritani-assassination"
    SEMUTA_OPPORTUNITY = "semuta-opportunity"
    DUKE_VIDAL_ACQUISITION = "duke-vidal-acquisition"
    DUKE_VIDAL_KARAMA = "duke-vidal-karama"
    FACE_DANCER_REVEAL = "face-dancer-reveal"
    FACE_DANCER_KARAMA = "face-dancer-karama"
    SANDMASTER_PILE = "sandmaster-pile"
    RIHANI_DRAW_OFFER = "rihani-draw-offer"
    RIHANI_EXCHANGE = "rihani-exchange"
    EXTORTION_PAYMENT = "extortion-payment"
    TERROR_PLACEMENT = "terror-placement"
    SUBOID_SWAP = "suboid-swap"
    BATTLE_CHOICE = "battle-choice"
    VOICE = "voice"
    PRESCIENCE = "prescience"
    PRESCIENCE_ANSWER = "prescience-answer"
    MENTAT_QUESTION = "mentat-question"
    MENTAT_ANSWER = "mentat-answer"
    BATTLE_KARAMA = "battle-karama"
    TRUTHTRANCE_ANSWER = "truthtrance-answer"
    GIFT_KARAMA = "gift-karama"
    AUDIT_PAYMENT = "audit-payment"
    PRE_BATTLE_CARDS = "pre-battle-cards"
    SAPHO_ORDER = "sapho-order"
    OCCUPY_FIGHTER = "occupy-fighter"
    DIPLOMAT_RETREAT = "diplomat-retreat"
    SUK_GRADUATE_FORCES = "suk-graduate-forces"
    SMUGGLER_COLLECTION = "smuggler-collection"


# The phases in which each decision type can be open, from where the rules open it: the choice of the
# next battle, the steps before a battle's plans (the Mentat's question and its answer, Voice,
# Prescience and their Karama windows), its plans and its cleanup steps (a Smuggler's piles, the Auditor's inspection,
# Harass and Withdraw's dialed forces, Reinforcements' reserve forces, a losing Diplomat's retreat,
# casualties, the winner's cards, the Harkonnen capture, Moritani's retention and its Karama windows,
# its Assassinate Leaders, Semuta,
# Face Dancers and the Karama window on a reveal, Sandmaster, Rihani, the Ixian Suboid swap) and the
# Karama window on the Emperor's gift of spice in the Battle phase, and the window on Juice of Sapho's
# turn-order use as the phase begins; Duke Vidal's acquisition and its Karama window as Shipment and
# Movement ends
# (`end-shipment-movement`); the Terror placement and the Extortion payment in the Mentat Pause. An
# answer that keeps a decision open (a CHOAM cash-in, a Karama pass) does not change the phase.
_BATTLE = frozenset({Phase.BATTLE})
DECISION_PHASES: Mapping[DecisionType, frozenset[Phase]] = MappingProxyType(
    {
        DecisionType.BATTLE_PLAN: _BATTLE,
        DecisionType.BATTLE_CASUALTIES: _BATTLE,
        DecisionType.HARASS_WITHDRAWAL: _BATTLE,
        DecisionType.REINFORCEMENTS_FORCES: _BATTLE,
        DecisionType.DIPLOMAT_RETREAT: _BATTLE,
        DecisionType.WINNER_CARDS: _BATTLE,
        DecisionType.HARKONNEN_CAPTURE: _BATTLE,
        DecisionType.MORITANI_RETENTION: _BATTLE,
        DecisionType.RETENTION_KARAMA: _BATTLE,
        DecisionType.MORITANI_SPECIAL_KARAMA: _BATTLE,
        DecisionType.MORITANI_ASSASSINATION: _BATTLE,
        DecisionType.SEMUTA_OPPORTUNITY: _BATTLE,
        DecisionType.FACE_DANCER_REVEAL: _BATTLE,
        DecisionType.FACE_DANCER_KARAMA: _BATTLE,
        DecisionType.SANDMASTER_PILE: _BATTLE,
        DecisionType.RIHANI_DRAW_OFFER: _BATTLE,
        DecisionType.RIHANI_EXCHANGE: _BATTLE,
        DecisionType.SUBOID_SWAP: _BATTLE,
        DecisionType.SUK_GRADUATE_FORCES: _BATTLE,
        DecisionType.SMUGGLER_COLLECTION: _BATTLE,
        DecisionType.BATTLE_CHOICE: _BATTLE,
        DecisionType.VOICE: _BATTLE,
        DecisionType.PRESCIENCE: _BATTLE,
        DecisionType.PRESCIENCE_ANSWER: _BATTLE,
        DecisionType.MENTAT_QUESTION: _BATTLE,
        DecisionType.MENTAT_ANSWER: _BATTLE,
        DecisionType.BATTLE_KARAMA: _BATTLE,
        DecisionType.TRUTHTRANCE_ANSWER: _BATTLE,
        DecisionType.GIFT_KARAMA: _BATTLE,
        DecisionType.AUDIT_PAYMENT: _BATTLE,
        DecisionType.PRE_BATTLE_CARDS: _BATTLE,
        DecisionType.SAPHO_ORDER: _BATTLE,
        DecisionType.OCCUPY_FIGHTER: _BATTLE,
        DecisionType.DUKE_VIDAL_ACQUISITION: frozenset({Phase.SHIPMENT_MOVEMENT}),
        DecisionType.DUKE_VIDAL_KARAMA: frozenset({Phase.SHIPMENT_MOVEMENT}),
        DecisionType.EXTORTION_PAYMENT: frozenset({Phase.MENTAT_PAUSE}),
        DecisionType.TERROR_PLACEMENT: frozenset({Phase.MENTAT_PAUSE}),
    }
)


class BattleResult(StrEnum):
    DECIDED = "decided"
    SINGLE_TRAITOR = "single-traitor"
    DOUBLE_TRAITOR = "double-traitor"
    EXPLOSION = "explosion"


class BattlePower(StrEnum):
    """The faction powers a Karama may cancel in a battle (`battle.karama` names them); which act in a
    given battle is listed by `rules/battle/powers.py`, the rules that apply each read the record."""

    VOICE = "voice"
    PRESCIENCE = "prescience"
    SARDAUKAR = "sardaukar"  # advanced: Sardaukar worth 2 (1 against the Fremen)
    FEDAYKIN = "fedaykin"  # advanced: Fedaykin worth 2
    BATTLE_HARDENED = "battle-hardened"  # advanced: Fremen forces count fully without spice
    KWISATZ_HADERACH = "kwisatz-haderach"  # advanced: +2 beside a leader or Cheap Hero
    ALLY_TRAITORS = "ally-traitors"  # the Harkonnen's Traitor cards called in their ally's battle
    HARKONNEN_CAPTURE = "harkonnen-capture"  # advanced: the winning Harkonnen take a leader
    CHOAM_AUDIT = "choam-audit"  # advanced: CHOAM's Auditor inspects the opponent's hand after the battle
    CHOAM_SHARE = "choam-share"  # advanced: half of the support others pay goes to CHOAM
    ECAZ_OCCUPY = "ecaz-occupy"  # Ecaz's forces beside its fighting ally add to its side
    CYBORGS = "cyborgs"  # Ixian Cyborgs worth 2
    SUBOID_SWAP = "suboid-swap"  # the winning Ixians' surviving Suboids replace Cyborgs lost
    MENTAT_QUESTION = "mentat-question"  # Leader Skills, under mentat-question-karama: cancels-the-question


SNAPSHOT_FORMAT = "dune-snapshot/1"
SECTOR_COUNT = 18

# ids that several rule areas name; each written once
DUKE = "duke-vidal"  # Duke Prad Vidal's leader id (Ecaz & Moritani expansion)
HMS = "hidden-mobile-stronghold"  # the Hidden Mobile Stronghold's territory id
MORITANI = FactionId.MORITANI.value
ECAZ = FactionId.ECAZ.value
TLEILAXU = FactionId.TLEILAXU.value
HARKONNEN = FactionId.HARKONNEN.value
