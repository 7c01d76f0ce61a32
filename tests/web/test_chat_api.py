"""Chat through the HTTP API and the WebSocket: say, whisper, inline rolls, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from asgi_client import TestClient
from spieltisch.store import EventStore
from spieltisch.store.exchange import verify_document
from spieltisch.web.app import create_app


class Chat:
    """A free-dice table with a GM, two players (Paul, Pia) and a spectator (Sue)."""

    def __init__(self, client: Any, make_party: Any, language: str = "en") -> None:
        self.party = make_party(client, "free-dice", language=language)
        self.client = client
        self.pia_token = self.party.join("player", "Pia")
        self.pia = {"Authorization": f"Bearer {self.pia_token}"}
        ids = {p["name"]: p["participant"] for p in self.party.view()["participants"]}
        self.ids = ids

    def say(self, who: dict[str, str], text: str, **body: Any) -> Any:
        return self.party.do(who, {"kind": "say", "text": text}, **body)

    def whisper(self, who: dict[str, str], to: str, text: str) -> Any:
        return self.party.do(who, {"kind": "whisper", "to": to, "text": text})


@pytest.fixture
def chat(client: Any, make_party: Any) -> Chat:
    return Chat(client, make_party)


def _texts(records: list[dict[str, Any]]) -> list[str]:
    return [r["events"][0]["text"] for r in records if r["command"] and r["events"]]


def test_say_goes_to_everyone_and_changes_no_state(chat: Chat) -> None:
    party = chat.party
    state = party.view(party.player)["state"]
    reply = chat.say(party.player, "Hallo zusammen")
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["state"] == state and body["seq"] == 1
    [record] = body["records"]
    assert record["actor"] == chat.ids["Paul"] and record["audience"] is None
    for who in (party.gm, party.player, chat.pia, party.spectator):
        assert _texts(party.records(who)) == ["Hallo zusammen"]
        assert party.view(who)["state"] == state


def test_inline_roll_is_fair_and_verifiable(chat: Chat) -> None:
    party = chat.party
    reply = chat.say(party.player, "/r 2W6+3 # Schaden")
    assert reply.status_code == 200, reply.text
    [record] = reply.json()["records"]
    roll = record["events"][0]["roll"]
    faces = [die["face"] for die in roll["dice"]]
    assert roll["expression"] == "2d6 + 3" and roll["comment"] == "Schaden"
    assert roll["result"] == sum(faces) + 3
    assert [(d["index"], d["sides"], d["value"]) for d in record["draws"]] == [
        (0, 6, faces[0]),
        (1, 6, faces[1]),
    ]
    assert chat.client.post(f"/api/tables/{party.id}/reveal", headers=party.gm).status_code == 200
    for who in (party.gm, party.player):
        export = chat.client.get(f"/api/tables/{party.id}/export", headers=who).json()
        checked = verify_document(export)
        assert checked.ok, checked.to_json()


def test_whisper_reaches_sender_recipient_and_gm_only(chat: Chat) -> None:
    party = chat.party
    reply = chat.whisper(party.player, chat.ids["Pia"], "nur für Pia")
    assert reply.status_code == 200, reply.text
    [record] = reply.json()["records"]
    assert record["audience"] == [chat.ids["Paul"], chat.ids["Pia"]]
    for who in (party.gm, party.player, chat.pia):
        assert _texts(party.records(who)) == ["nur für Pia"]
    assert party.records(party.spectator) == []
    gm_reply = chat.whisper(party.gm, chat.ids["Sue"], "für Sue")
    assert gm_reply.status_code == 200, gm_reply.text
    assert _texts(party.records(party.spectator)) == ["für Sue"]
    assert _texts(party.records(party.player)) == ["nur für Pia"]
    assert _texts(party.records(party.gm)) == ["nur für Pia", "für Sue"]


def test_whisper_and_say_over_the_websocket(chat: Chat) -> None:
    party = chat.party
    sue_token = party.spectator["Authorization"].split()[1]
    with (
        party.socket(party.player_token) as paul,
        party.socket(chat.pia_token) as pia,
        party.socket(sue_token) as sue,
        party.socket(party.gm_token) as gm,
    ):
        for socket in (paul, pia, sue, gm):
            assert socket.receive_json()["records"] == []
        assert chat.whisper(party.gm, chat.ids["Pia"], "geheim").status_code == 200
        assert chat.say(party.player, "offen").status_code == 200
        for socket, expected in ((paul, ["offen"]), (sue, ["offen"])):
            frame = socket.receive_json()
            assert _texts(frame["records"]) == expected and frame["seq"] == 2
        for socket in (pia, gm):
            first, second = socket.receive_json(), socket.receive_json()
            assert _texts(first["records"]) + _texts(second["records"]) == ["geheim", "offen"]
    # A reconnect from the start gets the same as the live frames.
    with party.socket(party.player_token, since=0) as again:
        assert _texts(again.receive_json()["records"]) == ["offen"]


def test_export_redacts_someone_elses_whisper(chat: Chat) -> None:
    party = chat.party
    chat.whisper(party.player, chat.ids["Pia"], "/r 1W6 # geheim")
    chat.say(party.player, "offen")
    url = f"/api/tables/{party.id}/export"
    for who, sees_it in ((party.player, True), (chat.pia, True), (party.spectator, False)):
        records = chat.client.get(url, headers=who).json()["records"]
        first = records[0]
        if sees_it:
            assert first["events"][0]["text"] == "/r 1W6 # geheim"
        else:
            assert (first["command"], first["events"], first["draws"]) == (None, [], [])
            assert (first["actor"], first["audience"]) == ("", [])
        assert records[1]["events"][0]["text"] == "offen"
    chat.client.post(f"/api/tables/{party.id}/reveal", headers=party.gm)
    late = chat.client.get(url, headers=party.spectator).json()
    assert late["records"][0]["command"] is None and len(late["records"][0]["draws"]) == 1
    checked = verify_document(late)
    assert checked.ok, checked.to_json()
    assert "geheim" not in str(late)


@pytest.mark.parametrize(
    ("who", "to", "code", "status"),
    [
        ("player", "nobody-here", "chat.unknown_recipient", 422),
        ("player", "Paul", "chat.whisper_self", 422),
        ("player", "Sue", "chat.whisper_spectator", 422),
        ("spectator", "GM", "rule.forbidden", 403),
    ],
)
def test_refusals_are_localized_and_change_nothing(
    client: Any, make_party: Any, who: str, to: str, code: str, status: int
) -> None:
    for language in ("en", "de"):
        chat = Chat(client, make_party, language)
        party = chat.party
        chat.ids["GM"] = party.created["participant"]
        target = chat.ids.get(to, to)
        headers = party.player if who == "player" else party.spectator
        reply = chat.whisper(headers, target, "x")
        assert reply.status_code == status, reply.text
        error = reply.json()["error"]
        assert error["code"] == code and error["message"] != code
        if code != "rule.forbidden":
            assert repr(target) in error["message"]
        assert party.records(party.gm) == [] and party.view()["seq"] == 0
    german = Chat(client, make_party, "de")
    refused = german.whisper(german.party.player, "niemand", "x").json()["error"]["message"]
    assert "niemand" in refused and "Tisch" in refused


def test_spectator_may_not_say_and_player_may_not_say_hidden(chat: Chat) -> None:
    party = chat.party
    assert chat.say(party.spectator, "hi").status_code == 403
    assert chat.say(party.player, "hi", hidden=True).status_code == 403
    note = chat.say(party.gm, "Notiz", hidden=True)
    assert note.status_code == 200 and note.json()["records"][0]["hidden"]
    assert party.records(party.player) == [] and len(party.records(party.gm)) == 1


def test_undo_of_a_whisper_stays_with_its_audience(chat: Chat) -> None:
    party = chat.party
    chat.whisper(party.gm, chat.ids["Pia"], "ups")
    reply = chat.client.post(f"/api/tables/{party.id}/undo", headers=party.gm, json={"seq": 1})
    assert reply.status_code == 200, reply.text
    assert party.records(party.player) == []
    assert [r["seq"] for r in party.records(chat.pia)] == [1, 2]


def test_bad_notation_and_empty_text_are_refused(chat: Chat) -> None:
    party = chat.party
    for text, code in (("/r 3 W 6", "dice."), ("/r", "chat.no_expression"), (" ", "chat.empty")):
        reply = chat.say(party.player, text)
        assert reply.status_code == 422, reply.text
        assert reply.json()["error"]["code"].startswith(code)
    long = chat.say(party.player, "x" * 1001).json()["error"]
    assert long["code"] == "rule.bad_command" and "1000" in long["message"]
    assert party.view()["seq"] == 0


def test_chat_works_at_every_system(client: Any, make_party: Any) -> None:
    for system in ("magical-kitties", "kilkenny", "free-dice"):
        party = make_party(client, system)
        before = party.view(party.player)["state"]
        reply = party.do(party.player, {"kind": "say", "text": "/r W20"})
        assert reply.status_code == 200, (system, reply.text)
        assert reply.json()["state"] == before
        odds = client.post(
            f"/api/tables/{party.id}/odds",
            headers=party.player,
            json={"command": {"kind": "say", "text": "/r W20"}},
        )
        assert odds.status_code == 200 and odds.json() is None


def test_openapi_describes_the_chat_commands(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    assert {"Say", "Whisper"} <= set(schemas)
    assert set(schemas["Whisper"]["required"]) >= {"to", "text"}
    assert schemas["Say"]["properties"]["text"]["maxLength"] == 1000
    assert '"title": "chat"' in _dumped(spec)


def _dumped(value: Any) -> str:
    return json.dumps(value)


@pytest.mark.postgres
def test_whisper_on_postgres(postgres_server: Any, make_party: Any) -> None:
    store = EventStore(postgres_server.create_database())
    try:
        with TestClient(create_app(store)) as client:
            chat = Chat(client, make_party)
            party = chat.party
            assert chat.whisper(party.player, chat.ids["Pia"], "pg").status_code == 200
            assert _texts(party.records(chat.pia)) == ["pg"]
            assert party.records(party.spectator) == []
    finally:
        store.close()
