"""Rules adjudicator for GF9's Dune (2019) and its three expansions: the pure engine.

Nothing here imports a web framework; the HTTP service in `api/` and the CLI are thin adapters.
"""

from __future__ import annotations

from .catalog import Catalog, catalog
from .engine import Action, adjudicate, list_options, load_snapshot, view
from .errors import AdjudicatorError, InvalidRequest, InvalidSnapshot, Problem, UnknownRegisterEntry
from .registers import registers
from .results import ENGINE_VERSION, Adjudication, OptionList, View
from .snapshot import Snapshot

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
    "view",
]
