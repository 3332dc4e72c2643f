"""Shared fixtures: the app, its test client, and expanded base snapshots."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from adjudicator.scenarios import DEFAULT_DIRECTORY, _expand_snapshot
from api import create_app

from .live import live_server as running_server

# Property tests draw the same examples on every run, so a CI result never depends on luck.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")


@pytest.fixture(scope="session")
def app() -> Flask:
    return create_app()


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def base_snapshot(name: str) -> dict[str, Any]:
    """A shared snapshot from scenarios/_snapshots, fully expanded (a fresh copy each call)."""
    expanded = _expand_snapshot({"$extends": name}, DEFAULT_DIRECTORY, Path(name))
    return copy.deepcopy(expanded)


@pytest.fixture()
def three_factions() -> dict[str, Any]:
    return base_snapshot("three-factions")


BODY_READ_SECONDS = 2.0  # the live server's body deadline in the tests (10 s in production)


@pytest.fixture(scope="session")
def live_server_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The live server's home folder (with `run/` as its runtime folder): empty ones of its own, so a
    test can see that it leaves nothing there."""
    home = tmp_path_factory.mktemp("server-home")
    (home / "run").mkdir()
    return home


@pytest.fixture(scope="session")
def live_server(live_server_home: Path) -> Iterator[str]:
    """The real server (gunicorn with the production settings of api/gunicorn_conf.py, two workers) on a
    free loopback port, for the whole session."""
    home = live_server_home
    env = {
        "DUNE_BODY_READ_SECONDS": str(BODY_READ_SECONDS),
        "HOME": str(home),
        "XDG_RUNTIME_DIR": str(home / "run"),
    }
    with running_server(workers=2, env=env) as (url, _):
        yield url
