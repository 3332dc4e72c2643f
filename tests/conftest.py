"""Shared fixtures: the app, its test client, and expanded base snapshots."""

from __future__ import annotations

import copy
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from adjudicator.scenarios import DEFAULT_DIRECTORY, _expand_snapshot
from api import create_app


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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The real server (gunicorn, two sync workers) on a free loopback port, for the whole session."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
