"""CHOAM's share of the support spice paid in a battle of the advanced game.

Each payment a battle charges (a side's own support, its ally's share) is a `SupportPayment`;
`choam_portions` says how much of each goes to CHOAM, the rest going to the bank. A side's share is
taken from its own payment first, then from its ally's; with one share for the whole battle
(question choam-share-halving, `per-battle`), from the aggressor's payments first. The part of
CHOAM's own payment for its ally that comes back to it (question choam-ally-payment-share,
`half-returns`) is never paid: CHOAM pays the bank the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.action import Context
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Battle, Snapshot
from adjudicator.core.tracing import rule
from adjudicator.core.vocabulary import BattlePower, BattleResult, FactionId

CHOAM = FactionId.CHOAM.value
HALVING_QUESTION = "choam-share-halving"
TRAITOR_QUESTION = "choam-share-traitor"
ALLY_PAYMENT_QUESTION = "choam-ally-payment-share"


@dataclass(frozen=True, slots=True)
class SupportPayment:
    side: str  # whose plan the spice supports
    payer: str  # the side itself, or its ally paying its share
    amount: int
    reason: str  # `support` or `ally-support`, as the payment's event says
    rule_id: str  # the rule its event names


def choam_share_in_play(snapshot: Snapshot, battle: Battle) -> bool:
    """Whether CHOAM's share is a power of this battle: the advanced game with CHOAM at the table."""
    return snapshot.ruleset.advanced and CHOAM in snapshot.factions


def choam_portions(
    snapshot: Snapshot, battle: Battle, result: BattleResult, payments: list[SupportPayment], context: Context
) -> list[int]:
    """How much of each payment goes to CHOAM (0 for each when it receives nothing)."""
    none = [0] * len(payments)
    if not choam_share_in_play(snapshot, battle) or not payments:
        return none
    if battle.cancelled(BattlePower.CHOAM_SHARE.value, CHOAM):
        share_cancelled()
        return none
    eligible = [p.side != CHOAM and p.payer != CHOAM for p in payments]
    for_ally = [p.side != CHOAM and p.payer == CHOAM for p in payments]  # CHOAM paying for its ally
    if sum(p.amount for p, a, b in zip(payments, eligible, for_ally, strict=True) if a or b) <= 1:
        return none  # nothing to halve: no reading gives CHOAM any spice
    if any(for_ally) and ally_payment_comes_back(context.choice(ALLY_PAYMENT_QUESTION)):
        eligible = [a or b for a, b in zip(eligible, for_ally, strict=True)]
    if sum(p.amount for p, a in zip(payments, eligible, strict=True) if a) <= 1:
        return none
    if result in (BattleResult.SINGLE_TRAITOR, BattleResult.DOUBLE_TRAITOR) and not traitor_battle_shares(
        context.choice(TRAITOR_QUESTION)
    ):
        return none
    if result is BattleResult.EXPLOSION:
        explosion_shares()
    return halved(payments, eligible, context.choice(HALVING_QUESTION))


@rule("choam.forces.support-share")
def halved(payments: list[SupportPayment], eligible: list[bool], halving: str) -> list[int]:
    groups: dict[str, list[int]] = {}  # the payments halved together, in the battle's order
    for i, (payment, counted) in enumerate(zip(payments, eligible, strict=True)):
        if counted:
            key = group_of(payment, i, halving)
            groups.setdefault(key, []).append(i)
    portions = [0] * len(payments)
    for members in groups.values():
        share = sum(payments[i].amount for i in members) // 2
        for i in members:  # taken from the first payments of the group first
            portions[i] = min(share, payments[i].amount)
            share -= portions[i]
    return portions


@rule("choam.forces.halving")
def group_of(payment: SupportPayment, index: int, halving: str) -> str:
    if halving == "per-battle":
        return "battle"
    if halving == "per-payment":
        return f"payment-{index}"
    return payment.side


@rule("choam.forces.traitor")
def traitor_battle_shares(choice: str) -> bool:
    return choice == "payments-still-shared"


@rule("choam.forces.explosion")
def explosion_shares() -> None:
    pass


@rule("choam.alliance.payment-share")
def ally_payment_comes_back(choice: str) -> bool:
    return choice == "half-returns"


@rule("battle.karama.choam-share")
def share_cancelled() -> None:
    pass


DECLARED = RuleModule(
    implements={
        HALVING_QUESTION: ("per-side", "per-payment", "per-battle"),
        TRAITOR_QUESTION: ("none-if-traitor", "payments-still-shared"),
        ALLY_PAYMENT_QUESTION: ("to-bank", "half-returns"),
    },
)
