"""The `dune-adjudicator` command line."""

from __future__ import annotations

import pytest

from api.cli import build_parser


def test_serve_defaults_to_loopback_and_one_worker_per_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PORT", raising=False)
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    assert args.workers >= 1


def test_port_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8123")
    assert build_parser().parse_args(["serve"]).port == 8123


def test_a_command_is_required() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args([])


def test_serve_runs_gunicorn_with_sync_preloaded_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from api import cli

    calls: list[list[str]] = []
    monkeypatch.setattr(cli.os, "execv", lambda path, argv: calls.append(argv))
    cli.main(["serve", "--port", "9001", "--workers", "3"])
    (argv,) = calls
    assert argv[:3] == [sys.executable, "-m", "gunicorn"]
    assert argv[argv.index("--bind") + 1] == "127.0.0.1:9001"
    assert argv[argv.index("--workers") + 1] == "3"
    assert argv[argv.index("--worker-class") + 1] == "sync"
    assert "--preload" in argv and argv[-1] == "api:create_app()"
