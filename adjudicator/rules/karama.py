"""Karama answers: `karama-cancel` and `karama-pass` answer whichever Karama window is open.

Two windows take them, Duke Vidal's acquisition and Moritani's retention; one handler sends each
answer to its window, so no two modules claim the same action.
"""

from __future__ import annotations

from adjudicator.core.action import Action, Context
from adjudicator.core.results import Adjudication
from adjudicator.core.rulebook import RuleModule
from adjudicator.core.snapshot import Snapshot
from adjudicator.core.vocabulary import ActionType, DecisionType
from adjudicator.rules.duke_vidal import answer_karama
from adjudicator.rules.moritani.retention import karama_response


def karama_answer(snapshot: Snapshot, action: Action, context: Context) -> Adjudication:
    pending = snapshot.pending
    if pending is not None and pending.type == DecisionType.DUKE_VIDAL_KARAMA.value:
        return answer_karama(snapshot, action, context)
    # any other state: the retention window's answer, which names what is wrong
    return karama_response(snapshot, action, context)


DECLARED = RuleModule(
    handlers={
        ActionType.KARAMA_CANCEL: karama_answer,
        ActionType.KARAMA_PASS: karama_answer,
    },
)
