"""End to end through HTTP and WebSocket: a GM and a player at Magical Kitties and Kilkenny Cats.

Both clients follow the table on a WebSocket while commands go over HTTP; every record must
reach the GM, every visible one the player, and the state the server reports must be the fold
of the exported log. The seed is revealed at the end and the export verified. Runs on SQLite
and on the PostgreSQL server.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from asgi_client import TestClient
from spieltisch.dice.verify import streams_of, verify_export
from spieltisch.engine.table import Record, Table
from spieltisch.engine.visibility import GM_VIEWER, Role, Viewer
from spieltisch.store import EventStore
from spieltisch.systems.registry import get_system
from spieltisch.web.app import create_app

MIA: dict[str, Any] = {
    "kind": "create_kitty",
    "id": "mia",
    "name": "Mia",
    "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
    "talents": ["Climbing"],
    "powers": [{"name": "Teleport"}],
    "flaw": "Lazy",
    "human": {"name": "Jenny", "problems": [{"id": "lonely", "text": "No friends", "rank": 2}]},
}


@pytest.fixture
def db_client(database_url: str) -> Iterator[TestClient]:
    store = EventStore(database_url)
    try:
        with TestClient(create_app(store)) as client:
            yield client
    finally:
        store.close()


class Follower:
    """One WebSocket client: collects every record and the last state it was sent."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.records: dict[int, dict[str, Any]] = {}
        self.undone: list[int] = []
        self.state: dict[str, Any] = {}
        self.seed: str | None = None
        self.seq = 0

    def until(self, seq: int) -> None:
        """Read messages until the table's sequence number ``seq`` was announced."""
        while self.seq < seq:
            message = self.socket.receive_json()
            if message["type"] == "records":
                self.records.update({r["seq"]: r for r in message["records"]})
            elif message["type"] == "undo":
                self.records[message["record"]["seq"]] = message["record"]
                self.undone.append(message["undoes"])
            elif message["type"] == "table":
                self.seed = message["seed"]
                continue
            else:
                continue
            self.seq, self.state = message["seq"], message["state"]


def _kitty(state: dict[str, Any], kitty: str) -> dict[str, Any]:
    found: dict[str, Any] = next(k for k in state["kitties"] if k["id"] == kitty)
    return found


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


def _finish(party: Any, gm: Follower, player: Follower, system: str) -> None:
    """Reveal, then check the export: verified dice, the fold equals the server's state."""
    seq = party.view()["seq"]
    seed = _ok(party.client.post(f"/api/tables/{party.id}/reveal", headers=party.gm))["seed"]
    for follower in (gm, player):
        while follower.seed is None:
            follower.until(seq)
            message = follower.socket.receive_json()
            if message["type"] == "table":
                follower.seed = message["seed"]
        assert follower.seed == seed
    # The player's export verifies; its hidden records carry their raw draws only.
    mine = _ok(party.client.get(f"/api/tables/{party.id}/export", headers=party.player))
    verdict = verify_export(mine)
    assert verdict.ok and verdict.draws > 0
    exported = _ok(party.client.get(f"/api/tables/{party.id}/export", headers=party.gm))
    assert verify_export(exported).draws == verdict.draws
    for own, full in zip(mine["records"], exported["records"], strict=True):
        assert own == (full | {"command": None, "events": []} if full["hidden"] else full)
    game = get_system(system)
    table = Table(
        game,
        exported["options"],
        [Record.model_validate(r) for r in exported["records"]],
        streams=streams_of(exported),
    )
    assert game.view(table.state, GM_VIEWER) == party.view(party.gm)["state"] == gm.state
    # Players see the fold of the records they may see: a hidden record's effects stay secret.
    undone = {r["undoes"] for r in exported["records"]}
    shared = game.new_state(exported["options"])
    for record in exported["records"]:
        if not (record["hidden"] or record["undoes"] or record["seq"] in undone):
            for event in record["events"]:
                shared = game.evolve(shared, game.events.validate_python(event))
    assert (
        game.view(shared, Viewer(Role.PLAYER)) == party.view(party.player)["state"] == player.state
    )
    everything = {r["seq"]: r for r in exported["records"]}
    assert gm.records == everything
    assert player.records == {s: r for s, r in everything.items() if not r["hidden"]}


def test_magical_kitties_gm_and_player(db_client: TestClient, make_party: Any) -> None:
    party = make_party(db_client, "magical-kitties")
    with (
        party.socket(party.gm_token) as gm_socket,
        party.socket(party.player_token) as player_socket,
    ):
        gm, player = Follower(gm_socket), Follower(player_socket)
        assert _ok(party.do(party.player, MIA))["records"][0]["claims"] == "mia"
        for command in [
            {"kind": "add_problem", "id": "flood", "text": "The river floods", "rank": 2},
            {"kind": "start_episode"},
            {"kind": "start_scene"},
        ]:
            _ok(party.do(party.gm, command))
        secret = _ok(
            party.do(party.gm, {"kind": "create_foe", "id": "rat", "name": "Rat"}, hidden=True)
        )
        odds = _ok(
            party.client.post(
                f"/api/tables/{party.id}/odds",
                headers=party.player,
                json={"command": {"kind": "check", "kitty": "mia", "attribute": "cute"}},
            )
        )
        assert abs(sum(o["probability"] for o in odds["outcomes"]) - 1) < 1e-9
        check = _ok(party.do(party.player, {"kind": "check", "kitty": "mia", "attribute": "cute"}))
        record = check["records"][0]
        assert [d["value"] for d in record["draws"]] == record["events"][0]["dice"]
        assert len(record["draws"]) == 3  # cute 3

        _refused(
            party.do(party.player, {"kind": "give_aua", "kitty": "mia"}), 403, "rule.forbidden"
        )
        _refused(party.do(party.spectator, {"kind": "start_scene"}), 403, "rule.forbidden")
        aua = _ok(party.do(party.gm, {"kind": "give_aua", "kitty": "mia", "count": 1}))
        assert _kitty(aua["state"], "mia")["auas"] == 1
        undo = _ok(
            party.client.post(
                f"/api/tables/{party.id}/undo", headers=party.gm, json={"seq": aua["seq"]}
            )
        )
        assert _kitty(undo["state"], "mia")["auas"] == 0
        gm.until(undo["seq"])
        player.until(undo["seq"])
        assert gm.undone == player.undone == [aua["seq"]]
        assert secret["records"][0]["seq"] in gm.records
        assert secret["records"][0]["seq"] not in player.records
        _finish(party, gm, player, "magical-kitties")


def test_kilkenny_cats_player_against_an_ai_seat(db_client: TestClient, make_party: Any) -> None:
    options = {"players": 2, "seats": [{"player": "human"}, {"player": "random"}]}
    party = make_party(db_client, "kilkenny", options=options)
    with (
        party.socket(party.gm_token) as gm_socket,
        party.socket(party.player_token) as player_socket,
    ):
        gm, player = Follower(gm_socket), Follower(player_socket)
        _refused(party.do(party.player, {"kind": "sit", "seat": "N"}), 422, "kilkenny.seat_is_ai")
        _ok(party.do(party.player, {"kind": "sit", "seat": "S"}))
        _refused(party.do(party.spectator, {"kind": "roll"}), 403, "rule.forbidden")
        automatic = 0
        for _ in range(8):
            state = party.view()["state"]
            if state["outcome"] is not None:
                break
            assert state["turn"] == "S"
            rolled = _ok(party.do(party.player, {"kind": "roll"}))
            records = rolled["records"]
            if rolled["state"]["turn"] == "S" and rolled["state"]["roll"] is not None:
                move = rolled["state"]["moves"][0]
                _refused(party.do(party.player, {"kind": "roll"}), 422, "kilkenny.already_rolled")
                records = _ok(party.do(party.player, {"kind": "move", **move}))["records"]
            automatic += sum(1 for r in records if r["actor"] == "auto")
        assert automatic > 0  # the AI seat played its turns by itself
        seq = party.view()["seq"]
        gm.until(seq)
        player.until(seq)
        assert all(
            r["actor"] in {"auto", party.view(party.player)["me"]["participant"]}
            for r in player.records.values()
        )
        _finish(party, gm, player, "kilkenny")


def test_a_hidden_check_stays_hidden_and_never_hides_the_players_own(
    db_client: TestClient, make_party: Any
) -> None:
    party = make_party(db_client, "magical-kitties")
    _ok(party.do(party.player, MIA))
    for command in [{"kind": "start_episode"}, {"kind": "start_scene"}]:
        _ok(party.do(party.gm, command))
    check = {"kind": "check", "kitty": "mia", "attribute": "fierce"}
    secret = _ok(party.do(party.gm, check, hidden=True))
    assert secret["state"]["last_check"]["dice"] == secret["records"][0]["events"][0]["dice"]
    assert party.view(party.player)["state"]["last_check"] is None  # the dice stay secret
    own = _ok(party.do(party.player, {**check, "attribute": "cute"}))
    rolled = own["records"][0]["events"][0]["dice"]
    assert own["state"]["last_check"]["dice"] == rolled  # the player sees their own check
    assert party.view(party.player)["state"]["last_check"]["dice"] == rolled
