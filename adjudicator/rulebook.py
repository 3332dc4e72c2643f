"""Imports every module that defines rule functions, so the register sees all of them."""

from __future__ import annotations

from . import moritani, secrecy

RULE_MODULES = (moritani, secrecy)
