"""Hostile input against the real server (gunicorn): it answers with a 4xx, or in time, and survives."""

from __future__ import annotations

import urllib.request

from .conftest import base_snapshot
from .robustness import deeply_nested, many_force_stacks, oversized_body, oversized_chunked_body


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
