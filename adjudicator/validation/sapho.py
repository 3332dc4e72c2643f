"""Juice of Sapho's turn-order use: the order of aggressors it set (`aggressor_order`), kept for the
Battle phase, and the window on it (`sapho-order`) as the phase begins."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from adjudicator.core.catalog import copies_in_play
from adjudicator.core.decisions import SaphoOrderDecision
from adjudicator.core.vocabulary import DecisionType, Phase
from adjudicator.rules.battle.cache_cards import SAPHO
from adjudicator.rules.battle.order import battles_to_fight
from adjudicator.rules.battle.preconditions import STORM_QUESTION
from adjudicator.rules.battle.sapho_order import POSITIONS, moved_order, sapho_at_large, sapho_cards
from adjudicator.validation.base import Checker
from adjudicator.validation.battle import STORM_READINGS

_WHERE = "aggressor_order"


class SaphoChecks(Checker):
    """The order of aggressors Juice of Sapho set, and the window that offers the card."""

    def decision_checks(self) -> Mapping[str, Callable[[], None]]:
        """The open decisions this part checks, by type."""
        return {DecisionType.SAPHO_ORDER.value: self.window_decision}

    def aggressor_order(self) -> None:
        """Kept only in a Battle phase of a ruleset with the card: every faction of the game once, in
        storm order but for one faction moved to its front or its back."""
        order = self.s.aggressor_order
        if order is None:
            return
        if self.s.phase is not Phase.BATTLE:
            self.add("record-out-of-step", "the order of aggressors is kept for the Battle phase only", _WHERE)
        rs = self.s.ruleset
        if not copies_in_play(SAPHO, rs.expansions, rs.variants):
            self.add("card-not-in-ruleset", "only Juice of Sapho (CHOAM & Richese) changes the order", _WHERE)
        seen: set[str] = set()
        for i, faction in enumerate(order):
            if faction not in self.in_game:
                self.add("faction-not-in-game", f"{faction} is not in this game", _WHERE, i)
            elif faction in seen:
                self.add("duplicate", f"{faction} is listed twice", _WHERE, i)
            seen.add(faction)
        if len(seen) != len(order) or not seen <= self.in_game:
            return
        storm = self.s.storm_order
        if not any(order == moved_order(storm, faction, position) for faction in storm for position in POSITIONS):
            self.add(
                "storm-order-mismatch",
                "aggressor_order must be storm_order with one faction moved to its front or its back",
                _WHERE,
            )

    def window_decision(self) -> None:
        """The window opens as the phase begins (no battle under way, no order set yet) while a copy is
        outside the discard pile and the board holds a battle; it asks the factions in storm order, and
        `eligible` is the asked faction's copies."""
        decision = self.s.pending
        assert decision is not None
        if self.s.battle is not None or self.s.aggressor_order is not None:
            self.add("decision-out-of-step", "the window opens as the Battle phase begins, before any play", "pending")
            return
        if not sapho_at_large(self.s):
            self.add("decision-out-of-step", "no Juice of Sapho is left outside the discard pile", "pending")
            return
        if not any(battles_to_fight(self.s, {STORM_QUESTION: choice}) for choice in STORM_READINGS):
            self.add("decision-out-of-step", "the board holds no battle", "pending")
            return
        window = decision.as_(SaphoOrderDecision)
        storm = list(self.s.storm_order)
        player = decision.player
        if player not in storm:
            return  # a decider outside the game is reported with the decision's decider
        if list(window.responders) != storm[storm.index(player) + 1 :]:
            self.add(
                "decision-mismatch", "'responders' are the factions after it in storm order", "pending", "responders"
            )
        if window.eligible != sapho_cards(self.s.factions[player].hand):
            self.add("decision-mismatch", "'eligible' must be its copies of Juice of Sapho", "pending", "eligible")
