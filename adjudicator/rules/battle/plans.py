"""Battle plan legality: what each side may commit, checked before anything resolves.

Each check is a rule function; a broken rule becomes one violation with a code, the JSON pointer
of the offending plan field and the rule's id.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.catalog import card_kind, catalog
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import DUKE, BattlePower, DukeStatus, FactionId, LeaderStatus
from adjudicator.rules.battle.commands import (
    ELEMENT_FIELDS,
    NOT_PLAY,
    PLAY,
    PRESCIENCE,
    answer_in_force,
    command_slot,
    hero_forbidden,
    leader_instead,
    obeys,
    same_answer,
    voice_in_force,
)
from adjudicator.rules.battle.ecaz_karama import plan_karama_problems
from adjudicator.rules.battle.plan_cards import (
    in_place_card_violations,
    stone_burner_choice_violations,
    stone_burner_player,
)
from adjudicator.rules.battle.sectors import battle_sectors
from adjudicator.rules.cards import is_leader_substitute
from adjudicator.rules.ghola import ghola_fights
from adjudicator.rules.richese import battle_forces as no_field_forces
from adjudicator.rules.richese import fights_on_no_field
from adjudicator.rules.secrecy import hand_checked_at_lock, hand_read_by
from adjudicator.rules.skill_bonuses import (
    PLANETOLOGIST,
    banker_spice_violations,
    green_card_as_weapon,
    green_special,
)
from adjudicator.rules.skills import (
    face_up_leader_violations,
    leader_state,
    leaders_owed,
    only_face_up_leaders,
    selected_skill,
    skill_card_face_up,
    skills_on,
)


@dataclass(frozen=True, slots=True)
class Forces:
    """A faction's forces in the battle (the sectors it covers together)."""

    regular: int
    elite: int

    @property
    def total(self) -> int:
        return self.regular + self.elite


def forces_in(snapshot: Snapshot, faction: str, territory: str) -> Forces:
    """A faction's forces in the territory; in the battle's territory, only those in the sectors the
    battle covers (forces on the other side of the storm do not battle)."""
    key = ("forces-in", faction, territory)
    found: Forces | None = snapshot.memo.get(key)
    if found is None:
        regular = elite = 0
        battle = snapshot.battle
        covered = battle_sectors(snapshot) if battle is not None and battle.territory == territory else None
        for stack in snapshot.forces:
            if (
                stack.faction == faction
                and stack.territory == territory
                and (covered is None or stack.sector in covered)
            ):
                regular += stack.regular
                elite += stack.elite
        if snapshot.no_field is not None:  # Richese's face-down token: the forces it stands for
            regular += no_field_forces(snapshot, faction, territory, covered)
        found = snapshot.memo[key] = Forces(regular, elite)
    return found


ECAZ = FactionId.ECAZ.value


def ecaz_presence(snapshot: Snapshot, battle: Battle) -> tuple[str, str] | None:
    """(Ecaz, its ally) when both have forces in the battle's sectors and one of them fights."""
    ecaz = snapshot.factions.get(ECAZ)
    if ecaz is None or ecaz.ally is None or ecaz.ally not in snapshot.factions:
        return None
    pair = (ECAZ, ecaz.ally)
    if not {battle.aggressor, battle.defender} & set(pair):
        return None
    if all(forces_in(snapshot, f, battle.territory).total for f in pair):
        return pair
    return None


def occupy_partner(snapshot: Snapshot, battle: Battle, side: str) -> str | None:
    """The other faction of Ecaz's alliance (Ecaz, or its ally when Ecaz fights), when Occupy joins the
    two on the fighting `side` in this battle. Read from the board until the battle is resolved, then
    as its resolution keeps it (`occupy_partner`): Occupy's own losses may have taken Ecaz's last forces
    there before a cleanup step asks."""
    if battle.resolution is not None:
        return kept_occupy_partner(snapshot, battle.resolution.occupy_partner, side)
    return occupy_partner_on_board(snapshot, battle, side)


def occupy_partner_on_board(snapshot: Snapshot, battle: Battle, side: str) -> str | None:
    """`occupy_partner` as the board shows it: both of the pair in the battle's sectors, Occupy standing."""
    pair = ecaz_presence(snapshot, battle)
    if pair is None or side not in pair or not occupy_stands(battle):
        return None
    partner = pair[1] if side == ECAZ else ECAZ
    return None if partner in (battle.aggressor, battle.defender) else partner


def kept_occupy_partner(snapshot: Snapshot, partner: str | None, side: str) -> str | None:
    """The partner the resolution keeps, for the one of Ecaz's alliance that fought beside it."""
    ecaz = snapshot.factions.get(ECAZ)
    if partner is None or ecaz is None:
        return None
    fighter = ecaz.ally if partner == ECAZ else ECAZ
    return occupied_side_kept(partner) if side == fighter else None


@rule("ecaz.occupy.side-kept")
def occupied_side_kept(partner: str) -> str:
    return partner


@rule("battle.karama.ecaz-occupy")
def occupy_cancelled() -> None:
    pass


def occupy_stands(battle: Battle) -> bool:
    """False once a Karama cancelled Occupy in this battle (each side then fights with its own forces)."""
    if battle.cancelled(BattlePower.ECAZ_OCCUPY.value, ECAZ):
        occupy_cancelled()
        return False
    return True


def dialed_forces_of(snapshot: Snapshot, battle: Battle, faction: str) -> str:
    """Whose forces this side's plan dials: its own, or its ally's when Ecaz fights beside them under
    Occupy (`occupy_partner`)."""
    if faction != ECAZ:
        return faction
    partner = occupy_partner(snapshot, battle, faction)
    return faction if partner is None else ecaz_dials_ally_forces(partner)


@rule("ecaz.occupy.ecaz-fights-dial")
def ecaz_dials_ally_forces(ally: str) -> str:
    return ally


TRAITS_QUESTION = "occupy-dialed-force-traits"
ALLY_TRAITS = "ally-traits"
ORDINARY_FORCES = "ordinary-forces"


@dataclass(frozen=True, slots=True)
class Dialed:
    """The forces a side's plan dials: whose they are, whose force traits they count with, and how many."""

    owner: str
    traits_of: str
    forces: Forces


def dialed_forces(snapshot: Snapshot, battle: Battle, faction: str, traits: str) -> Dialed:
    """The forces this side dials, as question occupy-dialed-force-traits (`traits`) reads when Ecaz
    dials its ally's forces under Occupy: with the ally's traits, or as Ecaz's own ordinary forces."""
    owner = dialed_forces_of(snapshot, battle, faction)
    forces = forces_in(snapshot, owner, battle.territory)
    if owner != faction and traits == ORDINARY_FORCES:
        return ordinary_dialed_forces(owner, faction, forces)
    return Dialed(owner, owner, forces)


def ordinary_dialed_forces(owner: str, faction: str, forces: Forces) -> Dialed:
    return Dialed(owner, faction, Forces(forces.total, 0))


def traits_for_options(battle: Battle) -> str:
    """The reading of occupy-dialed-force-traits that a plan's options rest on: only a Prescience dial
    answer makes them depend on it, and the Prescience records the reading it was asked under."""
    if battle.prescience is None:
        return ALLY_TRAITS
    return battle.prescience.readings.get(TRAITS_QUESTION, ALLY_TRAITS)


def supportable(dialed: Dialed) -> int:
    """How many of the dialed forces spice can support (Suboids never)."""
    return dialed.forces.elite if dialed.traits_of == FactionId.IXIANS else dialed.forces.total


def _plan_path(faction: str, field: str | None = None) -> str:
    base = f"/snapshot/battle/plans/{faction}"
    return base if field is None else f"{base}/{field}"


# --- strength of forces -------------------------------------------------------------------------


def power_cancelled(snapshot: Snapshot, power: BattlePower, owner: str) -> bool:
    """Whether a Karama cancelled `owner`'s `power` in the battle under way (`battle.karama`)."""
    battle = snapshot.battle
    return battle is not None and bool(battle.karama) and battle.cancelled(power.value, owner)


@rule("battle.karama.sardaukar")
def sardaukar_cancelled() -> int:
    return 2


@rule("battle.karama.fedaykin")
def fedaykin_cancelled() -> int:
    return 2


@rule("battle.karama.cyborgs")
def cyborgs_cancelled() -> int:
    return 2


@rule("battle.karama.battle-hardened")
def battle_hardened_cancelled() -> bool:
    return True


def elite_worth_halves(snapshot: Snapshot, faction: str, opponent: str) -> int:
    """Half-points one supported elite force is worth: Cyborgs 2 (1 once a Karama cancelled them);
    Sardaukar and Fedaykin 2 in the advanced game (Sardaukar 1 against the Fremen) and ordinary in the
    basic game, or once a Karama cancelled them in this battle."""
    if faction == FactionId.IXIANS:
        if power_cancelled(snapshot, BattlePower.CYBORGS, faction):
            return cyborgs_cancelled()
        return ixian_force_worth()[1]
    if not snapshot.ruleset.advanced:
        return 2
    if faction == FactionId.EMPEROR and power_cancelled(snapshot, BattlePower.SARDAUKAR, faction):
        return sardaukar_cancelled()
    if faction == FactionId.FREMEN and power_cancelled(snapshot, BattlePower.FEDAYKIN, faction):
        return fedaykin_cancelled()
    if faction == FactionId.EMPEROR and opponent == FactionId.FREMEN:
        return 2  # Sardaukar count as one force against the Fremen
    return 4


def battle_hardened(snapshot: Snapshot, faction: str) -> bool:
    """Whether this side's forces count fully without support: the advanced Fremen, unless a Karama
    cancelled that in this battle."""
    if faction != FactionId.FREMEN:
        return False
    return not (power_cancelled(snapshot, BattlePower.BATTLE_HARDENED, faction) and battle_hardened_cancelled())


@rule("battle.strength.ixian-forces")
def ixian_force_worth() -> tuple[int, int]:
    return 1, 4


def strength_halves(snapshot: Snapshot, faction: str, opponent: str, regular: int, elite: int, spice: int) -> int:
    """The most dial strength these forces give with this much support spice, in half-points.

    Basic: every force counts 1 (Ixian forces as printed for them). Advanced: a force counts fully only
    when one spice supports it, half otherwise; Fremen forces always count fully; support goes to the
    strongest forces first; Suboids are never supported.
    """
    elite_full = elite_worth_halves(snapshot, faction, opponent)
    regular_full = ixian_force_worth()[0] if faction == FactionId.IXIANS else 2
    if not snapshot.ruleset.advanced or battle_hardened(snapshot, faction):
        return regular_full * regular + elite_full * elite
    supported_elite = min(elite, spice)
    if faction == FactionId.IXIANS:
        return elite_full * supported_elite + (elite_full // 2) * (elite - supported_elite) + regular_full * regular
    supported_regular = min(regular, spice - supported_elite)
    return (
        elite_full * supported_elite
        + (elite_full // 2) * (elite - supported_elite)
        + 2 * supported_regular
        + (regular - supported_regular)
    )


# --- the checks -----------------------------------------------------------------------------------


def _eligible_leaders(snapshot: Snapshot, faction: str, territory: str) -> tuple[str, ...]:
    """Leaders this faction could put in a plan here: its own alive, uncaptured ones not used in another
    territory, captives it holds, and Duke Vidal while it holds him (remembered per snapshot)."""
    key = ("eligible-leaders", faction, territory)
    found: tuple[str, ...] | None = snapshot.memo.get(key)
    if found is None:
        found = snapshot.memo[key] = tuple(_list_eligible_leaders(snapshot, faction, territory))
    return found


def _list_eligible_leaders(snapshot: Snapshot, faction: str, territory: str) -> list[str]:
    eligible = []
    state = snapshot.factions[faction]
    for leader in catalog().leaders_of(faction):
        if leader.advanced_only and not snapshot.ruleset.advanced:
            continue
        leader_state = state.leaders.get(leader.id)
        if leader_state is not None and leader_state.ghola:
            continue  # a Tleilaxu ghola fights for them
        free = leader_state is None or leader_state.status is LeaderStatus.AVAILABLE
        fought_here = leader_state is not None and leader_state.status is LeaderStatus.USED
        if free or (fought_here and leader_state is not None and leader_state.territory == territory):
            eligible.append(leader.id)
    for other, other_state in snapshot.factions.items():
        for leader_id, leader_state in other_state.leaders.items():
            captive = leader_state.status is LeaderStatus.CAPTURED and leader_state.by == faction and other != faction
            ghola = leader_state.ghola and faction == FactionId.TLEILAXU and ghola_fights(leader_state, territory)
            if captive or ghola:
                eligible.append(leader_id)
    duke = snapshot.duke_vidal
    if duke is not None and duke.status is DukeStatus.HELD and duke.controller == faction:
        if duke.fought_in is None or duke.fought_in == territory:
            eligible.append(DUKE)
    elif duke is not None and duke.status is DukeStatus.CAPTURED and duke.by == faction:
        eligible.append(DUKE)  # a captive fights for its captor like any captured leader
    return eligible


def face_up_leaders(snapshot: Snapshot, battle: Battle, faction: str) -> tuple[str, ...]:
    """The leaders this side could play here when every one of them lies face up with its skill card
    (where question skill-face-up-leader-required decides whether one is owed), else none."""
    leaders = _eligible_leaders(snapshot, faction, battle.territory)
    return leaders if only_face_up_leaders(snapshot, leaders) else ()


@rule("battle.plan.leader")
def leader_violations(
    snapshot: Snapshot, battle: Battle, faction: str, plan: Plan, face_up: str, hand_known: bool = True
) -> list[Violation]:
    rule_id = "battle.plan.leader"
    found: list[Violation] = []
    hand = snapshot.factions[faction].hand
    if plan.leader is not None and plan.cheap_hero is not None:
        found.append(
            Violation(
                "leader-and-cheap-hero",
                "a plan names a leader or a Cheap Hero, not both",
                _plan_path(faction, "cheap_hero"),
                rule_id,
            )
        )
    used_elsewhere = False
    if plan.leader is not None and plan.leader != DUKE and plan.leader in catalog().leaders:
        native = catalog().leaders[plan.leader].faction
        state = snapshot.factions[native].leaders.get(plan.leader) if native in snapshot.factions else None
        used_elsewhere = state is not None and state.status is LeaderStatus.USED and state.territory != battle.territory
        if used_elsewhere:
            assert state is not None
            where = state.territory or "another territory"
            found.append(
                Violation(
                    "leader-used-elsewhere",
                    f"{plan.leader} already fought in {where} this phase (name leaders.{plan.leader}.territory"
                    " when it fought here)",
                    _plan_path(faction, "leader"),
                    rule_id,
                )
            )
    eligible = _eligible_leaders(snapshot, faction, battle.territory)
    if plan.leader is not None and not used_elsewhere and plan.leader not in eligible:
        found.append(
            Violation(
                "leader-not-available",
                f"{faction} cannot play {plan.leader}: it is not one of its leaders that can fight here",
                _plan_path(faction, "leader"),
                rule_id,
            )
        )
    if plan.leader is None and plan.cheap_hero is None:
        leaders = list(eligible)
        if any(skill_card_face_up(snapshot, leader) for leader in leaders):
            leaders = leaders_owed(snapshot, leaders, face_up)
        heroes = [card for card in hand if is_leader_substitute(card)] if hand_known else []
        if heroes and not leaders and hero_forbidden(battle, faction):
            heroes = []  # voice-only-hero-forbidden obey: the Voice overrides the mandatory hero
        if not leaders and not hand_known:
            hand_checked_at_lock()
        if leaders or heroes:
            found.append(
                Violation(
                    "leader-required",
                    f"{faction} must play a leader or a Cheap Hero while it has one ({(leaders + heroes)[0]})",
                    _plan_path(faction, "leader"),
                    rule_id,
                )
            )
        for slot in ("weapon", "defense"):
            if getattr(plan, slot) is not None:
                found.append(
                    Violation(
                        "cards-without-leader",
                        "without a leader or Cheap Hero a plan holds no cards",
                        _plan_path(faction, slot),
                        rule_id,
                    )
                )
    return found


@rule("battle.plan.card-slots")
def card_slot_violations(faction: str, plan: Plan, green_weapon: bool = False) -> list[Violation]:
    rule_id = "battle.plan.card-slots"
    found: list[Violation] = []
    if plan.cheap_hero is not None and not is_leader_substitute(plan.cheap_hero):
        found.append(
            Violation(
                "not-a-leader-substitute",
                f"{plan.cheap_hero} is not a Cheap Hero or Heroine",
                _plan_path(faction, "cheap_hero"),
                rule_id,
            )
        )
    for slot, role in (("weapon", "weapon"), ("defense", "defense")):
        card = getattr(plan, slot)
        if card is None:
            continue
        kind = catalog().cards[card_kind(card)]
        if role not in kind.roles and not (slot == "weapon" and green_weapon):
            found.append(
                Violation("wrong-slot", f"{card} cannot be played as the {role}", _plan_path(faction, slot), rule_id)
            )
    if plan.weapon is not None and card_kind(plan.weapon) == "chemistry" and plan.defense is None:
        found.append(
            Violation(
                "chemistry-needs-defense",
                "Chemistry is a weapon only beside another defense",
                _plan_path(faction, "weapon"),
                rule_id,
            )
        )
    if plan.defense is not None and card_kind(plan.defense) == "weirding-way" and plan.weapon is None:
        found.append(
            Violation(
                "weirding-way-needs-weapon",
                "Weirding Way is a defense only beside another weapon",
                _plan_path(faction, "defense"),
                rule_id,
            )
        )
    return found


@rule("battle.plan.dial")
def dial_violations(snapshot: Snapshot, battle: Battle, faction: str, plan: Plan, traits: str) -> list[Violation]:
    rule_id = "battle.plan.dial"
    found: list[Violation] = []
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    dialed = dialed_forces(snapshot, battle, faction, traits)
    owner, forces = dialed.owner, dialed.forces
    on_token = fights_on_no_field(snapshot, battle, faction, battle_sectors(snapshot))
    if forces.total == 0 and not on_token:
        found.append(
            Violation(
                "no-forces-in-territory", f"{faction} has no forces in {battle.territory}", _plan_path(faction), rule_id
            )
        )
        return found
    if plan.dial_halves % 2 and not snapshot.ruleset.advanced:
        found.append(
            Violation(
                "half-dial-in-basic",
                "half steps on the dial exist only in the advanced game",
                _plan_path(faction, "dial"),
                rule_id,
            )
        )
    most = strength_halves(snapshot, dialed.traits_of, opponent, forces.regular, forces.elite, plan.spice)
    if plan.dial_halves > most:
        found.append(
            Violation(
                "dial-exceeds-forces",
                f"{owner}'s forces in {battle.territory} give at most {most / 2:g}",
                _plan_path(faction, "dial"),
                rule_id,
            )
        )
    return found


@rule("battle.plan.support-spice")
def support_violations(snapshot: Snapshot, battle: Battle, faction: str, plan: Plan, traits: str) -> list[Violation]:
    rule_id = "battle.plan.support-spice"
    if plan.spice == 0:
        return []
    if not snapshot.ruleset.advanced:
        return [
            Violation(
                "support-in-basic",
                "spice supports forces only in the advanced game",
                _plan_path(faction, "spice"),
                rule_id,
            )
        ]
    found = []
    if plan.own_spice > snapshot.factions[faction].spice:
        if snapshot.factions[faction].ally is not None and not plan.ally_spice:
            own_support_spice()
        found.append(
            Violation(
                "support-exceeds-spice",
                # no count: a revealed plan's failed payment is public, what is left behind the shield is not
                f"{faction} holds less spice than this support",
                _plan_path(faction, "spice"),
                rule_id,
            )
        )
    if plan.spice > supportable(dialed_forces(snapshot, battle, faction, traits)):  # Suboids take no support
        found.append(
            Violation("support-exceeds-forces", "one spice supports one force", _plan_path(faction, "spice"), rule_id)
        )
    else:
        found += support_within_dial(snapshot, battle, faction, plan, traits)
    return found


@rule("battle.alliance.own-support-spice")
def own_support_spice() -> None:
    pass


ALLY_SUPPORT_QUESTION = "ally-support-payment"


def ally_support_violations(snapshot: Snapshot, faction: str, plan: Plan, choice: str) -> list[Violation]:
    """The ally's share of a plan's support under question ally-support-payment: refused under
    own-spice-only; under ally-may-pay, or whatever it reads when the ally is CHOAM, within the support,
    paid by an ally that exists and holds it."""
    if not plan.ally_spice:
        return []
    path = _plan_path(faction, "ally_spice")
    if allied_to_choam(snapshot, faction):
        choam_pays_for_ally()  # whatever the question reads
        return ally_share_violations(snapshot, faction, plan, path)
    if choice != "ally-may-pay":
        own_support_spice()
        return [
            Violation(
                "ally-support-refused",
                "under ally-support-payment's own-spice-only reading an ally pays no part of the support",
                path,
                "battle.alliance.own-support-spice",
            )
        ]
    return ally_share_violations(snapshot, faction, plan, path)


def allied_to_choam(snapshot: Snapshot, faction: str) -> bool:
    return snapshot.factions[faction].ally == FactionId.CHOAM and FactionId.CHOAM.value in snapshot.factions


def ally_may_pay(snapshot: Snapshot, faction: str, choice: str) -> bool:
    """Whether this side's ally may pay a share of its support: under ally-may-pay, or its ally CHOAM."""
    return choice == "ally-may-pay" or allied_to_choam(snapshot, faction)


@rule("choam.alliance.pays-ally-support")
def choam_pays_for_ally() -> None:
    pass


@rule("battle.alliance.ally-support-spice")
def ally_share_violations(snapshot: Snapshot, faction: str, plan: Plan, path: str) -> list[Violation]:
    rule_id = "battle.alliance.ally-support-spice"
    ally = snapshot.factions[faction].ally
    if ally is None or ally not in snapshot.factions:
        return [Violation("no-ally-to-pay", f"{faction} has no ally to pay part of its support", path, rule_id)]
    if plan.ally_spice > plan.spice:
        return [
            Violation(
                "ally-spice-exceeds-support",
                "the ally's share is part of the support spice, never more than it",
                path,
                rule_id,
            )
        ]
    if plan.ally_spice > snapshot.factions[ally].spice:
        # no count, as for the side's own spice: what is left behind the ally's shield is not public
        return [Violation("ally-spice-short", f"{ally} holds less spice than its share", path, rule_id)]
    return []


def dialed_support_limit(snapshot: Snapshot, faction: str, opponent: str, forces: Forces, dial_halves: int) -> int:
    """The most forces one dial can hold at full strength: the supportable forces, cheapest at full
    strength first, while their full strength stays within the dial (Suboids are never supported)."""
    elite_full = elite_worth_halves(snapshot, faction, opponent)
    worths = [elite_full] * forces.elite
    if faction != FactionId.IXIANS:
        worths = [2] * forces.regular + worths
    count = used = 0
    for worth in sorted(worths):
        if used + worth > dial_halves:
            break
        used += worth
        count += 1
    return count


@rule("battle.plan.support-within-dial")
def support_within_dial(snapshot: Snapshot, battle: Battle, faction: str, plan: Plan, traits: str) -> list[Violation]:
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    dialed = dialed_forces(snapshot, battle, faction, traits)
    most = dialed_support_limit(snapshot, dialed.traits_of, opponent, dialed.forces, plan.dial_halves)
    if plan.spice <= most:
        return []
    return [
        Violation(
            "support-exceeds-dial",
            f"spice supports only dialed forces: a dial of {halves_to_number(plan.dial_halves):g} holds"
            f" {most} supported at most",
            _plan_path(faction, "spice"),
            "battle.plan.support-within-dial",
        )
    ]


@rule("battle.plan.kwisatz-haderach")
def kwisatz_haderach_violations(snapshot: Snapshot, battle: Battle, faction: str, plan: Plan) -> list[Violation]:
    rule_id = "battle.plan.kwisatz-haderach"
    if not plan.kwisatz_haderach:
        return []
    path = _plan_path(faction, "kwisatz_haderach")
    if faction != FactionId.ATREIDES or not snapshot.ruleset.advanced:
        return [
            Violation(
                "kwisatz-haderach-unavailable", "only the advanced Atreides have the Kwisatz Haderach", path, rule_id
            )
        ]
    token = snapshot.factions[faction].kwisatz_haderach
    if token is None or token.status != "active":
        return [Violation("kwisatz-haderach-unavailable", "the Kwisatz Haderach is not active", path, rule_id)]
    if battle.cancelled(BattlePower.KWISATZ_HADERACH.value, faction):
        return [kwisatz_haderach_cancelled(path)]
    found = []
    if token.used_in is not None and token.used_in != battle.territory:
        found.append(
            Violation(
                "kwisatz-haderach-used-elsewhere", f"it joined a battle in {token.used_in} this turn", path, rule_id
            )
        )
    if plan.leader is None and plan.cheap_hero is None:
        found.append(
            Violation("kwisatz-haderach-without-leader", "it accompanies a leader or Cheap Hero", path, rule_id)
        )
    return found


@rule("battle.karama.kwisatz-haderach")
def kwisatz_haderach_cancelled(path: str) -> Violation:
    return Violation(
        "kwisatz-haderach-cancelled",
        "a Karama cancelled the Kwisatz Haderach in this battle",
        path,
        "battle.karama.kwisatz-haderach",
    )


@rule("battle.karama.ally-traitors")
def ally_traitor_cancelled(path: str) -> Violation:
    return Violation(
        "ally-traitors-cancelled",
        "a Karama cancelled the Harkonnen's Traitor cards in their ally's battle",
        path,
        "battle.karama.ally-traitors",
    )


@rule("battle.traitor.call")
def traitor_call_violations(snapshot: Snapshot, battle: Battle) -> list[Violation]:
    rule_id = "battle.traitor.call"
    found = []
    for i, caller in enumerate(battle.traitor_calls):
        opponent = battle.defender if caller == battle.aggressor else battle.aggressor
        target = battle.plans[opponent].leader
        path = f"/snapshot/battle/traitor_calls/{i}"
        if target is None:
            found.append(Violation("no-leader-to-betray", f"{opponent} played no leader", path, rule_id))
            continue
        own = target in snapshot.factions[caller].traitors
        ally = snapshot.factions[caller].ally
        lent = ally == FactionId.HARKONNEN and target in snapshot.factions[ally].traitors
        if not own and lent and battle.cancelled(BattlePower.ALLY_TRAITORS.value, FactionId.HARKONNEN.value):
            found.append(ally_traitor_cancelled(path))
        elif not own and not lent:
            found.append(Violation("no-traitor-card", f"{caller} holds no Traitor card of {target}", path, rule_id))
        elif battle.plans[opponent].kwisatz_haderach:
            found.append(traitor_blocked_by_kwisatz_haderach(path))
    return found


@rule("battle.traitor.kwisatz-haderach")
def traitor_blocked_by_kwisatz_haderach(path: str) -> Violation:
    return Violation(
        "traitor-blocked",
        "a leader with the Kwisatz Haderach cannot turn traitor",
        path,
        "battle.traitor.kwisatz-haderach",
    )


@rule("battle.weapon.poison-tooth-withheld")
def withheld_tooth_violations(battle: Battle) -> list[Violation]:
    found = []
    for i, faction in enumerate(battle.poison_tooth_withheld):
        weapon = battle.plans[faction].weapon
        if weapon is None or card_kind(weapon) != "poison-tooth":
            found.append(
                Violation(
                    "nothing-to-withhold",
                    f"{faction} played no Poison Tooth",
                    f"/snapshot/battle/poison_tooth_withheld/{i}",
                    "battle.weapon.poison-tooth-withheld",
                )
            )
    return found


PlanCards = tuple[str | None, str | None, str | None, str | None]


def plan_combinations(snapshot: Snapshot, battle: Battle, faction: str) -> list[PlanCards]:
    """Every (leader, Cheap Hero, weapon, defense) a side's leaders and hand could fill a plan with,
    leader or hero first, no card in two slots (whether each is legal is the plan checks' answer)."""
    hand = list(snapshot.factions[faction].hand)
    leaders: list[tuple[str | None, str | None]] = [
        (leader, None) for leader in _eligible_leaders(snapshot, faction, battle.territory)
    ]
    leaders += [(None, card) for card in hand if is_leader_substitute(card)]
    leaders.append((None, None))
    weapons = [None, *(c for c in hand if "weapon" in catalog().cards[card_kind(c)].roles)]
    defenses = [None, *(c for c in hand if "defense" in catalog().cards[card_kind(c)].roles)]
    # a Planetologist may fill its weapon slot with a green Special card
    green = [c for c in hand if green_special(c)]
    planetologists = {leader for leader, _ in leaders if leader is not None and planetologist(snapshot, leader)}
    return [
        (leader, hero, weapon, defense)
        for (leader, hero), weapon, defense in itertools.product(leaders, [*weapons, *green], defenses)
        if (weapon is None or weapon != defense) and (weapon not in green or leader in planetologists)
    ]


def planetologist(snapshot: Snapshot, leader: str) -> bool:
    return selected_skill(snapshot, Plan(leader, None, 0, None, None, 0, False)) == PLANETOLOGIST


def candidate_plans(snapshot: Snapshot, battle: Battle, faction: str, face_up: str) -> tuple[Plan, ...]:
    """Every card and leader combination this side could lock at dial 0 under the rules other than the
    Voice and Prescience (remembered per snapshot and reading of skill-face-up-leader-required): what a
    command "could obey" ranges over."""
    key = ("candidate-plans", faction, battle.territory, face_up)
    found: tuple[Plan, ...] | None = snapshot.memo.get(key)
    if found is None:
        plans = []
        for leader, hero, weapon, defense in plan_combinations(snapshot, battle, faction):
            plan = Plan(leader, hero, 0, weapon, defense, 0, False)
            # at dial 0 with no support, no reading of occupy-dialed-force-traits finds a problem
            if not plan_problems(snapshot, battle, faction, plan, ALLY_TRAITS, face_up, bound=False):
                plans.append(plan)
        found = snapshot.memo[key] = tuple(plans)
    return found


@rule("battle.voice.obey")
def voice_violations(
    snapshot: Snapshot, battle: Battle, faction: str, plan: Plan, face_up: str, hand_known: bool = True
) -> list[Violation]:
    command = voice_in_force(battle, faction)
    assert battle.voice is not None
    readings = battle.voice.readings
    if command is None or obeys(plan, *command, readings):
        return []
    if leader_instead(plan, *command, readings):  # voice-play-cheap-hero-with-leaders leaders-first
        return []
    if not hand_known:  # whether it could obey rests on its hand
        hand_checked_at_lock()
        return []
    answer = answer_binding(snapshot, battle, faction)
    cards = {k: v for k, v in (answer or {}).items() if k not in ("dial", "spice")}
    candidates = [
        other
        for other in candidate_plans(snapshot, battle, faction, face_up)
        if not cards or not same_answer(other, cards)  # a plan keeping to a card the answer disclosed
    ]
    if not any(obeys(other, *command, readings) for other in candidates):
        voice_cannot_comply()
        return []
    what, subject = command
    return [
        Violation(
            "voice-disobeyed",
            f"the Voice commands {faction} to {'play' if what == 'play' else 'not play'} {subject}, which it can obey",
            _plan_path(faction, command_slot(plan, what, subject, readings)),
            "battle.voice.obey",
        )
    ]


@rule("battle.voice.cannot-comply")
def voice_cannot_comply() -> None:
    pass


UNREACHABLE_QUESTION = "prescience-answer-unreachable"


def answer_binding(snapshot: Snapshot, battle: Battle, faction: str) -> Mapping[str, Any] | None:
    """The Prescience answers in force on this side's plan, less a leader answer that a Residual Poison
    played after it released. That is looked at only once the cards window opened after a leader
    answer (public facts), so whether the rule ran shows nothing of the answer."""
    answer = answer_in_force(battle, faction) if battle.prescience is not None else None
    record = battle.prescience
    if (
        answer is None
        or record is None
        or record.element != "leader"
        or PRESCIENCE not in (battle.pre_battle_cards_after or ())
    ):
        return answer
    return released_by_poison(snapshot, answer)


@rule("battle.prescience.released-by-poison")
def released_by_poison(snapshot: Snapshot, answer: Mapping[str, Any]) -> Mapping[str, Any]:
    leader = answer.get("leader")
    if leader is None or not in_the_tanks(snapshot, str(leader)):
        return answer
    return {name: value for name, value in answer.items() if name not in ELEMENT_FIELDS["leader"]}


def in_the_tanks(snapshot: Snapshot, leader_id: str) -> bool:
    """Whether a leader (Duke Vidal included) lies in the Tanks."""
    if leader_id == DUKE:
        duke = snapshot.duke_vidal
        return duke is not None and duke.status is DukeStatus.TANKS
    state = leader_state(snapshot, leader_id)
    return state is not None and state.status is LeaderStatus.TANKS


def dial_reach(snapshot: Snapshot, battle: Battle, faction: str, traits: str) -> tuple[int, int]:
    """The highest dial this side's forces give now, in half-points (whole numbers in the basic game),
    with the most support spice it can pay."""
    dialed = dialed_forces(snapshot, battle, faction, traits)
    forces = dialed.forces
    support = min(snapshot.factions[faction].spice, supportable(dialed)) if snapshot.ruleset.advanced else 0
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    most = strength_halves(snapshot, dialed.traits_of, opponent, forces.regular, forces.elite, support)
    if not snapshot.ruleset.advanced:
        most -= most % 2  # the basic dial holds whole numbers: a Suboid's odd half cannot be dialed
    return most, support


def binding_answer(snapshot: Snapshot, battle: Battle, faction: str, traits: str) -> Mapping[str, Any] | None:
    """The Prescience answer as it binds the plan now: a disclosed dial (or dial and support) that the
    side's forces can no longer reach, because a Karama cancelled a power after the answer, follows
    question prescience-answer-unreachable."""
    answer = answer_binding(snapshot, battle, faction)
    if answer is None or "dial" not in answer:
        return answer
    halves = round(float(answer["dial"]) * 2)
    spice = None if answer.get("spice") is None else int(answer["spice"])
    pairs = reachable_dials(snapshot, battle, faction, halves, traits)
    if any(dial == halves and (spice is None or paid == spice) for dial, paid in pairs):
        return answer
    assert battle.prescience is not None
    choice = battle.prescience.readings.get(UNREACHABLE_QUESTION, "highest-reachable")
    top = max(dial for dial, _ in pairs)
    closest = min((paid for dial, paid in pairs if dial == top), key=lambda paid: abs(paid - (spice or 0)))
    return unreachable_answer(answer, choice, top, closest)


def reachable_dials(snapshot: Snapshot, battle: Battle, faction: str, up_to: int, traits: str) -> list[tuple[int, int]]:
    """Every (dial in half-points, support spice) this side can lock now, dials up to `up_to`
    (remembered per snapshot and reading)."""
    key = ("reachable-dials", faction, up_to, traits)
    found: list[tuple[int, int]] | None = snapshot.memo.get(key)
    if found is None:
        found = snapshot.memo[key] = _reachable_dials(snapshot, battle, faction, up_to, traits)
    return found


def _reachable_dials(
    snapshot: Snapshot, battle: Battle, faction: str, up_to: int, traits: str
) -> list[tuple[int, int]]:
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    dialed = dialed_forces(snapshot, battle, faction, traits)
    worth, forces = dialed.traits_of, dialed.forces
    _, support = dial_reach(snapshot, battle, faction, traits)
    step = 1 if snapshot.ruleset.advanced else 2
    pairs = []
    for dial in range(0, up_to + 1, step):
        held = dialed_support_limit(snapshot, worth, opponent, forces, dial)
        for paid in range(0, min(support, held) + 1):
            if strength_halves(snapshot, worth, opponent, forces.regular, forces.elite, paid) >= dial:
                pairs.append((dial, paid))
    return pairs


@rule("battle.prescience.unreachable")
def unreachable_answer(answer: Mapping[str, Any], choice: str, reach: int, support: int) -> Mapping[str, Any]:
    if choice == "released":
        return {name: value for name, value in answer.items() if name not in ("dial", "spice")}
    bound = {**answer, "dial": halves_to_number(reach)}
    if "spice" in bound:
        bound["spice"] = support
    return bound


def truthtrance_violations(
    snapshot: Snapshot, battle: Battle, faction: str, plan: Plan, face_up: str, hand_known: bool = True
) -> list[Violation]:
    found = []
    for held in battle.truthtrance:
        command = PLAY if held.answer == "yes" else NOT_PLAY
        if held.target != faction or obeys(plan, command, held.subject):
            continue
        if not hand_known:  # whether it could keep to the answer rests on its hand
            hand_checked_at_lock()
            continue
        if not any(
            obeys(other, command, held.subject) for other in candidate_plans(snapshot, battle, faction, face_up)
        ):
            continue  # released: no plan it could lock honours the answer
        found.append(
            Violation(
                "truthtrance-contradicted",
                f"{faction} answered {held.answer!r} to a Truthtrance on {held.subject} and must keep to it",
                _plan_path(faction, command_slot(plan, command, held.subject)),
                "cards.truthtrance.answer-binds",
            )
        )
    return found


@rule("battle.prescience.binds")
def prescience_violations(snapshot: Snapshot, battle: Battle, faction: str, plan: Plan, traits: str) -> list[Violation]:
    answer = binding_answer(snapshot, battle, faction, traits)
    if not answer:
        return []
    return [
        Violation(
            "prescience-contradicted",
            f"{faction} disclosed its {name} to Prescience and must play it",
            _plan_path(faction, name),
            "battle.prescience.binds",
        )
        for name in same_answer(plan, answer)
    ]


def plan_problems(
    snapshot: Snapshot,
    battle: Battle,
    faction: str,
    plan: Plan,
    traits: str,
    face_up: str,
    *,
    bound: bool = True,
    hand_known: bool = True,
) -> list[Violation]:
    """Every rule a single plan breaks (the same checks a locked plan goes through), the dialed forces
    counted as occupy-dialed-force-traits reads (`traits`) and a leader lying face up with its skill as
    skill-face-up-leader-required reads (`face_up`); `bound=False` leaves out what the Voice and
    Prescience bind, `hand_known=False` the checks that read the side's hand (a viewer's re-check of
    another side's locked plan)."""
    found = leader_violations(snapshot, battle, faction, plan, face_up, hand_known)
    if skill_card_face_up(snapshot, plan.leader):
        eligible = _eligible_leaders(snapshot, faction, battle.territory)
        found += face_up_leader_violations(snapshot, faction, plan, eligible, face_up)
    green_weapon = (
        skills_on(snapshot)
        and plan.weapon is not None
        and green_special(plan.weapon)
        and green_card_as_weapon(snapshot, plan)
    )
    found += card_slot_violations(faction, plan, green_weapon)
    if plan.banker_spice:
        found += banker_spice_violations(snapshot, faction, plan)
    if plan.special_karama is not None:
        found += plan_karama_problems(snapshot, faction, plan, hand_known)
    if plan.weapon is not None or plan.defense is not None:
        found += in_place_card_violations(snapshot, battle, faction, plan)
    found += dial_violations(snapshot, battle, faction, plan, traits)
    if plan.spice:
        found += support_violations(snapshot, battle, faction, plan, traits)
    if plan.kwisatz_haderach:
        found += kwisatz_haderach_violations(snapshot, battle, faction, plan)
    if bound and battle.voice is not None:
        found += voice_violations(snapshot, battle, faction, plan, face_up, hand_known)
    if bound and battle.prescience is not None:
        found += prescience_violations(snapshot, battle, faction, plan, traits)
    if bound and battle.truthtrance:
        found += truthtrance_violations(snapshot, battle, faction, plan, face_up, hand_known)
    return found


def support_held(snapshot: Snapshot, battle: Battle, faction: str, dial_halves: int, traits: str) -> int:
    """The most support spice this dial holds (spice supports only dialed forces)."""
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    dialed = dialed_forces(snapshot, battle, faction, traits)
    return dialed_support_limit(snapshot, dialed.traits_of, opponent, dialed.forces, dial_halves)


def least_support(snapshot: Snapshot, battle: Battle, faction: str, dial_halves: int, traits: str) -> int | None:
    """The least support spice with which this dial is within the side's strength (None: no support
    it can pay reaches it)."""
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    dialed = dialed_forces(snapshot, battle, faction, traits)
    forces = dialed.forces
    most = min(snapshot.factions[faction].spice, supportable(dialed))
    for spice in range(0, (most if snapshot.ruleset.advanced else 0) + 1):
        if strength_halves(snapshot, dialed.traits_of, opponent, forces.regular, forces.elite, spice) >= dial_halves:
            return spice
    return None


def plan_violations(
    snapshot: Snapshot, battle: Battle, traits: str, face_up: str, viewer: str | None = None
) -> list[Violation]:
    """Every problem with the locked plans, in plan order (aggressor first); under a viewer, another
    side's plan without the checks that read its hand."""
    found: list[Violation] = []
    for faction in (battle.aggressor, battle.defender):
        known = hand_read_by(faction, viewer)
        found += plan_problems(snapshot, battle, faction, battle.plans[faction], traits, face_up, hand_known=known)
    if battle.traitor_calls:
        found += traitor_call_violations(snapshot, battle)
    if battle.poison_tooth_withheld:
        found += withheld_tooth_violations(battle)
    if battle.stone_burner is not None or stone_burner_player(battle) is not None:
        found += stone_burner_choice_violations(battle)
    return found


# rule functions only: no handler, decision or step of its own
DECLARED = RuleModule(
    implements={
        ALLY_SUPPORT_QUESTION: ("own-spice-only", "ally-may-pay"),
        "voice-play-cheap-hero-with-leaders": ("must-play", "leaders-first"),
        "prescience-cheap-hero-answer": ("cheap-hero-answers", "no-leader"),
    }
)
