"""JSON responses built straight from the engine's result objects.

The engine already returns JSON-shaped, canonical data, so the resources hand it to Flask's JSON
provider instead of running a marshmallow dump over it (which costs about as much as the ruling
itself). The response schemas still document the shape in the spec; the test suite loads every
fixture's answer back through them with unknown fields rejected, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Response, current_app


def json_response(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    response: Response = current_app.json.response(data)
    response.status_code = status
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response
