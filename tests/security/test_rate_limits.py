"""Rate limits through the real application: per token, per client address, 429 with
Retry-After and a localized message; a refused request changes nothing."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from spieltisch.store.events import EventStore
from spieltisch.web.app import Settings, create_app
from spieltisch.web.limits import RateLimits
from spieltisch.web.workers import PoolSettings


def _client(store: EventStore, **rates: str) -> TestClient:
    settings = Settings(pool=PoolSettings(size=0), rates=RateLimits(**rates))
    return TestClient(create_app(store, settings=settings))


def _limited(response: Any, action: str) -> str:
    assert response.status_code == 429, response.text
    error = response.json()["error"]
    assert error["code"] == "api.rate_limited"
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    assert action in error["message"]
    message: str = error["message"]
    return message


def _create(client: TestClient) -> Any:
    return client.post("/api/tables", json={"system": "free-dice", "language": "en"})


def _roll(client: TestClient, table: str, token: str, path: str = "commands") -> Any:
    return client.post(
        f"/api/tables/{table}/{path}",
        headers={"Authorization": f"Bearer {token}"},
        json={"command": {"kind": "roll", "expression": "1d6"}},
    )


def test_commands_per_token(web_store: EventStore) -> None:
    with _client(web_store, commands="3/minute") as client:
        created = _create(client).json()
        table, gm = created["table"], created["token"]
        for _ in range(3):
            assert _roll(client, table, gm).status_code == 200
        _limited(_roll(client, table, gm), "commands")
        seq = client.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {gm}"})
        assert seq.json()["seq"] == 3  # the refused command was not decided
        player = client.post(
            f"/api/tables/{table}/join", json={"invite": created["invites"]["player"], "name": "P"}
        ).json()["token"]
        assert _roll(client, table, player).status_code == 200  # another token has its own


def test_commands_per_address_cover_every_token(web_store: EventStore) -> None:
    with _client(web_store, commands="100/minute", commands_address="4/minute") as client:
        created = _create(client).json()
        table = created["table"]
        tokens = [created["token"]]
        for name in ("A", "B"):
            invite = {"invite": created["invites"]["player"], "name": name}
            tokens.append(client.post(f"/api/tables/{table}/join", json=invite).json()["token"])
        codes = [_roll(client, table, tokens[i % 3]).status_code for i in range(4)]
        assert codes == [200] * 4
        _limited(_roll(client, table, tokens[1]), "commands")


def test_odds_previews_are_limited_in_german_too(web_store: EventStore) -> None:
    with _client(web_store, odds="2/minute") as client:
        created = client.post("/api/tables", json={"system": "free-dice", "language": "de"})
        table, gm = created.json()["table"], created.json()["token"]
        for _ in range(2):
            assert _roll(client, table, gm, "odds").status_code == 200
        message = _limited(_roll(client, table, gm, "odds"), "odds")
        assert "Zu viele Anfragen" in message
        assert _roll(client, table, gm).status_code == 200  # commands are counted apart


def test_create_join_and_import_per_address(web_store: EventStore) -> None:
    with _client(web_store, create="2/hour", join="1/hour", imports="1/hour") as client:
        first = _create(client).json()
        assert _create(client).status_code == 201
        _limited(_create(client), "create")
        assert len(web_store.list_tables()) == 2
        join = {"invite": first["invites"]["player"], "name": "P"}
        assert client.post(f"/api/tables/{first['table']}/join", json=join).status_code == 201
        _limited(client.post(f"/api/tables/{first['table']}/join", json=join), "join")
        gm = {"Authorization": f"Bearer {first['token']}"}
        exported = client.get(f"/api/tables/{first['table']}/export", headers=gm).json()
        assert client.post("/api/tables/import", json=exported).status_code == 201
        _limited(client.post("/api/tables/import", json=exported), "imports")
        assert len(web_store.list_tables()) == 3


def test_a_limit_switched_off_never_refuses(web_store: EventStore) -> None:
    with _client(web_store, create="", commands="") as client:
        created = _create(client).json()
        for _ in range(30):
            assert _create(client).status_code == 201
        for _ in range(30):
            assert _roll(client, created["table"], created["token"]).status_code == 200
