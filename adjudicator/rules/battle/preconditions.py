"""Whether a locked battle can be ruled at all: who battles (phase, allies, the storm), a loaned Duke
Vidal after the alliance broke, and the rules that would change it but are not modelled yet."""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.core.action import Context
from adjudicator.core.catalog import catalog
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import DUKE, DukeStatus, LeaderStatus, Phase
from adjudicator.rules.battle.sectors import battle_on_one_side, battle_sectors, combatant_sectors, sector_groups
from adjudicator.rules.skill_bonuses import (
    BONUS_SKILLS,
)
from adjudicator.rules.skill_steps import untriggered_out
from adjudicator.rules.skills import (
    MODELLED_BATTLE_SKILLS,
    UNMODELLED_NORMAL_IN_BATTLE,
    face_up_skills,
    selected_skill,
    skills_on,
)

STORM_QUESTION = "battle-under-storm"


@rule("battle.who-battles")
def battle_preconditions(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    rule_id = "battle.who-battles"
    found = []
    if snapshot.phase is not Phase.BATTLE:
        found.append(
            Violation("not-battle-phase", "battles are resolved in the Battle phase", "/snapshot/phase", rule_id)
        )
    if snapshot.factions[battle.aggressor].ally == battle.defender:
        found.append(
            Violation("allies-do-not-battle", "allies never battle each other", "/snapshot/battle/defender", rule_id)
        )
    territory = catalog().territories.get(battle.territory)
    storm = snapshot.storm_sector
    if territory is None or storm not in territory.sectors:
        return found
    covered = battle_sectors(snapshot)
    if covered is not None:
        battle_on_one_side(covered)  # the storm sector and the other side are outside this battle
        return found
    sectors = combatant_sectors(snapshot, battle)
    if any(storm in placed for placed in sectors.values()) and not storm_sector_battle(context.choice(STORM_QUESTION)):
        found.append(
            Violation(
                "under-storm",
                "forces in the storm sector do not battle (question battle-under-storm)",
                "/snapshot/storm_sector",
                "battle.storm.under-storm",
            )
        )
    groups = sector_groups(territory.sectors, storm)
    apart = all(
        not (group & sectors[battle.aggressor] and group & sectors[battle.defender]) for group in groups
    ) and all(sectors.values())
    if apart and not any(storm in placed for placed in sectors.values()):
        found.append(
            Violation(
                "storm-separated",
                "a storm sector lies between the two sides' forces",
                "/snapshot/storm_sector",
                rule_id,
            )
        )
    return found


@rule("battle.storm.under-storm")
def storm_sector_battle(choice: str) -> bool:
    return choice == "battle-blind"


BROKEN_LOAN_QUESTION = "duke-loan-alliance-break"


def broken_loan_violations(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    """A plan naming a loaned Duke Vidal whose holder is no longer allied with Ecaz."""
    duke = snapshot.duke_vidal
    if duke is None or duke.status is not DukeStatus.HELD or duke.loaned_by is None or duke.controller is None:
        return []
    plan = battle.plans.get(duke.controller)
    recipient = snapshot.factions.get(duke.controller)
    if plan is None or plan.leader != DUKE or recipient is None or recipient.ally == duke.loaned_by:
        return []
    return loan_after_alliance_break(duke.controller, context.interpretations.get(BROKEN_LOAN_QUESTION))


@rule("duke-vidal.loan.alliance-break")
def loan_after_alliance_break(holder: str, choice: str | None) -> list[Violation]:
    path = f"/snapshot/battle/plans/{holder}/leader"
    if choice is None:
        # under one reading the plan itself is illegal, so the choice is needed before anything resolves
        return [
            Violation(
                "interpretation-required",
                "the alliance behind this loan has broken: choose a reading of this question",
                f"/interpretations/{BROKEN_LOAN_QUESTION}",
                "duke-vidal.loan.alliance-break",
            )
        ]
    if choice == "loan-ends":
        return [
            Violation(
                "leader-not-available",
                f"under 'loan-ends' {holder} no longer holds Duke Vidal",
                path,
                "duke-vidal.loan.alliance-break",
            )
        ]
    return []


def unmodelled_compositions(
    snapshot: Snapshot, battle: Battle, interpretations: Mapping[str, str] | None = None
) -> list[Violation]:
    """Rules that would change this battle's outcome but are not modelled yet: answered
    `not-implemented` rather than resolved without them."""
    missing: list[tuple[str, str]] = []
    rs = snapshot.ruleset
    combatants = (battle.aggressor, battle.defender)
    for faction in combatants:
        plan = battle.plans[faction]
        if plan.leader is None or plan.leader == DUKE:
            continue
        native = catalog().leaders[plan.leader].faction
        state = snapshot.factions[native].leaders.get(plan.leader)
        if state is not None and selected_skill(snapshot, plan) not in (None, *MODELLED_BATTLE_SKILLS, *BONUS_SKILLS):
            missing.append(
                (
                    f"the {state.skill} leader skill in battle ({plan.leader})",
                    f"/snapshot/battle/plans/{faction}/leader",
                )
            )
    # a face-up skill not modelled yet, where it could act in this battle
    for faction in snapshot.factions if skills_on(snapshot) else ():
        fighting = battle.plans[faction].leader if faction in combatants else None
        for skill, leader_id in face_up_skills(snapshot, faction, fighting).items():
            unmodelled = skill in UNMODELLED_NORMAL_IN_BATTLE
            if unmodelled and not untriggered_out(snapshot, battle, faction, skill):
                missing.append(
                    (f"the face-up {skill} skill ({leader_id})", f"/snapshot/factions/{faction}/leaders/{leader_id}")
                )
    for variant in ("stronghold-cards", "tech-tokens"):
        if variant in rs.variants:
            missing.append((f"the {variant} variant in battle", "/snapshot/ruleset/variants"))
    if battle.territory in catalog().homeworlds:
        missing.append(("homeworld battle bonuses", "/snapshot/battle/territory"))
    duke = snapshot.duke_vidal
    if duke is not None and duke.status is DukeStatus.CAPTURED and duke.by in combatants:
        captor = duke.by
        others_dead = all(
            snapshot.factions[captor].leaders.get(leader.id) is not None
            and snapshot.factions[captor].leaders[leader.id].status is LeaderStatus.TANKS
            for leader in catalog().leaders_of(captor)
            if leader.id != battle.plans[captor].leader
        )
        needs_prior = (interpretations or {}).get("duke-capture-return", "prior-controller") == "prior-controller"
        if (battle.plans[captor].leader == DUKE or others_dead) and duke.captured_from is None and needs_prior:
            # he may be given back, and one reading of duke-capture-return needs his prior holder
            missing.append(
                (
                    "the return of a captured Duke Vidal whose captured_from is not given",
                    "/snapshot/duke_vidal/captured_from",
                )
            )
    return [
        Violation("not-implemented", f"this engine version does not adjudicate {what} yet", path)
        for what, path in missing
    ]


DECLARED = RuleModule(
    implements={
        STORM_QUESTION: ("no-battle", "battle-blind"),
        BROKEN_LOAN_QUESTION: ("loan-ends", "loan-continues"),
    },
)
