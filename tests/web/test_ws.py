"""The live WebSocket: catch-up, live records per role, undo, reveal, joins, reconnects.

The last test runs two application instances (two workers) on one PostgreSQL database: a
command posted to one reaches the WebSocket clients of the other through LISTEN/NOTIFY.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spieltisch.store import EventStore
from spieltisch.web.app import create_app


@pytest.fixture
def party(client: Any, toy: Any, make_party: Any) -> Any:
    return make_party(client)


def _socket(party: Any, token: str, since: int = 0) -> Any:
    return party.socket(token, since)


def _seqs(message: dict[str, Any]) -> list[int]:
    return [r["seq"] for r in message["records"]]


def test_live_records_reach_every_role_hidden_only_the_gm(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    with _socket(party, party.gm_token) as gm, _socket(party, party.player_token) as player:
        hello_gm, hello_player = gm.receive_json(), player.receive_json()
        assert hello_gm["type"] == hello_player["type"] == "records"
        assert _seqs(hello_gm) == _seqs(hello_player) == [1]
        assert hello_player["state"]["pieces"] == {"cat": 0}

        party.do(party.gm, {"kind": "note", "text": "trap"}, hidden=True)
        rolled = party.do(party.player, {"kind": "roll", "piece": "cat"}).json()
        first = gm.receive_json()
        assert first["type"] == "records" and _seqs(first) == [2]
        assert first["records"][0]["command"]["text"] == "trap"
        second = gm.receive_json()
        assert _seqs(second) == [3] and second["records"][0] == rolled["records"][0]
        seen = player.receive_json()
        assert _seqs(seen) == [3]  # the hidden note never arrives
        assert seen["seq"] == 3 and seen["state"] == rolled["state"]


def test_catch_up_from_a_sequence_number_and_reconnect(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    for _ in range(3):
        party.do(party.player, {"kind": "roll", "piece": "cat"})
    with _socket(party, party.player_token, since=2) as ws:
        hello = ws.receive_json()
        assert _seqs(hello) == [3, 4] and hello["seq"] == 4
        last = hello["seq"]
    party.do(party.player, {"kind": "roll", "piece": "cat"})  # while disconnected
    party.do(party.gm, {"kind": "count"})
    with _socket(party, party.player_token, since=last) as ws:
        hello = ws.receive_json()
        assert _seqs(hello) == [5, 6]
        assert hello["state"] == party.view()["state"]
    with _socket(party, party.player_token, since=99) as ws:
        assert ws.receive_json()["records"] == []  # nothing after the end: only the state


def test_undo_reveal_and_joins_are_announced(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    party.do(party.player, {"kind": "roll", "piece": "cat"})
    with _socket(party, party.player_token, since=2) as ws:
        ws.receive_json()
        party.client.post(f"/api/tables/{party.id}/undo", headers=party.gm, json={"seq": 2})
        undo = ws.receive_json()
        assert undo["type"] == "undo" and undo["undoes"] == 2 and undo["record"]["seq"] == 3
        assert undo["state"]["pieces"] == {"cat": 0}
        revealed = party.client.post(f"/api/tables/{party.id}/reveal", headers=party.gm).json()
        table = ws.receive_json()
        assert table == {
            "type": "table",
            "seq": 3,
            "seed": revealed["seed"],
            "epochs": [revealed["epoch"], revealed["current"]],
            "player_seeds": [],
        }
        assert [e["seed"] for e in table["epochs"]] == [revealed["seed"], None]
        party.join("player", "Olga")
        people = ws.receive_json()
        assert people["type"] == "participants"
        names = [(p["role"], p["name"]) for p in people["participants"]]
        assert names == [("gm", ""), ("player", "Olga"), ("player", "Paul"), ("spectator", "Sue")]


@pytest.mark.parametrize(
    ("token", "table", "code", "close"),
    [
        ("wrong", None, "table.bad_token", 4401),
        (None, "nope", "table.unknown", 4404),
    ],
)
def test_bad_tokens_and_tables_are_refused(
    party: Any, token: str | None, table: str | None, code: str, close: int
) -> None:
    with party.client.websocket_connect(f"/api/tables/{table or party.id}/ws") as ws:
        ws.send_json({"type": "auth", "token": token or party.gm_token})
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"]["code"] == code
        assert message["error"]["message"] != code
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == close


@pytest.mark.postgres
def test_two_workers_fan_out_through_postgres(
    postgres_server: Any, toy: Any, make_party: Any
) -> None:
    url = postgres_server.create_database()
    first, second = EventStore(url), EventStore(url)
    try:
        with TestClient(create_app(first)) as one, TestClient(create_app(second)) as two:
            party = make_party(one)
            with party.socket(party.player_token, client=two) as ws:
                assert ws.receive_json()["records"] == []
                posted = party.do(party.player, {"kind": "join", "piece": "cat"}).json()
                message = ws.receive_json()
                assert message["records"] == posted["records"]
                assert message["state"] == posted["state"]
                party.do(party.gm, {"kind": "note", "text": "x"}, hidden=True)
                party.do(party.gm, {"kind": "count"})
                assert _seqs(ws.receive_json()) == [3]
    finally:
        first.close()
        second.close()


def test_hidden_records_reach_players_neither_as_records_nor_as_state(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    with _socket(party, party.gm_token) as gm, _socket(party, party.player_token) as player:
        gm.receive_json(), player.receive_json()
        secret = party.do(party.gm, {"kind": "note", "text": "trap"}, hidden=True).json()
        assert secret["state"]["notes"] == ["trap"]  # the GM sees it
        rolled = party.do(party.player, {"kind": "roll", "piece": "cat"}).json()
        assert rolled["state"]["notes"] == []
        assert gm.receive_json()["state"]["notes"] == ["trap"]
        assert gm.receive_json()["state"]["notes"] == ["trap"]
        seen = player.receive_json()
        assert _seqs(seen) == [3] and seen["state"] == rolled["state"]
        assert party.view(party.player)["state"]["notes"] == []
        assert party.view(party.spectator)["state"]["notes"] == []
        undone = party.client.post(
            f"/api/tables/{party.id}/undo", headers=party.gm, json={"seq": 2}
        ).json()
        assert undone["record"]["hidden"] and undone["state"]["notes"] == []
        party.do(party.player, {"kind": "count"})
        assert gm.receive_json()["type"] == "undo"
        after = player.receive_json()  # the undo of the secret never arrives
        assert after["type"] == "records" and _seqs(after) == [5]
        assert "trap" not in str(party.records(party.player))
