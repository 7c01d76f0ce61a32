"""A bounded schemathesis run against the live application's OpenAPI document.

Every operation is called with examples generated from its schema (a fixed seed, a bounded
number of examples): no answer may be a server error, and every answer must match the
response schema the document promises. Half of the calls go to a real table with a real
token, so the generated commands reach the game systems (every system's commands are in the
document, see ``web/schemas.py``).

One test per operation, built when it runs by the builder ``@schema.parametrize()`` uses
(the same configuration, seed, settings and coverage cases, so the same calls): built at
collection, as ``schema.parametrize`` does, every test process (each xdist worker) would
generate every operation's coverage cases, most of the collection's time, for tests only one
of them runs.

The calls go through one client per module instead of a new one per call (as schemathesis
makes without a session): its cookies are cleared before each call, so each starts as a new
client would, and it does not read proxy settings from the environment, which the in-process
transport never uses and requests otherwise looked up twice per call (a tenth of the run).
"""

from __future__ import annotations

import shutil
import tempfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, seed, settings
from schemathesis.checks import load_all_checks, not_a_server_error, response_schema_conformance
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.pytest._test_builder import build_operation_test
from schemathesis.python._constants.orchestrator import make_constants_value_source
from schemathesis.python.asgi import ASGIClient, get_client

from asgi_client import TestClient
from spieltisch.store import EventStore
from spieltisch.systems.registry import system_ids
from spieltisch.web.app import create_app

_FOLDER = Path(tempfile.mkdtemp())
_STORE = EventStore(f"sqlite:///{_FOLDER / 'fuzz.sqlite3'}")
APP = create_app(_STORE)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

OPERATIONS = {
    operation.label: operation
    for operation in (result.ok() for result in schema.get_all_operations())
}
"""Every operation of the document, by its label ("POST /api/tables", ...)."""

SYSTEMS = tuple(system_ids())
"""Every system gets a real table the generated commands may reach."""


@pytest.fixture(scope="module")
def tables() -> Iterator[list[tuple[str, str]]]:
    """A table (id, GM token) of every system; the module's store is closed and its file
    removed once its tests ran."""
    with TestClient(APP) as client:
        made = []
        for system in SYSTEMS:
            created = client.post("/api/tables", json={"system": system}).json()
            made.append((created["table"], created["token"]))
    yield made
    _STORE.close()
    shutil.rmtree(_FOLDER, ignore_errors=True)


@pytest.fixture(scope="module")
def client() -> Iterator[ASGIClient]:
    """The in-process client every call of the module goes through."""
    with get_client(APP) as made:
        made.trust_env = False
        yield made


@pytest.fixture(scope="module")
def feedback() -> FeedbackSources:
    """What the generation learns from the application, shared by every operation (as one
    ``schema.parametrize`` shares it)."""
    load_all_checks()
    return FeedbackSources(constants_value_source=make_constants_value_source(schema))


@pytest.mark.parametrize("label", list(OPERATIONS))
def test_no_server_errors_and_answers_match_the_schema(
    label: str, tables: list[tuple[str, str]], feedback: FeedbackSources, client: ASGIClient
) -> None:
    @seed(1733)
    @settings(
        max_examples=12,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def call(case: Any) -> None:
        path_parameters = case.path_parameters or {}
        pick = zlib.crc32(repr(case.body).encode("utf-8", "surrogatepass"))  # stable across runs
        if "table_id" in path_parameters and pick % 2 == 0:
            table, token = tables[pick // 2 % len(tables)]
            path_parameters["table_id"] = table
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        client.cookies.clear()
        case.call_and_validate(
            session=client, checks=[not_a_server_error, response_schema_conformance]
        )

    test = build_operation_test(
        config=schema.config,
        operation=OPERATIONS[label],
        test_func=call,
        given_kwargs={},
        feedback=feedback,
    )
    test()
