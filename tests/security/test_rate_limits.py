"""Rate limits through the real application: per token, per client address, 429 with
Retry-After and a localized message; a refused request changes nothing. Both places the counts
can live: memory, and the database (the sliding window counter shared by every worker; two
workers on PostgreSQL in ``tests/web/test_people_web.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from limits import parse
from sqlalchemy import text

from asgi_client import TestClient
from spieltisch.errors import InputError
from spieltisch.store.events import EventStore
from spieltisch.web.app import Settings, create_app
from spieltisch.web.limits import DatabaseCounter, RateLimits
from spieltisch.web.workers import PoolSettings

STORAGE = "memory"


@pytest.fixture(params=["memory", "database"], autouse=True)
def storage(request: pytest.FixtureRequest) -> Any:
    """Every test counts in memory and in the database (the event store's SQLite here)."""
    global STORAGE
    STORAGE = request.param
    yield request.param
    STORAGE = "memory"


def _client(store: EventStore, **rates: str) -> TestClient:
    settings = Settings(pool=PoolSettings(size=0), rates=RateLimits(**rates), rate_storage=STORAGE)
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
        message = _limited(_roll(client, table, gm, "odds"), "Chancen")
        assert "Zu viele Anfragen (Chancen: höchstens 2 je Minute)" in message
        assert _roll(client, table, gm).status_code == 200  # commands are counted apart


def test_create_join_and_import_per_address(web_store: EventStore) -> None:
    with _client(web_store, create="2/hour", join="1/hour", imports="1/hour") as client:
        first = _create(client).json()
        assert _create(client).status_code == 201
        _limited(_create(client), "new tables")
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


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_the_database_counter_keeps_a_moving_window(web_store: EventStore, storage: str) -> None:
    if storage != "database":
        pytest.skip("one run is enough")
    clock = Clock(6000.0)
    counter = DatabaseCounter(web_store.engine, clock)
    item = parse("3/minute")
    check = [(item, "k")]
    assert counter.hit(check) is None
    clock.now += 20
    assert [counter.hit(check) for _ in range(2)] == [None, None]
    assert counter.hit(check) == 40  # the first hit leaves the window at 6060
    clock.now += 41
    assert counter.hit(check) is None
    assert counter.hit(check) == 19  # now the two of 6020 are the oldest
    other = [(parse("1/minute"), "other"), (item, "k")]
    assert counter.hit(other) is not None  # one limit at its end: nothing counted
    assert counter.hit([(parse("1/minute"), "other")]) is None
    counter.CLEAN_EVERY = 1
    clock.now += 3600
    assert counter.hit(check) is None
    with web_store.engine.connect() as conn:
        left = conn.execute(text("SELECT count(*) FROM rate_hits")).scalar_one()
    assert left == 1  # the old rows were deleted


def test_the_storage_setting(storage: str) -> None:
    assert Settings.from_env({}).rate_storage == "auto"
    assert Settings.from_env({"SPIELTISCH_RATE_STORAGE": "database"}).rate_storage == "database"
    with pytest.raises(InputError):
        Settings.from_env({"SPIELTISCH_RATE_STORAGE": "redis"})
