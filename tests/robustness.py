"""Hostile-input probes against a running server: each returns a problem line, or None when it holds."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

ONE_MIB = 1024 * 1024


def post(url: str, body: bytes, timeout: float = 60.0) -> tuple[int, Any, float]:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    elapsed = time.monotonic() - started
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw
    return status, parsed, elapsed


def oversized_body(base: str) -> str | None:
    status, _, _ = post(base + "/v1/rulings", b" " * (ONE_MIB + 1))
    return None if status == 413 else f"a body of 1 MiB + 1 byte got {status}, not 413"


def deeply_nested(base: str) -> str | None:
    depth = 100_000
    body = ('{"snapshot": ' + "[" * depth + "]" * depth + ', "action": {"type": "resolve-battle"}}').encode()
    status, _, _ = post(base + "/v1/rulings", body)
    return None if 400 <= status < 500 else f"JSON nested {depth} deep got {status}, not a 4xx"


def many_force_stacks(base: str, snapshot: dict[str, Any], timeout: float = 30.0) -> str | None:
    stacks = [
        {"faction": "atreides", "territory": "arrakeen", "sector": 9, "regular": 1, "elite": 0} for _ in range(10_000)
    ]
    body = json.dumps({"snapshot": {**snapshot, "forces": stacks}, "action": {"type": "resolve-battle"}}).encode()
    status, _, elapsed = post(base + "/v1/rulings", body, timeout=timeout)
    if 400 <= status < 500 or (status == 200 and elapsed < timeout):
        return None
    return f"10,000 force stacks got {status} after {elapsed:.1f} s"


def oversized_chunked_body(base: str) -> str | None:
    """A body sent chunked (no Content-Length) over the limit is refused the same way."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=60)
    chunk = b" " * 65536
    body = (chunk for _ in range((2 * ONE_MIB) // len(chunk)))
    connection.request(
        "POST", "/v1/rulings", body=body, headers={"Content-Type": "application/json"}, encode_chunked=True
    )
    status = connection.getresponse().status
    connection.close()
    return None if status == 413 else f"a chunked body of 2 MiB got {status}, not 413"


def _address(base: str) -> tuple[str, int]:
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    return parts.hostname or "127.0.0.1", parts.port or 80


def raw_exchange(base: str, data: bytes, timeout: float = 30.0) -> tuple[int | None, dict[str, str], bytes, float]:
    """Send raw bytes and read the answer: (status or None when the server closed without one, headers,
    body, seconds until the answer)."""
    import socket

    started = time.monotonic()
    with socket.create_connection(_address(base), timeout=timeout) as conn:
        conn.sendall(data)
        received = b""
        try:
            while True:
                part = conn.recv(65536)
                if not part:
                    break
                received += part
                head, _, body = received.partition(b"\r\n\r\n")
                length = next(
                    (
                        int(line.split(b":", 1)[1])
                        for line in head.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    ),
                    None,
                )
                if length is not None and len(body) >= length:
                    break
        except TimeoutError:
            pass
    elapsed = time.monotonic() - started
    if not received.startswith(b"HTTP/"):
        return None, {}, b"", elapsed
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    return int(lines[0].split()[1]), headers, body, elapsed


def chunked_post(path: str, chunks: bytes, extra: str = "") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n{extra}"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode() + chunks
