"""What the Stone Burner, Reinforcements and Harass and Withdraw do to a resolved battle (the CHOAM &
Richese cache and the Ecaz & Moritani New Treachery Cards): the forces a side dialed, the Stone
Burner's totals, Reinforcements' cost in reserves and Harass and Withdraw's retreat, with Ecaz's
Occupy beside them. The Mirror Weapon's copy is a weapon effect (cards.py); which forces a winner
keeps as dialed when it withdraws the others follows its casualties (outcome.withdrawal_options)."""

from __future__ import annotations

import itertools
from typing import Any

from adjudicator.core.action import Context
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, ForceCount, Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import BattleResult, FactionId
from adjudicator.rules.battle.occupy import ROUNDING_QUESTION, occupy_added
from adjudicator.rules.battle.plan_cards import REINFORCEMENTS_COST, plan_slot_of, stone_burner_player
from adjudicator.rules.battle.plans import (
    ECAZ,
    TRAITS_QUESTION,
    dialed_forces,
    dialed_forces_of,
    forces_in,
    occupy_partner,
    strength_halves,
)
from adjudicator.rules.cards import HARASS_AND_WITHDRAW, MIRROR_WEAPON, REINFORCEMENTS, STONE_BURNER
from adjudicator.rules.skills import face_up_skills, selected_skill, skills_on
from adjudicator.rules.state import NextSnapshot

UNDIALED_QUESTION = "stone-burner-undialed-forces"
BURNER_BOUNTY_QUESTION = "stone-burner-bounty"
BURNER_KH_QUESTION = "stone-burner-kwisatz-haderach"
REINFORCEMENTS_UNDECIDED_QUESTION = "reinforcements-undecided-battle"
REINFORCEMENTS_KH_QUESTION = "reinforcements-kwisatz-haderach"
HARASS_EXPLOSION_QUESTION = "harass-and-withdraw-explosion"
MIRROR_TOOTH_QUESTION = "mirror-weapon-withheld-tooth"
BURNER_SKILL_QUESTION = "stone-burner-skill-bonus"
BURNER_REINFORCEMENTS_QUESTION = "stone-burner-reinforcements"
BURNER_HARASS_QUESTION = "stone-burner-harass-and-withdraw"
BURNER_OCCUPY_QUESTION = "stone-burner-occupy"
MIRROR_BURNER_QUESTION = "mirror-weapon-stone-burner"
HARASS_OCCUPY_QUESTION = "harass-and-withdraw-occupy"
BURNER_CAUSE = "battle.card.stone-burner"

QuoteLine = tuple[int, dict[str, Any]]


def dialed_sets(snapshot: Snapshot, battle: Battle, faction: str, traits: str) -> list[dict[str, int]]:
    """The minimal (regular, elite) sets of a side's forces whose strength covers its dial (Basic: every
    force counts 1; advanced: as it counted on the dial, as occupy-dialed-force-traits reads when Ecaz
    dialed its ally's forces): the ways its dialed forces can be made up."""
    plan = battle.plans[faction]
    if plan.dial_halves == 0:
        return [{"regular": 0, "elite": 0}]
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    dialed = dialed_forces(snapshot, battle, faction, traits)  # Ecaz under Occupy dials its ally's forces
    forces = forces_in(snapshot, dialed.owner, battle.territory)  # the forces lost, of either kind
    ordinary = dialed.traits_of != dialed.owner  # counted as Ecaz's ordinary forces

    def strength(regular: int, elite: int) -> int:
        support = min(plan.spice, regular + elite)
        if ordinary:
            return strength_halves(snapshot, dialed.traits_of, opponent, regular + elite, 0, support)
        return strength_halves(snapshot, dialed.owner, opponent, regular, elite, support)

    if forces.elite == 0 or forces.regular == 0:
        # One kind of force: the fewest of them that cover the dial is the only way to make it up.
        kind = "elite" if forces.regular == 0 else "regular"
        for count in range(forces.total + 1):
            regular, elite = (0, count) if kind == "elite" else (count, 0)
            if strength(regular, elite) >= plan.dial_halves:
                return [{"regular": regular, "elite": elite}]
        return [{"regular": forces.regular, "elite": forces.elite}]
    options = []
    for elite, regular in itertools.product(range(forces.elite + 1), range(forces.regular + 1)):
        if strength(regular, elite) < plan.dial_halves:
            continue
        if regular and strength(regular - 1, elite) >= plan.dial_halves:
            continue
        if elite and strength(regular, elite - 1) >= plan.dial_halves:
            continue
        options.append({"regular": regular, "elite": elite})
    return options


def card_in(plan: Plan, kind: str) -> str | None:
    slot = plan_slot_of(plan, kind)
    return None if slot is None else getattr(plan, slot)


@rule("battle.card.mirror-withheld-tooth")
def mirror_copy_stands(choice: str) -> bool:
    return choice == "copy-stands"


# --- the Stone Burner ----------------------------------------------------------------------------


def stone_burner_kills(battle: Battle, context: Context) -> bool:
    """Whether a Stone Burner was played and its player chose to kill both leaders, or a facing Mirror
    Weapon's player did for its copy (question mirror-weapon-stone-burner: own-choice)."""
    if stone_burner_player(battle) is None:
        return False
    if stone_burner_kill_choice(battle.stone_burner or ""):
        return True
    if mirror_player(battle) is None or mirror_copies_burner(context.choice(MIRROR_BURNER_QUESTION)):
        return False
    return mirror_own_kill(battle.mirror_stone_burner or "")


@rule("battle.card.mirror-stone-burner-own")
def mirror_own_kill(choice: str) -> bool:
    return choice == "kill-leaders"


def mirror_player(battle: Battle) -> str | None:
    """The side whose Mirror Weapon faces the Stone Burner, or None."""
    burner = stone_burner_player(battle)
    for faction in (battle.aggressor, battle.defender):
        if burner is not None and faction != burner and card_in(battle.plans[faction], MIRROR_WEAPON) is not None:
            return faction
    return None


@rule("battle.card.stone-burner")
def stone_burner_kill_choice(choice: str) -> bool:
    return choice == "kill-leaders"


@rule("battle.card.stone-burner-undialed")
def undialed_forces(snapshot: Snapshot, battle: Battle, faction: str, choice: str, traits: str) -> int:
    total = dialed_forces(snapshot, battle, faction, traits).forces.total  # Ecaz under Occupy: its ally's
    dialed = burner_dialed_sets(snapshot, battle, faction, traits)[0]  # the reading's checks leave one count
    if choice == "casualty-choice" and faction in battle.stone_burner_dialed:
        names_burner_dialed(faction)
    return total - dialed["regular"] - dialed["elite"]


def burner_dialed_sets(snapshot: Snapshot, battle: Battle, faction: str, traits: str) -> list[dict[str, int]]:
    """The ways a side's dialed forces are made up (`dialed_sets`); beside a Stone Burner, the ones its
    total is counted on: the forces the side named (`stone_burner_dialed`), else the fewest covering the
    dial. Its losses as the winner and its Harass and Withdraw follow the same forces."""
    sets = dialed_sets(snapshot, battle, faction, traits)
    if stone_burner_player(battle) is None:
        return sets
    named = battle.stone_burner_dialed.get(faction)
    if named is not None:
        return [named.to_dict()]
    return fewest_dialed(sets) if len(sets) > 1 else sets


@rule("battle.card.stone-burner-dialed-losses")
def fewest_dialed(sets: list[dict[str, int]]) -> list[dict[str, int]]:
    fewest = min(s["regular"] + s["elite"] for s in sets)
    return [s for s in sets if s["regular"] + s["elite"] == fewest]


@rule("battle.card.stone-burner-named-dialed")
def names_burner_dialed(faction: str) -> str:
    return faction


def burner_reading_violations(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    """The Stone Burner's choices after the reveal against the readings asked: the forces a side names
    as dialed (`stone_burner_dialed`) and a facing Mirror Weapon's own choice (`mirror_stone_burner`)."""
    burner = stone_burner_player(battle)
    found: list[Violation] = []
    if burner is None:
        for key in ("stone_burner_dialed", "mirror_stone_burner"):
            if getattr(battle, key):
                found.append(no_burner_violation(key))
        return found
    for faction in (battle.aggressor, battle.defender):
        found += named_dialed_violations(
            snapshot, battle, faction, context.choice(UNDIALED_QUESTION), context.choice(TRAITS_QUESTION)
        )
    mirror = mirror_player(battle)
    if mirror is None and battle.mirror_stone_burner is not None:
        found.append(
            Violation(
                "no-mirror-weapon",
                "no Mirror Weapon faces the Stone Burner in this battle",
                "/snapshot/battle/mirror_stone_burner",
                "battle.card.mirror-stone-burner-own",
            )
        )
    own = mirror is not None and context.choice(MIRROR_BURNER_QUESTION) == "own-choice"  # traced where it acts
    if own and battle.mirror_stone_burner is None:
        found.append(
            Violation(
                "mirror-stone-burner-choice-required",
                f"{mirror}'s Mirror Weapon copies the Stone Burner: name its own choice (kill-leaders or zero-leaders)",
                "/snapshot/battle/mirror_stone_burner",
                "battle.card.mirror-stone-burner-own",
            )
        )
    return found


def no_burner_violation(key: str) -> Violation:
    return Violation(
        "no-stone-burner",
        "no plan of this battle holds the Stone Burner",
        f"/snapshot/battle/{key}",
        "battle.card.stone-burner-choice",
    )


def named_dialed_violations(
    snapshot: Snapshot, battle: Battle, faction: str, choice: str, traits: str
) -> list[Violation]:
    path = f"/snapshot/battle/stone_burner_dialed/{faction}"
    rule_id = "battle.card.stone-burner-named-dialed"
    named = battle.stone_burner_dialed.get(faction)
    sets = dialed_sets(snapshot, battle, faction, traits)
    if named is None:
        if choice == "casualty-choice" and len(sets) > 1:
            ways = "; ".join(f"{s['regular']} regular and {s['elite']} elite" for s in sets)
            return [
                Violation(
                    "stone-burner-dialed-required",
                    f"{faction}'s dial can be made up in more than one way: name the forces it dialed ({ways})",
                    path,
                    rule_id,
                )
            ]
        return []
    allowed = sets if choice == "casualty-choice" else fewest_dialed(sets)
    if named.to_dict() in allowed:
        return []
    reading = "a way to make up its dial" if choice == "casualty-choice" else "the fewest forces covering its dial"
    return [Violation("not-an-option", f"the forces {faction} names are not {reading}", path, rule_id)]


def stone_burner_lines(
    snapshot: Snapshot, battle: Battle, faction: str, leader: str | None, context: Context
) -> list[QuoteLine]:
    """A side's total under a Stone Burner: its undialed forces (none left to count when its Harass and
    Withdraw takes them away first), Ecaz's forces beside them under Occupy; its leader counts 0."""
    traits = context.choice(TRAITS_QUESTION)
    count = undialed_forces(snapshot, battle, faction, context.choice(UNDIALED_QUESTION), traits)
    rule_id = "battle.card.stone-burner-undialed"
    withdrawn_first = harass_in_effect(battle, faction) and not harass_counted(context.choice(BURNER_HARASS_QUESTION))
    if withdrawn_first:
        count, rule_id = 0, "battle.card.stone-burner-harass-and-withdraw"
    lines: list[QuoteLine] = [(2 * count, {"part": "undialed-forces", "value": count, "rule": rule_id})]
    if leader is not None:
        lines.append((0, {"part": "leader", "leader": leader, "value": 0, "rule": BURNER_CAUSE}))
    if occupy_partner(snapshot, battle, faction) is None:
        return lines
    if harass_in_effect(battle, faction):
        ecaz_withdrawn = withdrawn_first and partner_withdraws(context.choice(HARASS_OCCUPY_QUESTION))
        lines.append(burner_harass_occupy_line(snapshot, battle, ecaz_withdrawn, context))
    else:
        lines.append(burner_occupy_line(snapshot, battle, context))
    return lines


@rule("battle.card.harass-and-withdraw-occupy-stone-burner")
def burner_harass_occupy_line(snapshot: Snapshot, battle: Battle, ecaz_withdrawn: bool, context: Context) -> QuoteLine:
    if not ecaz_withdrawn:
        return burner_occupy_line(snapshot, battle, context)
    rule_id = "battle.card.harass-and-withdraw-occupy-stone-burner"
    return 0, {"part": "ecaz-occupy", "faction": ECAZ, "value": 0, "rule": rule_id}


@rule("battle.card.stone-burner-harass-and-withdraw")
def harass_counted(choice: str) -> bool:
    return choice == "counted-then-withdrawn"


@rule("battle.card.stone-burner-occupy")
def burner_occupy_line(snapshot: Snapshot, battle: Battle, context: Context) -> QuoteLine:
    present = forces_in(snapshot, ECAZ, battle.territory).total
    if context.choice(BURNER_OCCUPY_QUESTION) == "all-undialed":
        added, rule_id = present, "battle.card.stone-burner-occupy"
    else:
        added, rule_id = occupy_added(present, context.choice(ROUNDING_QUESTION)), "ecaz.occupy.added-forces"
    return 2 * added, {"part": "ecaz-occupy", "faction": ECAZ, "value": added, "rule": rule_id}


@rule("battle.card.stone-burner-skill-bonus")
def skill_lines_count(choice: str) -> bool:
    return choice == "bonuses-count"


def skills_in_battle(snapshot: Snapshot, battle: Battle) -> bool:
    """Whether a combatant fights with a skilled leader or holds a face-up skill card."""
    plans = battle.plans
    return skills_on(snapshot) and any(
        selected_skill(snapshot, plans[f]) is not None or bool(face_up_skills(snapshot, f, plans[f].leader))
        for f in (battle.aggressor, battle.defender)
    )


@rule("battle.card.stone-burner-skill-steps")
def skill_steps_beside_burner() -> None:
    pass


@rule("battle.card.stone-burner-reinforcements")
def burner_reinforcements_line(choice: str) -> QuoteLine:
    if choice == "adds-two":
        return reinforcements_line()
    return 0, {"part": "reinforcements", "value": 0, "rule": "battle.card.stone-burner-reinforcements"}


def mirror_facing_burner(battle: Battle, context: Context) -> None:
    """A Mirror Weapon revealed against the Stone Burner: the copy repeats its choice, or adds its player's
    own (`stone_burner_kills`); it adds nothing to the totals."""
    if mirror_player(battle) is not None:
        mirror_copies_burner(context.choice(MIRROR_BURNER_QUESTION))


@rule("battle.card.mirror-stone-burner")
def mirror_copies_burner(choice: str) -> bool:
    return choice == "burner-choice-governs"


@rule("battle.card.stone-burner-bounty")
def stone_burner_bounty(choice: str) -> bool:
    return choice == "paid"


@rule("battle.card.stone-burner-kwisatz-haderach")
def stone_burner_kills_kwisatz_haderach(state: NextSnapshot, choice: str) -> None:
    if choice == "killed":
        state.kwisatz_haderach_to_tanks()
        state.event("kwisatz-haderach-killed", "battle.card.stone-burner-kwisatz-haderach")


# --- Reinforcements ------------------------------------------------------------------------------


@rule("battle.card.reinforcements")
def reinforcements_line() -> QuoteLine:
    return 4, {"part": "reinforcements", "value": halves_to_number(4), "rule": "battle.card.reinforcements"}


@rule("battle.card.reinforcements-undecided")
def reinforcements_cost_paid(result: BattleResult, choice: str) -> bool:
    return result is BattleResult.DECIDED or choice == "sent"


def reinforcements_sent(reserves: ForceCount) -> tuple[int, int] | None:
    """The (regular, elite) reserve forces Reinforcements sends when no choice is left to its player
    (None: its player would choose among its reserves)."""
    if reserves.elite == 0:
        return REINFORCEMENTS_COST, 0
    if reserves.regular == 0:
        return 0, REINFORCEMENTS_COST
    if reserves.regular + reserves.elite == REINFORCEMENTS_COST:
        return reserves.regular, reserves.elite
    return None


def reinforcements_options(snapshot: Snapshot, faction: str) -> list[dict[str, int]]:
    """The (regular, elite) sets of its reserves a side may send for Reinforcements."""
    reserves = snapshot.factions[faction].reserves
    low = max(0, REINFORCEMENTS_COST - reserves.regular)
    high = min(REINFORCEMENTS_COST, reserves.elite)
    return [{"regular": REINFORCEMENTS_COST - elite, "elite": elite} for elite in range(low, high + 1)]


@rule("battle.card.reinforcements-choice")
def names_reserve_forces(faction: str) -> str:
    return faction


def pay_reinforcements(
    state: NextSnapshot, snapshot: Snapshot, faction: str, context: Context, after_withdrawal: bool = False
) -> str | None:
    """Reinforcements' cost, or the side that names the reserve forces it sends (a later decision). The
    reserves are read as they now stand: after the side's own Harass and Withdraw took its forces back."""
    if after_withdrawal:
        reinforcements_after_withdrawal(faction)
    sent = reinforcements_sent(state.faction_state(faction).reserves)
    if sent is None:
        return names_reserve_forces(faction)
    token = snapshot.factions[faction].kwisatz_haderach
    counted = True
    if faction == FactionId.ATREIDES and snapshot.ruleset.advanced and token is not None and token.status == "inactive":
        counted = reinforcements_count_for_kwisatz_haderach(context.choice(REINFORCEMENTS_KH_QUESTION))
    state.reserves_to_tanks(faction, *sent, "battle.card.reinforcements", count_for_kwisatz_haderach=counted)
    return None


@rule("battle.card.reinforcements-after-withdrawal")
def reinforcements_after_withdrawal(faction: str) -> str:
    return faction


@rule("battle.card.reinforcements-kwisatz-haderach")
def reinforcements_count_for_kwisatz_haderach(choice: str) -> bool:
    return choice == "counted"


# --- Harass and Withdraw -------------------------------------------------------------------------


@rule("battle.card.harass-and-withdraw-traitor")
def harass_cancelled_by_traitor(battle: Battle, faction: str) -> bool:
    opponent = battle.defender if faction == battle.aggressor else battle.aggressor
    return opponent in battle.traitor_calls


def harass_in_effect(battle: Battle, faction: str) -> bool:
    return plan_slot_of(battle.plans[faction], HARASS_AND_WITHDRAW) is not None and not (
        battle.traitor_calls and harass_cancelled_by_traitor(battle, faction)
    )


@rule("battle.card.harass-and-withdraw-explosion")
def harass_before_explosion(choice: str) -> bool:
    return choice == "withdraw"


def withdraw(
    state: NextSnapshot,
    snapshot: Snapshot,
    battle: Battle,
    faction: str,
    sectors: frozenset[int] | None,
    dialed: dict[str, int],
) -> None:
    """The side's undialed forces, all but the `dialed` ones, go back to the reserves of the faction
    whose forces it dialed (its ally's when Ecaz fights under Occupy)."""
    owner = dialed_forces_of(snapshot, battle, faction)
    withdraw_chosen(state, owner, battle.territory, sectors, dialed["regular"], dialed["elite"])


def occupy_partner_withdraws(snapshot: Snapshot, battle: Battle, explosion: bool, context: Context) -> bool:
    """Whether Ecaz's forces, none of them dialed, withdraw with the Harass and Withdraw of a side Ecaz
    Occupies (question harass-and-withdraw-occupy; never outside such a battle, and in a Lasgun/Shield
    explosion only where the side's undialed forces withdraw before it, harass-and-withdraw-explosion)."""
    for faction in (battle.aggressor, battle.defender):
        harassing = card_in(battle.plans[faction], HARASS_AND_WITHDRAW) is not None
        if not harassing or occupy_partner(snapshot, battle, faction) is None:
            continue
        if not harass_in_effect(battle, faction):
            continue
        if explosion:
            return partner_withdraws_before_explosion(context)
        return partner_withdraws(context.choice(HARASS_OCCUPY_QUESTION))
    return False


@rule("battle.card.harass-and-withdraw-occupy")
def partner_withdraws(choice: str) -> bool:
    return choice == "both-factions"


@rule("battle.card.harass-and-withdraw-occupy-explosion")
def partner_withdraws_before_explosion(context: Context) -> bool:
    if not harass_before_explosion(context.choice(HARASS_EXPLOSION_QUESTION)):
        return False  # every force there is destroyed, Ecaz's with the rest
    return partner_withdraws(context.choice(HARASS_OCCUPY_QUESTION))


def withdraw_occupying_ecaz(state: NextSnapshot, territory: str, sectors: frozenset[int] | None) -> None:
    state.withdraw_undialed(ECAZ, territory, sectors, 0, 0, "battle.card.harass-and-withdraw-occupy")


@rule("battle.card.harass-and-withdraw")
def withdraw_chosen(
    state: NextSnapshot, faction: str, territory: str, sectors: frozenset[int] | None, regular: int, elite: int
) -> None:
    state.withdraw_undialed(faction, territory, sectors, regular, elite, "battle.card.harass-and-withdraw")


@rule("battle.card.harass-and-withdraw-choice")
def names_dialed_forces(faction: str) -> str:
    return faction


@rule("battle.card.harass-and-withdraw-occupy-dial")
def withdraws_ally_forces(ally: str) -> str:
    return ally


def used_plan_cards(battle: Battle, result: BattleResult, reinforcements_choice: str | None) -> list[str]:
    """The cards of this module, and the Mirror Weapon, whose effect applied in this battle."""
    used = []
    for faction in (battle.aggressor, battle.defender):
        plan = battle.plans[faction]
        for kind in (MIRROR_WEAPON, STONE_BURNER):
            card = card_in(plan, kind)
            if card is not None and result is BattleResult.DECIDED:
                used.append(card)
        card = card_in(plan, REINFORCEMENTS)
        if card is not None and reinforcements_cost_paid(result, reinforcements_choice or ""):
            used.append(card)
        card = card_in(plan, HARASS_AND_WITHDRAW)
        if card is not None and result is not BattleResult.EXPLOSION and harass_in_effect(battle, faction):
            used.append(card)
    return used


def plays_plan_cards(battle: Battle) -> bool:
    """Whether a plan of this battle holds a Mirror Weapon, Stone Burner, Reinforcements or Harass and
    Withdraw."""
    return any(
        card_in(plan, kind) is not None
        for plan in battle.plans.values()
        for kind in (MIRROR_WEAPON, STONE_BURNER, REINFORCEMENTS, HARASS_AND_WITHDRAW)
    )


DECLARED = RuleModule(
    implements={
        MIRROR_TOOTH_QUESTION: ("copy-stands", "copy-void"),
        UNDIALED_QUESTION: ("fewest-tokens", "casualty-choice"),
        BURNER_BOUNTY_QUESTION: ("paid", "not-paid"),
        BURNER_KH_QUESTION: ("survives", "killed"),
        REINFORCEMENTS_UNDECIDED_QUESTION: ("not-sent", "sent"),
        REINFORCEMENTS_KH_QUESTION: ("counted", "not-counted"),
        HARASS_EXPLOSION_QUESTION: ("withdraw", "destroyed"),
        BURNER_SKILL_QUESTION: ("forces-only", "bonuses-count"),
        BURNER_REINFORCEMENTS_QUESTION: ("nothing-added", "adds-two"),
        BURNER_HARASS_QUESTION: ("counted-then-withdrawn", "withdrawn-first"),
        BURNER_OCCUPY_QUESTION: ("occupy-half", "all-undialed"),
        MIRROR_BURNER_QUESTION: ("burner-choice-governs", "own-choice"),
        HARASS_OCCUPY_QUESTION: ("dialing-faction", "both-factions"),
    },
)
