"""The HTTP API through the real application: shapes, permissions, errors that change nothing."""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.dice.fair import FairDice, chain_link
from spieltisch.dice.verify import verify_export
from spieltisch.web.deps import accepted_language


@pytest.fixture
def party(client: Any, toy: Any, make_party: Any) -> Any:
    return make_party(client)


def _error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    if not code.startswith("toy."):  # the test game has no catalog of its own
        assert message and message != code  # a real sentence from the catalogs
    return message


def _unchanged(party: Any) -> Any:
    view = party.view()
    return view["seq"], view["state"], len(party.records())


def test_create_join_and_view(party: Any) -> None:
    created = party.created
    assert set(created) == {"table", "token", "participant", "invites", "commitment"}
    assert set(created["invites"]) == {"player", "spectator"}
    assert len(created["commitment"]) == 64
    response = party.do(party.player, {"kind": "join", "piece": "cat"})
    assert response.status_code == 200
    body = response.json()
    assert body["seq"] == 1 and body["state"]["pieces"] == {"cat": 0}
    assert body["records"][0]["claims"] == "cat"
    view = party.view(party.player)
    assert view["me"]["role"] == "player" and view["me"]["pieces"] == ["cat"]
    assert [p["role"] for p in view["participants"]] == ["gm", "player", "spectator"]
    assert view["seed"] is None and view["commitment"] == created["commitment"]
    assert (view["system"], view["title"], view["language"]) == ("toy", "Test", "en")


def test_systems_and_openapi(client: Any, toy: Any) -> None:
    systems = {s["id"]: s for s in client.get("/api/systems").json()}
    assert {"toy", "magical-kitties", "kilkenny", "free-dice"} <= set(systems)
    assert "join" in str(systems["toy"]["commands"])
    # Each system declares what the pages need of it (no game is hard-coded in the scripts).
    kilkenny = systems["kilkenny"]["meta"]
    assert kilkenny["seats"] == {"2": ["S", "N"], "3": ["S", "W", "N"], "4": ["S", "W", "N", "E"]}
    assert (
        kilkenny["players_per_seat"][0] == "human" and "strongest" in kilkenny["players_per_seat"]
    )
    assert systems["free-dice"]["meta"]["map"] is True
    assert systems["toy"]["meta"] == {}
    # one system alone, as a table page loads the schemas of its game's forms
    one = client.get("/api/systems/hexxen").json()
    assert one == systems["hexxen"] and "set_map" in str(one["commands"])
    unknown = client.get("/api/systems/chess", headers={"Accept-Language": "de"})
    assert unknown.status_code in (400, 404, 422)
    assert "chess" in unknown.json()["error"]["message"]
    paths = client.get("/openapi.json").json()["paths"]
    for path in [
        "/api/systems/{system_id}",
        "/api/tables",
        "/api/tables/import",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/commands",
        "/api/tables/{table_id}/odds",
        "/api/tables/{table_id}/records",
        "/api/tables/{table_id}/undo",
        "/api/tables/{table_id}/player-seeds",
        "/api/tables/{table_id}/reveal",
        "/api/tables/{table_id}/export",
    ]:
        assert path in paths, path


def test_a_system_is_described_once_per_class(monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET /api/systems/{id}`` answers from a description made once per system class; a
    system registered anew under the same id is described anew."""
    from spieltisch.systems import registry
    from spieltisch.systems.hexxen.system import Hexxen
    from spieltisch.web.api import one_system

    assert one_system("hexxen") is one_system("hexxen")

    class Other(Hexxen):
        meta: ClassVar[dict[str, Any]] = {"other": True}

    monkeypatch.setitem(registry.REGISTRY, "hexxen", Other)
    assert one_system("hexxen").meta == {"other": True}
    monkeypatch.undo()
    assert one_system("hexxen").meta != {"other": True}


def test_bad_requests_get_clear_errors_and_change_nothing(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    before = _unchanged(party)
    url = f"/api/tables/{party.id}/commands"
    client = party.client
    message = _error(client.get("/api/tables/nope", headers=party.gm), 404, "table.unknown")
    assert "'nope'" in message
    _error(party.do({"Authorization": "Bearer wrong"}, {"kind": "count"}), 401, "table.bad_token")
    _error(client.post(url, json={"command": {"kind": "count"}}), 401, "table.bad_token")
    _error(
        client.post(url, headers={**party.gm, "Content-Type": "application/json"}, content="{x"),
        400,
        "api.malformed_json",
    )
    _error(client.post(url, headers=party.gm, json={"comand": {}}), 422, "api.invalid_request")
    message = _error(party.do(party.gm, {"kind": "fly"}), 422, "rule.bad_command")
    assert "fly" in message and ": :" not in message  # no empty place before the detail
    message = _error(party.do(party.gm, {"kind": "roll", "piece": "dog"}), 422, "toy.no_piece")
    _error(party.do(party.spectator, {"kind": "count"}), 403, "rule.forbidden")
    _error(party.do(party.player, {"kind": "count"}, hidden=True), 403, "rule.forbidden")
    _error(party.do(party.player, {"kind": "note", "text": "x"}), 403, "rule.forbidden")
    _error(party.do(party.gm, {"kind": "count"}, expected_seq=0), 409, "table.stale")
    _error(client.get("/api/nothing-here"), 404, "api.not_found")
    _error(
        client.delete(f"/api/tables/{party.id}", headers=party.gm), 405, "api.method_not_allowed"
    )
    _error(
        client.post(f"/api/tables/{party.id}/join", json={"invite": "guess", "name": "M"}),
        403,
        "table.bad_invite",
    )
    _error(client.post("/api/tables", json={"system": "nope"}), 422, "rule.unknown_system")
    _error(
        client.post("/api/tables", json={"system": "toy", "language": "fr"}),
        422,
        "table.bad_language",
    )
    assert _unchanged(party) == before
    assert len(party.view()["participants"]) == 3


def test_messages_follow_lang_then_table_then_accept_language(
    client: Any, toy: Any, make_party: Any
) -> None:
    german = make_party(client, language="de")
    url = f"/api/tables/{german.id}"
    bad = {"Authorization": "Bearer wrong"}
    assert "Zugangsschlüssel" in _error(client.get(url, headers=bad), 401, "table.bad_token")
    english = _error(client.get(url, params={"lang": "en"}, headers=bad), 401, "table.bad_token")
    assert "access token" in english
    unknown = {"Accept-Language": "fr, de;q=0.8, en;q=0.5"}
    assert "keinen Tisch" in _error(
        client.get("/api/tables/x", headers=unknown), 404, "table.unknown"
    )
    assert "no table" in _error(client.get("/api/tables/x"), 404, "table.unknown")


def test_records_since_hide_gm_only_records(party: Any) -> None:
    party.do(party.gm, {"kind": "note", "text": "secret"}, hidden=True)
    party.do(party.player, {"kind": "count"})
    party.do(party.gm, {"kind": "count"})
    assert [r["seq"] for r in party.records(party.gm)] == [1, 2, 3]
    assert [r["seq"] for r in party.records(party.player)] == [2, 3]
    assert [r["seq"] for r in party.records(party.spectator, since=2)] == [3]
    response = party.client.get(f"/api/tables/{party.id}/records", headers=party.player)
    assert response.json()["seq"] == 3


def test_records_come_in_pages_of_what_the_caller_may_see(party: Any) -> None:
    """``limit`` gives the latest visible records, ``before`` the ones before a seq; a page
    of the player skips the GM's hidden records as if they did not exist."""
    party.do(party.player, {"kind": "count"})  # 1
    party.do(party.gm, {"kind": "note", "text": "secret"}, hidden=True)  # 2
    for _ in range(4):
        party.do(party.player, {"kind": "count"})  # 3..6
    party.do(party.gm, {"kind": "note", "text": "later"}, hidden=True)  # 7
    url = f"/api/tables/{party.id}/records"

    def page(who: dict[str, str], query: str) -> tuple[list[int], bool]:
        body = party.client.get(f"{url}?{query}", headers=who).json()
        assert body["seq"] == 7
        return [r["seq"] for r in body["records"]], body["older"]

    assert page(party.gm, "limit=2") == ([6, 7], True)
    assert page(party.player, "limit=2") == ([5, 6], True)
    assert page(party.player, "before=5&limit=2") == ([3, 4], True)
    assert page(party.player, "before=3&limit=2") == ([1], False)
    assert page(party.spectator, "before=4&limit=2") == ([1, 3], False)
    assert page(party.gm, "before=4&limit=2") == ([2, 3], True)
    assert page(party.player, "before=4") == ([1, 3], False)
    assert page(party.player, "since=3&before=6&limit=9") == ([4, 5], False)
    assert page(party.player, "before=99&limit=1") == ([6], True)
    assert "secret" not in party.client.get(f"{url}?limit=500", headers=party.player).text


@pytest.mark.parametrize("query", ["limit=0", "limit=501", "before=0", "limit=x"])
def test_a_bad_page_is_refused_naming_the_value(party: Any, query: str) -> None:
    response = party.client.get(f"/api/tables/{party.id}/records?{query}", headers=party.player)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "api.bad_page" and repr(query.split("=")[1]) in error["message"]


def test_odds_preview_rolls_nothing(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    url = f"/api/tables/{party.id}/odds"
    odds = party.client.post(
        url, headers=party.player, json={"command": {"kind": "roll", "piece": "cat", "sides": 4}}
    )
    assert odds.status_code == 200
    assert [o["exact"] for o in odds.json()["outcomes"]] == ["1/4"] * 4
    none = party.client.post(url, headers=party.player, json={"command": {"kind": "count"}})
    assert none.status_code == 200 and none.json() is None
    _error(
        party.client.post(url, headers=party.player, json={"command": {"kind": "x"}}),
        422,
        "rule.bad_command",
    )
    assert party.view()["seq"] == 1


def test_undo_is_for_the_gm(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    party.do(party.player, {"kind": "roll", "piece": "cat"})
    url = f"/api/tables/{party.id}/undo"
    _error(party.client.post(url, headers=party.player, json={"seq": 2}), 403, "rule.forbidden")
    _error(party.client.post(url, headers=party.gm, json={"seq": 1}), 422, "table.undo_dependent")
    _error(party.client.post(url, headers=party.gm, json={"seq": 9}), 404, "table.unknown_record")
    done = party.client.post(url, headers=party.gm, json={"seq": 2})
    assert done.status_code == 200
    body = done.json()
    assert body["record"]["undoes"] == 2 and body["seq"] == 3
    assert body["state"]["pieces"] == {"cat": 0}


def test_player_seeds_reveal_and_verify(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    party.do(party.player, {"kind": "roll", "piece": "cat"})
    seeds = f"/api/tables/{party.id}/player-seeds"
    _error(
        party.client.post(seeds, headers=party.spectator, json={"seed": "s"}), 403, "rule.forbidden"
    )
    added = party.client.post(seeds, headers=party.player, json={"seed": "dice of Paul"})
    assert added.status_code == 200
    # It takes part from the next record on (3): a number no hidden die moves.
    assert added.json()["start"] == 3
    assert added.json()["player_seeds"] == [{"start": 3, "seed": "dice of Paul"}]
    last = party.do(party.player, {"kind": "roll", "piece": "cat", "sides": 20}).json()["records"][
        0
    ]
    reveal = f"/api/tables/{party.id}/reveal"
    _error(party.client.post(reveal, headers=party.player), 403, "rule.forbidden")
    revealed = party.client.post(reveal, headers=party.gm).json()
    assert (
        hashlib.sha256(bytes.fromhex(revealed["seed"])).hexdigest() == party.created["commitment"]
    )
    dice = FairDice(bytes.fromhex(revealed["seed"]), party.id).with_player_seed(3, "dice of Paul")
    assert last["draws"][0]["value"] == dice.stream_value(3, 0, 20)
    assert party.view(party.player)["seed"] == revealed["seed"]
    commitment = party.created["commitment"]
    assert revealed["commitment"] == commitment
    assert revealed["epoch"] == {
        "number": 1,
        "start": 1,
        "end": 4,
        "commitment": commitment,
        "seed": revealed["seed"],
        "chain": chain_link(party.id, 1, 1, commitment, ""),
    }
    current = revealed["current"]
    assert (current["number"], current["start"], current["end"], current["seed"]) == (
        2,
        4,
        None,
        None,
    )
    assert current["chain"] == chain_link(
        party.id, 2, 4, current["commitment"], revealed["epoch"]["chain"]
    )
    assert party.view(party.player)["epochs"] == [revealed["epoch"], current]
    # The table rolls on with the fresh seed, the player seed still mixed in.
    rolled = party.do(party.player, {"kind": "roll", "piece": "cat", "sides": 20})
    assert rolled.status_code == 200, rolled.text
    assert [d["index"] for d in rolled.json()["records"][0]["draws"]] == [0]
    exported = party.client.get(f"/api/tables/{party.id}/export", headers=party.spectator).json()
    verdict = verify_export(exported)
    assert verdict.ok and (verdict.draws, verdict.pending) == (2, 1)
    second = party.client.post(reveal, headers=party.gm).json()
    assert second["epoch"]["commitment"] == current["commitment"]
    later = FairDice(bytes.fromhex(second["seed"]), party.id).with_player_seed(3, "dice of Paul")
    assert rolled.json()["records"][0]["draws"][0]["value"] == later.stream_value(4, 0, 20)


def test_export_import_round_trip(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    party.do(party.player, {"kind": "roll", "piece": "cat"})
    party.do(party.gm, {"kind": "note", "text": "hidden"}, hidden=True)
    party.client.post(f"/api/tables/{party.id}/reveal", headers=party.gm)
    exported = party.client.get(f"/api/tables/{party.id}/export", headers=party.gm).json()
    assert exported["format"] == "spieltisch-table/3"
    imported = party.client.post("/api/tables/import", json=exported)
    assert imported.status_code == 201, imported.text
    body = imported.json()
    # The revealed epoch comes along; nothing was drawn in the open one, so a fresh seed
    # takes its place and the imported table rolls on.
    assert body["table"] != party.id and body["commitment"] != party.created["commitment"]
    headers = {"Authorization": f"Bearer {body['token']}"}
    view = party.client.get(f"/api/tables/{body['table']}", headers=headers).json()
    assert view["state"] == party.view()["state"] and view["seq"] == 3
    again = party.client.get(f"/api/tables/{body['table']}/export", headers=headers).json()
    assert again["records"] == exported["records"] and verify_export(again).ok
    paul = next(p for p in body["participants"] if p["name"] == "Paul")
    player = {"Authorization": f"Bearer {paul['token']}"}
    assert party.client.get(f"/api/tables/{body['table']}", headers=player).json()["me"][
        "pieces"
    ] == ["cat"]
    exported["records"][1]["draws"][0]["value"] = (
        exported["records"][1]["draws"][0]["value"] % 6 + 1
    )
    _error(party.client.post("/api/tables/import", json=exported), 422, "verify.mismatch_value")
    _error(party.client.post("/api/tables/import", json={"format": "x"}), 422, "table.bad_format")


def test_invites_can_be_renewed_by_the_gm(party: Any) -> None:
    url = f"/api/tables/{party.id}/invites"
    _error(party.client.post(url, headers=party.player), 403, "rule.forbidden")
    fresh = party.client.post(url, headers=party.gm).json()
    old = party.created["invites"]["player"]
    join = f"/api/tables/{party.id}/join"
    _error(party.client.post(join, json={"invite": old, "name": "Late"}), 403, "table.bad_invite")
    assert (
        party.client.post(join, json={"invite": fresh["player"], "name": "Late"}).status_code == 201
    )


@given(st.text(max_size=80))
def test_any_accept_language_header_gives_a_supported_language_or_none(header: str) -> None:
    assert accepted_language(header) in ("de", "en", None)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("fr-FR, en;q=0.3, de;q=0.5", "de"),
        ("en-GB", "en"),
        ("de;q=0, en;q=0.1", "en"),
        ("fr, it", None),
        ("", None),
    ],
)
def test_accept_language_follows_the_weights(header: str, expected: str | None) -> None:
    assert accepted_language(header) == expected


BODY = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
COMMAND = st.fixed_dictionaries(
    {"kind": st.sampled_from(["join", "roll", "damage", "count", "note", "x"])},
    optional={"piece": BODY, "sides": BODY, "amount": BODY, "text": BODY},
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.one_of(
        BODY,
        st.fixed_dictionaries(
            {"command": COMMAND}, optional={"hidden": BODY, "expected_seq": BODY}
        ),
    ),
    who=st.sampled_from(["gm", "player", "spectator"]),
)
def test_any_command_body_is_done_or_refused_with_a_4xx(party: Any, body: Any, who: str) -> None:
    before = party.view()["seq"]
    response = party.client.post(
        f"/api/tables/{party.id}/commands", headers=getattr(party, who), json=body
    )
    if response.status_code == 200:
        assert response.json()["seq"] > before
    else:
        assert 400 <= response.status_code < 500, response.text
        assert set(response.json()["error"]) == {"code", "message"}
        assert party.view()["seq"] == before


def test_errors_speak_the_tables_language_before_it_is_loaded(
    web_store: Any, toy: Any, make_party: Any
) -> None:
    from asgi_client import TestClient
    from spieltisch.store import EventStore
    from spieltisch.web.app import create_app

    with TestClient(create_app(web_store)) as first:
        party = make_party(first, language="de")
    fresh = EventStore(web_store.url)  # a restarted server: nothing cached yet
    try:
        with TestClient(create_app(fresh)) as client:
            url = f"/api/tables/{party.id}/commands"
            headers = {**party.gm, "Content-Type": "application/json"}
            message = _error(
                client.post(url, headers=headers, content="{x"), 400, "api.malformed_json"
            )
            assert message.startswith("Der Inhalt")
            english = client.post(url + "?lang=en", headers=headers, content="{x")
            assert "not valid JSON" in _error(english, 400, "api.malformed_json")
    finally:
        fresh.close()


def test_a_refused_undo_names_its_reason_in_words(client: Any, make_party: Any) -> None:
    party = make_party(client, "magical-kitties", language="de")
    kitty = {
        "kind": "create_kitty",
        "id": "mia",
        "name": "Mia",
        "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
        "talents": ["Climbing"],
        "powers": [{"name": "Teleport"}],
        "flaw": "Lazy",
        "human": {"name": "Jenny", "problems": []},
    }
    assert party.do(party.player, kitty).status_code == 200
    assert party.do(party.gm, {"kind": "give_aua", "kitty": "mia"}).status_code == 200
    before = _unchanged(party)
    refused = party.client.post(f"/api/tables/{party.id}/undo", headers=party.gm, json={"seq": 1})
    message = _error(refused, 422, "table.undo_dependent")
    assert "kitties." not in message  # the reason as a sentence, not as a code
    assert "Eintrag Nr. 2 baut darauf auf" in message and "'mia'" in message
    assert _unchanged(party) == before


def test_an_invitation_names_table_game_gm_and_role_before_joining(party: Any) -> None:
    client, url = party.client, f"/api/tables/{party.id}/invitation"
    seen = client.post(url, json={"invite": party.created["invites"]["spectator"]})
    assert seen.status_code == 200, seen.text
    assert seen.json() == {"title": "Test", "system": "toy", "gm": "", "role": "spectator"}
    _error(client.post(url, json={"invite": "guess"}), 403, "table.bad_invite")
    # Asking joins nobody.
    assert len(party.view()["participants"]) == 3
