"""Karama answers: `karama-cancel` and `karama-pass` answer whichever Karama window is open.

Five kinds of window take them, Duke Vidal's acquisition, Moritani's retention, a battle's windows
before its plans (the Voice, Prescience and the later powers), the Emperor's gift of spice and a Face
Dancer reveal (question face-dancer-karama); a
Karama on a standing Voice or Prescience outside a window goes to `late_karama` (question
karama-battle-deadline); one handler sends each answer to its window, so no two modules claim the
same action, and an answer while none is open names what is open instead.
"""

from __future__ import annotations

from adjudicator.core.action import Action, Context
from adjudicator.core.results import Adjudication, Violation
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.rulings import found, ruled
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.tracing import Trace
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.battle.karama_window import answer_window
from adjudicator.rules.battle.late_karama import applies, late_cancel
from adjudicator.rules.duke_vidal import answer_karama
from adjudicator.rules.emperor import answer_gift_window
from adjudicator.rules.moritani.assassination import assassination_open, refuse_karama
from adjudicator.rules.moritani.retention import karama_response
from adjudicator.rules.tleilaxu import answer_reveal_window

WINDOWS = (
    DecisionType.DUKE_VIDAL_KARAMA.value,
    DecisionType.RETENTION_KARAMA.value,
    DecisionType.BATTLE_KARAMA.value,
    DecisionType.GIFT_KARAMA.value,
    DecisionType.FACE_DANCER_KARAMA.value,
)


def _window_open(snapshot: Snapshot, action: Action) -> Violation | None:
    pending = snapshot.pending
    windows = " or ".join(WINDOWS)
    if pending is None:
        return Violation("no-such-decision", f"no Karama window ({windows}) is open: no decision is", "/action/type")
    if pending.type not in WINDOWS:
        return Violation(
            "no-such-decision",
            f"no Karama window ({windows}) is open: the open decision is {pending.type}",
            "/action/type",
        )
    return None


@ruled(found(_window_open))
def _no_window(snapshot: Snapshot, action: Action, context: Context, trace: Trace) -> Adjudication:
    raise AssertionError("answered only while no Karama window is open")


def karama_answer(snapshot: Snapshot, action: Action, context: Context) -> Adjudication:
    pending = snapshot.pending
    if pending is not None and pending.type == DecisionType.DUKE_VIDAL_KARAMA.value:
        return answer_karama(snapshot, action, context)
    if pending is not None and pending.type == DecisionType.RETENTION_KARAMA.value:
        return karama_response(snapshot, action, context)
    if pending is not None and pending.type == DecisionType.BATTLE_KARAMA.value:
        return answer_window(snapshot, action, context)
    if pending is not None and pending.type == DecisionType.GIFT_KARAMA.value:
        return answer_gift_window(snapshot, action, context)
    if pending is not None and pending.type == DecisionType.FACE_DANCER_KARAMA.value:
        return answer_reveal_window(snapshot, action, context)
    if action.type is ActionType.KARAMA_CANCEL and assassination_open(snapshot):
        return refuse_karama(snapshot, action, context)
    if applies(snapshot, action):
        return late_cancel(snapshot, action, context)
    return _no_window(snapshot, action, context)


DECLARED = RuleModule(
    handlers={
        ActionType.KARAMA_CANCEL: karama_answer,
        ActionType.KARAMA_PASS: karama_answer,
    },
)
