"""The live WebSocket: catch-up, live records per role, undo, reveal, joins, reconnects.

The last test runs two application instances (two workers) on one PostgreSQL database: a
command posted to one reaches the WebSocket clients of the other through LISTEN/NOTIFY.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from asgi_client import TestClient
from spieltisch import jsonpatch
from spieltisch.engine.visibility import Actor, Role
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


def test_the_greeting_names_who_is_at_the_table(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    party.join("player", "Olga")
    with _socket(party, party.player_token) as ws:
        hello = ws.receive_json()
    assert hello["participants"] == party.view(party.player)["participants"]
    people = [(p["role"], p["name"], p["pieces"]) for p in hello["participants"]]
    assert people == [
        ("gm", "", []),
        ("player", "Olga", []),
        ("player", "Paul", ["cat"]),
        ("spectator", "Sue", []),
    ]
    # A greeting of several messages (an undo among the records caught up): the last names them.
    party.do(party.player, {"kind": "roll", "piece": "cat"})
    party.client.post(f"/api/tables/{party.id}/undo", headers=party.gm, json={"seq": 2})
    with _socket(party, party.player_token) as ws:
        greeting = [ws.receive_json(), ws.receive_json()]
    assert [m["type"] for m in greeting] == ["records", "undo"]
    assert "participants" not in greeting[0]
    assert greeting[1]["participants"] == party.view(party.player)["participants"]


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


@pytest.fixture
def free(client: Any, make_party: Any) -> Any:
    """A free-dice table: views large enough that a patch is the smaller message."""
    return make_party(client, "free-dice")


def _roll(expression: str = "3d6") -> dict[str, Any]:
    return {"kind": "roll", "expression": expression}


def test_after_a_command_each_client_gets_the_change_of_its_view(free: Any) -> None:
    """A snapshot on connecting, then patches: the records and what changed, never the view."""
    free.do(free.player, _roll())
    with _socket(free, free.gm_token) as gm, _socket(free, free.player_token) as player:
        assert "state" in gm.receive_json() and "state" in player.receive_json()
        rolled = free.do(free.player, _roll("2d6")).json()
        for ws, who in ((gm, free.gm), (player, free.player)):
            message = ws.receive_json()
            assert "state" not in ws.last and ws.last["base"] == 1 and ws.last["seq"] == 2
            assert ws.last["patch"] and message["state"] == free.view(who)["state"]
        assert player.state == rolled["state"]
        free.do(free.gm, _roll("1d20"), hidden=True)
        free.do(free.player, _roll("1d4"))
        gm.receive_json(), gm.receive_json()
        assert gm.state == free.view(free.gm)["state"] and len(gm.state["rolls"]) == 4
        player.receive_json()  # the patch skips the hidden roll: its base is the last one sent
        assert player.last["base"] == 2 and player.last["seq"] == 4
        assert player.state == free.view(free.player)["state"] and len(player.state["rolls"]) == 3


def test_a_client_that_fell_behind_asks_for_a_snapshot(free: Any) -> None:
    with _socket(free, free.player_token) as player:
        player.receive_json()
        free.do(free.player, _roll())
        player.ws.receive_json()  # lost: the page could not apply it
        player.send_text('{"type":"snapshot"}')
        snapshot = player.receive_json()
        assert snapshot["type"] == "records" and snapshot["records"] == []
        assert snapshot["seq"] == 1 and snapshot["state"] == free.view(free.player)["state"]
        free.do(free.player, _roll())
        assert player.receive_json()["state"] == free.view(free.player)["state"]
        assert player.last["base"] == 1 and "patch" in player.last


def test_viewers_alike_share_one_patch_text(free: Any) -> None:
    """Two spectators see the same: the very same message, made once."""
    other = free.join("spectator", "Tom")
    spectator = free.spectator["Authorization"].split()[1]
    with _socket(free, spectator) as one, _socket(free, other) as two:
        one.receive_json(), two.receive_json()
        free.do(free.player, _roll())
        text = one.ws.receive_text()
        assert '"patch":' in text and text == two.ws.receive_text()


def test_claiming_a_piece_sends_the_whole_view_again(free: Any) -> None:
    """A view whose owner gained a piece is another viewer's view: no patch across it, while
    the others, whose viewer stayed the same, get a patch."""
    for n in range(3):
        free.do(
            free.gm, {"kind": "add_combatant", "id": f"hero{n}", "name": "H", "claimable": True}
        )
    with _socket(free, free.player_token) as player, _socket(free, free.gm_token) as gm:
        player.receive_json(), gm.receive_json()
        free.do(free.player, {"kind": "claim", "combatant": "hero1"})
        message = player.receive_json()
        assert "state" in player.last and message["state"] == free.view(free.player)["state"]
        assert [c["mine"] for c in message["state"]["combatants"]] == [False, True, False]
        assert "patch" in gm.ws.receive_json()


def _text(live: Any) -> str:
    """The next message as sent (text), followed as :class:`Live` follows it."""
    text: str = live.ws.receive_text()
    message = json.loads(text)
    live.last = dict(message)
    if "state" in message:
        live.state, live.version = message["state"], message["seq"]
    elif message["seq"] != live.version:
        assert message["base"] == live.version
        live.state, live.version = jsonpatch.apply(live.state, message["patch"]), message["seq"]
    return text


def test_players_alike_share_one_message_and_a_whisper_parts_them(free: Any) -> None:
    """Two players who own nothing see the same view: the very same text reaches both, made
    once; a whisper to one of them is theirs alone, and a claimed piece makes a view of its
    own."""
    free.do(free.gm, {"kind": "add_combatant", "id": "ghost", "name": "G", "secret": True})
    free.do(free.gm, {"kind": "add_combatant", "id": "hero", "name": "H", "claimable": True})
    pia_token, ole_token = free.join("player", "Pia"), free.join("player", "Ole")
    ids = {p["name"]: p["participant"] for p in free.view()["participants"]}
    pia = {"Authorization": f"Bearer {pia_token}"}
    ole = {"Authorization": f"Bearer {ole_token}"}
    with (
        _socket(free, free.player_token) as paul,
        _socket(free, pia_token) as pias,
        _socket(free, ole_token) as oles,
    ):
        paul.receive_json(), pias.receive_json(), oles.receive_json()
        free.do(free.gm, _roll())
        texts = [_text(ws) for ws in (paul, pias, oles)]
        assert '"patch":' in texts[0] and texts[0] == texts[1] == texts[2]

        free.do(free.player, {"kind": "whisper", "to": ids["Pia"], "text": "psst"})
        told = _text(paul)
        assert "psst" in told and _text(pias) == told  # the same records and view
        free.do(free.gm, _roll())
        after = _text(paul)
        assert _text(pias) == after
        missed = _text(oles)  # Ole never saw the whisper: his message is his own
        assert "psst" not in missed and missed != after
        assert json.loads(missed)["base"] == json.loads(told)["base"]

        free.do(pia, {"kind": "claim", "combatant": "hero"})
        for ws, who in ((paul, free.player), (pias, pia), (oles, ole)):
            _text(ws)
            assert ws.state == free.view(who)["state"]
        assert "state" in pias.last and "patch" in paul.last and "patch" in oles.last
        assert [c["mine"] for c in pias.state["combatants"]] == [True]
        assert [c["mine"] for c in paul.state["combatants"]] == [False]
        for ws in (paul, pias, oles):
            assert "ghost" not in json.dumps(ws.state)


def test_a_client_far_behind_gets_its_whole_view_and_every_record(tmp_path: Any) -> None:
    """A connection that fell behind by more rolls than a view lists is sent the view whole
    (the patch would be longer) with every record it missed; a step behind gets a patch."""
    from spieltisch.web.ws import message_texts

    store = EventStore(f"sqlite:///{tmp_path / 'behind.sqlite3'}")
    try:
        created = store.create_table("free-dice")
        gm = store.authenticate(created.table, created.token)
        player = store.join(created.table, created.invites["player"], "Pia")
        rolled = [store.execute(created.table, gm, _roll("1d6")).table for _ in range(80)]
        old, near, now = rolled[0], rolled[-2], rolled[-1]
        viewer = now.viewer(store.authenticate(created.table, player.token).actor)
        far = [json.loads(t) for t in message_texts(now.records[old.seq :], now, viewer, base=old)]
        assert [r["seq"] for m in far for r in m["records"]] == list(range(2, 81))
        assert "patch" not in far[-1] and far[-1]["state"] == json.loads(now.view_json(viewer))
        [step] = message_texts(now.records[near.seq :], now, viewer, base=near)
        assert '"patch":' in step and json.loads(step)["base"] == near.seq
    finally:
        store.close()


def test_a_client_that_leaves_ends_its_connection_while_the_table_is_quiet(free: Any) -> None:
    """The connection waits on one wake-up for changes, snapshot asks and the client's
    leaving alike: a client that goes away without any change ends its subscription."""
    broker = free.client.app.state.broker
    with _socket(free, free.player_token) as player, _socket(free, free.gm_token) as gm:
        player.receive_json(), gm.receive_json()
        assert broker.subscribers(free.id) == 2
    assert broker.subscribers(free.id) == 0
    with _socket(free, free.gm_token) as gm:
        gm.receive_json()
        free.do(free.player, _roll())
        assert gm.receive_json()["records"][0]["seq"] == 1


def test_every_view_of_the_free_table_shares_each_roll_dumped_once(free: Any) -> None:
    """A roll's data is made once and listed by the views of every later version and viewer:
    the patch between two versions finds the old rolls by identity and adds only the new."""
    free.do(free.player, _roll())
    store = free.client.app.state.store
    first = store.table(free.id)
    free.do(free.gm, _roll("2d6"))
    second = store.table(free.id)
    gm = first.viewer(Actor(id="gm", role=Role.GM))
    player = second.viewer(Actor(id="somebody", role=Role.PLAYER))
    roll = first.view(gm)["rolls"][0]
    assert second.view(gm)["rolls"][0] is roll and second.view(player)["rolls"][0] is roll
    patch = json.loads(second.patch_json(first, gm) or "[]")
    assert [op["op"] for op in patch] == ["add"] and patch[0]["path"] == "/rolls/1"


def test_a_commands_answer_shows_the_view_its_senders_connections_are_sent(free: Any) -> None:
    """A player's answer carries the view of the player's view class, the text its
    connections' patches are made from: no view is encoded for the player alone."""
    answer = free.do(free.player, _roll()).json()
    table = free.client.app.state.store.table(free.id)
    encoded = table.__dict__["_view_texts"]
    assert encoded and all(participant is None for _, participant, _ in encoded)
    [(_, text)] = encoded.values()
    assert answer["state"] == json.loads(text)
