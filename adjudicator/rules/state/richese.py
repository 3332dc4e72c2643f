"""The working state's Richese part: the No-Field token on the board, revealed and replaced by forces."""

from __future__ import annotations

from adjudicator.core.snapshot import NoFieldToken
from adjudicator.core.vocabulary import FactionId
from adjudicator.rules.state.base import WorkingCopy

RICHESE = FactionId.RICHESE.value


class RicheseState(WorkingCopy):
    @property
    def no_field(self) -> NoFieldToken | None:
        raw = self.wire.get("no_field")
        return None if raw is None else NoFieldToken.from_dict(raw)

    def reveal_no_field(self, count: int, rule_id: str) -> NoFieldToken:
        """The token leaves the board and `count` Richese forces from its reserves take its place."""
        token = NoFieldToken.from_dict(self.wire.pop("no_field"))
        self.wire["factions"][RICHESE]["reserves"]["regular"] -= count
        if count:
            stack = next(
                (
                    s
                    for s in self.wire["forces"]
                    if s["faction"] == RICHESE and s["territory"] == token.territory and s["sector"] == token.sector
                ),
                None,
            )
            if stack is None:
                self.wire["forces"].append(
                    {
                        "faction": RICHESE,
                        "territory": token.territory,
                        "sector": token.sector,
                        "regular": count,
                        "elite": 0,
                    }
                )
            else:
                stack["regular"] += count
        self.event(
            "no-field-revealed",
            rule_id,
            faction=RICHESE,
            territory=token.territory,
            sector=token.sector,
            token=token.forces,
            forces=count,
        )
        return token
