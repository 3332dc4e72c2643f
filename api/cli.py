"""The `dune-adjudicator` command line."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def _serve(args: argparse.Namespace) -> int:
    # every setting lives in api/gunicorn_conf.py; the options only fill its environment
    os.environ.update(HOST=args.host, PORT=str(args.port), WEB_CONCURRENCY=str(args.workers))
    argv = [sys.executable, "-m", "gunicorn", "--config", "python:api.gunicorn_conf"]
    os.execv(sys.executable, argv)
    return 0  # pragma: no cover - execv does not return


def _send(base: str, method: str, path: str, body: Any, timeout: float) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base.rstrip("/") + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:  # 4xx/5xx answers are answers too
        status, raw = error.code, error.read()
    return status, json.loads(raw) if raw else None


def _conformance(args: argparse.Namespace) -> int:
    """Run every scenario fixture against a server speaking this API; exit 1 on any failure."""
    from adjudicator.conformance import check_response
    from adjudicator.scenarios import load_scenarios

    scenarios = load_scenarios(Path(args.scenarios) if args.scenarios else None)
    passed = failed = 0
    for scenario in scenarios:
        if args.area and scenario.area != args.area:
            continue
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
            except (OSError, ValueError, http.client.HTTPException) as error:
                problems = [f"no answer: {type(error).__name__}: {error}"]
            if problems:
                failed += 1
                print(f"FAIL {name}: {problems[0]}" + (f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""))
            else:
                passed += 1
                print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    if passed + failed == 0:
        print("no fixture ran: check --scenarios and --area", file=sys.stderr)
        return 1
    return 1 if failed else 0


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
    parser = argparse.ArgumentParser(prog="dune-adjudicator", description="Dune rules adjudicator.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the HTTP API with gunicorn")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: loopback only)")
    serve.add_argument(
        "--port", type=int, default=int(os.environ.get("PORT", "8000")), help="the port (default: $PORT or 8000)"
    )
    serve.add_argument(
        "--workers", type=int, default=os.cpu_count() or 2, help="worker processes (default: one per core)"
    )
    serve.set_defaults(handler=_serve)
    conformance = commands.add_parser(
        "conformance", help="run every scenario fixture against a server speaking this API"
    )
    conformance.add_argument("--url", required=True, help="the server's base address, e.g. http://127.0.0.1:8000")
    conformance.add_argument("--scenarios", help="the fixture folder (default: this repository's scenarios/)")
    conformance.add_argument("--area", help="only the fixtures of one area (battle, moritani, ...)")
    conformance.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each answer")
    conformance.set_defaults(handler=_conformance)
    rule = commands.add_parser("rule", help="adjudicate one request from a JSON file (- for standard input)")
    rule.add_argument("file", help="a JSON request body: {snapshot, action, interpretations?, viewer?}")
    rule.add_argument(
        "--endpoint", default="/v1/rulings", choices=["/v1/rulings", "/v1/options", "/v1/views"], help="which endpoint"
    )
    rule.set_defaults(handler=_rule)
    compliance = commands.add_parser("compliance", help="render COMPLIANCE.md from the registers and a fixture run")
    compliance.add_argument("--write", action="store_true", help="rewrite COMPLIANCE.md instead of printing it")
    compliance.set_defaults(handler=_compliance)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
