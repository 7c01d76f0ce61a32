"""Files and messages from outside are read within limits and checked before they count.

An unauthenticated import, any API body, the WebSocket's first message and ``spieltisch
verify`` get deep nesting, numbers with thousands of digits, ``NaN`` and impossible die values;
each is refused with a 4xx (or a verify error) that names the field, never a 500, a dropped
connection or a table stored. Honest exports still import.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from asgi_client import TestClient
from spieltisch.cli.app import app
from spieltisch.dice.verify import VerifyError, parse_export
from spieltisch.safejson import JsonLimitError, loads
from spieltisch.store import EventStore
from spieltisch.web.app import create_app

DEEP = b"[" * 100_000
LONG = b"1" * 5000


def test_the_loader_names_where_it_stops() -> None:
    with pytest.raises(JsonLimitError) as caught:
        loads(DEEP)
    assert caught.value.code == "json.too_deep"
    with pytest.raises(JsonLimitError) as caught:
        loads(b'{"records": [{"draws": [{"value": ' + LONG + b"}]}]}")
    assert caught.value.code == "json.number_too_long"
    assert caught.value.params == {
        "field": "records[0].draws[0].value",
        "digits": 5000,
        "limit": 40,
    }
    with pytest.raises(JsonLimitError) as caught:
        loads('{"a": [1, {"b": NaN}]}')
    assert (caught.value.code, caught.value.params["field"]) == ("json.bad_number", "a[1].b")
    with pytest.raises(JsonLimitError) as caught:
        loads("[1e999]")
    assert caught.value.code == "json.bad_number"
    # Nesting below Python's recursion limit but past ours is refused by the walk.
    with pytest.raises(JsonLimitError) as caught:
        loads("[" * 65 + "]" * 65)
    assert caught.value.code == "json.too_deep"
    assert loads("[" * 64 + "]" * 64) is not None
    assert loads('{"n": -123456789012345678901234567890, "x": 1.5}') == {
        "n": -123456789012345678901234567890,
        "x": 1.5,
    }


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = EventStore(f"sqlite:///{tmp_path / 'hostile.sqlite3'}")
    try:
        with TestClient(create_app(store), raise_server_exceptions=False) as client:
            yield client
    finally:
        store.close()


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == code
    return error


def _table(client: TestClient) -> tuple[str, dict[str, str]]:
    created = client.post("/api/tables", json={"system": "free-dice"}).json()
    return created["table"], {"Authorization": f"Bearer {created['token']}"}


def _export(client: TestClient) -> dict[str, Any]:
    """A free-dice export: 2d6 revealed in epoch 1, then 2d6 in the open epoch 2."""
    table, gm = _table(client)
    roll = {"command": {"kind": "roll", "expression": "2d6"}}
    client.post(f"/api/tables/{table}/commands", json=roll, headers=gm)
    client.post(f"/api/tables/{table}/reveal", headers=gm)
    client.post(f"/api/tables/{table}/commands", json=roll, headers=gm)
    data: dict[str, Any] = client.get(f"/api/tables/{table}/export", headers=gm).json()
    return data


def test_the_import_refuses_deep_and_long_json_naming_where(client: TestClient) -> None:
    tables = len(client.app.state.store.list_tables())  # type: ignore[attr-defined]
    error = _error(client.post("/api/tables/import?lang=en", content=DEEP), 400, "json.too_deep")
    assert "nested too deeply" in error["message"]
    body = b'{"format": "spieltisch-table/2", "records": [{"seq": ' + LONG + b"}]}"
    error = _error(
        client.post("/api/tables/import?lang=de", content=body), 400, "json.number_too_long"
    )
    assert "records[0].seq" in error["message"] and "5000 Stellen" in error["message"]
    assert len(client.app.state.store.list_tables()) == tables  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", [7, 10**30, 0, -1])
@pytest.mark.parametrize("record", [0, 1], ids=["revealed", "open epoch"])
def test_impossible_die_values_are_refused_in_every_epoch(
    client: TestClient, value: int, record: int
) -> None:
    honest = _export(client)
    data = copy.deepcopy(honest)
    data["records"][record]["draws"][0]["value"] = value
    error = _error(
        client.post("/api/tables/import?lang=en", json=data), 422, "verify.impossible_value"
    )
    assert f"records[{record}].draws[0].value" in error["message"]
    assert str(value) in error["message"] and "6 sides" in error["message"]
    assert client.post("/api/tables/import", json=honest).status_code == 201


def test_every_api_body_names_a_long_number(client: TestClient) -> None:
    table, gm = _table(client)
    body = b'{"command": {"kind": "roll", "expression": "1d6"}, "expected_seq": ' + LONG + b"}"
    headers = {**gm, "Content-Type": "application/json"}
    answer = client.post(f"/api/tables/{table}/commands?lang=en", content=body, headers=headers)
    error = _error(answer, 400, "json.number_too_long")
    assert "expected_seq" in error["message"]
    answer = client.post(f"/api/tables/{table}/commands", content=DEEP, headers=headers)
    _error(answer, 400, "json.too_deep")
    assert client.get(f"/api/tables/{table}", headers=gm).json()["seq"] == 0


@pytest.mark.parametrize(
    "first",
    [
        "[" * 100_000,
        '{"type": "auth", "token": "x", "since": ' + "9" * 5000 + "}",
        '{"type": "auth", "token": "x", "since": NaN}',
    ],
    ids=["deep", "long number", "NaN"],
)
def test_a_hostile_first_websocket_message_gets_the_error_frame(
    client: TestClient, first: str
) -> None:
    table, _ = _table(client)
    with client.websocket_connect(f"/api/tables/{table}/ws?lang=en") as ws:
        ws.send_text(first)
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["error"]["code"] == "ws.auth_expected"


def test_verify_refuses_hostile_files_with_a_named_error(tmp_path: Path) -> None:
    with pytest.raises(VerifyError) as caught:
        parse_export(DEEP)
    assert caught.value.code == "json.too_deep"
    path = tmp_path / "long.json"
    path.write_bytes(b'{"format": "spieltisch-table/2", "table": ' + LONG + b"}")
    result = CliRunner().invoke(app, ["--lang", "en", "verify", str(path), "--json"])
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert (
        error["code"] == "json.number_too_long" and "at table has 5000 digits" in error["message"]
    )


FROZEN = sorted((Path(__file__).parent.parent / "frozen" / "exports").glob("*.json"))


@pytest.mark.parametrize("path", FROZEN, ids=[path.stem for path in FROZEN])
def test_every_frozen_table_refuses_the_moved_epoch_and_impossible_values(path: Path) -> None:
    """Every system's real session (tests/frozen): the open epoch moved back over the last
    revealed epoch's draws, and one draw of each record made impossible, are refused."""
    from spieltisch.dice.verify import verify_export

    honest = json.loads(path.read_text(encoding="utf-8"))
    assert verify_export(honest, require_revealed=False).ok
    moved = copy.deepcopy(honest)
    epochs = moved["fair"]["epochs"]
    epochs[-1]["start"] = epochs[-2]["start"]
    verdict = verify_export(moved, require_revealed=False)
    assert verdict.chain is not None and verdict.chain.epoch == len(epochs) - 1
    error = verdict.error()
    assert error is not None and error.code == "verify.chain_open"
    for number, record in enumerate(honest["records"]):
        for value in (0, record["draws"][0]["sides"] + 1) if record["draws"] else ():
            broken = copy.deepcopy(honest)
            broken["records"][number]["draws"][0]["value"] = value
            with pytest.raises(VerifyError) as caught:
                verify_export(broken, require_revealed=False)
            assert caught.value.code == "verify.impossible_value"
            assert caught.value.params["field"] == f"records[{number}].draws[0].value"
