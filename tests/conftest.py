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


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The real server (gunicorn, two sync workers) on a free loopback port, for the whole session."""
    with running_server(workers=2) as (url, _):
        yield url
