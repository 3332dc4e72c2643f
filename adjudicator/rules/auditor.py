"""CHOAM's Auditor (advanced game): after a battle it fought for CHOAM, CHOAM looks at cards drawn at
random from the opponent's hand, unless the opponent pays CHOAM to prevent it.

The step opens when the battle resolves, first of its cleanup steps, while the opponent's hand still
holds exactly the cards it did not play. The draw follows the snapshot's seed and that hand, so the
same request always draws the same cards: when the opponent answers (before-draw, the default of
auditor-payment-timing), or as the decision opens, its cards kept in the decision's `drawn` for the
opponent to see before it answers (after-draw). The payment
decision's options show how much spice the opponent can pay, so the decision is private to it; the
cards seen are shown to CHOAM alone (every other viewer learns that the inspection happened, and of
how many cards).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from adjudicator.core.action import Action, Context, choice_of
from adjudicator.core.decisions import AuditPayment, opened
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import answers, ruled
from adjudicator.core.snapshot import Battle, Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, BattlePower, DecisionType, FactionId, LeaderStatus
from adjudicator.rules.state import NextSnapshot, finish

AUDITOR = "auditor"
CHOAM = FactionId.CHOAM.value
SURVIVED, KILLED = 2, 1
PRICE = 1  # spice per card kept from CHOAM's eyes

SCOPE_QUESTION = "auditor-payment-scope"
TRAITOR_QUESTION = "auditor-traitor-call"
TIMING_QUESTION = "auditor-payment-timing"
ALL_OR_NOTHING = "all-or-nothing"
PER_CARD = "per-card"
PAYMENT_SCOPES = (ALL_OR_NOTHING, PER_CARD)


def audit_sides(battle: Battle) -> tuple[str, str] | None:
    """(the side whose leader is the Auditor, its opponent), or None when the Auditor did not fight."""
    for side, other in ((battle.aggressor, battle.defender), (battle.defender, battle.aggressor)):
        plan = battle.plans.get(side)
        if plan is not None and plan.leader == AUDITOR:
            return side, other
    return None


@rule("choam.auditor.inspection")
def inspection_size(survived: bool) -> int:
    return SURVIVED if survived else KILLED


@rule("choam.auditor.fewer-cards")
def cards_at_stake(size: int, hand: tuple[str, ...]) -> int:
    return min(size, len(hand))


@rule("choam.auditor.traitor-call")
def audit_after_traitor(choice: str) -> bool:
    return choice == "audit-as-killed"


@rule("choam.auditor.payment-timing")
def payment_before_draw(choice: str) -> bool:
    return choice == "before-draw"


@rule("battle.karama.choam-audit")
def audit_karama(state: NextSnapshot, choam: str) -> None:
    state.event("power-cancelled", "battle.karama.choam-audit", faction=choam, power=BattlePower.CHOAM_AUDIT.value)


@rule("choam.auditor.cleanup-order")
def audit_opens_first() -> None:
    pass


def audit_step(state: NextSnapshot, battle: Battle, auditor_killed: bool, context: Context) -> bool:
    """Called by the battle resolution: whether the Auditor's payment decision is to open."""
    sides = audit_sides(battle)
    if sides is None:
        return False
    choam, opponent = sides
    if battle.karama and battle.cancelled(BattlePower.CHOAM_AUDIT.value, choam):
        audit_karama(state, choam)
        return False
    if opponent in battle.traitor_calls and not audit_after_traitor(context.choice(TRAITOR_QUESTION)):
        state.event("audit-cancelled", "choam.auditor.traitor-call", faction=choam, opponent=opponent)
        return False
    payment_before_draw(context.choice(TIMING_QUESTION))
    count = cards_at_stake(inspection_size(not auditor_killed), state.hand(opponent))
    if count == 0:
        state.event("audit-empty", "choam.auditor.fewer-cards", faction=choam, opponent=opponent, count=0)
        return False
    audit_opens_first()
    return True


def draw_cards(snapshot: Snapshot, hand: tuple[str, ...], count: int) -> list[str]:
    """`count` cards of `hand` at random, from the snapshot's seed, turn and battle."""
    battle = snapshot.battle
    assert battle is not None
    rng = random.Random(f"{snapshot.seed}:{snapshot.turn}:{battle.territory}:{'|'.join(hand)}:auditor")
    return rng.sample(list(hand), min(count, len(hand)))


def expected_audit(snapshot: Snapshot) -> tuple[str, str, int] | None:
    """(CHOAM, the asked faction, the cards at stake) of a resolved battle's open inspection, as the
    board now stands: for the snapshot checks."""
    battle = snapshot.battle
    if battle is None:
        return None
    sides = audit_sides(battle)
    if sides is None or sides[0] not in snapshot.factions or sides[1] not in snapshot.factions:
        return None
    choam, opponent = sides
    if battle.karama and battle.cancelled(BattlePower.CHOAM_AUDIT.value, choam):
        return None  # a cancelled audit asks nothing
    auditor = snapshot.factions[choam].leaders.get(AUDITOR)
    survived = auditor is None or auditor.status is not LeaderStatus.TANKS
    return choam, opponent, min(inspection_size(survived), len(snapshot.factions[opponent].hand))


def _audit_decision(state: NextSnapshot) -> dict[str, Any]:
    following = state.as_snapshot()
    expected = expected_audit(following)
    assert expected is not None and following.battle is not None, "an Auditor's battle"
    choam, opponent, count = expected
    scope = payment_scope(choice_of(state.readings, SCOPE_QUESTION))
    before = payment_before_draw(choice_of(state.readings, TIMING_QUESTION))
    drawn = () if before else tuple(draw_cards(following, following.factions[opponent].hand, count))
    territory = following.battle.territory
    return opened(opponent, AuditPayment(territory=territory, owner=choam, count=count, scope=scope, drawn=drawn))


@rule("choam.auditor.payment")
def payment_scope(choice: str) -> str:
    return choice


def payment_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    """Preventing is listed for each number of cards the reading allows and the payer can pay for now;
    accepting always is."""
    audit = decision.as_(AuditPayment)
    player = str(decision.player)
    count = int(audit.count or 0)
    faction = snapshot.factions.get(player)
    spice = faction.spice if faction is not None else 0
    accept = {"type": ActionType.ACCEPT_AUDIT.value, "player": player}
    kind = ActionType.PREVENT_AUDIT.value
    if audit.drawn and audit.scope == PER_CARD:  # after the draw, the payer picks the cards it covers
        covered = [list(c) for n in range(len(audit.drawn), 0, -1) for c in itertools.combinations(audit.drawn, n)]
        return [
            *({"type": kind, "player": player, "count": len(c), "cards": c} for c in covered if len(c) <= spice),
            accept,
        ]
    amounts = range(count, 0, -1) if audit.scope == PER_CARD else (count,)
    prevent = [{"type": kind, "player": player, "count": n} for n in amounts if n and PRICE * n <= spice]
    return [*prevent, accept]


@rule("choam.auditor.random-draw")
def inspect(
    snapshot: Snapshot, state: NextSnapshot, choam: str, opponent: str, count: int, drawn: list[str] | None = None
) -> list[str]:
    seen = draw_cards(snapshot, state.hand(opponent), count) if drawn is None else drawn
    state.event(
        "hand-audited",
        "choam.auditor.random-draw",
        faction=choam,
        opponent=opponent,
        count=len(seen),
        cards=seen,
        visible_to=[choam],
    )
    return seen


@ruled(answers(DecisionType.AUDIT_PAYMENT.value))
def prevent_audit(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert snapshot.pending is not None and action.player is not None
    audit = snapshot.pending.as_(AuditPayment)
    choam, count = str(audit.owner), int(audit.count or 0)
    prevented = int(action.fields["count"])
    payment_scope(str(audit.scope))
    state = NextSnapshot(snapshot)
    state.transfer_spice(action.player, choam, PRICE * prevented, "choam.auditor.payment", "audit prevented")
    if audit.drawn:  # drawn as the decision opened: CHOAM sees those the payment did not cover
        covered = list(action.fields.get("cards") or audit.drawn[:prevented])
        left = list(audit.drawn)
        for card in covered:
            if card in left:
                left.remove(card)
        seen = inspect(snapshot, state, choam, action.player, len(left), left) if left else []
    else:
        seen = inspect(snapshot, state, choam, action.player, count - prevented) if prevented < count else []
    state.step_done()
    summary = {"audit": {"faction": action.player, "prevented": prevented, "seen": len(seen)}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


@ruled(answers(DecisionType.AUDIT_PAYMENT.value))
def accept_audit(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    assert snapshot.pending is not None and action.player is not None
    audit = snapshot.pending.as_(AuditPayment)
    payment_scope(str(audit.scope))
    state = NextSnapshot(snapshot)
    drawn = list(audit.drawn) if audit.drawn else None
    seen = inspect(snapshot, state, str(audit.owner), action.player, int(audit.count or 0), drawn)
    state.step_done()
    summary = {"audit": {"faction": action.player, "prevented": 0, "seen": len(seen)}}
    return finish(snapshot, state, {"battle": summary}, trace, context)


DECLARED = RuleModule(
    handlers={
        ActionType.PREVENT_AUDIT: prevent_audit,
        ActionType.ACCEPT_AUDIT: accept_audit,
    },
    decisions={DecisionType.AUDIT_PAYMENT.value: DecisionKind(payment_options)},
    steps={DecisionType.AUDIT_PAYMENT.value: _audit_decision},
    implements={
        SCOPE_QUESTION: PAYMENT_SCOPES,
        TRAITOR_QUESTION: ("audit-as-killed", "no-audit"),
        TIMING_QUESTION: ("before-draw", "after-draw"),
    },
)
