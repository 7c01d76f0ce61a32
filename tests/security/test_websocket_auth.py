"""The WebSocket's door: same-origin pages only, the token in the first message, never the URL.

Refusals arrive as one localized ``error`` message followed by a close with a code.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from asgi_client import TestClient
from spieltisch.i18n import translate
from spieltisch.web.app import create_app
from spieltisch.web.headers import allowed_origins_from_env, origin_allowed


@pytest.fixture
def party(client: Any, toy: Any, make_party: Any) -> Any:
    return make_party(client)


def _url(party: Any, query: str = "") -> str:
    return f"/api/tables/{party.id}/ws" + (f"?{query}" if query else "")


def _refused(ws: Any, code: str, close: int) -> dict[str, Any]:
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "error" and message["error"]["code"] == code
    assert message["error"]["message"] != code  # a text, not the bare code
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == close
    return message


def _auth(token: str, **more: Any) -> dict[str, Any]:
    return {"type": "auth", "token": token, **more}


def test_auth_by_first_message_then_records(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    party.do(party.player, {"kind": "roll", "piece": "cat"})
    with party.client.websocket_connect(_url(party)) as ws:
        ws.send_json(_auth(party.player_token))
        hello = ws.receive_json()
        assert hello["type"] == "records" and [r["seq"] for r in hello["records"]] == [1, 2]
        party.do(party.player, {"kind": "count"})
        assert [r["seq"] for r in ws.receive_json()["records"]] == [3]


def test_since_in_the_auth_message_beats_the_query(party: Any) -> None:
    party.do(party.player, {"kind": "join", "piece": "cat"})
    party.do(party.player, {"kind": "roll", "piece": "cat"})
    with party.client.websocket_connect(_url(party, "since=0")) as ws:
        ws.send_json(_auth(party.gm_token, since=1))
        assert [r["seq"] for r in ws.receive_json()["records"]] == [2]
    with party.client.websocket_connect(_url(party, "since=1")) as ws:
        ws.send_json(_auth(party.gm_token))
        assert [r["seq"] for r in ws.receive_json()["records"]] == [2]


def test_a_same_origin_page_is_accepted(party: Any) -> None:
    # The test client sends Host: testserver.
    for origin in ("http://testserver", "https://testserver", "HTTP://TestServer"):
        with party.client.websocket_connect(_url(party), headers={"Origin": origin}) as ws:
            ws.send_json(_auth(party.gm_token))
            assert ws.receive_json()["type"] == "records", origin


@pytest.mark.parametrize(
    "origin",
    ["http://evil.example", "http://testserver.evil.example", "http://testserver:8080", "null"],
)
def test_a_foreign_origin_is_refused(party: Any, origin: str) -> None:
    url = _url(party, "lang=de")
    with party.client.websocket_connect(url, headers={"Origin": origin}) as ws:
        message = _refused(ws, "ws.foreign_origin", 4403)
    assert message["error"]["message"] == translate("ws.foreign_origin", "de", origin=origin)


def test_a_token_in_the_url_is_refused_even_a_good_one(party: Any) -> None:
    with party.client.websocket_connect(_url(party, f"token={party.gm_token}")) as ws:
        message = _refused(ws, "ws.token_in_url", 4400)
    assert "URL" in message["error"]["message"]


def test_a_wrong_token_closes_with_4401(party: Any) -> None:
    with party.client.websocket_connect(_url(party)) as ws:
        ws.send_json(_auth("wrong"))
        _refused(ws, "table.bad_token", 4401)


@pytest.mark.parametrize(
    "first",
    [
        '{"type": "hello", "token": "x"}',
        '{"type": "auth"}',
        '{"type": "auth", "token": 7}',
        '{"type": "auth", "token": "x", "since": "one"}',
        '["auth"]',
        "ping",
    ],
)
def test_a_first_message_that_is_no_auth_is_refused(party: Any, first: str) -> None:
    with party.client.websocket_connect(_url(party)) as ws:
        ws.send_text(first.replace('"x"', f'"{party.gm_token}"'))
        _refused(ws, "ws.auth_expected", 4400)


def test_a_binary_first_message_is_refused(party: Any) -> None:
    with party.client.websocket_connect(_url(party)) as ws:
        ws.send_bytes(b'{"type": "auth"}')
        _refused(ws, "ws.auth_expected", 4400)


def test_no_auth_message_in_time_closes_with_4408(party: Any) -> None:
    party.client.app.state.ws_auth_timeout = 0.05
    with party.client.websocket_connect(_url(party)) as ws:
        message = _refused(ws, "ws.auth_timeout", 4408)
    assert "0.05" in message["error"]["message"]


@pytest.fixture
def configured(web_store: Any, toy: Any, make_party: Any) -> Iterator[Any]:
    app = create_app(web_store, allowed_origins=("https://spiel.example.org",))
    with TestClient(app) as client:
        yield make_party(client)


def test_configured_origins_replace_the_host_rule(configured: Any) -> None:
    party = configured
    with party.client.websocket_connect(
        _url(party), headers={"Origin": "https://spiel.example.org"}
    ) as ws:
        ws.send_json(_auth(party.gm_token))
        assert ws.receive_json()["type"] == "records"
    with party.client.websocket_connect(_url(party), headers={"Origin": "http://testserver"}) as ws:
        _refused(ws, "ws.foreign_origin", 4403)


def test_the_origins_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, web_store: Any
) -> None:
    monkeypatch.delenv("SPIELTISCH_ALLOWED_ORIGINS", raising=False)
    assert allowed_origins_from_env() is None
    assert create_app(web_store).state.allowed_origins is None
    value = " HTTPS://Spiel.Example.org:443/ , http://localhost:8000,,http://[::1]:80"
    monkeypatch.setenv("SPIELTISCH_ALLOWED_ORIGINS", value)
    expected = ("https://spiel.example.org", "http://localhost:8000", "http://[::1]")
    assert allowed_origins_from_env() == expected
    assert create_app(web_store).state.allowed_origins == expected


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "ok"),
    [
        (None, "a.example", None, True),  # no browser page, nothing to guard against
        ("http://a.example", "a.example", None, True),
        ("https://a.example", "a.example", None, True),  # behind a TLS proxy
        ("http://a.example", "a.example:80", None, True),
        ("https://a.example", "a.example:443", None, True),
        ("http://a.example:8000", "a.example:8000", None, True),
        ("http://a.example:8000", "a.example:8001", None, False),
        ("http://a.example", "a.example:8000", None, False),
        ("http://b.example", "a.example", None, False),
        ("ftp://a.example", "a.example", None, False),
        ("null", "a.example", None, False),
        ("", "a.example", None, False),
        ("http://a.example", None, None, False),
        ("http://[::1]:8000", "[::1]:8000", None, True),
        ("https://b.example", "a.example", ("https://b.example",), True),
        ("https://b.example:443", "a.example", ("https://b.example",), True),
        ("http://a.example", "a.example", ("https://b.example",), False),
        ("http://b.example", "a.example", ("https://b.example",), False),
    ],
)
def test_origin_rule(origin: str | None, host: str | None, allowed: Any, ok: bool) -> None:
    assert origin_allowed(origin, host, allowed) is ok
