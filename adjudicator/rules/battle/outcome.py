"""Applying a resolved battle to the next snapshot: leaders to the Tanks and the bounty, forces lost,
support spice, discards, the Kwisatz Haderach, survivors, captives, and the cleanup steps that remain
(a Smuggler's piles, the Auditor's inspection, casualties, Moritani's special Karama, the winner's cards,
skills, retention, capture, Face Dancer)."""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Context
from adjudicator.core.catalog import catalog
from adjudicator.core.records import RihaniRecord, SandmasterRecord, SmugglerRecord, SukRescueRecord
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, DukeVidal, Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import DUKE, BattlePower, BattleResult, DecisionType, DukeStatus, FactionId
from adjudicator.rules.auditor import AUDITOR, audit_step
from adjudicator.rules.battle.card_effects import (
    BURNER_BOUNTY_QUESTION,
    BURNER_CAUSE,
    BURNER_KH_QUESTION,
    HARASS_EXPLOSION_QUESTION,
    burner_dialed_sets,
    card_in,
    harass_before_explosion,
    harass_in_effect,
    names_dialed_forces,
    occupy_partner_withdraws,
    pay_reinforcements,
    stone_burner_bounty,
    stone_burner_kills,
    stone_burner_kills_kwisatz_haderach,
    withdraw,
    withdraw_occupying_ecaz,
    withdraws_ally_forces,
)
from adjudicator.rules.battle.choam_share import CHOAM, SupportPayment, choam_portions, choam_share_in_play
from adjudicator.rules.battle.occupy import occupy_side_loses, occupy_winner_losses
from adjudicator.rules.battle.plans import (
    ALLY_TRAITS,
    ECAZ,
    TRAITS_QUESTION,
    dialed_forces,
    dialed_forces_of,
    forces_in,
    occupy_partner,
)
from adjudicator.rules.battle.resolution import Resolution, Side, _leader_strength, _survives
from adjudicator.rules.battle.sectors import battle_sectors, loser_loss_sectors
from adjudicator.rules.cards import REINFORCEMENTS, can_retain_battle_card
from adjudicator.rules.diplomat_retreat import retreat_offer
from adjudicator.rules.ecaz import ambassadors_return_to_ecaz
from adjudicator.rules.ghola import CAPTURE_QUESTION as GHOLA_CAPTURE_QUESTION
from adjudicator.rules.ghola import DEATH_QUESTION as GHOLA_DEATH_QUESTION
from adjudicator.rules.ghola import ghola_dies, gholas_at_hand, gholas_in_capture_draw, is_ghola
from adjudicator.rules.harkonnen import (
    DUKE_CAPTURE_QUESTION,
    captive_duke_returns,
    captive_returns,
    captives_return_when_leaderless,
    capture_follows,
    capture_step,
    duke_held_by_harkonnen,
    duke_in_capture_pool,
    harkonnen_leaderless,
    unused_duke_in_pool,
)
from adjudicator.rules.ixians import LOSSES_QUESTION as CYBORG_LOSSES_QUESTION
from adjudicator.rules.ixians import ONE_EACH, forces_lost_one_each, suboid_swap_offered
from adjudicator.rules.moritani.assassination import assassination_step, forfeit_by_traitor_call
from adjudicator.rules.moritani.retention import continuation_order, opening_step, retention_last, retention_step
from adjudicator.rules.moritani.special import holds_compulsory_discards, special_karama_step
from adjudicator.rules.skill_bonuses import BANKER_CHOAM_QUESTION, banker_spend, banker_spice_shared, green_special
from adjudicator.rules.skill_steps import (
    NO_RESCUE,
    banker_step,
    bureaucrat_step,
    forces_saved,
    sandmaster_after_smuggler,
    smuggler_step,
    suk_graduate_saves,
)
from adjudicator.rules.skills import (
    SANDMASTER,
    battle_effect_applies,
    rihani_step,
    sandmaster_step,
    selected_skill,
    skill_returns_face_up,
    skills_on,
)
from adjudicator.rules.state import NextSnapshot, cleanup_order, in_cleanup_order
from adjudicator.rules.tleilaxu import face_dancer_step, keep_own_leader_bounty, storm_side_reading

TRAITOR_CHEAP_HERO_QUESTION = "traitor-winner-cheap-hero"
SUK_OCCUPY_QUESTION = "suk-graduate-occupy-ally-forces"
TRAITOR_KH_QUESTION = "traitor-winner-kwisatz-haderach"
TRAITOR_LEADER_QUESTION = "traitor-winner-leader"
WINNER_SLOTS = ("cheap_hero", "weapon", "defense")  # a Cheap Hero is left in the plan only to be offered


@rule("battle.traitor.winner-cheap-hero")
def traitor_winner_keeps_cheap_hero(choice: str) -> bool:
    return choice == "may-keep"


@rule("battle.traitor.winner-kwisatz-haderach")
def traitor_win_spends_kwisatz_haderach(choice: str) -> bool:
    return choice == "used"


@rule("battle.traitor.winner-leader-returns")
def traitor_winner_leader_used(choice: str) -> bool:
    return choice == "counts-as-used"


def traitor_card_called(state: NextSnapshot, caller: str, leader: str | None) -> None:
    """A Traitor card called is recorded as used (`called_traitors`): it can no longer be exchanged."""
    if leader is not None and leader in state.traitors(caller) and leader not in state.called_traitors(caller):
        state.mark_traitor_called(caller, leader)


@rule("battle.bounty")
def bounty(killed: list[tuple[str, int, str]]) -> int:
    return sum(strength for _, strength, cause in killed if cause != "battle.weapon.artillery-strike")


@rule("battle.losses.loser-all")
def loser_loses_everything(state: NextSnapshot, loser: str, territory: str, sectors: frozenset[int] | None) -> None:
    state.forces_to_tanks(loser, territory, "battle.losses.loser-all", sectors=sectors)


@rule("battle.cards.loser-discards")
def loser_discards(state: NextSnapshot, loser: str) -> None:
    for slot in ("cheap_hero", "weapon", "defense"):
        state.discard_from_plan(loser, slot, "battle.cards.loser-discards")


@rule("battle.spice.support")
def support_payments(plan: Plan, faction: str, kept_by_traitor_winner: bool, ally: str | None) -> list[SupportPayment]:
    if not plan.spice or kept_by_traitor_winner:
        return []
    payments = []
    if plan.own_spice:
        payments.append(SupportPayment(faction, faction, plan.own_spice, "support", "battle.spice.support"))
    if plan.ally_spice and ally is not None:  # its ally's share (ally-support-payment: ally-may-pay; CHOAM)
        rule_id = "battle.alliance.ally-support-spice"
        payments.append(SupportPayment(faction, ally, plan.ally_spice, "ally-support", rule_id))
    return payments


def banker_shared_with_choam(snapshot: Snapshot, battle: Battle, context: Context) -> bool:
    """Whether Spice Banker spice is halved with CHOAM like support (question spice-banker-choam-share),
    asked only where CHOAM's share is a power of the battle."""
    if not choam_share_in_play(snapshot, battle):
        return False
    return banker_spice_shared(context.choice(BANKER_CHOAM_QUESTION))


def pay_support(state: NextSnapshot, payments: list[tuple[SupportPayment, int]]) -> None:
    """Each payment to the bank, less the part of it CHOAM receives (`choam_portions`)."""
    for payment, portion in payments:
        if portion and payment.payer != CHOAM:
            state.transfer_spice(payment.payer, CHOAM, portion, "choam.forces.support-share", "choam-share")
        state.pay_to_bank(payment.payer, payment.amount - portion, payment.rule_id, payment.reason)


@rule("battle.leaders.survivors-stay")
def survivors_fought(state: NextSnapshot, leader_ids: list[str], territory: str) -> None:
    for leader_id in leader_ids:
        state.leader_fought(leader_id, territory)


def casualty_options(
    snapshot: Snapshot, battle: Battle, winner: str, traits: str, reading: str | None
) -> list[dict[str, int]]:
    """Ways the winner can lose the forces it dialed: minimal (regular, elite) sets whose strength covers
    the dial (Basic: every force counts 1; advanced: as it counted on the dial, the dialed forces
    counted as occupy-dialed-force-traits reads). Ixian forces with Cyborgs among them follow the
    `reading` of question cyborg-losses (None: as dialed)."""
    dialed = dialed_forces(snapshot, battle, winner, traits)
    forces = forces_in(snapshot, dialed.owner, battle.territory)
    dial_halves = battle.plans[winner].dial_halves
    if cyborg_losses_one_each(dialed.traits_of, forces.elite, dial_halves, reading):
        return forces_lost_one_each(forces.regular, forces.elite, dial_halves)
    mixed = forces.elite and forces.regular and battle.plans[winner].dial_halves
    if mixed and dialed.traits_of == FactionId.IXIANS.value:
        cyborgs_lost_as_dialed()
    return burner_dialed_sets(snapshot, battle, winner, traits)


def withdrawal_options(
    snapshot: Snapshot, battle: Battle, faction: str, winner: str | None, traits: str, reading: str | None
) -> list[dict[str, int]]:
    """The ways a side playing Harass and Withdraw may have made up its dial, the forces that stay (counted
    as occupy-dialed-force-traits reads, `traits`, when Ecaz dialed its ally's): for the `winner` of a
    decided battle, the forces it may lose as dialed (`casualty_options`, cyborg-losses' `reading`
    included); for any other side, the ways its dial is made up."""
    owner = dialed_forces_of(snapshot, battle, faction)
    if owner != faction:  # Ecaz dialed its ally's forces under Occupy: the ally's undialed ones withdraw
        withdraws_ally_forces(owner)
    if faction != winner:
        return burner_dialed_sets(snapshot, battle, faction, traits)
    dialed = dialed_forces(snapshot, battle, faction, traits)
    cyborgs = forces_in(snapshot, dialed.owner, battle.territory).elite
    if cyborg_losses_one_each(dialed.traits_of, cyborgs, battle.plans[faction].dial_halves, reading):
        withdraws_beside_one_each_losses(faction)
    return casualty_options(snapshot, battle, faction, traits, reading)


@rule("battle.card.harass-and-withdraw-one-each")
def withdraws_beside_one_each_losses(faction: str) -> str:
    return faction


def readings_kept(
    snapshot: Snapshot, battle: Battle, faction: str, traits: str, reading: str, loses_dialed: bool
) -> tuple[str | None, bool]:
    """What a later decision on a side's dialed forces must keep of the readings it opened under: the
    `traits` reading when Ecaz dialed its ally's forces as its own ordinary forces, and whether the
    forces it loses as dialed (`loses_dialed`: the winner's) follow cyborg-losses' one-each reading."""
    dialed = dialed_forces(snapshot, battle, faction, traits)
    kept_traits = traits if dialed.traits_of != dialed.owner else None
    cyborgs = forces_in(snapshot, dialed.owner, battle.territory).elite
    dial_halves = battle.plans[faction].dial_halves
    return kept_traits, loses_dialed and cyborg_losses_one_each(dialed.traits_of, cyborgs, dial_halves, reading)


def casualty_traits(battle: Battle) -> str:
    """The reading of occupy-dialed-force-traits the winner's casualties, or a Harass and Withdraw
    side's dialed forces, were counted under, as the resolution keeps it (`dialed_traits`; the default
    when it keeps none)."""
    kept = None if battle.resolution is None else battle.resolution.dialed_traits
    return kept or ALLY_TRAITS


@rule("battle.losses.cyborgs-as-dialed")
def cyborgs_lost_as_dialed() -> None:
    pass


def cyborg_losses_one_each(owner: str, cyborgs: int, dial_halves: int, reading: str | None) -> bool:
    """Whether question cyborg-losses is reached (Ixian forces with Cyborgs cover a dial) and read one-each."""
    return owner == FactionId.IXIANS.value and cyborgs > 0 and dial_halves > 0 and reading == ONE_EACH


def lose_dialed(
    snapshot: Snapshot,
    state: NextSnapshot,
    winner: str,
    territory: str,
    regular: int,
    elite: int,
    sectors: frozenset[int] | None,
    context: Context,
) -> tuple[int, SukRescueRecord | None]:
    """The winner's dialed losses, less those a Suk Graduate saves; the elite forces sent to the Tanks,
    or, when the winner names the forces its Suk Graduate saves, none yet and the record of the losses
    its suk-graduate-forces decision waits on. When Ecaz dialed its ally's forces under Occupy, those
    are the forces lost, and whether Ecaz's Suk Graduate saves any of them follows question
    suk-graduate-occupy-ally-forces."""
    owner = dialed_forces_of(snapshot, snapshot.battle, winner) if snapshot.battle is not None else winner
    rescue, waiting = suk_graduate_saves(snapshot, state, winner, owner, regular, elite, context)
    if owner != winner and (rescue[2] or waiting) and not suk_saves_ally_forces(context.choice(SUK_OCCUPY_QUESTION)):
        rescue, waiting = NO_RESCUE, None
    if waiting is not None:
        return 0, waiting
    (stay_regular, stay_elite), (back_regular, back_elite), _ = rescue
    tanked_regular, tanked_elite = regular - stay_regular - back_regular, elite - stay_elite - back_elite
    elite_lost = winner_loses_dialed(state, owner, territory, tanked_regular, tanked_elite, sectors)
    forces_saved(state, owner, territory, rescue, sectors)
    return elite_lost, None


@rule("skills.suk-graduate.occupy")
def suk_saves_ally_forces(choice: str) -> bool:
    return choice == "side-dialed-losses"


@rule("battle.losses.winner-dialed")
def winner_loses_dialed(
    state: NextSnapshot, winner: str, territory: str, regular: int, elite: int, sectors: frozenset[int] | None
) -> int:
    # the elite forces lost are returned: an Ixian winner's Cyborgs may come back for Suboids
    _, elite_lost = state.forces_to_tanks(
        winner, territory, "battle.losses.winner-dialed", regular=regular, elite=elite, sectors=sectors
    )
    return elite_lost


def _summary(
    snapshot: Snapshot,
    battle: Battle,
    res: Resolution,
    killed: list[dict[str, Any]],
    paid: dict[str, int],
    lost: dict[str, dict[str, int]],
) -> dict[str, Any]:
    covered = battle_sectors(snapshot)
    return {
        "result": res.result.value,
        "winner": res.winner,
        "loser": res.loser,
        "territory": battle.territory,
        **({} if covered is None else {"sectors": sorted(covered)}),
        "totals": {f: halves_to_number(t) for f, t in res.totals.items()},
        "quote": res.quote,
        "leaders_killed": killed,
        "spice_awarded": paid,
        "forces_lost": lost,
    }


def apply_resolution(
    snapshot: Snapshot, battle: Battle, res: Resolution, context: Context
) -> tuple[dict[str, Any], NextSnapshot]:
    state = NextSnapshot(snapshot)
    territory = battle.territory
    covered = battle_sectors(snapshot)
    if covered is not None and battle.sectors is None:
        state.cover_sectors(covered)
    sides = res.sides
    killed: list[tuple[str, int, str]] = []  # leader, strength, cause

    def kill(side: Side, cause: str) -> None:
        if side.plan.leader is not None:
            stays = is_ghola(snapshot, side.plan.leader) and ghola_dies(context.choice(GHOLA_DEATH_QUESTION))
            state.leader_to_tanks(side.plan.leader, cause, stays)
            killed.append((side.plan.leader, _leader_strength(snapshot, side), cause))

    paid: dict[str, int] = {}
    # Ecaz's forces withdraw with its Occupy side's Harass and Withdraw (harass-and-withdraw-occupy):
    # then none of them is lost to Occupy's share of a win or a loss
    ecaz_withdraws = occupy_partner_withdraws(snapshot, battle, res.explosion, context)
    for caller in battle.traitor_calls:
        betrayed = battle.plans[battle.defender if caller == battle.aggressor else battle.aggressor].leader
        forfeit_by_traitor_call(snapshot, state, caller, betrayed)
        traitor_card_called(state, caller, betrayed)
    traitor_winner_fought = False  # the caller's leader counts as used (question traitor-winner-leader)
    if res.result is BattleResult.SINGLE_TRAITOR:
        assert res.winner is not None and res.loser is not None
        kill(sides[res.loser], "battle.traitor.single")
        if sides[res.winner].plan.leader is not None:
            traitor_winner_fought = traitor_winner_leader_used(context.choice(TRAITOR_LEADER_QUESTION))
        strength = _leader_strength(snapshot, sides[res.loser])
        state.pay_from_bank(res.winner, strength, "battle.traitor.single", "traitor")
        paid[res.winner] = strength
        if not ecaz_withdraws:
            occupy_winner_losses(state, snapshot, battle, res.winner, context, by_traitor=True)
    elif res.result in (BattleResult.DOUBLE_TRAITOR, BattleResult.EXPLOSION):
        cause = (
            "battle.traitor.double" if res.result is BattleResult.DOUBLE_TRAITOR else "battle.explosion.lasgun-shield"
        )
        for side in sides.values():
            kill(side, cause)
    else:
        for side in sides.values():
            if side.killed_by is not None:
                kill(side, side.killed_by)
    smuggler: SmugglerRecord | None = None  # a Smuggler's collection waiting for its side to name the piles
    if skills_on(snapshot):  # when the plans are revealed, before the explosion destroys the spice
        for faction in (battle.aggressor, battle.defender):
            plan = battle.plans[faction]
            smuggler = smuggler_step(snapshot, state, faction, plan, territory, res.explosion, context) or smuggler
    own_leader_paid = 0  # what the winner was paid for its own leader, which a Face Dancer may have been
    if res.result is BattleResult.DECIDED:
        assert res.winner is not None
        paid_for = killed
        burned = any(cause == BURNER_CAUSE for _, _, cause in killed)
        if burned and not stone_burner_bounty(context.choice(BURNER_BOUNTY_QUESTION)):
            paid_for = [k for k in killed if k[2] != BURNER_CAUSE]
        amount = bounty(paid_for)
        state.pay_from_bank(res.winner, amount, "battle.bounty", "leaders killed")
        if amount:
            paid[res.winner] = amount
            own_leader = sides[res.winner].plan.leader
            own_leader_paid = bounty([k for k in paid_for if k[0] == own_leader]) if own_leader else 0

    # forces (Harass and Withdraw first takes its side's undialed forces back to its reserves; when its
    # dial could be made up in more than one way, the side chooses, and its losses wait for the choice)
    withdrawing: str | None = None
    withdrawn: set[str] = set()
    traits = context.choice(TRAITS_QUESTION)
    reading = context.choice(CYBORG_LOSSES_QUESTION)
    decided_winner = res.winner if res.result is BattleResult.DECIDED else None
    for faction in (battle.aggressor, battle.defender):
        if not harass_in_effect(battle, faction):
            continue
        if not res.explosion or harass_before_explosion(context.choice(HARASS_EXPLOSION_QUESTION)):
            ways = withdrawal_options(snapshot, battle, faction, decided_winner, traits, reading)
            if len(ways) > 1:
                withdrawing = names_dialed_forces(faction)
            else:
                withdraw(state, snapshot, battle, faction, covered, ways[0])
                withdrawn.add(faction)
    # every force of the side that names its dialed forces waits on that choice (choose-withdrawal),
    # Ecaz's beside its ally's too: whether Ecaz fights its ally's forces is read from the board
    waiting: set[str] = set()
    if withdrawing is not None:
        waiting.add(dialed_forces_of(snapshot, battle, withdrawing))
        if occupy_partner(snapshot, battle, withdrawing) is not None:
            waiting.add(ECAZ)
    if ecaz_withdraws and ECAZ not in waiting:
        withdraw_occupying_ecaz(state, territory, covered)
    if res.explosion:
        for faction in sorted({s.faction for s in snapshot.forces if s.territory == territory} - waiting):
            explosion_destroys(state, snapshot, battle, faction, context)
        state.advisors_to_tanks(territory, "battle.explosion.lasgun-shield")
        state.spice_destroyed(territory, "battle.explosion.lasgun-shield")
        if state.ambassadors_in(territory):
            ambassadors_return_to_ecaz(state, territory)
    if res.result is BattleResult.DOUBLE_TRAITOR and not res.explosion:
        for faction in (battle.aggressor, battle.defender):
            lost_in = loser_loss_sectors(snapshot, faction, context)
            state.forces_to_tanks(faction, territory, "battle.traitor.double", sectors=lost_in)
            partner = occupy_partner(snapshot, battle, faction)
            if partner is not None:
                occupy_side_loses(state, partner, territory, loser_loss_sectors(snapshot, partner, context))
    retreat_left = 0  # a losing Diplomat's forces wait on its retreat
    if res.loser is not None and res.loser != withdrawing:
        retreat_left = retreat_offer(snapshot, state, battle, res.loser, context)
        if not retreat_left:
            loser_loses_everything(state, res.loser, territory, loser_loss_sectors(snapshot, res.loser, context))
        partner = occupy_partner(snapshot, battle, res.loser)
        if partner is not None:
            occupy_side_loses(state, partner, territory, loser_loss_sectors(snapshot, partner, context))

    reinforcing: str | None = None  # the side that names the reserve forces Reinforcements sends
    for faction in (battle.aggressor, battle.defender):
        card = card_in(battle.plans[faction], REINFORCEMENTS)
        if card is not None and card in res.used_cards:
            if faction == withdrawing:  # paid once the side names its withdrawal (choose-withdrawal)
                reinforcing = faction
                continue
            after = faction in withdrawn
            reinforcing = pay_reinforcements(state, snapshot, faction, context, after) or reinforcing

    # support spice, and the cards of the sides without a win (Moritani's ally keeps its own reserved)
    retention = retention_step(
        snapshot,
        state,
        res.winner,
        res.loser,
        set(res.used_cards),
        res.result is BattleResult.SINGLE_TRAITOR,
        dict(context.interpretations),
    )
    # under continuations-first the retention is scheduled after the Face Dancer reveal, below
    last = retention is not None and retention_last(context.interpretations)
    payments: list[SupportPayment] = []
    if snapshot.ruleset.advanced:
        for faction in (battle.aggressor, battle.defender):
            kept = res.result is BattleResult.SINGLE_TRAITOR and faction == res.winner
            payments += support_payments(battle.plans[faction], faction, kept, snapshot.factions[faction].ally)
    banker = {
        f: banker_spend(battle.plans[f], res.result is BattleResult.SINGLE_TRAITOR and f == res.winner)
        for f in (battle.aggressor, battle.defender)
        if battle.plans[f].banker_spice
    }
    banker_shared = bool(banker) and banker_shared_with_choam(snapshot, battle, context)
    if banker_shared:
        payments += [
            SupportPayment(f, f, n, "spice-banker", "skills.spice-banker.paid") for f, n in banker.items() if n
        ]
    portions = choam_portions(snapshot, battle, res.result, payments, context)
    if skills_on(snapshot):
        portions = bureaucrat_step(snapshot, state, battle, payments, portions, context)
    if skills_on(snapshot) and payments:
        to_bank = [(p.payer, p.amount - n, p.amount) for p, n in zip(payments, portions, strict=True)]
        banker_step(snapshot, state, battle, to_bank, context)
    for faction in (battle.aggressor, battle.defender):
        pay_support(state, [(p, n) for p, n in zip(payments, portions, strict=True) if p.side == faction])
        if not banker_shared and banker.get(faction):
            state.pay_to_bank(faction, banker[faction], "skills.spice-banker.paid", "spice-banker")
        if faction != res.winner and not (retention is not None and faction == res.loser):
            loser_discards(state, faction)

    # the Kwisatz Haderach
    atreides_plan = battle.plans.get(FactionId.ATREIDES.value)
    if atreides_plan is not None and atreides_plan.kwisatz_haderach:
        if res.result is not BattleResult.SINGLE_TRAITOR or traitor_win_spends_kwisatz_haderach(
            context.choice(TRAITOR_KH_QUESTION)
        ):
            state.kwisatz_haderach_fought(territory)
        if res.explosion:
            state.kwisatz_haderach_to_tanks()
            state.event("kwisatz-haderach-killed", "battle.explosion.lasgun-shield")
        elif res.result is BattleResult.DECIDED and stone_burner_kills(battle, context):
            stone_burner_kills_kwisatz_haderach(state, context.choice(BURNER_KH_QUESTION))

    needed: set[str] = set()  # the cleanup steps with a choice; they open in the declared order
    cyborgs_lost = 0  # kept for the Ixian winner's Suboid swap
    kept_traits: str | None = None  # a non-default reading the casualty or withdrawal decision rests on
    suk_rescue: SukRescueRecord | None = None  # the losses the winner's Suk Graduate choice waits on
    one_each = False  # the Ixian winner's casualties or withdrawal follow cyborg-losses' one-each reading
    sandmaster: SandmasterRecord | None = None
    rihani: RihaniRecord | None = None
    if smuggler is not None:
        needed.add(DecisionType.SMUGGLER_COLLECTION.value)
    held: tuple[str, ...] = ()  # the winner's compulsory discards waiting for Moritani's special Karama
    if audit_step(state, battle, any(leader == AUDITOR for leader, _, _ in killed), context):
        needed.add(DecisionType.AUDIT_PAYMENT.value)
    if withdrawing is not None:
        needed.add(DecisionType.HARASS_WITHDRAWAL.value)
        kept_traits, one_each = readings_kept(
            snapshot, battle, withdrawing, traits, reading, withdrawing == decided_winner
        )
    if reinforcing is not None and reinforcing != withdrawing:
        needed.add(DecisionType.REINFORCEMENTS_FORCES.value)
    if retreat_left:
        needed.add(DecisionType.DIPLOMAT_RETREAT.value)
    if res.winner is not None:
        winner_plan = battle.plans[res.winner]
        decided_by_traitor = res.result is BattleResult.SINGLE_TRAITOR
        compulsory: list[tuple[str, str]] = []  # the winner's cards discarded by rule: slot, rule
        for slot in WINNER_SLOTS:
            card = getattr(winner_plan, slot)
            if card is None:
                continue
            if (
                slot == "cheap_hero"
                and decided_by_traitor
                and traitor_winner_keeps_cheap_hero(context.choice(TRAITOR_CHEAP_HERO_QUESTION))
            ):
                continue  # offered with the winner's other cards
            if card in res.diplomat.values():  # counted as the opponent's defense, then discarded
                compulsory.append((slot, "skills.diplomat.face-up"))
                continue
            used = card in res.used_cards
            if not can_retain_battle_card(card, used=used, decided_by_traitor=decided_by_traitor):
                green = slot == "weapon" and green_special(card)  # a Planetologist's card
                compulsory.append((slot, "skills.planetologist.discard" if green else "battle.cards.winner-may-keep"))
        # Moritani's special Karama may reach them (question moritani-special-karama-precedence)
        hold = bool(compulsory) and holds_compulsory_discards(
            snapshot, state, res.winner, res.loser, context.interpretations
        )
        if hold:
            held = tuple(str(getattr(winner_plan, slot)) for slot, _ in compulsory)
        else:
            for slot, rule_id in compulsory:
                state.discard_from_plan(res.winner, slot, rule_id)
        if res.result is BattleResult.DECIDED and res.winner != withdrawing:
            options = casualty_options(snapshot, battle, res.winner, traits, reading)
            if len(options) == 1:
                loss = options[0]
                owner = dialed_forces_of(snapshot, battle, res.winner)
                elite_lost, suk_rescue = lose_dialed(
                    snapshot, state, res.winner, territory, loss["regular"], loss["elite"], covered, context
                )
                if suk_rescue is not None:
                    needed.add(DecisionType.SUK_GRADUATE_FORCES.value)
                elif suboid_swap_offered(state, owner, territory, elite_lost):
                    cyborgs_lost = elite_lost
                    needed.add(DecisionType.SUBOID_SWAP.value)
            else:
                needed.add(DecisionType.BATTLE_CASUALTIES.value)
                winner_traits, winner_one_each = readings_kept(snapshot, battle, res.winner, traits, reading, True)
                kept_traits, one_each = kept_traits or winner_traits, one_each or winner_one_each
            if not ecaz_withdraws:
                occupy_winner_losses(state, snapshot, battle, res.winner, context)
        if special_karama_step(snapshot, state, res.winner, res.loser, context.interpretations, held):
            needed.add(DecisionType.MORITANI_SPECIAL_KARAMA.value)
        remaining = [c for c in state.cards_in_plan(res.winner, WINNER_SLOTS) if c not in held]
        if remaining:
            needed.add(DecisionType.WINNER_CARDS.value)
        # the winner's skills, before Moritani's retention, the capture and a Face Dancer
        if skills_on(snapshot):
            winner_side = sides[res.winner]
            if selected_skill(snapshot, winner_plan) == SANDMASTER and battle_effect_applies(_survives(winner_side)):
                if smuggler is not None:  # it adds to the piles the Smuggler's side leaves (choose-smuggler-piles)
                    sandmaster_after_smuggler()
                else:
                    sandmaster = sandmaster_step(snapshot, state, res.winner, territory, context)
                if sandmaster is not None:
                    needed.add(DecisionType.SANDMASTER_PILE.value)
            rihani = rihani_step(snapshot, state, res.winner, winner_plan, _survives(winner_side), context)
            if rihani is not None:
                needed.add(DecisionType.RIHANI_DRAW_OFFER.value)

    survivors = [
        s.plan.leader
        for s in sides.values()
        if s.plan.leader is not None
        and (
            (s.killed_by is None and res.result is BattleResult.DECIDED)
            or (traitor_winner_fought and s.faction == res.winner)
        )
    ]
    # Duke Vidal, used by the loser against the advanced Harkonnen: his tenure ends before the capture
    # draw or after it (question duke-harkonnen-capture); in the draw, he stays held until it settles.
    capture = not capture_cancelled(state, battle, res)
    duke_drawable = (
        capture
        and duke_capture_open(snapshot, battle, res)
        and duke_in_capture_pool(context.choice(DUKE_CAPTURE_QUESTION))
    )
    captive_duke_fought = DUKE in survivors and duke_held_by_harkonnen(state.duke)
    # the Duke's custody is still the request's here: a surviving Duke has not been moved yet
    duke = snapshot.duke_vidal
    loan_kept = (
        DUKE in survivors
        and duke is not None
        and _duke_on_loan(duke)
        and loaned_duke_stays(state, duke, territory, context)
    )
    if survivors:
        survivors_fought(
            state,
            [s for s in survivors if s != DUKE or not (duke_drawable or captive_duke_fought or loan_kept)],
            territory,
        )
        for side in sides.values():
            leader = side.plan.leader
            if leader in survivors and leader != DUKE and catalog().leaders[leader].faction != side.faction:
                captive_returns(state, leader)
        if captive_duke_fought:
            captive_duke_returns(state, context.interpretations)
    if killed and harkonnen_leaderless(state):
        captives_return_when_leaderless(state, context.interpretations)
    if retention is not None and not last:
        needed.add(opening_step(retention))
    if res.winner is not None and assassination_step(
        snapshot,
        state,
        res.result,
        res.winner,
        res.loser,
        sides[res.winner].plan.leader,
        _survives(sides[res.winner]),
        context,
    ):
        needed.add(DecisionType.MORITANI_ASSASSINATION.value)
    unused_drawable = (
        capture
        and unused_duke_capture_open(snapshot, battle, res)
        and unused_duke_in_pool(context.choice(UNUSED_CAPTURE_QUESTION))
    )
    drawable = duke_drawable or unused_drawable
    gholas = _drawable_gholas(snapshot, state, res, territory, context) if capture else ()
    captive = capture_step(snapshot, state, res.winner, res.loser, drawable, gholas) if capture else None
    if duke_drawable and captive != DUKE:
        state.leader_fought(DUKE, territory)
    if captive is not None:
        if retention is not None:
            continuation_order(last)
        needed.add(DecisionType.HARKONNEN_CAPTURE.value)

    if skills_on(snapshot):
        # a skilled leader that fought and lives: its card comes back face up beside it
        for side in sides.values():
            leader = side.plan.leader
            if leader is not None and leader != DUKE and state.skill_card_face_down(leader):
                skill_returns_face_up(state, leader)

    lost: dict[str, dict[str, int]] = {}
    for e in state.events:
        if e["type"] == "forces-lost":
            entry = lost.setdefault(e["faction"], {"regular": 0, "elite": 0})
            entry["regular"] += e["regular"]
            entry["elite"] += e["elite"]
    leaders_killed = [{"leader": leader, "cause": cause} for leader, _, cause in killed]
    summary = _summary(snapshot, battle, res, leaders_killed, paid, lost)
    state.battle_resolved(
        res.result,
        res.winner,
        res.loser,
        in_cleanup_order(needed),
        res.used_cards,
        captive,
        retention,
        sandmaster=sandmaster,
        rihani=rihani,
        duke_in_capture_pool=duke_drawable or unused_drawable,
        gholas_in_capture_pool=bool(gholas),
        cyborgs_lost=cyborgs_lost,
        withdrawing=withdrawing,
        reinforcing=reinforcing,
        retreat_left=retreat_left,
        occupy_partner=occupied_side_partner(snapshot, battle),
        suk_rescue=suk_rescue,
        smuggler=smuggler,
    )
    if kept_traits is not None:  # the casualty or withdrawal options follow it, whatever a later request reads
        state.update_resolution(dialed_traits=kept_traits)
    if one_each:  # the casualty or withdrawal decision's options follow the reading it opened under
        state.update_resolution(cyborg_losses=ONE_EACH)
    if held:
        state.update_resolution(held_discards=held)
    # the Face Dancer question reads the resolution just recorded (whether other steps precede it)
    face_dancer = face_dancer_step(state)
    if face_dancer:
        state.schedule_step(DecisionType.FACE_DANCER_REVEAL.value)
        storm_side_reading(state, covered, context)
        keep_own_leader_bounty(state, own_leader_paid)
        if retention is not None and captive is None:
            continuation_order(last)
    if retention is not None and last:
        state.schedule_step(opening_step(retention), cleanup_order(retention_last=True))
    return summary, state


def occupied_side_partner(snapshot: Snapshot, battle: Battle) -> str | None:
    """The faction Occupy joined to a side of this battle, as the board showed it when the battle was
    resolved: every cleanup step reads it from the resolution, Occupy's losses having been applied."""
    for side in (battle.aggressor, battle.defender):
        partner = occupy_partner(snapshot, battle, side)
        if partner is not None:
            return partner
    return None


KH_BYSTANDER_QUESTION = "kwisatz-haderach-bystander-losses"


def explosion_destroys(state: NextSnapshot, snapshot: Snapshot, battle: Battle, faction: str, context: Context) -> None:
    """A faction's forces in the territory go to the Tanks in a Lasgun/Shield explosion (an advanced
    Atreides bystander's count toward the Kwisatz Haderach as question kwisatz-haderach-bystander-losses
    reads)."""
    counted = faction in (battle.aggressor, battle.defender) or not bystander_question_open(snapshot, faction)
    if not counted:
        counted = bystander_losses_count(context.choice(KH_BYSTANDER_QUESTION))
    state.forces_to_tanks(
        faction, battle.territory, "battle.explosion.lasgun-shield", count_for_kwisatz_haderach=counted
    )


def bystander_question_open(snapshot: Snapshot, faction: str) -> bool:
    """The advanced Atreides, not fighting this battle, lose forces in its explosion while their
    Kwisatz Haderach is still inactive: whether those count is the question."""
    token = snapshot.factions[faction].kwisatz_haderach
    return (
        faction == FactionId.ATREIDES and snapshot.ruleset.advanced and token is not None and token.status == "inactive"
    )


@rule("atreides.kwisatz-haderach.bystander-losses")
def bystander_losses_count(choice: str) -> bool:
    return choice == "counted"


def _drawable_gholas(
    snapshot: Snapshot, state: NextSnapshot, res: Resolution, territory: str, context: Context
) -> tuple[str, ...]:
    """The gholas in the Harkonnen's capture draw after beating the Tleilaxu (question
    ghola-harkonnen-capture, asked only when one could be drawn)."""
    if not capture_follows(snapshot, res.winner, res.loser) or res.loser != FactionId.TLEILAXU.value:
        return ()
    gholas = gholas_at_hand(((f, state.leader_states(f)) for f in state.faction_ids), territory)
    if gholas and gholas_in_capture_draw(context.choice(GHOLA_CAPTURE_QUESTION)):
        return gholas
    return ()


def capture_cancelled(state: NextSnapshot, battle: Battle, res: Resolution) -> bool:
    """Whether the winning advanced Harkonnen's capture is cancelled by a Karama in this battle."""
    harkonnen = FactionId.HARKONNEN.value
    if not battle.karama or not battle.cancelled(BattlePower.HARKONNEN_CAPTURE.value, harkonnen):
        return False
    if res.winner != harkonnen or res.loser is None or not state.advanced:
        return False
    return capture_karama(state, harkonnen)


@rule("battle.karama.harkonnen-capture")
def capture_karama(state: NextSnapshot, harkonnen: str) -> bool:
    state.event("power-cancelled", "battle.karama.harkonnen-capture", faction=harkonnen, power="harkonnen-capture")
    return True


LOAN_TENURE_QUESTION = "duke-loan-tenure"


def _duke_on_loan(duke: DukeVidal) -> bool:
    return duke.status is DukeStatus.HELD and duke.loaned_by is not None


@rule("duke-vidal.loan.tenure")
def loaned_duke_stays(state: NextSnapshot, duke: DukeVidal, territory: str, context: Context) -> bool:
    choice = context.choice(LOAN_TENURE_QUESTION)
    if choice == "one-battle":
        return False
    state.duke_stays_in(territory)
    state.event("duke-vidal-stays", "duke-vidal.loan.tenure", faction=duke.controller, territory=territory)
    return True


UNUSED_CAPTURE_QUESTION = "duke-unused-capture-pool"


def unused_duke_capture_open(snapshot: Snapshot, battle: Battle, res: Resolution) -> bool:
    """The advanced Harkonnen won against a faction holding Duke Vidal that did not play him."""
    duke = snapshot.duke_vidal
    if duke is None or duke.status is not DukeStatus.HELD or not capture_follows(snapshot, res.winner, res.loser):
        return False
    return duke.controller is not None and duke.controller == res.loser and battle.plans[duke.controller].leader != DUKE


def duke_capture_open(snapshot: Snapshot, battle: Battle, res: Resolution) -> bool:
    """Duke Vidal fought for the loser, survived, and the advanced Harkonnen won: question
    duke-harkonnen-capture decides whether he can be drawn."""
    if not capture_follows(snapshot, res.winner, res.loser) or res.result is not BattleResult.DECIDED:
        return False
    assert res.loser is not None
    side = res.sides[res.loser]
    return side.plan.leader == DUKE and side.killed_by is None


DECLARED = RuleModule(
    implements={
        SUK_OCCUPY_QUESTION: ("own-forces-only", "side-dialed-losses"),
        TRAITOR_CHEAP_HERO_QUESTION: ("discarded", "may-keep"),
        TRAITOR_KH_QUESTION: ("used", "not-used"),
        TRAITOR_LEADER_QUESTION: ("returns-unused", "counts-as-used"),
        LOAN_TENURE_QUESTION: ("one-battle", "whole-turn"),
        UNUSED_CAPTURE_QUESTION: ("not-in-pool", "in-pool"),
        KH_BYSTANDER_QUESTION: ("counted", "not-counted"),
    },
)
