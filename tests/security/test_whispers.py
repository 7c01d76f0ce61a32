"""A whisper reaches its sender, its recipient and the GM, and nobody else, by any path.

Beside the leak suite (which reads every channel after each whisper sample), these cases aim
at the places where a whisper could slip through: the WebSocket's per-viewer caches shared
by connections of one table version, reconnects, the store's record reads by bare role,
exports and their import, and a forged audience.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from spieltisch.engine.table import Role
from spieltisch.engine.visibility import Viewer
from spieltisch.store import EventStore
from spieltisch.store.exchange import verify_document
from spieltisch.web.ws import message_texts

SECRET = "zqwhisper"


@pytest.fixture
def table(client: Any, make_party: Any) -> Any:
    party = make_party(client, "free-dice")
    party.pia_token = party.join("player", "Pia")
    party.pia = {"Authorization": f"Bearer {party.pia_token}"}
    people = {p["name"]: p["participant"] for p in party.view()["participants"]}
    party.ids = people
    return party


def _whisper(party: Any, who: dict[str, str], to: str, text: str = SECRET) -> None:
    reply = party.do(who, {"kind": "whisper", "to": to, "text": text})
    assert reply.status_code == 200, reply.text


def test_connections_of_one_version_do_not_share_a_whisper(table: Any) -> None:
    """Paul and Pia own the same pieces (none): only the participant tells their views apart."""
    party = table
    with party.socket(party.player_token) as paul, party.socket(party.pia_token) as pia:
        paul.receive_json(), pia.receive_json()
        _whisper(party, party.gm, party.ids["Pia"])
        party.do(party.gm, {"kind": "say", "text": "open"})
        pia_texts = [pia.receive_text(), pia.receive_text()]
        paul_text = paul.receive_text()
    assert SECRET in "".join(pia_texts)
    assert SECRET not in paul_text and "open" in paul_text


def test_message_texts_per_viewer(web_store: EventStore, table: Any) -> None:
    party = table
    _whisper(party, party.player, party.ids["Pia"])
    _, stored = web_store.snapshot(party.id)
    for viewer, sees in (
        (Viewer(Role.PLAYER, party.ids["Pia"]), True),
        (Viewer(Role.PLAYER, party.ids["Paul"]), True),
        (Viewer(Role.GM, party.created["participant"]), True),
        (Viewer(Role.PLAYER, "someone-else"), False),
        (Viewer(Role.PLAYER), False),
        (Viewer(Role.SPECTATOR, party.ids["Sue"]), False),
    ):
        text = "".join(message_texts(stored.records, stored, viewer, always=True))
        assert (SECRET in text) is sees, viewer


def test_reads_by_bare_role_never_include_a_whisper(web_store: EventStore, table: Any) -> None:
    party = table
    _whisper(party, party.gm, party.ids["Pia"])
    assert web_store.records_since(party.id, 0, Role.PLAYER) == []
    assert web_store.records_since(party.id, 0, Role.SPECTATOR) == []
    assert len(web_store.records_since(party.id, 0, Role.GM)) == 1
    pia = web_store.authenticate(party.id, party.pia_token)
    assert len(web_store.records_since(party.id, 0, pia)) == 1


def test_reconnect_after_a_whisper_shows_the_gap_only(table: Any) -> None:
    party = table
    party.do(party.player, {"kind": "say", "text": "one"})
    _whisper(party, party.gm, party.ids["Pia"])
    party.do(party.player, {"kind": "say", "text": "three"})
    for since in (0, 1, 2):
        with party.socket(party.spectator["Authorization"].split()[1], since=since) as sue:
            text = sue.receive_text()
        frame = json.loads(text)
        assert SECRET not in text and 2 not in [r["seq"] for r in frame["records"]]
        assert frame["seq"] == 3


def test_import_of_a_third_partys_export_holds_no_whisper(client: Any, table: Any) -> None:
    party = table
    _whisper(party, party.player, party.ids["Pia"], f"/r 2W6 # {SECRET}")
    client.post(f"/api/tables/{party.id}/reveal", headers=party.gm)
    export = client.get(f"/api/tables/{party.id}/export", headers=party.spectator).json()
    assert SECRET not in json.dumps(export)
    assert party.ids["Pia"] not in json.dumps(export["records"])
    assert verify_document(export).ok
    imported = client.post("/api/tables/import", json=export)
    assert imported.status_code == 201, imported.text
    headers = {"Authorization": f"Bearer {imported.json()['token']}"}
    table_id = imported.json()["table"]
    records = client.get(f"/api/tables/{table_id}/records", headers=headers).json()
    assert SECRET not in json.dumps(records)


def test_a_forged_audience_is_refused_on_import(client: Any, table: Any) -> None:
    """Widening a whisper's audience in an export (to show it to someone) fails the replay."""
    party = table
    _whisper(party, party.player, party.ids["Pia"])
    client.post(f"/api/tables/{party.id}/reveal", headers=party.gm)
    export = client.get(f"/api/tables/{party.id}/export", headers=party.gm).json()
    export["records"][0]["audience"] = None
    checked = verify_document(export)
    assert not checked.ok and checked.to_json()["replay"]["field"] == "audience"
    refused = client.post("/api/tables/import", json=export)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == (
        "verify.replay_mismatch"
    )


def test_a_whisper_cannot_be_smuggled_through_the_command_body(table: Any) -> None:
    """The audience is the table's to set: a command naming one is refused."""
    party = table
    forged = {"kind": "say", "text": SECRET, "audience": [party.ids["Paul"]]}
    reply = party.do(party.player, forged)
    assert reply.status_code == 422
    assert party.records(party.gm) == []
