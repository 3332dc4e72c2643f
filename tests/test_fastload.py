"""The compiled fast check never accepts a body the full marshmallow load would reject or change."""

from __future__ import annotations

import copy
from typing import Any

import marshmallow as ma
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.scenarios import load_scenarios
from api.fastload import compile_check
from api.resources.options.schemas import REQUEST as OPTIONS_REQUEST
from api.resources.rulings.schemas import REQUEST as RULINGS_REQUEST
from api.resources.views.schemas import REQUEST as VIEWS_REQUEST

SCHEMAS = {"/v1/rulings": RULINGS_REQUEST, "/v1/options": OPTIONS_REQUEST, "/v1/views": VIEWS_REQUEST}
BODIES = [(s.path, s.request) for s in load_scenarios() if s.path in SCHEMAS and s.request is not None]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 50)
    | st.floats(-5, 50, allow_nan=False)
    | st.sampled_from(["", "atreides", "arrakeen", "shield#2", "shield#2\n", "Shield", "3", "battle", "x" * 70]),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "turn", "hand", "dial"]), children, max_size=2)
    ),
    max_leaves=6,
)


def near_misses(original: Any) -> st.SearchStrategy[Any]:
    """Values of the same JSON type as `original` (or its usual confusions) that may break a rule."""
    if isinstance(original, bool):
        return st.sampled_from([0, 1, "true", None])
    if isinstance(original, int):
        return st.sampled_from([-1, 18, 21, 100, 10**6, 2**60, 2.0, 2.5, "3", True, None])
    if isinstance(original, float):
        return st.sampled_from([0.25, -0.5, 41.0, 1e10, 3, "2.5", None])
    if isinstance(original, str):
        return st.sampled_from(
            [
                "",
                "x" * 70,
                original + "\n",
                original.upper(),
                "atreides",
                "arrakeen",
                "lunch",
                "no such id",
                "3",
                None,
                3,
            ]
        )
    return json_values


def paths(tree: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(tree, dict):
        for key, value in tree.items():
            found += paths(value, (*prefix, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            found += paths(value, (*prefix, i))
    return found


def mutate(body: Any, path: tuple[Any, ...], how: str, value: Any) -> Any:
    body = copy.deepcopy(body)
    if not path:
        return value
    parent = body
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = value
    elif how == "delete":
        del parent[last]
    elif how == "add" and isinstance(parent, dict):
        parent[f"extra-{last}"] = value
    return body


def full_load(schema: ma.Schema, body: Any) -> Any:
    return ma.Schema.load(schema, body)


@pytest.mark.parametrize(("path", "body"), BODIES[:1] + BODIES[len(BODIES) // 2 : len(BODIES) // 2 + 1] + BODIES[-1:])
def test_fixture_bodies_take_the_fast_path_unchanged(path: str, body: Any) -> None:
    schema = SCHEMAS[path]
    if compile_check(schema)(body):
        assert full_load(schema, body) == body


def leaf(tree: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        tree = tree[step]
    return tree


@settings(max_examples=1500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_near_miss_leaves_are_never_fast_accepted_wrongly(data: st.DataObject) -> None:
    endpoint, body = data.draw(st.sampled_from(BODIES))
    schema = SCHEMAS[endpoint]
    leaves = [p for p in paths(body) if p and not isinstance(leaf(body, p), dict | list)]
    path = data.draw(st.sampled_from(leaves))
    mutated = mutate(body, path, "replace", data.draw(near_misses(leaf(body, path))))
    if compile_check(schema)(mutated):
        assert full_load(schema, mutated) == mutated


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fast_acceptance_implies_full_acceptance(data: st.DataObject) -> None:
    endpoint, body = data.draw(st.sampled_from(BODIES))
    schema = SCHEMAS[endpoint]
    path = data.draw(st.sampled_from(paths(body)))
    how = data.draw(st.sampled_from(["replace", "delete", "add"]))
    value = data.draw(json_values)
    try:
        mutated = mutate(body, path, how, value)
    except (KeyError, IndexError, TypeError):
        return
    if compile_check(schema)(mutated):
        assert full_load(schema, mutated) == mutated


def test_the_fast_path_is_taken_for_well_formed_bodies() -> None:
    accepted = [compile_check(SCHEMAS[p])(b) for p, b in BODIES if p == "/v1/rulings"]
    assert sum(accepted) >= len(accepted) // 2
