"""Record every fixture's answer byte for byte, and compare two recordings.

A refactoring that must not change a ruling is checked by recording before and after:

    python -m tests.golden record /tmp/before.json      # on the old code
    python -m tests.golden record /tmp/after.json       # on the new code
    python -m tests.golden compare /tmp/before.json /tmp/after.json

Each fixture and variant is sent as written; every POST fixture is also sent once with each of the
game's factions as `viewer`, and its snapshot to `/v1/options` and `/v1/views`, so redaction and the
listing of options are covered as widely as the rulings. `--scenarios DIR` records another fixture
folder (for example the new fixture set against an older checkout of the code).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def _requests(directory: Path | None) -> Iterator[tuple[str, str, str, Any]]:
    from adjudicator.scenarios import load_scenarios

    for scenario in load_scenarios(directory):
        if scenario.method == "GET":
            yield scenario.id, "GET", scenario.path, None
            continue
        for variant in (None, *scenario.variants):
            label = scenario.id if variant is None else f"{scenario.id}[{variant.index}]"
            body = scenario.request_for(variant)
            yield label, "POST", scenario.path, body
            if variant is not None or not isinstance(body, dict):
                continue
            snapshot = body.get("snapshot")
            factions = snapshot.get("factions") if isinstance(snapshot, dict) else None
            if scenario.path == "/v1/rulings" and isinstance(factions, dict):
                for faction in sorted(factions):
                    yield f"{label}@{faction}", "POST", scenario.path, {**body, "viewer": faction}
            if isinstance(snapshot, dict) and scenario.path != "/v1/options":
                yield f"{label}#options", "POST", "/v1/options", {"snapshot": snapshot}
            if isinstance(snapshot, dict) and scenario.path != "/v1/views":
                yield f"{label}#view", "POST", "/v1/views", {"snapshot": snapshot}


def record(out: Path, directory: Path | None) -> int:
    from api import create_app

    client = create_app().test_client()
    answers: dict[str, dict[str, Any]] = {}
    for label, method, path, body in _requests(directory):
        response = client.get(path) if method == "GET" else client.post(path, json=body)
        answers[label] = {
            "status": response.status_code,
            "sha256": hashlib.sha256(response.data).hexdigest(),
            "body": response.data.decode("utf-8", "replace"),
        }
    out.write_text(json.dumps(answers, sort_keys=True))
    print(f"recorded {len(answers)} answers to {out}")
    return 0


DIGEST = re.compile(r'"(rules_digest|digest)":"sha256:[0-9a-f]{64}"')


def _body(answer: dict[str, Any], any_digest: bool) -> str:
    body = str(answer["body"])
    return DIGEST.sub(r'"\1":"sha256:*"', body) if any_digest else body


def compare(before: Path, after: Path, ignore_paths: list[str], any_digest: bool = False) -> int:
    old = json.loads(before.read_text())
    new = json.loads(after.read_text())
    differ = []
    for label in sorted(set(old) & set(new)):
        same = (old[label]["status"], _body(old[label], any_digest)) == (
            new[label]["status"],
            _body(new[label], any_digest),
        )
        if not same and not any(label.startswith(p) for p in ignore_paths):
            differ.append(label)
    only_old = sorted(set(old) - set(new))
    only_new = sorted(set(new) - set(old))
    for label in differ[:40]:
        print(f"differs: {label}")
    for label in only_old[:20]:
        print(f"only before: {label}")
    for label in only_new[:20]:
        print(f"only after: {label}")
    both = len(set(old) & set(new))
    print(f"compared {both}, differ {len(differ)}, only before {len(only_old)}, only after {len(only_new)}")
    return 1 if differ or only_old else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--scenarios", type=Path, default=None)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("before", type=Path)
    cmp_.add_argument("after", type=Path)
    cmp_.add_argument("--ignore", action="append", default=[], help="a label prefix whose answers may differ")
    cmp_.add_argument("--any-digest", action="store_true", help="answers may differ in the rules digest alone")
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.out, args.scenarios)
    return compare(args.before, args.after, args.ignore, args.any_digest)


if __name__ == "__main__":
    sys.exit(main())
