"""Moritani's advanced Assassinate Leaders (E3, Moritani advanced powers; read only in secondary
summaries and public implementations, so every rule here is a composition or an ordering).

After a battle Moritani lost, with no traitor called and the winner's leader alive, Moritani may
reveal a Traitor card of the winner's faction naming another leader: that leader goes to the Tanks
and Moritani collects its strength from the bank. Once per opposing faction a game; a traitor called
the ordinary way forfeits the power (question moritani-assassinate-forfeit-scope says how much of it).
The revealed card stays held until the turn ends, then it is set aside face up and Moritani draws a
new Traitor card (`end-turn`).

Whether the decision opens rests on public facts alone (the advanced game, the battle's outcome, the
factions already assassinated, the forfeit): Moritani is asked whatever Traitor cards it holds and
can always decline, so neither the question nor a decline tells anyone what it holds; the cards it
could reveal (`eligible`) and its options are Moritani's alone.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.catalog import catalog
from adjudicator.core.decisions import AssassinationDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, found, ruled
from adjudicator.core.snapshot import Battle, Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import MORITANI, ActionType, BattleResult, DecisionType, FactionId, LeaderStatus
from adjudicator.rules.ghola import DEATH_QUESTION as GHOLA_DEATH_QUESTION
from adjudicator.rules.ghola import ghola_dies
from adjudicator.rules.harkonnen import captives_return_when_leaderless, harkonnen_leaderless
from adjudicator.rules.state import NextSnapshot, finish

FORFEIT_QUESTION = "moritani-assassinate-forfeit-scope"
TARGET_QUESTION = "moritani-assassinate-target-elsewhere"
ZOAL_QUESTION = "moritani-assassinate-zoal-value"
REVEALED_QUESTION = "moritani-assassinate-revealed-card"
ZOAL = "zoal"
HARKONNEN = FactionId.HARKONNEN.value


def _faction_of(leader: str) -> str:
    return catalog().leaders[leader].faction


def _in_game(snapshot: Snapshot) -> bool:
    return (
        snapshot.ruleset.advanced and MORITANI in snapshot.factions and "ecaz-moritani" in snapshot.ruleset.expansions
    )


@rule("moritani.assassinate.forfeit")
def forfeited_against(forfeited: bool, called: tuple[str, ...], opponent: str, choice: str) -> bool:
    if not forfeited:
        return False
    if choice == "that-faction":
        return any(_faction_of(leader) == opponent for leader in called)
    return True


@rule("moritani.assassinate.once-per-faction")
def used_against(assassinated: tuple[str, ...], opponent: str) -> bool:
    return any(_faction_of(leader) == opponent for leader in assassinated)


@rule("moritani.assassinate.opportunity")
def assassination_opportunity(
    state: NextSnapshot, winner: str, winner_leader: str | None, survived: bool, context: Context
) -> bool:
    if winner_leader is None or not survived:
        return False  # no leader of the winner's (a Cheap Hero is none), or it died
    if used_against(state.assassinated(MORITANI), winner):
        return False
    forfeited = state.assassination_forfeited(MORITANI)
    choice = context.choice(FORFEIT_QUESTION) if forfeited else ""
    return not forfeited_against(forfeited, state.called_traitors(MORITANI), winner, choice)


@rule("moritani.assassinate.asked-always")
def asked_whatever_the_traitors() -> None:
    pass


@rule("moritani.assassinate.cleanup-order")
def after_the_winners_steps() -> None:
    pass


def assassination_step(
    snapshot: Snapshot,
    state: NextSnapshot,
    result: BattleResult,
    winner: str | None,
    loser: str | None,
    winner_leader: str | None,
    survived: bool,
    context: Context,
) -> bool:
    """Called by the battle resolution: whether Moritani's Assassinate Leaders opens after this battle."""
    if not _in_game(snapshot) or loser != MORITANI or winner is None or result is not BattleResult.DECIDED:
        return False  # no loss, or a traitor decided the battle (or none won it)
    if not assassination_opportunity(state, winner, winner_leader, survived, context):
        return False
    asked_whatever_the_traitors()
    after_the_winners_steps()
    return True


@rule("moritani.assassinate.eligible-cards")
def eligible_cards(
    held: tuple[str, ...], assassinated: tuple[str, ...], called: tuple[str, ...], opponent: str, leader: str | None
) -> list[str]:
    return [
        card
        for card in held
        if _faction_of(card) == opponent and card != leader and card not in assassinated and card not in called
    ]


def assassination_cards(snapshot: Snapshot) -> list[str]:
    """The Traitor cards Moritani could reveal after the battle now resolved (for the snapshot check)."""
    battle = snapshot.battle
    resolution = battle.resolution if battle is not None else None
    if battle is None or resolution is None or resolution.winner is None or MORITANI not in snapshot.factions:
        return []
    moritani = snapshot.factions[MORITANI]
    plan = battle.plans.get(resolution.winner)
    leader = plan.leader if plan is not None else None
    return eligible_cards(moritani.traitors, moritani.assassinated, moritani.called_traitors, resolution.winner, leader)


def _decision(state: NextSnapshot) -> dict[str, Any]:
    winner = state.winner
    assert winner is not None
    eligible = eligible_cards(
        state.traitors(MORITANI),
        state.assassinated(MORITANI),
        state.called_traitors(MORITANI),
        winner,
        state.plan(winner).leader,
    )
    record = AssassinationDecision(
        owner=MORITANI, opponent=winner, territory=state.battle_territory, eligible=tuple(eligible)
    )
    return opened(MORITANI, record)


def assassination_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """Reveal one eligible card, or decline (with no eligible card, decline alone)."""
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.ASSASSINATE_LEADER.value, "player": player, "leader": card}
        for card in decision.as_(AssassinationDecision).eligible
    ]
    options.append({"type": ActionType.ASSASSINATE_LEADER.value, "player": player, "leader": None})
    return options


@rule("moritani.assassinate.target-elsewhere")
def kills_elsewhere(choice: str) -> bool:
    return choice == "kills"


@rule("moritani.assassinate.zoal-value")
def zoal_value(choice: str) -> int:
    return 3 if choice == "three" else 0


@rule("moritani.assassinate.dead-target")
def target_already_dead() -> None:
    pass


@rule("moritani.assassinate.kill")
def kill_target(state: NextSnapshot, leader: str, amount: int, keep_ghola: bool = False) -> None:
    state.leader_to_tanks(leader, "moritani.assassinate.kill", keep_ghola)
    state.pay_from_bank(MORITANI, amount, "moritani.assassinate.kill", "assassination")


@rule("moritani.assassinate.skill-card")
def skill_card_leaves(state: NextSnapshot, leader: str, skill: str, face_up: bool) -> None:
    # a card behind its owner's shield stays its owner's to know
    seen = {} if face_up else {"visible_to": [_faction_of(leader)]}
    state.event("skill-card-lost", "moritani.assassinate.skill-card", leader=leader, skill=skill, **seen)


def _strength(leader: str, context: Context) -> int:
    if leader == ZOAL:
        return zoal_value(context.choice(ZOAL_QUESTION))
    return int(catalog().leaders[leader].strength or 0)


def reveal_for_assassination(state: NextSnapshot, leader: str, context: Context) -> dict[str, Any]:
    native = _faction_of(leader)
    assert not used_against(state.assassinated(MORITANI), native), "an option names a faction not yet assassinated"
    state.record_assassination(MORITANI, leader)
    state.event("traitor-revealed", "moritani.assassinate.once-per-faction", faction=MORITANI, leader=leader)
    entry = state.leader_states(native).get(leader)
    if entry is not None and entry.status is LeaderStatus.TANKS:
        target_already_dead()
        return {"leader": leader, "killed": False, "spice": 0}
    elsewhere = entry is not None and (entry.status is LeaderStatus.CAPTURED or entry.ghola)
    if elsewhere and not kills_elsewhere(context.choice(TARGET_QUESTION)):
        return {"leader": leader, "killed": False, "spice": 0}
    amount = _strength(leader, context)
    # a ghola killed goes to the Tanks as question ghola-death reads it, as in a battle
    stays = entry is not None and entry.ghola and ghola_dies(context.choice(GHOLA_DEATH_QUESTION))
    kill_target(state, leader, amount, stays)
    if entry is not None and entry.skill is not None:
        skill_card_leaves(state, leader, entry.skill, entry.skill_face_up is not False)
    if native == HARKONNEN and harkonnen_leaderless(state):
        captives_return_when_leaderless(state, context.interpretations)
    return {"leader": leader, "killed": True, "spice": amount}


@rule("moritani.assassinate.decline")
def decline_assassination() -> None:
    pass


@ruled(answers(DecisionType.MORITANI_ASSASSINATION.value))
def assassinate_leader(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    state = NextSnapshot(snapshot)
    leader = action.fields.get("leader")
    if leader is None:
        decline_assassination()
        summary: dict[str, Any] = {"leader": None}
    else:
        summary = reveal_for_assassination(state, str(leader), context)
    state.step_done()
    return finish(snapshot, state, {"moritani": {"assassination": summary}}, trace, context)


# --- the forfeit, the revealed card, Karama ---------------------------------------------------------
def forfeit_by_traitor_call(snapshot: Snapshot, state: NextSnapshot, caller: str, leader: str | None) -> None:
    """Called as a traitor call succeeds: Moritani revealing its own Traitor card forfeits the power."""
    if caller != MORITANI or not _in_game(snapshot) or leader is None:
        return
    if leader in state.traitors(MORITANI) and not state.assassination_forfeited(MORITANI):
        forfeit_assassination(state)


@rule("moritani.assassinate.forfeited-by-call")
def forfeit_assassination(state: NextSnapshot) -> None:
    state.forfeit_assassination(MORITANI)
    state.event("assassination-forfeited", "moritani.assassinate.forfeited-by-call", faction=MORITANI)


@rule("moritani.assassinate.revealed-card")
def revealed_card_spent(choice: str) -> bool:
    return choice == "spent"


def revealed_card_calls(snapshot: Snapshot, battle: Battle, context: Context) -> list[Violation]:
    """A traitor call with a Traitor card Moritani already revealed to assassinate (still held until
    the turn ends): refused under the default reading of moritani-assassinate-revealed-card."""
    found_: list[Violation] = []
    moritani = snapshot.factions.get(MORITANI)
    if moritani is None or not moritani.assassinated:
        return found_
    for i, caller in enumerate(battle.traitor_calls):
        if caller != MORITANI:
            continue
        opponent = battle.defender if caller == battle.aggressor else battle.aggressor
        target = battle.plans[opponent].leader
        if target in moritani.assassinated and revealed_card_spent(context.choice(REVEALED_QUESTION)):
            found_.append(
                Violation(
                    "traitor-card-revealed",
                    f"Moritani revealed the Traitor card of {target} to assassinate: it betrays no one now",
                    f"/snapshot/battle/traitor_calls/{i}",
                    "moritani.assassinate.revealed-card",
                )
            )
    return found_


@rule("moritani.assassinate.karama-no-effect")
def karama_has_no_effect() -> Violation:
    return Violation(
        "karama-no-effect",
        "a Karama has no effect on Moritani's Assassinate Leaders",
        "/action/type",
        "moritani.assassinate.karama-no-effect",
    )


def assassination_open(snapshot: Snapshot) -> bool:
    pending = snapshot.pending
    return pending is not None and pending.type == DecisionType.MORITANI_ASSASSINATION.value


def _refused(snapshot: Snapshot, action: Action) -> Violation:
    return karama_has_no_effect()


@ruled(found(_refused))
def refuse_karama(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    raise AssertionError("a Karama on the assassination is always refused")


# --- the Mentat Pause -------------------------------------------------------------------------------
def awaiting_redraw(snapshot: Snapshot) -> list[str]:
    """The revealed Traitor cards Moritani still holds: each is set aside, and replaced, as the turn ends."""
    moritani = snapshot.factions.get(MORITANI)
    if moritani is None:
        return []
    return [leader for leader in moritani.assassinated if leader in moritani.traitors]


def redraw_violation(snapshot: Snapshot) -> Violation | None:
    if snapshot.traitor_deck is None and awaiting_redraw(snapshot):
        return Violation(
            "traitor-deck-required",
            "Moritani draws a new Traitor card as the turn ends: the snapshot needs its traitor_deck",
            "/snapshot/traitor_deck",
            "moritani.assassinate.mentat-redraw",
        )
    return None


@rule("moritani.assassinate.mentat-redraw")
def redraw_traitors(snapshot: Snapshot, state: NextSnapshot) -> list[str]:
    set_aside = awaiting_redraw(snapshot)
    for leader in set_aside:
        drawn = state.draw_traitor_cards(1)
        new = drawn[0] if drawn else None
        state.replace_traitor_card(MORITANI, leader, new)
        state.event("traitor-card-set-aside", "moritani.assassinate.mentat-redraw", faction=MORITANI, leader=leader)
        if new is not None:
            state.event(
                "traitor-card-drawn",
                "moritani.assassinate.mentat-redraw",
                faction=MORITANI,
                card=new,
                visible_to=[MORITANI],
            )
    return set_aside


DECLARED = RuleModule(
    handlers={
        ActionType.ASSASSINATE_LEADER: assassinate_leader,
    },
    decisions={
        DecisionType.MORITANI_ASSASSINATION.value: DecisionKind(assassination_options, self_contained=True),
    },
    steps={
        DecisionType.MORITANI_ASSASSINATION.value: _decision,
    },
    implements={
        FORFEIT_QUESTION: ("whole-ability", "that-faction"),
        TARGET_QUESTION: ("kills", "no-effect"),
        ZOAL_QUESTION: ("three", "zero"),
        REVEALED_QUESTION: ("spent", "callable-until-mentat"),
    },
)
