"""Moritani: the ally's battle-card retention (E3 p.6)."""

from __future__ import annotations

from typing import Any

from .registers import rule
from .snapshot import Decision
from .vocabulary import ActionType


@rule("moritani.retention.choose-one-or-none")
def retention_options(decision: Decision) -> list[dict[str, Any]]:
    """The defeated ally keeps at most one eligible played card, or declines."""
    player = decision.player
    options: list[dict[str, Any]] = [
        {"type": ActionType.RETAIN_CARD.value, "player": player, "card": card} for card in decision.get("eligible", ())
    ]
    options.append({"type": ActionType.RETAIN_CARD.value, "player": player, "card": None})
    return options
