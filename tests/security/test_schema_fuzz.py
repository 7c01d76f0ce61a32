"""A bounded schemathesis run against the live application's OpenAPI document.

Every operation is called with examples generated from its schema (a fixed seed, a bounded
number of examples): no answer may be a server error, and every answer must match the
response schema the document promises. Half of the calls go to a real table with a real
token, so the generated commands reach the game systems (every system's commands are in the
document, see ``web/schemas.py``).
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
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, seed, settings
from schemathesis.checks import not_a_server_error, response_schema_conformance

from spieltisch.store import EventStore
from spieltisch.systems.registry import system_ids
from spieltisch.web.app import create_app

_FOLDER = Path(tempfile.mkdtemp())
_STORE = EventStore(f"sqlite:///{_FOLDER / 'fuzz.sqlite3'}")
APP = create_app(_STORE)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


SYSTEMS = tuple(system_ids())
"""Every system gets a real table the generated commands may reach."""


def _tables() -> list[tuple[str, str]]:
    with TestClient(APP) as client:
        made = []
        for system in SYSTEMS:
            created = client.post("/api/tables", json={"system": system}).json()
            made.append((created["table"], created["token"]))
        return made


TABLES = _tables()


@pytest.fixture(scope="module", autouse=True)
def _store_closed_at_the_end() -> Iterator[None]:
    """The module's store is closed and its file removed once its tests ran."""
    yield
    _STORE.close()
    shutil.rmtree(_FOLDER, ignore_errors=True)


@schema.parametrize()
@seed(1733)
@settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors_and_answers_match_the_schema(case: Any) -> None:
    path_parameters = case.path_parameters or {}
    pick = zlib.crc32(repr(case.body).encode("utf-8", "surrogatepass"))  # stable across runs
    if "table_id" in path_parameters and pick % 2 == 0:
        table, token = TABLES[pick // 2 % len(TABLES)]
        path_parameters["table_id"] = table
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    case.call_and_validate(checks=[not_a_server_error, response_schema_conformance])
