"""Budgets and work off the event loop: odds past the cost budget, the process pool with its
time limit (odds previews and AI moves), the import size limits."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from asgi_client import TestClient
from spieltisch.dice.fair import DiceSource
from spieltisch.engine.system import Access, Odds, OddsOutcome
from spieltisch.engine.visibility import Viewer
from spieltisch.errors import InputError
from spieltisch.store.events import EventStore
from spieltisch.systems import registry as registry_module
from spieltisch.web.app import Settings, create_app
from spieltisch.web.limits import ImportLimits, RateLimits
from spieltisch.web.workers import PoolSettings

# -- a game whose odds and automatic moves tell which process computed them ------------------


class Note(BaseModel):
    kind: Literal["note"] = "note"
    text: str


class Slow(BaseModel):
    kind: Literal["slow"] = "slow"


Command = Annotated[Note | Slow, Field(discriminator="kind")]


class Noted(BaseModel):
    kind: Literal["noted"] = "noted"
    text: str


class State(BaseModel):
    model_config = ConfigDict(frozen=True)
    notes: tuple[str, ...] = ()


class WhereSystem:
    """``note "ai"`` asks the table for an automatic note naming the process that chose it;
    ``note "sleep"`` makes that choice take 30 s; odds name the process, ``slow`` odds sleep."""

    id = "where"
    commands: TypeAdapter[Any] = TypeAdapter(Command)
    events: TypeAdapter[Any] = TypeAdapter(Noted)
    options: TypeAdapter[Any] = TypeAdapter(dict[str, Any])

    def new_state(self, options: Mapping[str, Any]) -> State:
        return State()

    def decide(self, state: State, command: Any, dice: DiceSource) -> list[Noted]:
        return [Noted(text=getattr(command, "text", "slow"))]

    def evolve(self, state: State, event: Noted) -> State:
        return State(notes=(*state.notes, event.text))

    def odds(self, state: State, command: Any) -> Odds:
        if isinstance(command, Slow):
            time.sleep(30)
        return Odds(outcomes=[OddsOutcome(value=os.getpid(), probability=1.0)])

    def access(self, state: State, command: Any) -> Access:
        return Access()

    def automatic(self, state: State) -> Note | None:
        last = state.notes[-1] if state.notes else ""
        if last == "sleep":
            time.sleep(30)
        if last in ("ai", "sleep"):
            return Note(text=f"pid {os.getpid()}")
        return None

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return {"notes": list(state.notes)}


@pytest.fixture
def where() -> Iterator[None]:
    registry_module.REGISTRY["where"] = WhereSystem
    try:
        yield
    finally:
        registry_module.REGISTRY.pop("where", None)


def _client(store: EventStore, **settings: Any) -> TestClient:
    return TestClient(create_app(store, settings=Settings(**settings)))


def _pool(size: int = 1, timeout: float = 10.0, budget: int | None = None) -> PoolSettings:
    return PoolSettings(
        size=size, timeout=timeout, odds_budget=budget or PoolSettings().odds_budget
    )


def _table(client: TestClient, system: str) -> tuple[str, dict[str, str]]:
    created = client.post("/api/tables", json={"system": system, "language": "en"}).json()
    return created["table"], {"Authorization": f"Bearer {created['token']}"}


def _odds(client: TestClient, table: str, gm: dict[str, str], command: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table}/odds", headers=gm, json={"command": command})


def _error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    message: str = response.json()["error"]["message"]
    assert message and message != code
    return message


# -- odds --------------------------------------------------------------------------------------


def test_odds_and_ai_moves_run_in_another_process(web_store: EventStore, where: None) -> None:
    with _client(web_store, pool=_pool()) as client:
        table, gm = _table(client, "where")
        preview = _odds(client, table, gm, {"kind": "note", "text": "x"})
        assert preview.status_code == 200, preview.text
        worker = preview.json()["outcomes"][0]["value"]
        assert worker != os.getpid()
        done = client.post(
            f"/api/tables/{table}/commands",
            headers=gm,
            json={"command": {"kind": "note", "text": "ai"}},
        ).json()
        assert [r["actor"] for r in done["records"]][1:] == ["auto"]
        assert done["state"]["notes"] == ["ai", f"pid {worker}"]
    # without a pool (size 0) the request's own process computes
    with _client(web_store, pool=_pool(size=0)) as client:
        table, gm = _table(client, "where")
        preview = _odds(client, table, gm, {"kind": "note", "text": "x"})
        assert preview.json()["outcomes"][0]["value"] == os.getpid()


def test_a_task_past_the_time_limit_is_stopped_and_changes_nothing(
    web_store: EventStore, where: None
) -> None:
    with _client(web_store, pool=_pool(timeout=0.3)) as client:
        table, gm = _table(client, "where")
        message = _error(_odds(client, table, gm, {"kind": "slow"}), 503, "api.too_slow")
        assert "0.3" in message
        # the killed process was replaced: the next preview is answered
        assert _odds(client, table, gm, {"kind": "note", "text": "x"}).status_code == 200
        before = client.get(f"/api/tables/{table}", headers=gm).json()["seq"]
        slow_ai = client.post(
            f"/api/tables/{table}/commands",
            headers=gm,
            json={"command": {"kind": "note", "text": "sleep"}},
        )
        _error(slow_ai, 503, "api.too_slow")
        assert client.get(f"/api/tables/{table}", headers=gm).json()["seq"] == before


def test_odds_past_the_budget_are_refused_and_exact_fractions_fall_back(
    web_store: EventStore,
) -> None:
    with _client(web_store, pool=_pool()) as client:
        table, gm = _table(client, "free-dice")
        costly = "10d100! * 10d100! + 10d99! * 10d99!"
        response = _odds(client, table, gm, {"kind": "roll", "expression": costly})
        message = _error(response, 422, "dice.odds_too_costly")
        assert costly in message and "budget" in message
        german = client.post(
            f"/api/tables/{table}/odds?lang=de",
            headers=gm,
            json={"command": {"kind": "roll", "expression": costly}},
        )
        assert "Budget" in _error(german, 422, "dice.odds_too_costly")
        # 50d100!: the float odds are cheap; its exact fractions are past the budget
        response = _odds(client, table, gm, {"kind": "roll", "expression": "50d100!"})
        assert response.status_code == 200
        outcomes = response.json()["outcomes"]
        assert len(outcomes) > 1000 and all(o["exact"] is None for o in outcomes)
        small = _odds(client, table, gm, {"kind": "roll", "expression": "2d6"}).json()
        assert small["outcomes"][0] == {"value": 2, "probability": 1 / 36, "exact": "1/36"}


def test_the_budget_setting_reaches_the_pool(web_store: EventStore) -> None:
    with _client(web_store, pool=_pool(budget=1000)) as client:
        table, gm = _table(client, "free-dice")
        response = _odds(client, table, gm, {"kind": "roll", "expression": "100d6"})
        _error(response, 422, "dice.odds_too_costly")


# -- imports -----------------------------------------------------------------------------------


def _export(client: TestClient) -> dict[str, Any]:
    table, gm = _table(client, "free-dice")
    for expression in ("1d6", "2d6", "3d6"):
        response = client.post(
            f"/api/tables/{table}/commands",
            headers=gm,
            json={"command": {"kind": "roll", "expression": expression}},
        )
        assert response.status_code == 200
    data: dict[str, Any] = client.get(f"/api/tables/{table}/export", headers=gm).json()
    return data


def test_imports_past_the_size_limits_are_refused_before_parsing(web_store: EventStore) -> None:
    limits = ImportLimits(max_bytes=4000, max_records=2)
    with _client(web_store, pool=_pool(size=0), imports=limits) as client:
        exported = _export(client)
        tables = len(web_store.list_tables())
        body = json.dumps(exported)
        assert len(body) < 4000
        _error(client.post("/api/tables/import", json=exported), 413, "api.too_many_records")
        padded = exported | {"title": "x" * 5000}
        message = _error(client.post("/api/tables/import", json=padded), 413, "api.too_large")
        assert "4000" in message
        # not JSON at all, and larger than the limit: refused by its size, unread
        _error(client.post("/api/tables/import", content=b"{" * 5000), 413, "api.too_large")
        _error(client.post("/api/tables/import", content=b"{"), 400, "api.malformed_json")
        assert len(web_store.list_tables()) == tables
        exported["records"] = exported["records"][:2]
        exported["fair"]["seed"] = None  # the first two records alone still verify unrevealed
        assert client.post("/api/tables/import", json=exported).status_code == 201


def test_settings_from_the_environment() -> None:
    env = {
        "SPIELTISCH_POOL_SIZE": "0",
        "SPIELTISCH_POOL_TIMEOUT": "2.5",
        "SPIELTISCH_ODDS_BUDGET": "12345",
        "SPIELTISCH_IMPORT_MAX_BYTES": "100",
        "SPIELTISCH_IMPORT_MAX_RECORDS": "7",
        "SPIELTISCH_RATE_COMMANDS": "5/second",
        "SPIELTISCH_RATE_JOIN": "",
    }
    settings = Settings.from_env(env)
    assert settings.pool == PoolSettings(size=0, timeout=2.5, odds_budget=12345)
    assert settings.imports == ImportLimits(max_bytes=100, max_records=7)
    assert settings.rates == RateLimits(commands="5/second", join="")
    assert Settings.from_env({}) == Settings()
    for name, value in (("SPIELTISCH_POOL_SIZE", "many"), ("SPIELTISCH_RATE_ODDS", "lots")):
        with pytest.raises(InputError):
            Settings.from_env({name: value})
