"""`make fuzz`: schemathesis against the live gunicorn server (all operations, positive and negative
data, at least 2,000 generated requests), then the hostile-input probes. Exit 1 on any failure."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.live import live_server
from tests.robustness import deeply_nested, many_force_stacks, oversized_body

MINIMUM_REQUESTS = 2000


def main() -> int:
    from tests.conftest import base_snapshot

    root = Path(__file__).resolve().parent.parent
    with live_server(workers=2) as (url, _):
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "schemathesis.cli",
                "--config-file",
                str(root / "schemathesis.toml"),
                "run",
                f"{url}/openapi.json",
                "--max-examples",
                "150",
                "--mode",
                "all",
                "--workers",
                "2",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        print(run.stdout[-3000:])
        if run.returncode != 0:
            print(run.stderr[-3000:], file=sys.stderr)
        found = re.search(r"(\d+) generated", run.stdout)
        generated = int(found.group(1)) if found else 0
        problems = []
        if run.returncode != 0:
            problems.append(f"schemathesis exited {run.returncode}")
        if generated < MINIMUM_REQUESTS:
            problems.append(f"only {generated} requests generated, fewer than {MINIMUM_REQUESTS}")
        for probe in (oversized_body(url), deeply_nested(url), many_force_stacks(url, base_snapshot("duel"))):
            if probe is not None:
                problems.append(probe)
        with urllib.request.urlopen(url + "/healthz", timeout=5) as answer:
            if answer.status != 200:
                problems.append("the server is not healthy after the run")
    print(f"fuzz: {generated} generated requests; " + ("; ".join(problems) if problems else "no problem found"))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
