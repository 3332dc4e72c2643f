"""The `dune-adjudicator` command line."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def _serve(args: argparse.Namespace) -> int:
    argv = [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"{args.host}:{args.port}",
        "--workers",
        str(args.workers),
        "--worker-class",
        "sync",
        "--preload",
        "--access-logfile",
        "-",
        "api:create_app()",
    ]
    os.execv(sys.executable, argv)
    return 0  # pragma: no cover - execv does not return


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dune-adjudicator", description="Dune rules adjudicator.")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the HTTP API with gunicorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    serve.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="sync workers (default: one per core)")
    serve.set_defaults(handler=_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
