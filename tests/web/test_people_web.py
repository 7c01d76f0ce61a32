"""People at a table over HTTP and WebSocket: the GM removes someone, a player leaves, the
GM rotates invites; a revoked token stops working at once, open sockets are closed, on every
worker (two application instances on one PostgreSQL); rate limits count for the service."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from asgi_client import TestClient
from spieltisch.store import EventStore
from spieltisch.web.app import Settings, create_app
from spieltisch.web.limits import RateLimits
from spieltisch.web.workers import PoolSettings


def _remove(party: Any, who: dict[str, str], participant: str, client: Any = None) -> Any:
    return (client or party.client).delete(
        f"/api/tables/{party.id}/participants/{participant}", headers=who
    )


def _me(party: Any, who: dict[str, str]) -> str:
    participant: str = party.view(who)["me"]["participant"]
    return participant


def _closed(ws: Any, code: str = "table.removed") -> None:
    """The socket gets the error, then the close 4401."""
    while True:
        message = ws.receive_json()
        if message["type"] == "error":
            break
    assert message["error"]["code"] == code
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4401


def _every_door_shut(party: Any, headers: dict[str, str], client: Any = None) -> None:
    """Nothing of the table answers a revoked token: 401 everywhere, the socket refused."""
    client = client or party.client
    url = f"/api/tables/{party.id}"
    command = {"kind": "roll", "expression": "1d6"}
    answers = [
        client.get(url, headers=headers),
        client.get(f"{url}/records", headers=headers),
        client.get(f"{url}/export", headers=headers),
        client.post(f"{url}/commands", headers=headers, json={"command": command}),
        client.post(f"{url}/check", headers=headers, json={"commands": [command]}),
        client.post(f"{url}/odds", headers=headers, json={"command": command}),
        client.post(f"{url}/player-seeds", headers=headers, json={"seed": "x"}),
    ]
    for answer in answers:
        assert answer.status_code == 401, answer.text
        assert answer.json()["error"]["code"] == "table.bad_token"
    with party.socket(headers["Authorization"].split()[1], client=client) as ws:
        _closed(ws, "table.bad_token")


def test_the_gm_removes_a_player_and_their_socket_closes(
    client: TestClient, make_party: Any
) -> None:
    party = make_party(client, "free-dice")
    player = _me(party, party.player)
    party.do(party.player, {"kind": "roll", "expression": "1d6"})
    with (
        party.socket(party.player_token) as ws,
        party.socket(party.spectator["Authorization"].split()[1]) as watcher,
    ):
        ws.receive_json(), watcher.receive_json()
        refused = _remove(party, party.player, _me(party, party.spectator))
        assert refused.status_code == 403
        answer = _remove(party, party.gm, player)
        assert answer.status_code == 200, answer.text
        assert answer.json() == {
            "participant": player,
            "name": "Paul",
            "role": "player",
            "pieces": [],
            "removed": True,
        }
        _closed(ws)
        listed = watcher.receive_json()
        assert listed["type"] == "participants"
        assert {p["name"]: p["removed"] for p in listed["participants"]}["Paul"] is True
    _every_door_shut(party, party.player)
    people = party.view(party.gm)["participants"]
    assert [(p["name"], p["removed"]) for p in people][-1] == ("Paul", True)
    assert party.records(party.gm)[0]["actor"] == player  # the log still names the actor
    again = _remove(party, party.gm, player)
    assert again.status_code == 404 and again.json()["error"]["code"] == "table.unknown_participant"
    gm = _remove(party, party.gm, party.created["participant"])
    assert gm.status_code == 422 and gm.json()["error"]["code"] == "table.gm_stays"


def test_a_player_leaves(client: TestClient, make_party: Any) -> None:
    party = make_party(client, "free-dice")
    with party.socket(party.player_token) as ws:
        ws.receive_json()
        answer = _remove(party, party.player, _me(party, party.player))
        assert answer.status_code == 200, answer.text
        _closed(ws)
    _every_door_shut(party, party.player)


def test_rotated_invites_refuse_the_old_codes_and_keep_who_joined(
    client: TestClient, make_party: Any
) -> None:
    party = make_party(client, "free-dice")
    assert client.post(f"/api/tables/{party.id}/invites", headers=party.player).status_code == 403
    fresh = client.post(f"/api/tables/{party.id}/invites", headers=party.gm)
    assert fresh.status_code == 200
    old = client.post(
        f"/api/tables/{party.id}/join",
        json={"invite": party.created["invites"]["player"], "name": "Late"},
    )
    assert old.status_code == 403
    assert party.view(party.player)["me"]["name"] == "Paul"
    new = client.post(
        f"/api/tables/{party.id}/join", json={"invite": fresh.json()["player"], "name": "Late"}
    )
    assert new.status_code == 201


@pytest.mark.postgres
def test_a_removal_on_one_worker_shuts_every_door_on_the_other(
    postgres_server: Any, make_party: Any
) -> None:
    url = postgres_server.create_database()
    first, second = EventStore(url), EventStore(url)
    try:
        with TestClient(create_app(first)) as one, TestClient(create_app(second)) as two:
            party = make_party(one, "free-dice")
            player = _me(party, party.player)
            # Worker two knows the player: it holds the table and the token in memory.
            seen = two.get(f"/api/tables/{party.id}", headers=party.player)
            assert seen.status_code == 200
            with party.socket(party.player_token, client=two) as ws:
                ws.receive_json()
                assert _remove(party, party.gm, player).status_code == 200  # on worker one
                _closed(ws)  # closed by worker two, woken by the NOTIFY
            _every_door_shut(party, party.player, client=two)
            _every_door_shut(party, party.player, client=one)
    finally:
        first.close()
        second.close()


@pytest.mark.postgres
def test_rate_limits_hold_for_the_service_not_per_worker(
    postgres_server: Any, make_party: Any
) -> None:
    url = postgres_server.create_database()
    settings = Settings(pool=PoolSettings(size=0), rates=RateLimits(commands="3/minute"))
    first, second = EventStore(url), EventStore(url)
    try:
        with (
            TestClient(create_app(first, settings=settings)) as one,
            TestClient(create_app(second, settings=settings)) as two,
        ):
            party = make_party(one, "free-dice")
            roll = {"command": {"kind": "roll", "expression": "1d6"}}
            path = f"/api/tables/{party.id}/commands"
            assert one.post(path, headers=party.player, json=roll).status_code == 200
            assert two.post(path, headers=party.player, json=roll).status_code == 200
            assert one.post(path, headers=party.player, json=roll).status_code == 200
            for worker in (two, one):
                refused = worker.post(path, headers=party.player, json=roll)
                assert refused.status_code == 429, refused.text
                assert 1 <= int(refused.headers["Retry-After"]) <= 120
            assert two.post(path, headers=party.gm, json=roll).status_code == 200
            assert party.view(party.gm)["seq"] == 4  # the refused ones were not decided
    finally:
        first.close()
        second.close()
