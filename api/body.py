"""The request body, read whole before routing, so that what a client does wrong while sending it is
answered as the client's error: a body in an encoding the service does not decode (415), broken
chunked framing or a body cut short (400), a sender too slow to finish within the read deadline (408),
a body over the limit (413). Each is a problem+json answer like any other request error.

The deadline bounds the whole body, not each read, so a client trickling one byte at a time cannot
hold a connection open. Under the production server (gunicorn's gevent workers, see
`gunicorn.conf.py`) the deadline interrupts the waiting greenlet and other connections are served
meanwhile; under a server with blocking sockets only each read is bounded.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any

from flask import Request
from gunicorn.http.errors import ParseException
from werkzeug.exceptions import (
    BadRequest,
    ClientDisconnected,
    HTTPException,
    RequestEntityTooLarge,
    UnsupportedMediaType,
)

# A body declared over the limit is still read (and dropped) up to this size before the 413, so that
# the client, still sending, reads the answer instead of a reset connection.
DRAIN_BYTES = 8 * 1024 * 1024
# The whole body must arrive within this many seconds (the tests shorten it through the environment).
READ_SECONDS = float(os.environ.get("DUNE_BODY_READ_SECONDS", "10"))
IDENTITY = ("", "identity")


class BodyTimeout(HTTPException):
    code = 408
    description = f"The request body did not arrive whole within {READ_SECONDS:g} seconds."
    problem_code = "body-timeout"


class MalformedBody(BadRequest):
    description = "The request body's framing is broken (a bad chunk size, a missing chunk end, or a body cut short)."
    problem_code = "malformed-body"


class UnsupportedEncoding(UnsupportedMediaType):
    problem_code = "unsupported-content-encoding"

    def __init__(self, encoding: str) -> None:
        super().__init__(f"Content-Encoding {encoding!r} is not decoded here: send the body uncompressed (identity).")


class _Expired(Exception):
    """Raised into a gevent greenlet when the deadline passes."""


def _gevent_socket() -> bool:
    if "gevent" not in sys.modules:
        return False
    from gevent import monkey

    return bool(monkey.is_module_patched("socket"))


@contextlib.contextmanager
def _deadline(environ: dict[str, Any], seconds: float) -> Iterator[None]:
    if _gevent_socket():
        import gevent

        with gevent.Timeout(seconds, _Expired):
            yield
        return
    sock = environ.get("gunicorn.socket")
    if not isinstance(sock, socket.socket):  # the test client, or a server that reads the body itself
        yield
        return
    before = sock.gettimeout()
    sock.settimeout(seconds)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            sock.settimeout(before)


def _drop(stream: Any, count: int) -> None:
    while count > 0:
        part = stream.read(min(count, 65536))
        if not part:
            return
        count -= len(part)


def read_body(request: Request, seconds: float = READ_SECONDS) -> None:
    """Read and cache the body of `request` (later `get_data` calls return it), or raise the request
    error that describes what is wrong with it."""
    encoding = request.headers.get("Content-Encoding", "").strip().lower()
    if encoding not in IDENTITY:
        raise UnsupportedEncoding(encoding)
    limit = request.max_content_length
    started = time.monotonic()
    length = request.content_length
    try:
        with _deadline(request.environ, seconds):
            if limit is not None and length is not None and length > limit:
                _drop(request.environ["wsgi.input"], min(length, DRAIN_BYTES))
                raise RequestEntityTooLarge()
            data = request.get_data(cache=True)
            # A chunked body (no Content-Length) is cut at the limit, not refused: one byte more on the
            # wire means the body was too large.
            cut = request.content_length is None and limit is not None and len(data) >= limit
            if cut and request.environ["wsgi.input"].read(1):
                raise RequestEntityTooLarge()
    except (_Expired, TimeoutError) as exc:
        raise BodyTimeout() from exc
    except ClientDisconnected as exc:  # fewer bytes than Content-Length said
        raise MalformedBody() from exc
    except (ParseException, OSError, ValueError) as exc:
        # gunicorn's framing errors: InvalidChunkSize, ChunkMissingTerminator, NoMoreData (an OSError)
        if time.monotonic() - started >= seconds:
            raise BodyTimeout() from exc
        raise MalformedBody() from exc
