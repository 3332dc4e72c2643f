"""Reading the YAML files packaged under adjudicator/data (never anything outside the package)."""

from __future__ import annotations

from importlib import resources
from typing import Any

import yaml

# The C loader is several times faster; fall back where libyaml is absent.
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_text(name: str) -> str:
    return resources.files("adjudicator").joinpath("data").joinpath(name).read_text(encoding="utf-8")


def load_yaml(name: str) -> Any:
    return yaml.load(read_text(name), Loader=_Loader)
