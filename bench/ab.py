"""An A/B of the engine's `resolve-battle` on the realistic battle: another revision against this tree.

    python bench/ab.py REV [--rounds 3] [--calls 3000]

Exports REV with `git archive` into a temporary folder and alternates rounds between the two trees,
each round in a fresh interpreter that imports only its own tree's `adjudicator`, ruling the same
snapshot (`realistic_battle()` of this tree's bench/run.py) the same way `make bench` does: a loaded
snapshot with a fresh memo per call. Prints each round's median and the two medians of medians. A
measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ROUND = """
import dataclasses, gc, json, statistics, sys, time
sys.path.insert(0, {tree!r})
from adjudicator import Action, adjudicate, load_snapshot
snapshot = load_snapshot(json.load(open({snapshot!r})))
action = Action.from_dict({{"type": "resolve-battle"}})
for _ in range(300):
    adjudicate(dataclasses.replace(snapshot, memo={{}}), action)
gc.collect()
samples = []
for _ in range({calls}):
    fresh = dataclasses.replace(snapshot, memo={{}})
    start = time.perf_counter_ns()
    adjudicate(fresh, action)
    samples.append(time.perf_counter_ns() - start)
print(statistics.median(samples) / 1000)
"""


def _export(rev: str, into: Path) -> Path:
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), rev], check=True)
    tree = into / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def _round(tree: Path, snapshot: Path, calls: int) -> float:
    code = ROUND.format(tree=str(tree), snapshot=str(snapshot), calls=calls)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=tree)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the revision to compare with this tree (for example a1bd93e)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=3000)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from bench.run import realistic_battle

    with tempfile.TemporaryDirectory() as tmp:
        base = _export(args.rev, Path(tmp))
        snapshot = Path(tmp) / "battle.json"
        snapshot.write_text(json.dumps(realistic_battle()))
        old: list[float] = []
        new: list[float] = []
        for index in range(args.rounds):
            old.append(_round(base, snapshot, args.calls))
            new.append(_round(ROOT, snapshot, args.calls))
            print(f"round {index + 1}: {args.rev} {old[-1]:.1f} µs, this tree {new[-1]:.1f} µs")
        print(
            f"engine resolve-battle, median of {args.rounds} medians: {args.rev} {statistics.median(old):.1f} µs, "
            f"this tree {statistics.median(new):.1f} µs"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
