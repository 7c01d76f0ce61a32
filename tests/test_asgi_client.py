"""The tests' client (``tests/asgi_client.py``) answers as starlette's own client does.

A small application with the cases the suite meets (a JSON answer with headers and cookies,
a request body, a path with escapes and a query, an answer in several chunks, an error before
and after the answer started, a WebSocket) is asked through both clients; the answers and
the scopes the application saw must be the same.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient as StarletteTestClient
from starlette.types import Receive, Scope, Send

from asgi_client import TestClient

_PRINTABLE = "".join(chr(code) for code in range(0x21, 0x7F)) + "äöüß "
"""What a path or query may hold here (httpx refuses control characters in a URL)."""

SEEN: list[dict[str, Any]] = []
"""The scopes of the requests the application answered (without its per-request state)."""


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    """Echo what came, in the way the path asks for."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        message = await receive()
        await send({"type": "websocket.send", "text": "echo " + message["text"]})
        await send({"type": "websocket.close", "code": 1000})
        return
    SEEN.append({key: value for key, value in scope.items() if key != "state"})
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if scope["path"] == "/fail-before":
        raise RuntimeError("before the answer")
    headers = [(b"content-type", b"application/json"), (b"set-cookie", b"seen=1; Path=/")]
    await send({"type": "http.response.start", "status": 201, "headers": headers})
    if scope["path"] == "/fail-after":
        raise RuntimeError("after the answer started")
    echo = json.dumps({"body": body.hex(), "path": scope["path"]}).encode()
    for i in range(0, len(echo), 7):
        await send({"type": "http.response.body", "body": echo[i : i + 7], "more_body": True})
    await send({"type": "http.response.body", "body": b""})


def _both(**options: Any) -> tuple[Any, Any]:
    return TestClient(app, **options), StarletteTestClient(app, **options)


def _answer(client: Any, method: str, path: str, body: bytes) -> tuple[Any, ...]:
    SEEN.clear()
    response = client.request(method, path, content=body, headers={"X-Probe": "Tisch"})
    scope = SEEN[0] if SEEN else None
    return (
        response.status_code,
        dict(response.headers),
        response.content,
        dict(client.cookies),
        scope,
    )


@settings(max_examples=40, deadline=None)
@given(
    path=st.text(
        st.sampled_from(_PRINTABLE.replace("?", "").replace("#", "").replace("%", "")), max_size=12
    ),
    query=st.text(st.sampled_from(_PRINTABLE.replace("#", "")), max_size=12),
    body=st.binary(max_size=40),
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
)
def test_answers_and_scopes_are_starlettes(path: str, query: str, body: bytes, method: str) -> None:
    ours, theirs = _both()
    with ours, theirs:
        url = "/echo/" + path + ("?" + query if query else "")
        assert _answer(ours, method, url, body) == _answer(theirs, method, url, body)


@pytest.mark.parametrize("path", ["/fail-before", "/fail-after"])
def test_an_error_of_the_application_reaches_the_test(path: str) -> None:
    for client in _both():
        with client, pytest.raises(RuntimeError):
            client.get(path)


def test_without_raising_an_answer_not_started_is_an_empty_500() -> None:
    ours, theirs = _both(raise_server_exceptions=False)
    with ours, theirs:
        for path in ("/fail-before", "/fail-after"):
            mine, starlettes = ours.get(path), theirs.get(path)
            assert (mine.status_code, mine.content) == (starlettes.status_code, starlettes.content)
        assert ours.get("/fail-before").status_code == 500


def test_websockets_are_starlettes_own() -> None:
    with TestClient(app) as client, client.websocket_connect("/ws") as socket:
        socket.send_text("hallo")
        assert socket.receive_text() == "echo hallo"
