"""Imports every module that defines rule functions, so the register sees all of them."""

from __future__ import annotations

from . import (  # noqa: F401
    battle,
    battle_plans,
    cards,
    choam,
    duke_vidal,
    ecaz,
    extortion,
    harkonnen,
    moritani,
    moritani_retention,
    moritani_special,
    plan_decision,
    revival,
    secrecy,
    semuta,
    skills,
    tleilaxu,
    turn,
)
