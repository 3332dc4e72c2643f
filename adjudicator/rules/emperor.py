"""The Emperor's alliance power in the Battle phase (`give-spice`): spice handed to the ally, which
becomes the ally's own (so, in the advanced game, spice it may pay as battle support), and the
Karama window on it.

The gift is legal while the Emperor is allied, to the ally, for 1 to all of the Emperor's spice;
whether it may be given while a battle is under way follows question emperor-gift-during-battle. A
Karama may stop an alliance power, so the gift opens a `gift-karama` window: every faction but the
Emperor is asked in storm order, holder or not (so the window reveals nobody's hand); a
`karama-cancel` spends the card and the spice stays with the Emperor; after the last `karama-pass`
the spice moves. The decision the gift interrupted rides in the window (`resumes`) and is open again
once it closes, a battle plan awaited from the ally (or the Emperor) with its `dial_max` and
`spice_max` counted again from the new spice. A gift waits for an open Karama window to close (the
window's eligible cards would change under it). The amount given is public, but whether the gift is
legal shows the Emperor's spice, so only the Emperor (or a referee) can have it ruled
(`HIDDEN_LEGALITY`). Outside the Battle phase it is answered `not-implemented`.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.action import Action, Context
from adjudicator.core.decisions import GiftKaramaDecision, opened
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import DecisionKind, RuleModule
from adjudicator.core.rulings import illegal, resolved, ruled
from adjudicator.core.snapshot import Decision, Snapshot
from adjudicator.core.tracing import Trace, rule
from adjudicator.core.vocabulary import ActionType, DecisionType, FactionId, Phase
from adjudicator.rules.battle.plan_decision import kept_face_up, plan_decision
from adjudicator.rules.battle.plans import TRAITS_QUESTION
from adjudicator.rules.moritani.retention import held_karamas
from adjudicator.rules.state import NextSnapshot

EMPEROR = FactionId.EMPEROR.value
DURING_BATTLE = "emperor-gift-during-battle"
RULE = "emperor.alliance.give-spice"
WINDOW = DecisionType.GIFT_KARAMA.value
GIFT_POWER = "emperor-gift"
# the decisions a gift waits for: a Karama window's eligible cards would change under it
KARAMA_WINDOWS = frozenset(
    {
        DecisionType.BATTLE_KARAMA.value,
        DecisionType.RETENTION_KARAMA.value,
        DecisionType.MORITANI_SPECIAL_KARAMA.value,
        DecisionType.DUKE_VIDAL_KARAMA.value,
        DecisionType.FACE_DANCER_KARAMA.value,
        WINDOW,
    }
)


@rule("emperor.alliance.during-battle")
def gift_allowed_now(snapshot: Snapshot, context: Context) -> bool:
    return snapshot.battle is None or context.choice(DURING_BATTLE) == "any-time"


def _violations(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    if snapshot.phase is not Phase.BATTLE:
        return [
            Violation(
                "not-implemented",
                "this engine version adjudicates the Emperor's gift of spice only in the Battle phase",
                "/snapshot/phase",
            )
        ]
    if action.player != EMPEROR or EMPEROR not in snapshot.factions:
        return [Violation("not-emperor", "only the Emperor gives spice to an ally", "/action/player", RULE)]
    ally = snapshot.factions[EMPEROR].ally
    if ally is None or action.fields.get("to") != ally:
        return [Violation("not-the-ally", f"the Emperor gives spice only to its ally ({ally})", "/action/to", RULE)]
    amount = action.fields.get("amount")
    if not isinstance(amount, int) or amount < 1 or amount > snapshot.factions[EMPEROR].spice:
        return [Violation("not-enough-spice", "give from 1 to all of the Emperor's spice", "/action/amount", RULE)]
    committed = committed_share(snapshot, ally)
    if committed and amount > snapshot.factions[EMPEROR].spice - committed:
        return [
            Violation(
                "spice-committed",
                f"{committed} of the Emperor's spice is its share of {ally}'s locked support and stays until paid",
                "/action/amount",
                "battle.alliance.ally-support-spice",
            )
        ]
    if not gift_allowed_now(snapshot, context):
        return [
            Violation(
                "gift-during-battle",
                "under emperor-gift-during-battle's between-battles reading no spice is given while a battle"
                " is under way",
                "/action/type",
                "emperor.alliance.during-battle",
            )
        ]
    if snapshot.pending is not None and snapshot.pending.type in KARAMA_WINDOWS:
        return [
            Violation(
                "karama-window-open",
                f"the gift waits until the open {snapshot.pending.type} window closes",
                "/snapshot/pending/type",
                "emperor.alliance.gift-karama-asking",
            )
        ]
    return []


def committed_share(snapshot: Snapshot, ally: str) -> int:
    """The Emperor's share of its ally's locked support in the battle under way (ally-support-payment
    ally-may-pay), which it must still hold when the battle is resolved."""
    battle = snapshot.battle
    if battle is None or battle.resolution is not None or ally not in battle.plans:
        return 0
    return battle.plans[ally].ally_spice


@rule("emperor.alliance.give-spice")
def give(state: NextSnapshot, ally: str, amount: int) -> None:
    state.transfer_spice(EMPEROR, ally, amount, RULE, "the Emperor's gift to its ally")


def _refreshed(state: NextSnapshot, resumed: dict[str, Any] | None, context: Context) -> dict[str, Any] | None:
    """The decision the gift interrupted, a battle plan's limits counted again from the new spice."""
    if resumed is not None and resumed.get("type") == DecisionType.BATTLE_PLAN.value:
        following = state.as_snapshot()
        if following.battle is not None:
            traits = context.choice(TRAITS_QUESTION)
            return plan_decision(following, following.battle, resumed["player"], traits, kept_face_up(resumed))
    return resumed


@rule("emperor.alliance.gift-karama-asking")
def gift_responders(storm_order: tuple[str, ...]) -> list[str]:
    return [f for f in storm_order if f != EMPEROR]


def _asked(
    state: NextSnapshot, ally: str, amount: int, responders: list[str], resumes: dict[str, Any] | None
) -> dict[str, Any]:
    record = GiftKaramaDecision(
        to=ally,
        amount=amount,
        responders=tuple(responders[1:]),
        eligible=tuple(held_karamas(state, responders[0])),
        resumes=resumes,
    )
    return opened(responders[0], record)


@rule("emperor.alliance.gift-karama")
def open_gift_window(
    state: NextSnapshot, ally: str, amount: int, resumes: dict[str, Any] | None
) -> dict[str, Any] | None:
    # the window's first decision, or None when nobody is to be asked
    responders = gift_responders(state.storm_order)
    return _asked(state, ally, amount, responders, resumes) if responders else None


@ruled()
def give_spice(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    problems = _violations(snapshot, action, context)
    if problems:
        return illegal(snapshot, problems, trace, context)
    ally, amount = str(action.fields["to"]), int(action.fields["amount"])
    state = NextSnapshot(snapshot)
    resumes = None if snapshot.pending is None else snapshot.pending.to_dict()
    window = open_gift_window(state, ally, amount, resumes)
    pending = window
    if window is None:
        give(state, ally, amount)
        pending = _refreshed(state, resumes, context)
    state.set_pending(pending)
    outcome = state.outcome({"gift": {"from": EMPEROR, "to": ally, "amount": amount, "given": window is None}})
    return resolved(outcome, pending, context.rulebook.options(state.as_snapshot()), trace, context)


def window_options(snapshot: Snapshot, decision: Decision) -> list[dict[str, Any]]:
    window = decision.as_(GiftKaramaDecision)
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.KARAMA_CANCEL.value, "player": player, "card": card} for card in window.eligible
    ]
    options.append({"type": ActionType.KARAMA_PASS.value, "player": player})
    return options


@rule("emperor.alliance.gift-cancelled")
def cancel_gift(state: NextSnapshot, player: str, card: str) -> None:
    state.discard_from_hand(player, card)
    state.event("card-discarded", "emperor.alliance.gift-cancelled", faction=player, card=card, karama=True)
    state.event("power-cancelled", "emperor.alliance.gift-cancelled", faction=EMPEROR, power=GIFT_POWER, by=player)


def _window_answer(snapshot: Snapshot, action: Action, context: Context) -> list[Violation]:
    """The window is open (a gift may come between battles, so no battle is needed), the actor is the
    one it asks, and the answer is one of its options."""
    pending = snapshot.pending
    if pending is None or pending.type != WINDOW:
        return [Violation("no-such-decision", f"no open {WINDOW} decision to answer", "/action/type")]
    if action.player != pending.player:
        return [Violation("not-your-decision", f"the decision is {pending.player}'s", "/action/player")]
    if action.to_dict() not in window_options(snapshot, pending):
        return [
            Violation("not-an-option", "the answer is not one of the decision's options (see next.options)", "/action")
        ]
    return []


@ruled(_window_answer)
def answer_gift_window(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    pending = snapshot.pending
    assert pending is not None and action.player is not None
    window = pending.as_(GiftKaramaDecision)
    ally = str(window.to)
    resumes = None if window.resumes is None else dict(window.resumes)
    state = NextSnapshot(snapshot)
    decision: dict[str, Any] | None
    if action.type is ActionType.KARAMA_CANCEL:
        cancel_gift(state, action.player, str(action.fields["card"]))
        decision = resumes
        summary: dict[str, Any] = {"karama": {"cancelled": GIFT_POWER, "of": EMPEROR, "by": action.player}}
    elif gift_responders((action.player, *window.responders))[1:]:  # the window's order asks the next
        decision = _asked(state, ally, window.amount, list(window.responders), resumes)
        summary = {"karama": {"passed": action.player, "power": GIFT_POWER}}
    else:
        give(state, ally, window.amount)
        decision = _refreshed(state, resumes, context)
        summary = {"karama": {"passed": action.player, "stands": GIFT_POWER}}
    state.set_pending(decision)
    outcome = state.outcome(summary)
    return resolved(outcome, decision, context.rulebook.options(state.as_snapshot()), trace, context)


DECLARED = RuleModule(
    handlers={ActionType.GIVE_SPICE: give_spice},
    decisions={WINDOW: DecisionKind(window_options)},
    implements={DURING_BATTLE: ("any-time", "between-battles")},
)
