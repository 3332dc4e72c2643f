"""Hostile input against the real server (gunicorn with the production settings): it answers with a
4xx problem, or in time, and survives; slow and stalled clients are bounded and starve nobody."""

from __future__ import annotations

import gzip
import json
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from .conftest import BODY_READ_SECONDS, base_snapshot
from .robustness import (
    chunked_post,
    deeply_nested,
    many_force_stacks,
    oversized_body,
    oversized_chunked_body,
    post,
    raw_exchange,
)


def test_a_body_over_one_mebibyte_is_413(live_server: str) -> None:
    assert oversized_body(live_server) is None


def test_a_chunked_body_over_one_mebibyte_is_413(live_server: str) -> None:
    assert oversized_chunked_body(live_server) is None


def test_deeply_nested_json_is_a_4xx(live_server: str) -> None:
    assert deeply_nested(live_server) is None


def test_ten_thousand_force_stacks_get_a_4xx_or_an_answer_in_time(live_server: str) -> None:
    assert many_force_stacks(live_server, base_snapshot("duel")) is None
    with urllib.request.urlopen(live_server + "/healthz", timeout=5) as answer:
        assert answer.status == 200


def _problem(body: bytes) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(body)
    return parsed


@pytest.mark.parametrize("size", [b"zz", b"-5", b"0x10", b"1 0"])
def test_a_bad_chunk_size_is_a_400_problem(live_server: str, size: bytes) -> None:
    status, headers, body, _ = raw_exchange(
        live_server, chunked_post("/v1/rulings", size + b"\r\n{}\r\n0\r\n\r\n"), timeout=10
    )
    assert status == 400
    assert headers["content-type"] == "application/problem+json"
    assert [e["code"] for e in _problem(body)["errors"]] == ["malformed-body"]


def test_a_body_without_its_last_chunk_is_a_408_at_the_deadline(live_server: str) -> None:
    status, headers, body, elapsed = raw_exchange(
        live_server, chunked_post("/v1/rulings", b"2\r\n{}\r\n"), timeout=BODY_READ_SECONDS + 10
    )
    assert status == 408, (status, body)
    assert headers["content-type"] == "application/problem+json"
    assert [e["code"] for e in _problem(body)["errors"]] == ["body-timeout"]
    assert BODY_READ_SECONDS - 0.5 <= elapsed <= BODY_READ_SECONDS + 3


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate"])
def test_a_compressed_body_is_a_415_problem(live_server: str, encoding: str) -> None:
    payload = gzip.compress(b'{"snapshot": {}, "action": {}}')
    request = (
        f"POST /v1/rulings HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        f"Content-Encoding: {encoding}\r\nContent-Length: {len(payload)}\r\n\r\n"
    ).encode() + payload
    status, headers, body, _ = raw_exchange(live_server, request, timeout=10)
    assert status == 415
    assert headers["content-type"] == "application/problem+json"
    assert [e["code"] for e in _problem(body)["errors"]] == ["unsupported-content-encoding"]


def test_stalled_clients_do_not_starve_the_service(live_server: str) -> None:
    host_port = urlsplit(live_server)
    address = (host_port.hostname or "127.0.0.1", host_port.port or 80)
    stalled_bodies, stalled_heads = [], []
    for _ in range(40):  # far more than the workers: each would hold a sync worker
        conn = socket.create_connection(address, timeout=30)
        conn.sendall(
            b"POST /v1/rulings HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
        )
        stalled_bodies.append(conn)
        conn = socket.create_connection(address, timeout=30)
        conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n")
        stalled_heads.append(conn)
    try:
        time.sleep(0.5)
        for _ in range(10):
            started = time.monotonic()
            with urllib.request.urlopen(live_server + "/healthz", timeout=5) as answer:
                assert answer.status == 200
            assert time.monotonic() - started < 2
        started = time.monotonic()
        status, _, _ = post(
            live_server + "/v1/rulings",
            json.dumps({"snapshot": base_snapshot("duel"), "action": {"type": "resolve-battle"}}).encode(),
            timeout=10,
        )
        assert status == 200 and time.monotonic() - started < 3
        # every stalled body is answered 408 by the deadline; every stalled head is closed
        for conn in stalled_bodies:
            first = conn.recv(64)
            assert first.startswith(b"HTTP/1.1 408"), first
        for conn in stalled_heads:
            assert conn.recv(64) == b""
    finally:
        for conn in stalled_bodies + stalled_heads:
            conn.close()


def test_the_server_keeps_nothing_in_its_home_or_runtime_folder(live_server: str, live_server_home: Path) -> None:
    with urllib.request.urlopen(live_server + "/healthz", timeout=5) as answer:
        assert answer.status == 200
    left = [p for p in live_server_home.rglob("*") if p != live_server_home / "run"]
    assert left == []
