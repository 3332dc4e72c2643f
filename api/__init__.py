"""The HTTP adapter: `create_app()` builds the Flask application around the pure engine."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Flask, Response, request, send_from_directory
from werkzeug.exceptions import HTTPException, UnsupportedMediaType

from adjudicator import ENGINE_VERSION
from adjudicator.core.errors import InvalidRequest, UnknownRegisterEntry

from . import fairness
from .body import read_body
from .extensions import Api, refuse_unexpected_query
from .problems import problem
from .resources.health.routes import blp as health_blp
from .resources.options.routes import blp as options_blp
from .resources.registers.routes import blp as registers_blp
from .resources.rulings.routes import blp as rulings_blp
from .resources.scenarios.routes import blp as scenarios_blp
from .resources.views.routes import blp as views_blp

MAX_BODY_BYTES = 1024 * 1024
SWAGGER_ASSETS = Path(flask_swagger_ui.__file__).resolve().parent / "dist"

DESCRIPTION = """\
Reference rules adjudicator for GF9's *Dune* (2019) with the Ixians & Tleilaxu, CHOAM & Richese and
Ecaz & Moritani expansions. Send a board snapshot and a proposed action; get back whether it is
legal, the legal options, the resolved outcome and the cited rulings behind it. Rules the publisher
never settled are listed at `/v1/questions`; choose an interpretation with `interpretations`.

Errors are `application/problem+json` (RFC 9457) with an `errors` list of `{path, code, message}`,
where `path` is a JSON pointer into the request.
"""

DEFAULT_CONFIG: dict[str, Any] = {
    "API_TITLE": "Dune rules adjudicator",
    "API_VERSION": ENGINE_VERSION,
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    "OPENAPI_SWAGGER_UI_URL": "/docs/assets/",
    "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None, "deepLinking": True},
    "API_SPEC_OPTIONS": {
        "info": {
            "description": DESCRIPTION,
            "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"},
        },
        "servers": [{"url": "/", "description": "the host serving this document"}],
        # no operation needs credentials
        "security": [],
    },
    "MAX_CONTENT_LENGTH": MAX_BODY_BYTES,
    "JSON_SORT_KEYS": True,
}

log = logging.getLogger(__name__)

API_BLUEPRINTS = {b.name: b for b in (rulings_blp, options_blp, views_blp, registers_blp, scenarios_blp, health_blp)}


def _is_json_mimetype(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The application factory (`flask --app api run`, gunicorn `api:create_app()`)."""
    app = Flask(__name__)
    app.config.update(DEFAULT_CONFIG)
    if config:
        app.config.update(config)

    api = Api(app)
    for blueprint in API_BLUEPRINTS.values():
        api.register_blueprint(blueprint)

    @app.get("/docs/assets/<path:filename>")
    def swagger_asset(filename: str) -> Response:
        """Swagger UI's assets, served from the installed package (no CDN)."""
        return send_from_directory(SWAGGER_ASSETS, filename, max_age=3600)

    @app.before_request
    def require_json_body() -> None:
        # Routing errors (404, 405) take precedence over the media type.
        if request.routing_exception is None and request.method == "POST":
            if not _is_json_mimetype(request.mimetype):
                raise UnsupportedMediaType()
            read_body(request)

    @app.before_request
    def strict_query() -> None:
        # Every API operation refuses query parameters it does not take; one with a query schema
        # checks them there (api/parser.py). The spec and docs pages are left as they are.
        if request.routing_exception is None and request.blueprint in API_BLUEPRINTS and request.endpoint:
            refuse_unexpected_query(app.view_functions[request.endpoint], request.method, request.args)

    @app.before_request
    def take_turn() -> None:
        # after the body is read: computing waits its turn, reading never does (api/fairness.py)
        fairness.enter(request.environ)

    @app.teardown_request
    def end_turn(_: BaseException | None) -> None:
        fairness.leave(request.environ)

    @app.errorhandler(InvalidRequest)
    def invalid_request(error: InvalidRequest) -> Response:
        errors = [p.to_dict() for p in error.problems]
        detail = f"{len(errors) + error.omitted} problem(s) in the request; see errors."
        return problem(422, "Unprocessable Content", detail, errors, omitted=error.omitted)

    @app.errorhandler(UnknownRegisterEntry)
    def unknown_entry(error: UnknownRegisterEntry) -> Response:
        return problem(404, "Not Found", f"No {error.kind} with id '{error.entry_id}'.")

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        if isinstance(error, HTTPException):
            return api.handle_http_exception(error)
        log.exception("unexpected error answering %s %s", request.method, request.path)
        return problem(500, "Internal Server Error", "The server failed to answer this request.")

    return app
