"""schemathesis over every operation of the committed spec: positive and negative data, no 5xx,
every response documented and conforming (response schemas are closed)."""

from __future__ import annotations

import schemathesis

from api import create_app

app = create_app()
schema = schemathesis.openapi.from_wsgi("/openapi.json", app)


@schema.parametrize()
def test_api_conforms_to_its_spec(case: schemathesis.Case) -> None:
    case.call_and_validate()
