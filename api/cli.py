"""The `dune-adjudicator` command line."""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import signal
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Exit statuses of `conformance` (argparse's own usage errors are 2 as well).
ALL_PASSED, FIXTURE_FAILED, USAGE_ERROR, SERVER_UNUSABLE = 0, 1, 2, 3

CONFORMANCE_EPILOG = f"""\
exit status:
  {ALL_PASSED}  every fixture run passed
  {FIXTURE_FAILED}  at least one fixture run failed (a FAIL line names each)
  {USAGE_ERROR}  usage: --url is not an http(s) address, --timeout is not positive, the fixtures
     cannot be loaded, or the options select no fixture
  {SERVER_UNUSABLE}  the server cannot be reached or does not speak this API (GET /healthz is asked
     once before any fixture runs), or it stopped answering during the run"""

RULE_EPILOG = """\
exit status:
  0  the endpoint answered 200 (the answer is printed)
  2  the endpoint answered a problem (4xx, printed), or the file cannot be read"""


class _Unusable(Exception):
    """The server at --url cannot run fixtures: unreachable, or not this API."""


def _serve(args: argparse.Namespace) -> int:
    # every setting lives in api/gunicorn_conf.py; the options only fill its environment
    os.environ.update(HOST=args.host, PORT=str(args.port), WEB_CONCURRENCY=str(args.workers))
    argv = [sys.executable, "-m", "gunicorn", "--config", "python:api.gunicorn_conf"]
    os.execv(sys.executable, argv)
    return 0  # pragma: no cover - execv does not return


def _exchange(base: str, method: str, path: str, body: Any, timeout: float) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base.rstrip("/") + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:  # 4xx/5xx answers are answers too
        return error.code, error.read()


def _send(base: str, method: str, path: str, body: Any, timeout: float) -> tuple[int, Any]:
    status, raw = _exchange(base, method, path, body, timeout)
    return status, json.loads(raw) if raw else None


def _fail(command: str, message: str, status: int) -> int:
    print(f"dune-adjudicator {command}: {message}", file=sys.stderr)
    return status


def _url_problem(url: str) -> str | None:
    """Why `url` cannot be a server's base address (None when it can)."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError as error:
        return f"--url {url!r} is not a valid address ({error})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"--url {url!r} is not an http:// or https:// address with a host, e.g. http://127.0.0.1:8000"
    if parts.query or parts.fragment:
        return f"--url {url!r} must be a base address, without a query or fragment"
    return None


def _reason(error: BaseException) -> str:
    """A short, human reason for a failed connection (the errno text, not the exception's repr)."""
    if isinstance(error, urllib.error.URLError) and not isinstance(error, urllib.error.HTTPError):
        error = error.reason if isinstance(error.reason, BaseException) else error
    if isinstance(error, TimeoutError):
        return "no answer within the timeout"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _check_server(base: str, timeout: float) -> None:
    """Raise _Unusable unless GET /healthz answers like this API (200, JSON, status ok, an engine version)."""
    try:
        status, raw = _exchange(base, "GET", "/healthz", None, timeout)
    except (OSError, http.client.HTTPException) as error:
        raise _Unusable(f"cannot reach {base}: {_reason(error)}") from None
    not_this_api = f"{base} answers, but not as this API: GET /healthz"
    if status != 200:
        raise _Unusable(f"{not_this_api} gave HTTP {status}")
    try:
        body = json.loads(raw)
    except ValueError:
        raise _Unusable(f"{not_this_api} is not JSON") from None
    if not (isinstance(body, dict) and body.get("status") == "ok" and isinstance(body.get("engine"), str)):
        raise _Unusable(f"{not_this_api} is not a health report")


def _conformance(args: argparse.Namespace) -> int:
    """Run every scenario fixture against a server speaking this API (exit statuses: CONFORMANCE_EPILOG)."""
    from adjudicator.conformance import check_response
    from adjudicator.scenarios import ScenarioError, load_scenarios

    problem = _url_problem(args.url)
    if problem is not None:
        return _fail("conformance", problem, USAGE_ERROR)
    if not 0 < args.timeout < math.inf:
        return _fail(
            "conformance", f"--timeout must be a positive number of seconds, not {args.timeout:g}", USAGE_ERROR
        )
    try:
        scenarios = load_scenarios(Path(args.scenarios) if args.scenarios else None)
    except (OSError, ScenarioError) as error:
        return _fail("conformance", f"cannot load the fixtures: {error}", USAGE_ERROR)
    scenarios = tuple(scenario for scenario in scenarios if not args.area or scenario.area == args.area)
    if not scenarios:
        return _fail("conformance", "no fixture selected: check --scenarios and --area", USAGE_ERROR)
    try:
        _check_server(args.url, args.timeout)
    except _Unusable as error:
        return _fail("conformance", str(error), SERVER_UNUSABLE)
    passed = failed = 0
    for scenario in scenarios:
        runs = [(scenario.id, None, scenario.expect)] + [
            (f"{scenario.id}[{','.join(f'{k}={v}' for k, v in sorted(v.interpretations.items()))}]", v, v.expect)
            for v in scenario.variants
        ]
        for name, variant, expect in runs:
            try:
                status, body = _send(
                    args.url, scenario.method, scenario.path, scenario.request_for(variant), args.timeout
                )
                problems = check_response(expect, status, body)
            except (OSError, http.client.HTTPException) as error:
                try:  # one request failing is a FAIL; the server gone, every further run would fail the same way
                    _check_server(args.url, args.timeout)
                except _Unusable:
                    print(f"{passed} passed, {failed} failed")
                    message = f"{args.url} stopped answering at {name}: {_reason(error)}"
                    return _fail("conformance", message, SERVER_UNUSABLE)
                problems = [f"no answer: {_reason(error)}"]
            except ValueError as error:  # json.JSONDecodeError
                problems = [f"the answer is not JSON: {error}"]
            if problems:
                failed += 1
                print(f"FAIL {name}: {problems[0]}" + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""))
            else:
                passed += 1
                print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return FIXTURE_FAILED if failed else ALL_PASSED


def _rule(args: argparse.Namespace) -> int:
    """Adjudicate one request body (a file, or - for standard input) in-process and print the answer."""
    from api import create_app

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"dune-adjudicator rule: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    client = create_app().test_client()
    response = client.post(args.endpoint, data=text, content_type="application/json")
    print(json.dumps(response.get_json(), indent=2, sort_keys=True))
    return 0 if response.status_code == 200 else 2


def _compliance(args: argparse.Namespace) -> int:
    """Print COMPLIANCE.md as the registers and the fixture run make it, or rewrite the file."""
    from api.compliance import COMPLIANCE_FILE, render

    text = render()
    if args.write:
        COMPLIANCE_FILE.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    from adjudicator.core.results import ENGINE_VERSION

    parser = argparse.ArgumentParser(
        prog="dune-adjudicator",
        description="Dune rules adjudicator: serve the HTTP API, test a server against the fixtures, "
        "adjudicate one request, render COMPLIANCE.md.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {ENGINE_VERSION}", help="print the engine version and exit"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of:")
    serve = commands.add_parser(
        "serve",
        help="serve the HTTP API with gunicorn",
        description="Serve the HTTP API with gunicorn and the settings of api/gunicorn_conf.py.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: loopback only)")
    serve.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "8000")), help="the port (default: $PORT or 8000)"
    )
    serve.add_argument(
        "--workers", type=int, default=os.cpu_count() or 2, help="worker processes (default: one per core)"
    )
    serve.set_defaults(handler=_serve)
    conformance = commands.add_parser(
        "conformance",
        help="run every scenario fixture against a server speaking this API",
        description="Send every scenario fixture (and each variant) to a server speaking this API and print\n"
        "`ok   ID` or `FAIL ID: first mismatch` per run, then `N passed, M failed`.",
        epilog=CONFORMANCE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    conformance.add_argument("--url", required=True, help="the server's base address, e.g. http://127.0.0.1:8000")
    conformance.add_argument("--scenarios", help="the fixture folder (default: this repository's scenarios/)")
    conformance.add_argument("--area", help="only the fixtures of one area (battle, moritani, ...)")
    conformance.add_argument(
        "--timeout", type=float, default=30.0, help="seconds to wait for each answer (default: 30)"
    )
    conformance.set_defaults(handler=_conformance)
    rule = commands.add_parser(
        "rule",
        help="adjudicate one request from a JSON file (- for standard input)",
        description="Adjudicate one request body in-process, through the HTTP layer, and print the answer.",
        epilog=RULE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rule.add_argument("file", help="a JSON request body: {snapshot, action, interpretations?, viewer?}; - reads stdin")
    rule.add_argument(
        "--endpoint",
        default="/v1/rulings",
        choices=["/v1/rulings", "/v1/options", "/v1/views"],
        help="the endpoint to send it to (default: /v1/rulings)",
    )
    rule.set_defaults(handler=_rule)
    compliance = commands.add_parser(
        "compliance",
        help="render COMPLIANCE.md from the registers and a fixture run",
        description="Render COMPLIANCE.md from the registers and an in-process run of every fixture.",
    )
    compliance.add_argument("--write", action="store_true", help="rewrite COMPLIANCE.md instead of printing it")
    compliance.set_defaults(handler=_compliance)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.handler(args)
        sys.stdout.flush()  # inside the try: a closed pipe shows here, not as a traceback at exit
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, with the status of a tool SIGPIPE ended.
        # (SIGPIPE itself stays ignored, so the HTTP client still sees a closed socket as an error.)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    return result


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
