"""The `dune-adjudicator` command line."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from adjudicator import ENGINE_VERSION
from adjudicator.scenarios import DEFAULT_DIRECTORY
from api.cli import build_parser

from .live import free_port

ROOT = Path(__file__).resolve().parent.parent


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


@pytest.mark.parametrize("selection", [("--scenarios", "EMPTY"), ("--area", "no-such-area")])
def test_conformance_with_no_fixture_selected_is_a_usage_error(tmp_path: Path, selection: tuple[str, str]) -> None:
    option, value = selection
    dead = f"http://127.0.0.1:{free_port()}"  # not asked: the selection is checked first
    result = _cli("conformance", "--url", dead, option, str(tmp_path) if value == "EMPTY" else value)
    assert result.returncode == 2
    assert _one_error_line(result) == "dune-adjudicator conformance: no fixture selected: check --scenarios and --area"


def test_rule_reports_an_unreadable_file_without_a_traceback(tmp_path: Path) -> None:
    result = _cli("rule", str(tmp_path / "missing.json"))
    assert result.returncode == 2 and "cannot read" in result.stderr and "Traceback" not in result.stderr


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a command that stopped before running any fixture (nothing on stdout)."""
    assert result.stdout == "" and "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("dune-adjudicator conformance: ")
    return line


@pytest.mark.parametrize("url", ["127.0.0.1:8000", "localhost:8000", "ftp://x", "http://", "http://host:port"])
def test_conformance_refuses_an_address_that_is_not_an_http_base_url(url: str) -> None:
    result = _cli("conformance", "--url", url)
    assert result.returncode == 2
    assert f"--url {url!r}" in _one_error_line(result)


def test_conformance_refuses_a_timeout_that_is_not_positive() -> None:
    result = _cli("conformance", "--url", "http://127.0.0.1:9", "--timeout", "0")
    assert result.returncode == 2 and "--timeout" in _one_error_line(result)


def test_conformance_reports_a_dead_server_in_one_line() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    result = _cli("conformance", "--url", url, "--timeout", "5")
    assert result.returncode == 3
    assert _one_error_line(result) == f"dune-adjudicator conformance: cannot reach {url}: Connection refused"


@dataclasses.dataclass
class _FakeServer:
    url: str
    requests: list[str]


@contextlib.contextmanager
def _fake_server(status: int, content_type: str, body: bytes, answers: int | None = None) -> Iterator[_FakeServer]:
    """A loopback HTTP server answering every request with one fixed response, recording the paths; after
    `answers` requests (if given) it closes, and connections are refused from then on."""
    requests: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(self.path)
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_GET

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)

    def serve() -> None:
        if answers is None:
            server.serve_forever(poll_interval=0.05)
        else:
            for _ in range(answers):
                server.handle_request()
            server.server_close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield _FakeServer(f"http://127.0.0.1:{server.server_address[1]}", requests)
    finally:
        if answers is None:
            server.shutdown()
            server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize(
    ("status", "content_type", "body", "says"),
    [
        (404, "text/html", b"<html><body>Not Found</body></html>", "GET /healthz gave HTTP 404"),
        (200, "text/html", b"<html><body>Welcome</body></html>", "GET /healthz is not JSON"),
        (200, "application/json", b'{"healthy": true}', "GET /healthz is not a health report"),
    ],
)
def test_conformance_refuses_a_server_that_is_not_this_api(
    status: int, content_type: str, body: bytes, says: str
) -> None:
    with _fake_server(status, content_type, body) as fake:
        result = _cli("conformance", "--url", fake.url, "--timeout", "5")
        assert result.returncode == 3
        assert (
            _one_error_line(result) == f"dune-adjudicator conformance: {fake.url} answers, but not as this API: {says}"
        )
        assert fake.requests == ["/healthz"]  # checked once, before any fixture


def test_conformance_stops_when_the_server_goes_away() -> None:
    # after answering the health check the server closes: the first fixture's request fails, and so
    # does the second health check that follows it, so the run stops there
    health = json.dumps({"status": "ok", "engine": "0"}).encode()
    with _fake_server(200, "application/json", health, answers=1) as fake:
        result = _cli("conformance", "--url", fake.url, "--area", "registers", "--timeout", "5")
    assert result.returncode == 3 and "Traceback" not in result.stderr
    assert result.stdout == "0 passed, 0 failed\n"
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"dune-adjudicator conformance: {fake.url} stopped answering at registers/")


def test_conformance_exit_statuses_are_documented() -> None:
    result = _cli("conformance", "--help")
    epilog = result.stdout[result.stdout.index("exit status:") :]
    assert [line.split()[0] for line in epilog.splitlines()[1:] if re.match(r"^  \d ", line)] == ["0", "1", "2", "3"]


def _closed_pipe_run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI with standard output a pipe whose reader has gone (`| head` after its line)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "api.cli", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=600,
            check=False,
        )
    finally:
        os.close(write_end)


def test_rule_and_compliance_stop_quietly_on_a_closed_pipe(tmp_path: Path) -> None:
    from .conftest import base_snapshot

    request = tmp_path / "request.json"
    request.write_text(json.dumps({"snapshot": base_snapshot("duel"), "action": {"type": "resolve-battle"}}))
    for args in (("rule", str(request)), ("compliance",)):
        result = _closed_pipe_run(*args)
        assert (result.returncode, result.stderr) == (141, ""), args  # 128 + SIGPIPE, like `yes | head`


def test_conformance_stops_quietly_on_a_closed_pipe(live_server: str) -> None:
    result = _closed_pipe_run("conformance", "--url", live_server)
    assert (result.returncode, result.stderr) == (141, "")


def test_rule_output_piped_into_head_leaves_nothing_on_stderr(tmp_path: Path) -> None:
    from .conftest import base_snapshot

    request = tmp_path / "request.json"
    request.write_text(json.dumps({"snapshot": base_snapshot("duel"), "action": {"type": "resolve-battle"}}))
    pipeline = f"{sys.executable} -m api.cli rule {request} | head -1"
    result = subprocess.run(["sh", "-c", pipeline], capture_output=True, text=True, timeout=600, check=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, "{\n", "")


def _parsers(parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield parser.prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_command_and_option_has_help_text() -> None:
    missing = []
    for prog, parser in _parsers(build_parser()):
        if not parser.description:
            missing.append(f"{prog}: description")
        for action in parser._actions:
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{prog}: {action.option_strings or action.dest}")
            if isinstance(action, argparse._SubParsersAction):
                helped = {choice.dest for choice in action._choices_actions if choice.help}
                missing += [f"{prog} {name}: help" for name in action.choices if name not in helped]
    assert missing == []
    assert len(list(_parsers(build_parser()))) == 5  # the program and its four commands, all walked


def test_version_prints_the_engine_version() -> None:
    result = _cli("--version")
    assert (result.returncode, result.stdout, result.stderr) == (0, f"dune-adjudicator {ENGINE_VERSION}\n", "")


def _make(*args: str) -> subprocess.CompletedProcess[str]:
    make = shutil.which("make")
    assert make is not None, "make is part of the documented setup"
    return subprocess.run([make, "-s", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=60, check=False)


def test_make_help_lists_every_target_with_a_description() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    phony = [name for line in re.findall(r"^\.PHONY:(.*)$", makefile, re.MULTILINE) for name in line.split()]
    assert {"help", "serve", "test", "lint"} <= set(phony)
    result = _make("help")
    assert result.returncode == 0 and result.stderr == ""
    described = dict(re.findall(r"^  make (\S+) +(\S.*)$", result.stdout, re.MULTILINE))
    assert sorted(described) == sorted(phony)
    assert _make().stdout == result.stdout  # plain `make` shows the same list


def _pytest(*args: str) -> list[str]:
    env = {**os.environ, "COLUMNS": "200"}
    command = [sys.executable, "-m", "pytest", "--color=no", "-p", "no:cacheprovider", *args]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout[-2000:]
    return result.stdout.splitlines()


def test_the_suite_prints_one_progress_line_and_the_summary_at_the_end() -> None:
    targets = ["scenarios/registers", "scenarios/views", "tests/test_catalog.py"]  # over 20 files
    lines = _pytest(*targets)
    assert not [line for line in lines if line.startswith(("scenarios/", "tests/"))]  # no line per file
    progress = [line for line in lines if re.fullmatch(r"[.]+ +\[100%\]", line)]
    assert len(progress) == 1
    assert re.fullmatch(r"=+ \d+ passed in [\d.]+s =+", lines[-1])
    assert re.fullmatch(r"\d+ passed in [\d.]+s", _pytest("-q", "scenarios/registers")[-1])  # `-q` keeps it
    verbose = _pytest("-v", "scenarios/registers")
    assert any(line.startswith("scenarios/registers/") and "PASSED" in line for line in verbose)
