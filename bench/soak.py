"""`make soak`: the live gunicorn server at saturation for 60 s from a second process (wrk, from
Debian's packages) with a mix of fixture requests; reports requests/s, p50/p99 latency, errors (must
be 0) and the workers' RSS at the start and the end (must not grow by more than 10%)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.scenarios import load_scenarios
from tests.live import live_server

DURATION = "60s"


def workers_rss_kib(master: int) -> dict[int, int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    sizes = {}
    for pid in map(int, children):
        status = Path(f"/proc/{pid}/status").read_text()
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        if found:
            sizes[pid] = int(found.group(1))
    return sizes


def lua_script(bodies: list[tuple[str, str]]) -> str:
    entries = ",\n".join(f'{{"{path}", [==[{body}]==]}}' for path, body in bodies)
    return f"""
local requests = {{
{entries}
}}
local i = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  i = (i % #requests) + 1
  return wrk.format(nil, requests[i][1], nil, requests[i][2])
end
"""


def main() -> int:
    mix = [
        (s.path, json.dumps(s.request))
        for s in load_scenarios()
        if s.method == "POST"
        and s.expect.get("http_status", 200) == 200
        and s.area in ("battle", "moritani", "skills", "extortion", "tleilaxu", "duke-vidal")
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(lua_script(mix))
    with live_server(workers=2) as (url, process):
        cold = workers_rss_kib(process.pid)
        # warm every worker once through the whole mix, then measure from a settled heap
        subprocess.run(["wrk", "-t1", "-c2", "-d5s", "-s", script.name, url], capture_output=True, check=True)
        time.sleep(1)
        before = workers_rss_kib(process.pid)
        run = subprocess.run(
            ["wrk", "-t2", "-c8", f"-d{DURATION}", "--latency", "-s", script.name, url],
            capture_output=True,
            text=True,
            check=True,
        )
        after = workers_rss_kib(process.pid)
    out = run.stdout
    print(out)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = re.search(r"50%\s+([\d.]+\w+)", out).group(1)  # type: ignore[union-attr]
    p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)  # type: ignore[union-attr]
    non_2xx = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)) else 0
    socket = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    errors = non_2xx + socket
    growth = max((after[pid] - before[pid]) / before[pid] for pid in before if pid in after)
    print(f"soak: {len(mix)} fixture requests in the mix, {rate:.0f} requests/s, p50 {p50}, p99 {p99}, errors {errors}")
    Path(script.name).unlink()
    print(f"worker RSS (KiB) before any request {sorted(cold.values())}, after a 5 s warm-up {sorted(before.values())}")
    print(
        f"worker RSS (KiB) start of the 60 s {sorted(before.values())}, end {sorted(after.values())}, "
        f"largest growth {growth:.1%}"
    )
    return 0 if errors == 0 and growth <= 0.10 and before.keys() == after.keys() else 1


if __name__ == "__main__":
    raise SystemExit(main())
