"""Leader Skills that act on a battle once its plans are locked: the Smuggler's collection of the battle
territory's spice (its side naming the piles under smuggler-several-piles: smuggler-chooses, in the
`smuggler-collection` decision, `rules/battle/smuggler_collection.py`) and the Suk Graduate's rescue of
a winner's dialed losses.

Both read the skill from the plan's leader (`selected_skill`: the battle effect, for the captor of a
captured skilled leader too) or from a face-up card of the winner's own leaders (`face_up_skills`:
the normal effect). A leader's survival is read from the working state after the battle's deaths, so
the same test serves `resolve-battle` and a saved snapshot's `choose-casualties`.
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.core.action import Context, choice_of
from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.records import SmugglerRecord, SukRescueRecord
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Plan, Snapshot, SpicePile
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import CardCategory, FactionId, LeaderStatus
from adjudicator.rules.auditor import PRICE as AUDITOR_PRICE
from adjudicator.rules.auditor import SURVIVED as AUDITOR_MOST_CARDS
from adjudicator.rules.battle.choam_share import SupportPayment
from adjudicator.rules.skills import BUREAUCRAT, battle_effect_applies, face_up_skills, selected_skill
from adjudicator.rules.state import NextSnapshot

SMUGGLER = "smuggler"
SUK_GRADUATE = "suk-graduate"
SUK_SAVED_MOST = 3
SMUGGLER_KILLED_QUESTION = "smuggler-leader-killed"
SMUGGLER_PILES_QUESTION = "smuggler-several-piles"
SMUGGLER_CHOOSES = "smuggler-chooses"
SUK_FORCES_QUESTION = "suk-graduate-saved-forces"


def leader_killed(state: NextSnapshot, leader_id: str | None) -> bool:
    """Whether the plan's leader is now in the Tanks (a captive's state is kept under its native faction)."""
    leader = catalog().leaders.get(leader_id or "")
    if leader is None:
        return True
    entry = state.faction_state(leader.faction).leaders.get(leader.id)
    return entry is None or entry.status is LeaderStatus.TANKS


# --- Smuggler -------------------------------------------------------------------------------------


@rule("skills.smuggler")
def smuggler_piles(board_spice: tuple[SpicePile, ...], territory: str, cover: frozenset[int] | None) -> list[SpicePile]:
    return [
        p
        for p in board_spice
        if p.territory == territory and p.amount > 0 and (cover is None or p.sector is None or p.sector in cover)
    ]


@rule("skills.smuggler.leader-killed")
def smuggler_collects_when_killed(choice: str) -> bool:
    return choice == "collects-when-revealed"


@rule("skills.smuggler.several-piles")
def smuggler_pile_order(piles: list[SpicePile], choice: str) -> list[SpicePile] | None:
    # the piles in the order they are taken (largest-first), or None when the side names them
    if choice == SMUGGLER_CHOOSES:
        return None
    return sorted(piles, key=lambda p: (-p.amount, -1 if p.sector is None else p.sector))


@rule("skills.smuggler.chooses-explosion")
def piles_left_destroyed(piles: list[SpicePile]) -> list[SpicePile]:
    return piles  # taken in the board's order: whatever is left is destroyed next


@rule("skills.smuggler.chooses")
def pile_ways(piles: Mapping[int, int], amount: int) -> list[dict[int, int]]:
    # every way to take `amount` from the piles (sector -> spice there), as sector -> spice taken:
    # sectors in ascending order, the most from the lowest sector first
    sectors = sorted(piles)
    ways: list[dict[int, int]] = []

    def fill(at: int, left: int, taken: dict[int, int]) -> None:
        if at == len(sectors):
            if left == 0:
                ways.append(taken)
            return
        rest = sum(piles[s] for s in sectors[at + 1 :])
        for take in range(min(left, piles[sectors[at]]), max(0, left - rest) - 1, -1):
            fill(at + 1, left - take, {**taken, sectors[at]: take})

    fill(0, amount, {})
    return ways


@rule("skills.smuggler.chooses-first")
def collection_opens_first() -> None:
    pass


@rule("skills.smuggler.before-sandmaster")
def sandmaster_after_smuggler() -> None:
    pass


def smuggler_step(
    snapshot: Snapshot, state: NextSnapshot, faction: str, plan: Plan, territory: str, exploding: bool, context: Context
) -> SmugglerRecord | None:
    """Apply a Smuggler fought with; the record of its collection when its side names the piles (in a
    battle that explodes it collects at once: the spice it leaves is destroyed)."""
    if selected_skill(snapshot, plan) != SMUGGLER or plan.leader is None:
        return None
    killed = leader_killed(state, plan.leader)
    if killed and not smuggler_collects_when_killed(context.choice(SMUGGLER_KILLED_QUESTION)):
        battle_effect_applies(False)
        return None
    strength = catalog().leaders[plan.leader].strength or 0
    piles = smuggler_piles(state.board_spice, territory, state.battle_cover)
    if not piles:
        state.event("spice-not-collected", "skills.smuggler", faction=faction, territory=territory)
        return None
    if len(piles) > 1 and sum(p.amount for p in piles) > strength:
        order = smuggler_pile_order(piles, context.choice(SMUGGLER_PILES_QUESTION))
        if order is None and not exploding:
            return SmugglerRecord(faction, strength)
        piles = piles_left_destroyed(piles) if order is None else order
    left = strength
    for pile in piles:
        take = min(left, pile.amount)
        if take:
            state.take_from_pile(territory, pile.sector, take)
            left -= take
    taken = strength - left
    state.gain_spice(faction, taken)
    state.event("spice-collected", "skills.smuggler", faction=faction, territory=territory, amount=taken)
    return None


def collection_piles(
    board_spice: tuple[SpicePile, ...], territory: str, cover: frozenset[int] | None
) -> dict[int, int]:
    """The piles a Smuggler's side names its take from: sector -> spice there (several piles of one
    territory lie in its numbered sectors, one to a sector as the snapshot checks require)."""
    return {p.sector: p.amount for p in smuggler_piles(board_spice, territory, cover) if p.sector is not None}


def collect_named_piles(state: NextSnapshot, record: SmugglerRecord, territory: str, taken: Mapping[int, int]) -> None:
    """The side's answer (one of `pile_ways`): each pile gives what the side named, the side the whole."""
    for sector, amount in sorted(taken.items()):
        if amount:
            state.take_from_pile(territory, sector, amount)
    state.gain_spice(record.player, record.amount)
    named = {str(sector): amount for sector, amount in sorted(taken.items())}
    state.event(
        "spice-collected",
        "skills.smuggler.chooses",
        faction=record.player,
        territory=territory,
        amount=record.amount,
        piles=named,
    )


# --- Suk Graduate ---------------------------------------------------------------------------------


@rule("skills.suk-graduate")
def suk_battle_rescue(lost: int) -> tuple[int, int]:
    saved = min(SUK_SAVED_MOST, lost)
    return saved, min(1, saved)


@rule("skills.suk-graduate.face-up")
def suk_normal_rescue(lost: int) -> tuple[int, int]:
    return min(1, lost), 0


@rule("skills.suk-graduate.saved-forces")
def saved_elite_first(choice: str) -> bool:
    return choice == "elite-first"


Rescue = tuple[tuple[int, int], tuple[int, int], str]
NO_RESCUE: Rescue = ((0, 0), (0, 0), "")
SavedForces = tuple[int, int, str | None]  # regular saved, elite saved, the kind of the one staying


def rescue_ways(regular: int, elite: int, saved: int, staying: int) -> list[SavedForces]:
    """Every way to save `saved` of the lost (regular, elite) forces, `staying` (0 or 1) of them staying;
    the elite-first way first (the most elite forces saved, an elite one staying)."""
    ways: list[SavedForces] = []
    for saved_elite in range(min(elite, saved), -1, -1):
        saved_regular = saved - saved_elite
        if saved_regular > regular:
            continue
        if not staying:
            ways.append((saved_regular, saved_elite, None))
            continue
        ways += [
            (saved_regular, saved_elite, kind) for kind, n in (("elite", saved_elite), ("regular", saved_regular)) if n
        ]
    return ways


def rescue_of(way: SavedForces, rule_id: str) -> Rescue:
    """The forces that stay, those sent to the reserves, and the rule, of one way of saving them."""
    saved_regular, saved_elite, kind = way
    stay_regular, stay_elite = int(kind == "regular"), int(kind == "elite")
    return (stay_regular, stay_elite), (saved_regular - stay_regular, saved_elite - stay_elite), rule_id


def rescue_rule(staying: int) -> str:
    """The rule a rescue follows: the battle effect keeps one of the saved forces in the territory."""
    return "skills.suk-graduate" if staying else "skills.suk-graduate.face-up"


def suk_graduate_saves(
    snapshot: Snapshot, state: NextSnapshot, winner: str, owner: str, regular: int, elite: int, context: Context
) -> tuple[Rescue, SukRescueRecord | None]:
    """Of a winner's dialed losses (forces of `owner`), the (regular, elite) a Suk Graduate keeps in the
    territory, the (regular, elite) it sends to the reserves, and the rule that saves them; or, when the
    winner names them (suk-graduate-saved-forces: owner-chooses) and has more than one way, the record
    of the losses its suk-graduate-forces decision waits on."""
    battle = snapshot.battle
    lost = regular + elite
    if battle is None or lost == 0:
        return NO_RESCUE, None
    plan = battle.plans[winner]
    if selected_skill(snapshot, plan) == SUK_GRADUATE:
        if not battle_effect_applies(not leader_killed(state, plan.leader)):
            return NO_RESCUE, None
        saved, staying = suk_battle_rescue(lost)
    elif SUK_GRADUATE in face_up_skills(snapshot, winner, plan.leader):
        saved, staying = suk_normal_rescue(lost)
    else:
        return NO_RESCUE, None
    ways = rescue_ways(regular, elite, saved, staying)
    if len(ways) > 1 and not saved_elite_first(context.choice(SUK_FORCES_QUESTION)):
        return NO_RESCUE, SukRescueRecord(owner, regular, elite, saved, staying)
    return rescue_of(ways[0], rescue_rule(staying)), None


@rule("skills.suk-graduate.owner-chooses")
def owner_saves(record: SukRescueRecord, regular: int, elite: int, staying: str | None) -> Rescue:
    return rescue_of((regular, elite, staying), rescue_rule(record.staying))


def saved_forces_options(record: SukRescueRecord) -> list[SavedForces]:
    """The ways a winner may name the forces its Suk Graduate saves, from the losses it waits on."""
    return rescue_ways(record.regular, record.elite, record.saved, record.staying)


def forces_saved(
    state: NextSnapshot, winner: str, territory: str, rescue: Rescue, sectors: frozenset[int] | None
) -> None:
    """Record the rescue once the rest of the losses are in the Tanks: the saved forces that go back
    leave the territory for the reserves, the one that stays never left."""
    staying, to_reserves, rule_id = rescue
    if not rule_id:
        return
    state.some_forces_to_reserves(winner, territory, *to_reserves, sectors=sectors)
    if any(to_reserves):
        state.event(
            "forces-to-reserves",
            rule_id,
            faction=winner,
            territory=territory,
            regular=to_reserves[0],
            elite=to_reserves[1],
        )
    state.event(
        "forces-saved",
        rule_id,
        faction=winner,
        territory=territory,
        staying={"regular": staying[0], "elite": staying[1]},
        to_reserves={"regular": to_reserves[0], "elite": to_reserves[1]},
    )


# --- Diplomat (face up) ----------------------------------------------------------------------------

DIPLOMAT = "diplomat"
DIPLOMAT_QUESTION = "diplomat-copy-election"


def diplomat_worthless(snapshot: Snapshot, battle: Battle, faction: str) -> str | None:
    """The Worthless card a combatant's face-up Diplomat may count as the opponent's defense: the side
    played no defense (an empty slot or a Worthless card there) and the opponent a defense that is not
    Worthless; the defense slot's Worthless card first, else the weapon slot's."""
    combatants = (battle.aggressor, battle.defender)
    if faction not in combatants or DIPLOMAT not in face_up_skills(snapshot, faction, battle.plans[faction].leader):
        return None
    plan = battle.plans[faction]
    opponent = battle.plans[combatants[1] if faction == combatants[0] else combatants[0]]
    if plan.defense is not None and not _worthless(plan.defense):
        return None
    if opponent.defense is None or _worthless(opponent.defense):
        return None
    return next((card for card in (plan.defense, plan.weapon) if card is not None and _worthless(card)), None)


@rule("skills.diplomat.face-up")
def diplomat_copies_defense(faction: str, worthless: str, copied: str) -> tuple[str, str]:
    return worthless, copied


@rule("skills.diplomat.face-up-election")
def diplomat_copy_always(choice: str) -> bool:
    return choice == "always-counts"


# --- face-up skills not modelled yet, asked only when their trigger can occur in this battle ----------
SPICE_BANKER = "spice-banker"
BANKER_LEAST = 4  # a payment to the bank of this much or more
BUREAUCRAT_LEAST = 5  # a payment to another faction of this much or more
AUDITOR_LEADER = "auditor"


def _worthless(card: str | None) -> bool:
    found = catalog().cards.get(card_kind(card)) if card is not None else None
    return found is not None and found.category is CardCategory.WORTHLESS


def untriggered_out(snapshot: Snapshot, battle: Battle, faction: str, skill: str) -> bool:
    """Whether a face-up skill of `faction` that is not modelled yet cannot act in this battle (so it
    need not stop the ruling): those left act only in their own faction's battle."""
    return faction not in (battle.aggressor, battle.defender)


# --- Bureaucrat (face up) ----------------------------------------------------------------------------

BUREAUCRAT_DIVERTED = 2  # of a payment it acts on, this much goes to the bank instead
BUREAUCRAT_TRIGGER_QUESTION = "bureaucrat-trigger-choam-share"


@rule("skills.bureaucrat.face-up-auditor-payment")
def auditor_payment_below_bureaucrat() -> bool:
    # 1 spice a card, at most 2 cards: never the 5 a face-up Bureaucrat acts on
    return AUDITOR_PRICE * AUDITOR_MOST_CARDS < BUREAUCRAT_LEAST


@rule("skills.bureaucrat.face-up-choam-share")
def bureaucrat_counts_whole_payment(choice: str) -> bool:
    return choice == "whole-payment"


@rule("skills.bureaucrat.face-up")
def bureaucrat_diverts(state: NextSnapshot, owner: str, leader_id: str, payer: str, portion: int, phase: str) -> int:
    if phase in state.faction_state(owner).bureaucrat_uses:
        state.event("bureaucrat-spent", "skills.bureaucrat.face-up", faction=owner, leader=leader_id, phase=phase)
        return 0
    state.add_bureaucrat_use(owner, phase)
    diverted = min(BUREAUCRAT_DIVERTED, portion)
    state.event(
        "bureaucrat-diverted",
        "skills.bureaucrat.face-up",
        faction=owner,
        leader=leader_id,
        payer=payer,
        payee=FactionId.CHOAM.value,
        amount=diverted,
    )
    return diverted


def bureaucrat_step(
    snapshot: Snapshot,
    state: NextSnapshot,
    battle: Battle,
    payments: list[SupportPayment],
    portions: list[int],
    context: Context,
) -> list[int]:
    """A face-up Bureaucrat's effect on the battle's payments to CHOAM (its share of the support): what
    CHOAM receives of each payment after it, the part it sends to the bank being paid there instead."""
    combatants = (battle.aggressor, battle.defender)
    choam = FactionId.CHOAM.value
    after = list(portions)
    for owner in snapshot.factions:
        fighting = battle.plans[owner].leader if owner in combatants else None
        leader_id = face_up_skills(snapshot, owner, fighting).get(BUREAUCRAT)
        if leader_id is None or owner == choam:
            continue  # the Bureaucrat acts on payments to a faction other than its own
        if any(battle.plans[side].leader == AUDITOR_LEADER for side in combatants):
            auditor_payment_below_bureaucrat()
        for i, (payment, portion) in enumerate(zip(payments, after, strict=True)):
            if portion == 0 or payment.payer in (owner, choam):
                continue
            if portion < BUREAUCRAT_LEAST and (
                payment.amount < BUREAUCRAT_LEAST
                or not bureaucrat_counts_whole_payment(context.choice(BUREAUCRAT_TRIGGER_QUESTION))
            ):
                continue
            after[i] -= bureaucrat_diverts(state, owner, leader_id, payment.payer, portion, snapshot.phase.value)
            break
    return after


# --- Spice Banker ----------------------------------------------------------------------------------

BANKER_CHOAM_QUESTION = "spice-banker-trigger-choam-share"


@rule("skills.spice-banker.face-up")
def banker_gains_once(state: NextSnapshot, banker: str, leader_id: str, payer: str, amount: int, phase: str) -> bool:
    if phase in state.faction_state(banker).banker_gains:
        state.event("spice-banker-spent", "skills.spice-banker.face-up", faction=banker, leader=leader_id, phase=phase)
        return False
    state.add_banker_gain(banker, phase)
    state.event(
        "spice-banker-gain", "skills.spice-banker.face-up", faction=banker, leader=leader_id, payer=payer, amount=1
    )
    return True


@rule("skills.spice-banker.face-up-choam-share")
def banker_counts_whole_payment(choice: str) -> bool:
    return choice == "whole-payment"


def banker_step(
    snapshot: Snapshot, state: NextSnapshot, battle: Battle, paid: list[tuple[str, int, int]], context: Context
) -> None:
    """A face-up Spice Banker's gain from the battle's payments: (payer, to the bank, whole payment) each."""
    combatants = (battle.aggressor, battle.defender)
    for banker in snapshot.factions:
        fighting = battle.plans[banker].leader if banker in combatants else None
        leader_id = face_up_skills(snapshot, banker, fighting).get(SPICE_BANKER)
        if leader_id is None:
            continue
        for payer, to_bank, whole in paid:
            if payer == banker or whole < BANKER_LEAST:
                continue
            if to_bank < BANKER_LEAST and not banker_counts_whole_payment(context.choice(BANKER_CHOAM_QUESTION)):
                continue
            banker_gains_once(state, banker, leader_id, payer, to_bank, snapshot.phase.value)
            break


def banker_gain_from_payment(snapshot: Snapshot, state: NextSnapshot, payer: str, amount: int) -> None:
    """A face-up Spice Banker's gain from one payment to the bank outside a battle (a leader revival)."""
    if amount < BANKER_LEAST:
        return
    for banker in snapshot.factions:
        leader_id = face_up_skills(snapshot, banker, None).get(SPICE_BANKER)
        if banker != payer and leader_id is not None:
            banker_gains_once(state, banker, leader_id, payer, amount, snapshot.phase.value)


BANKER_COLLECTION_QUESTION = "spice-banker-collection-order"


def banker_collects(snapshot: Snapshot, state: NextSnapshot, context: Context) -> None:
    """Each faction takes what its Spice Banker gained this turn, as the turn ends (under
    mentat-pause-start only what the start of the Mentat Pause has not already collected)."""
    for faction, held in snapshot.factions.items():
        if not held.banker_gains:
            continue
        if snapshot.terror is not None:  # Moritani's Extortion may be paid in the same Mentat Pause
            banker_collection_at_turn_end(context.choice(BANKER_COLLECTION_QUESTION))
        banker_gains_collected(state, faction)


def banker_collects_at_pause_start(snapshot: Snapshot, state: NextSnapshot, interpretations: Mapping[str, str]) -> None:
    """Under mentat-pause-start, each faction takes its Spice Banker's gains as start-mentat-pause opens
    the Pause, before any Extortion payment is asked for."""
    for faction, held in snapshot.factions.items():
        if not held.banker_gains or snapshot.terror is None:
            continue
        if banker_collection_at_turn_end(choice_of(interpretations, BANKER_COLLECTION_QUESTION)):
            return
        banker_collected_before_extortion()
        banker_gains_collected(state, faction)


@rule("skills.spice-banker.collected")
def banker_gains_collected(state: NextSnapshot, faction: str) -> None:
    amount = state.collect_banker_gains(faction)
    state.event("spice-collected", "skills.spice-banker.collected", faction=faction, amount=amount)


@rule("skills.spice-banker.collection-order")
def banker_collection_at_turn_end(choice: str) -> bool:
    return choice == "turn-end"


@rule("skills.spice-banker.collected-before-extortion")
def banker_collected_before_extortion() -> None:
    pass


DECLARED = RuleModule(
    implements={
        SMUGGLER_KILLED_QUESTION: ("survivor-only", "collects-when-revealed"),
        SMUGGLER_PILES_QUESTION: ("largest-first", SMUGGLER_CHOOSES),
        SUK_FORCES_QUESTION: ("elite-first", "owner-chooses"),
        BANKER_CHOAM_QUESTION: ("bank-part", "whole-payment"),
        BANKER_COLLECTION_QUESTION: ("turn-end", "mentat-pause-start"),
        BUREAUCRAT_TRIGGER_QUESTION: ("share-paid", "whole-payment"),
        DIPLOMAT_QUESTION: ("when-it-protects", "always-counts"),
    },
)
