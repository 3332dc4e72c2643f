"""Rules adjudicator for GF9's Dune (2019) and its three expansions: the pure engine.

Nothing here imports a web framework; the HTTP service in `api/` and the CLI are thin adapters.
"""

from __future__ import annotations

from adjudicator.core.action import Action
from adjudicator.core.catalog import Catalog, catalog
from adjudicator.core.errors import AdjudicatorError, InvalidRequest, InvalidSnapshot, Problem, UnknownRegisterEntry
from adjudicator.core.results import ENGINE_VERSION, Adjudication, OptionList, View
from adjudicator.core.snapshot import Snapshot
from adjudicator.engine import adjudicate, list_options, load_snapshot, view
from adjudicator.system import registers, rulebook

__version__ = ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "Action",
    "Adjudication",
    "AdjudicatorError",
    "Catalog",
    "InvalidRequest",
    "InvalidSnapshot",
    "OptionList",
    "Problem",
    "Snapshot",
    "UnknownRegisterEntry",
    "View",
    "__version__",
    "adjudicate",
    "catalog",
    "list_options",
    "load_snapshot",
    "registers",
    "rulebook",
    "view",
]
