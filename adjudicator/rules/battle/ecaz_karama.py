"""Ecaz's advanced special Karama in a battle: once a game, a side led by Ecaz that played no weapon
and no defense spends a Karama card after the plans are revealed to add the difference between the
two leader discs to its total.

By default (question ecaz-special-karama-timing) the snapshot names the card in `battle.ecaz_karama`
once the plans are revealed, as it lists traitor calls; under `with-plan` the plan carries it as
`special_karama`, hidden with the plan. Either way the card is shown at the reveal, so the checks at
the resolution read Ecaz's hand for any viewer. `resolve-battle` adds the difference as a line of
Ecaz's quote, discards the card and spends the power (whoever wins, a traitor call included: the card
was played). How the difference counts when Ecaz's disc is the smaller, a disc is missing or a Cheap
Hero leads, or a leader dies follows three more questions; beside a Stone Burner, whether it counts
at all follows stone-burner-ecaz-karama (the opponent's Stone Burner is no weapon of Ecaz's plan).
"""

from __future__ import annotations

from adjudicator.core.action import Context
from adjudicator.core.catalog import catalog
from adjudicator.core.results import Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Plan, Snapshot, halves_to_number
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import FactionId
from adjudicator.rules.moritani.retention import usable_as_karama
from adjudicator.rules.state import NextSnapshot

ECAZ = FactionId.ECAZ.value
PATH = "/snapshot/battle/ecaz_karama"
TIMING_QUESTION = "ecaz-special-karama-timing"
WEAKER_QUESTION = "ecaz-special-karama-weaker-leader"
NO_DISC_QUESTION = "ecaz-special-karama-missing-disc"
KILLED_QUESTION = "ecaz-special-karama-killed-leader"
BURNER_QUESTION = "stone-burner-ecaz-karama"

Line = tuple[int, dict[str, object]]


def _other(battle: Battle, faction: str) -> str:
    return battle.defender if faction == battle.aggressor else battle.aggressor


def played_card(battle: Battle) -> str | None:
    """The Karama card Ecaz plays for its special Karama in this battle: named after the reveal, or
    committed with its plan."""
    if battle.ecaz_karama is not None:
        return battle.ecaz_karama
    plan = battle.plans.get(ECAZ)
    return None if plan is None else plan.special_karama


@rule("ecaz.special-karama.timing")
def timing_violation(context: Context, after_reveal: bool, path: str) -> Violation | None:
    choice = context.choice(TIMING_QUESTION)
    if (choice == "after-reveal") == after_reveal:
        return None
    when = "once the plans are revealed" if choice == "after-reveal" else "with Ecaz's plan"
    return Violation(
        "special-karama-timing",
        f"under the reading {choice} of {TIMING_QUESTION} Ecaz plays its special Karama {when}",
        path,
        "ecaz.special-karama.timing",
    )


@rule("ecaz.special-karama.conditions")
def karama_problems(
    snapshot: Snapshot, faction: str, plan: Plan, card: str, path: str, hand_known: bool
) -> list[Violation]:
    rule_id = "ecaz.special-karama.conditions"
    ecaz = snapshot.factions.get(ECAZ)
    if not snapshot.ruleset.advanced or ecaz is None or faction != ECAZ:
        return [
            Violation("special-karama-unavailable", "only the advanced Ecaz have this special Karama", path, rule_id)
        ]
    if ecaz.special_karama_used:
        return [Violation("special-karama-unavailable", "Ecaz has used its special Karama this game", path, rule_id)]
    if plan.weapon is not None or plan.defense is not None:
        return [
            Violation(
                "weapon-or-defense-played",
                "Ecaz's special Karama needs a plan with neither a weapon nor a defense",
                path,
                rule_id,
            )
        ]
    if hand_known and card not in usable_as_karama(ecaz.hand, ECAZ, True):
        return [Violation("no-karama-card", f"Ecaz holds no Karama card {card}", path, rule_id)]
    return []


def plan_karama_problems(snapshot: Snapshot, faction: str, plan: Plan, hand_known: bool) -> list[Violation]:
    """A plan committing Ecaz's special Karama (reading with-plan): the checks of the power itself."""
    assert plan.special_karama is not None
    path = f"/snapshot/battle/plans/{faction}/special_karama"
    return karama_problems(snapshot, faction, plan, plan.special_karama, path, hand_known)


def ecaz_karama_violations(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    """At the battle's resolution: the reading's moment, and the power's checks for a card named after
    the reveal (a plan's card had them as its plan was checked; its hand is read here in the open, the
    card being revealed with the plan)."""
    plan = battle.plans[ECAZ]
    if battle.ecaz_karama is not None:
        timing = timing_violation(context, True, PATH)
        if timing is not None:
            return [timing]
        found = karama_problems(snapshot, ECAZ, plan, battle.ecaz_karama, PATH, True)
    else:
        path = f"/snapshot/battle/plans/{ECAZ}/special_karama"
        timing = timing_violation(context, False, path)
        if timing is not None:
            return [timing]
        found = []
        held = usable_as_karama(snapshot.factions[ECAZ].hand, ECAZ, True)
        if context.viewer not in (None, ECAZ) and plan.special_karama not in held:
            found.append(
                Violation(
                    "no-karama-card",
                    f"Ecaz holds no Karama card {plan.special_karama}",
                    path,
                    "ecaz.special-karama.conditions",
                )
            )
    return found


def _disc_halves(plan: Plan, opposing: Plan) -> int | None:
    """The value of the plan's leader disc in half-points (Zoal worth the opposing disc); a Cheap Hero
    0; None without either."""
    if plan.leader is None:
        return None if plan.cheap_hero is None else 0
    leader = catalog().leaders[plan.leader]
    if leader.strength_rule == "copies-opponent":
        other = catalog().leaders.get(opposing.leader or "")
        return 2 * (other.strength or 0) if other is not None and other.strength_rule is None else 0
    return 2 * (leader.strength or 0)


@rule("ecaz.special-karama.missing-disc")
def missing_disc(choice: str, own: Plan, other: Plan) -> bool:
    if (own.leader is None and own.cheap_hero is None) or (other.leader is None and other.cheap_hero is None):
        return True
    return choice == "leader-discs-only" and (own.leader is None or other.leader is None)


@rule("ecaz.special-karama.killed-leader")
def killed_disc_counts(choice: str) -> bool:
    return choice == "discs-count"


@rule("ecaz.special-karama.weaker-leader")
def weaker_difference(choice: str, own: int, other: int) -> int:
    return abs(own - other) if choice == "absolute" else max(own - other, 0)


@rule("ecaz.special-karama.dial")
def ecaz_karama_lines(battle: Battle, faction: str, killed: dict[str, bool], context: Context) -> list[Line]:
    card = played_card(battle)
    if faction != ECAZ or card is None:
        return []
    own_plan, other_plan = battle.plans[ECAZ], battle.plans[_other(battle, ECAZ)]
    halves = 0
    if not missing_disc(context.choice(NO_DISC_QUESTION), own_plan, other_plan):
        own, other = _disc_halves(own_plan, other_plan), _disc_halves(other_plan, own_plan)
        assert own is not None and other is not None
        if not killed_disc_counts(context.choice(KILLED_QUESTION)):
            own = 0 if killed[ECAZ] else own
            other = 0 if killed[_other(battle, ECAZ)] else other
        halves = weaker_difference(context.choice(WEAKER_QUESTION), own, other)
    return [
        (
            halves,
            {
                "part": "ecaz-special-karama",
                "card": card,
                "value": halves_to_number(halves),
                "rule": "ecaz.special-karama.dial",
            },
        )
    ]


@rule("ecaz.special-karama.stone-burner")
def burner_ecaz_karama_lines(battle: Battle, faction: str, killed: dict[str, bool], context: Context) -> list[Line]:
    card = played_card(battle)
    if faction != ECAZ or card is None:
        return []
    if context.choice(BURNER_QUESTION) == "difference-counts":
        return ecaz_karama_lines(battle, faction, killed, context)
    line = {"part": "ecaz-special-karama", "card": card, "value": 0, "rule": "ecaz.special-karama.stone-burner"}
    return [(0, line)]


@rule("ecaz.special-karama.spent")
def spend_ecaz_karama(state: NextSnapshot, card: str) -> None:
    state.discard_from_hand(ECAZ, card)
    state.event("card-discarded", "ecaz.special-karama.spent", faction=ECAZ, card=card, karama=True)
    state.spend_special_karama(ECAZ)
    state.spend_ecaz_karama()
    state.event("special-karama-used", "ecaz.special-karama.spent", faction=ECAZ, card=card)


DECLARED = RuleModule(
    implements={
        TIMING_QUESTION: ("after-reveal", "with-plan"),
        WEAKER_QUESTION: ("absolute", "none-when-weaker"),
        NO_DISC_QUESTION: ("cheap-hero-zero", "leader-discs-only"),
        KILLED_QUESTION: ("discs-count", "surviving-discs"),
        BURNER_QUESTION: ("nothing-added", "difference-counts"),
    },
)
