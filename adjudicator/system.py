"""The composition root: the one rulebook, built from the rule modules listed here.

In the spirit of OpenFisca's tax-benefit system, the rules are loaded explicitly into one object:
nothing registers itself by being imported, the order below decides nothing, and two modules that
claim the same action, decision or cleanup step stop the build with an error.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

from adjudicator.core.registers import Registers
from adjudicator.core.rulebook import Rulebook
from adjudicator.rules import (
    auditor,
    bribes,
    cards,
    choam,
    diplomat_retreat,
    duke_vidal,
    ecaz,
    emperor,
    ghola,
    harkonnen,
    ixians,
    karama,
    revival,
    richese,
    secrecy,
    semuta,
    skill_bonuses,
    skill_steps,
    skills,
    state,
    tleilaxu,
    truthtrance,
    turn,
)
from adjudicator.rules.battle import (
    aggressors,
    atreides_karama,
    cache_cards,
    card_choices,
    card_effects,
    choam_share,
    cleanup,
    commands,
    ecaz_karama,
    karama_window,
    late_karama,
    mentat_question,
    occupy,
    order,
    outcome,
    plan_cards,
    plan_decision,
    plans,
    portable_snooper,
    preconditions,
    prescience,
    resolution,
    retreat,
    ruling,
    sapho_order,
    saved_forces,
    sectors,
    smuggler_collection,
    voice,
)
from adjudicator.rules.moritani import assassination, extortion, retention, special

RULE_MODULES: tuple[ModuleType, ...] = (
    aggressors,
    cards,
    plans,
    plan_cards,
    card_effects,
    plan_decision,
    atreides_karama,
    order,
    commands,
    voice,
    prescience,
    mentat_question,
    karama_window,
    late_karama,
    cache_cards,
    sapho_order,
    ecaz_karama,
    portable_snooper,
    preconditions,
    sectors,
    resolution,
    outcome,
    occupy,
    choam_share,
    card_choices,
    saved_forces,
    smuggler_collection,
    retreat,
    diplomat_retreat,
    cleanup,
    ruling,
    state,
    secrecy,
    retention,
    assassination,
    special,
    extortion,
    karama,
    bribes,
    duke_vidal,
    harkonnen,
    tleilaxu,
    ecaz,
    emperor,
    ghola,
    choam,
    auditor,
    semuta,
    skills,
    skill_bonuses,
    skill_steps,
    ixians,
    richese,
    revival,
    truthtrance,
    turn,
)


@cache
def rulebook() -> Rulebook:
    """The engine's rulebook (built once per process)."""
    return Rulebook.build(RULE_MODULES)


def registers() -> Registers:
    """The served registers: sources, rules and questions, with the choices the rulebook implements."""
    return rulebook().registers
