"""The scenario fixture corpus: loading, expansion of shared snapshots, and indexing
(docs/contract.md, "Scenario fixtures").

A fixture's `request.snapshot` may start from a shared snapshot in `scenarios/_snapshots/NAME.yaml`
with `{"$extends": NAME, ...}`; the other keys are applied as a JSON Merge Patch (RFC 7396). Loaded
fixtures are fully expanded, so what is served and replayed is self-contained.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from adjudicator.core._data import _Loader

DEFAULT_DIRECTORY = Path(__file__).resolve().parent.parent / "scenarios"
ENDPOINTS = ("/v1/rulings", "/v1/options", "/v1/views", "/v1/rules", "/v1/sources", "/v1/questions", "/healthz")
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*)+$")
_TOP_KEYS = {"id", "title", "source", "tags", "endpoint", "method", "path", "request", "expect", "variants", "example"}


class ScenarioError(ValueError):
    """A fixture file is malformed."""

    def __init__(self, file: Path, message: str) -> None:
        self.file = file
        super().__init__(f"{file}: {message}")


@dataclass(frozen=True)
class Variant:
    index: int
    interpretations: Mapping[str, str]
    expect: Mapping[str, Any]


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    file: Path
    area: str
    source: Mapping[str, Any]
    tags: tuple[str, ...]
    method: str
    path: str
    request: Mapping[str, Any] | None
    expect: Mapping[str, Any]
    variants: tuple[Variant, ...] = field(default=())
    example: bool = False

    @property
    def endpoint(self) -> str:
        return self.path

    def rule_ids(self) -> list[str]:
        """Rules this fixture asserts (any `rule` key in its expectations), first-seen order."""
        found: dict[str, None] = {}
        for expect in (self.expect, *(v.expect for v in self.variants)):
            for value in _values_of_key(expect, "rule"):
                if isinstance(value, str):
                    found.setdefault(value, None)
        return list(found)

    def request_for(self, variant: Variant | None) -> Mapping[str, Any] | None:
        if variant is None or self.request is None:
            return self.request
        body = copy.deepcopy(dict(self.request))
        body["interpretations"] = {**body.get("interpretations", {}), **variant.interpretations}
        return body

    def to_dict(self, full: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "area": self.area,
            "source": dict(self.source),
            "tags": list(self.tags),
            "method": self.method,
            "path": self.path,
            "rules": self.rule_ids(),
        }
        if full:
            out["request"] = None if self.request is None else copy.deepcopy(dict(self.request))
            out["expect"] = copy.deepcopy(dict(self.expect))
            out["variants"] = [
                {"interpretations": dict(v.interpretations), "expect": copy.deepcopy(dict(v.expect))}
                for v in self.variants
            ]
        return out


def _values_of_key(tree: Any, key: str) -> Iterator[Any]:
    if isinstance(tree, Mapping):
        for k, v in tree.items():
            if k == key:
                yield v
            yield from _values_of_key(v, key)
    elif isinstance(tree, list):
        for item in tree:
            yield from _values_of_key(item, key)


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396 JSON Merge Patch."""
    if not isinstance(patch, Mapping):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def _read(file: Path) -> Any:
    try:
        return yaml.load(file.read_text(encoding="utf-8"), Loader=_Loader)
    except yaml.YAMLError as exc:
        raise ScenarioError(file, f"not valid YAML: {exc}") from exc


def _expand_snapshot(raw: Any, directory: Path, file: Path) -> Any:
    if not isinstance(raw, Mapping) or "$extends" not in raw:
        return raw
    base_name = raw["$extends"]
    base_file = directory / "_snapshots" / f"{base_name}.yaml"
    if not base_file.is_file():
        raise ScenarioError(file, f"$extends names {base_name!r}, but {base_file} does not exist")
    base = _expand_snapshot(_read(base_file), directory, base_file)
    patch = {k: v for k, v in raw.items() if k != "$extends"}
    return merge_patch(base, patch)


def _parse(file: Path, raw: Any, directory: Path) -> Scenario:
    if not isinstance(raw, Mapping):
        raise ScenarioError(file, "a fixture is a mapping")
    unknown = set(raw) - _TOP_KEYS
    if unknown:
        raise ScenarioError(file, f"unknown keys {sorted(unknown)}")
    for key in ("id", "title", "source", "expect"):
        if key not in raw:
            raise ScenarioError(file, f"missing {key!r}")
    scenario_id = raw["id"]
    if not isinstance(scenario_id, str) or not _ID.fullmatch(scenario_id):
        raise ScenarioError(file, f"id {scenario_id!r} must be 'area/kebab-name'")
    area = scenario_id.split("/", 1)[0]
    folder = file.relative_to(directory).parts[0] if file.is_relative_to(directory) else file.parent.name
    if folder != area:
        raise ScenarioError(file, f"id {scenario_id!r} must live under scenarios/{area}/")
    method = raw.get("method", "POST")
    path = raw.get("path") or raw.get("endpoint") or "/v1/rulings"
    if method not in ("GET", "POST"):
        raise ScenarioError(file, f"method {method!r} must be GET or POST")
    if not isinstance(path, str) or not path.startswith("/"):
        raise ScenarioError(file, "path must be an absolute path such as /v1/rulings")
    request = raw.get("request")
    if method == "POST":
        if not isinstance(request, Mapping):
            raise ScenarioError(file, "a POST fixture needs a 'request' mapping")
        request = dict(request)
        if "snapshot" in request:
            request["snapshot"] = _expand_snapshot(request["snapshot"], directory, file)
    elif request is not None:
        raise ScenarioError(file, "a GET fixture has no request body")
    if not isinstance(raw["expect"], Mapping):
        raise ScenarioError(file, "'expect' is a mapping")
    if not isinstance(raw["source"], Mapping) or not {"doc", "source"} & set(raw["source"]):
        raise ScenarioError(file, "'source' names a repository document ('doc') or a registered source ('source')")
    variants = []
    for i, v in enumerate(raw.get("variants") or ()):
        if not isinstance(v, Mapping) or set(v) - {"interpretations", "expect"} or "expect" not in v:
            raise ScenarioError(file, f"variant {i} needs 'expect' and optional 'interpretations' only")
        variants.append(Variant(i, dict(v.get("interpretations") or {}), v["expect"]))
    tags = raw.get("tags") or []
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise ScenarioError(file, "'tags' is a list of strings")
    return Scenario(
        id=scenario_id,
        title=str(raw["title"]),
        file=file,
        area=area,
        source=dict(raw["source"]),
        tags=tuple(tags),
        method=method,
        path=path,
        request=request,
        expect=raw["expect"],
        variants=tuple(variants),
        example=bool(raw.get("example", False)),
    )


def fixture_files(root: Path) -> list[Path]:
    """Every fixture file under `root`: `<area>/**/*.yaml`, outside folders starting with `_`.

    A YAML file directly in `root`, or a `.yml` file anywhere, is an error rather than silently skipped.
    """
    files = []
    for file in sorted(root.rglob("*")):
        relative = file.relative_to(root)
        if not file.is_file() or any(part.startswith(("_", ".")) for part in relative.parts):
            continue
        if file.suffix == ".yml":
            raise ScenarioError(file, "fixtures use the .yaml extension")
        if file.suffix != ".yaml":
            continue
        if len(relative.parts) < 2:
            raise ScenarioError(file, "a fixture lives in an area folder: scenarios/<area>/NAME.yaml")
        files.append(file)
    return files


def is_fixture_file(root: Path, file: Path) -> bool:
    try:
        relative = file.resolve().relative_to(root)
    except ValueError:
        return False
    return (
        file.suffix in (".yaml", ".yml")
        and len(relative.parts) >= 1
        and not any(part.startswith(("_", ".")) for part in relative.parts)
    )


def load_scenarios(directory: Path | None = None) -> tuple[Scenario, ...]:
    """Every fixture under `directory` (default: the repository's `scenarios/`), sorted by id.

    Raises `ScenarioError` on a malformed file or a duplicate id.
    """
    root = directory or DEFAULT_DIRECTORY
    if not root.is_dir():
        return ()
    scenarios: dict[str, Scenario] = {}
    for file in fixture_files(root):
        scenario = _parse(file, _read(file), root)
        if scenario.id in scenarios:
            raise ScenarioError(file, f"duplicate id {scenario.id!r} (also in {scenarios[scenario.id].file})")
        scenarios[scenario.id] = scenario
    return tuple(sorted(scenarios.values(), key=lambda s: s.id))


def fixtures_by_rule(scenarios: tuple[Scenario, ...]) -> dict[str, list[str]]:
    index: dict[str, list[str]] = {}
    for scenario in scenarios:
        for rule_id in scenario.rule_ids():
            index.setdefault(rule_id, []).append(scenario.id)
    return index
