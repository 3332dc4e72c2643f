"""The `dune-adjudicator` command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from adjudicator.scenarios import DEFAULT_DIRECTORY
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


def test_serve_runs_gunicorn_with_the_committed_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    from api import cli

    for name in ("HOST", "PORT", "WEB_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)  # restored afterwards, whatever serve sets
    calls: list[list[str]] = []
    monkeypatch.setattr(cli.os, "execv", lambda path, argv: calls.append(argv))
    cli.main(["serve", "--port", "9001", "--workers", "3"])
    (argv,) = calls
    assert argv == [sys.executable, "-m", "gunicorn", "--config", "python:api.gunicorn_conf"]
    settings = importlib.reload(importlib.import_module("api.gunicorn_conf"))
    assert settings.bind == ["127.0.0.1:9001"] and settings.workers == 3
    assert settings.worker_class == "gevent" and settings.preload_app
    assert settings.control_socket_disable and settings.wsgi_app == "api:create_app()"


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args], input=stdin, capture_output=True, text=True, timeout=600, check=False
    )


def test_conformance_runner_passes_every_fixture_against_the_live_server(live_server: str) -> None:
    from adjudicator.scenarios import load_scenarios

    expected_runs = sum(1 + len(s.variants) for s in load_scenarios())
    result = _cli("conformance", "--url", live_server)
    lines = result.stdout.splitlines()
    assert lines[-1] == f"{expected_runs} passed, 0 failed", [line for line in lines if line.startswith("FAIL")][:5]
    assert result.returncode == 0
    assert len(lines) == expected_runs + 1 and all(line.startswith("ok   ") for line in lines[:-1])


def test_conformance_runner_fails_on_a_mismatch(live_server: str, tmp_path: Path) -> None:
    area = tmp_path / "registers"
    area.mkdir()
    fixture = yaml.safe_load((DEFAULT_DIRECTORY / "registers" / "health.yaml").read_text(encoding="utf-8"))
    fixture["expect"]["status"] = "asleep"
    (area / "health.yaml").write_text(yaml.safe_dump(fixture), encoding="utf-8")
    result = _cli("conformance", "--url", live_server, "--scenarios", str(tmp_path))
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "0 passed, 1 failed"
    assert result.stdout.startswith("FAIL registers/health: /status: expected 'asleep'")


def test_conformance_runner_reports_an_unreachable_server(tmp_path: Path) -> None:
    result = _cli("conformance", "--url", "http://127.0.0.1:9", "--area", "registers", "--timeout", "2")
    assert result.returncode == 1 and result.stdout.splitlines()[-1].startswith("0 passed,")
    assert "no answer" in result.stdout


def test_rule_adjudicates_a_request_file_or_standard_input(tmp_path: Path) -> None:
    from .conftest import base_snapshot

    body = {"snapshot": base_snapshot("duel"), "action": {"type": "resolve-battle"}}
    request = tmp_path / "request.json"
    request.write_text(json.dumps(body), encoding="utf-8")
    from_file = _cli("rule", str(request))
    assert from_file.returncode == 0
    answer = json.loads(from_file.stdout)
    assert answer["status"] == "resolved" and answer["outcome"]["summary"]["battle"]["winner"] == "harkonnen"
    from_stdin = _cli("rule", "-", stdin=json.dumps(body))
    assert json.loads(from_stdin.stdout) == answer


def test_rule_prints_the_problem_for_a_bad_request() -> None:
    result = _cli("rule", "-", stdin='{"snapshot": {}, "action": {"type": "resolve-battle"}}')
    assert result.returncode == 2
    assert json.loads(result.stdout)["status"] == 422


def test_conformance_with_no_fixture_fails(live_server: str, tmp_path: Path) -> None:
    result = _cli("conformance", "--url", live_server, "--scenarios", str(tmp_path))
    assert result.returncode == 1 and result.stdout.splitlines()[-1] == "0 passed, 0 failed"
    assert "no fixture ran" in result.stderr


def test_rule_reports_an_unreadable_file_without_a_traceback(tmp_path: Path) -> None:
    result = _cli("rule", str(tmp_path / "missing.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr and "Traceback" not in result.stderr
