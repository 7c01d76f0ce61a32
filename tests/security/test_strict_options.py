"""Every system's table options take numbers, flags and texts by the shared strict rules.

The same rules as the commands (``test_strict_commands.py``): an integer option refuses
``"2"``, ``true`` and ``2.0``, a flag refuses ``1`` and ``"true"``, a text refuses NUL and
ESC. The walk finds any option field outside them; then every option of every system is sent
loose to ``POST /api/tables`` on SQLite and PostgreSQL: each answer is a 4xx whose message
names the option, and no table is made.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest
from test_strict_commands import _loose_fields

from asgi_client import TestClient
from spieltisch.store import EventStore
from spieltisch.systems.registry import get_system, system_ids
from spieltisch.web.app import Settings, create_app
from spieltisch.web.limits import RateLimits

NO_RATE_LIMITS = RateLimits(**{f.name: "" for f in fields(RateLimits)})


@pytest.mark.parametrize("system_id", system_ids())
def test_every_option_field_follows_the_strict_rules(system_id: str) -> None:
    assert _loose_fields(get_system(system_id).options.core_schema) == []


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        return _resolve(defs[node["$ref"].split("/")[-1]], defs)
    for branch in node.get("anyOf", ()):
        if branch.get("type") != "null":
            return _resolve(branch, defs)
    return node


def _loose(node: dict[str, Any], defs: dict[str, Any]) -> list[Any]:
    """Values a lax reading would take for a field of schema ``node``, which the strict
    rules refuse."""
    if any(branch.get("type") == "number" for branch in node.get("anyOf", ())):
        return [True, "NaN", "a\x00b"]  # an exact decimal: a number or its text, no more
    node = _resolve(node, defs)
    kind = node.get("type")
    enum = node.get("enum", [])
    if kind == "integer" or (enum and all(isinstance(v, int) for v in enum)):
        base = enum[0] if enum else node.get("minimum", 1)
        return [str(base), True if base == 1 else float(base), float(base)]
    if kind == "boolean":
        return [1, "true"]
    if kind == "string" or enum:
        return ["a\x00b", "a\x1bb"]
    if kind == "array":
        return [[value] for value in _loose(node["items"], defs)]
    if kind == "object" and "properties" in node:
        return [
            {name: value}
            for name, field in node["properties"].items()
            for value in _loose(field, defs)[:1]
        ]
    if kind == "object":  # a mapping: a key with a control character
        return [{"a\x00b": {}}]
    raise AssertionError(f"no loose values for {node}")


def _cases() -> Iterator[Any]:
    for system_id in system_ids():
        schema = get_system(system_id).options.json_schema()
        defs = schema.get("$defs", {})
        for name, field in schema.get("properties", {}).items():
            for value in _loose(field, defs):
                yield system_id, name, value
    # Options outside the form's schema, and nested ones the walk names.
    yield "kreiswanderer", "edition", True
    yield "kreiswanderer", "edition", 2.0
    yield "hexxen", "decay", {"malus": {"mode": "check", "skill": "Wil\x1ble"}}


CASES = list(_cases())


def test_every_system_with_options_is_tried() -> None:
    assert {system for system, _, _ in CASES} == set(system_ids())
    assert len(CASES) > 60


@pytest.fixture
def api(database_url: str) -> Iterator[tuple[TestClient, EventStore]]:
    store = EventStore(database_url)
    settings = replace(Settings.from_env(), rates=NO_RATE_LIMITS)
    try:
        with TestClient(create_app(store, settings=settings)) as client:
            yield client, store
    finally:
        store.close()


def test_a_loose_option_is_refused_by_name_and_nothing_is_made(
    api: tuple[TestClient, EventStore],
) -> None:
    client, store = api
    for system_id, name, value in CASES:
        reply = client.post(
            "/api/tables?lang=en",
            json={"system": system_id, "options": {name: value}, "language": "en"},
        )
        assert 400 <= reply.status_code < 500, (system_id, name, value, reply.text)
        assert name in reply.json()["error"]["message"], (system_id, name, value, reply.text)
    assert store.list_tables() == []
    fine = client.post("/api/tables", json={"system": "hexxen", "options": {"max_pool": 9}})
    assert fine.status_code == 201, fine.text  # the JSON values themselves are taken
