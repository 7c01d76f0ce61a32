"""The tests' client for the application: starlette's ``TestClient``, with each plain HTTP
request run in one call into the event loop that runs the application.

starlette's client crosses from the test's thread into that loop about eight times for one
request (to make its events and streams, start the application, wait for the answer's start,
then once per body chunk), and each crossing wakes the loop's thread and starts a task there.
The suite makes tens of thousands of requests; in the leak suite the crossings were about a
fifth of its CPU. Here one request is one crossing: the application runs to its end inside
the loop, its messages are gathered there, and the answer comes back whole. The request seen
by the application is the one starlette's client builds (the same scope); an exception the
application raises reaches the test as there (or, with ``raise_server_exceptions=False``, an
answer not yet started becomes an empty 500). WebSockets go through starlette's own session,
unchanged. No route of the application streams its answer, so gathering it loses nothing.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import anyio
import httpx2 as httpx
from starlette.testclient import TestClient as StarletteTestClient
from starlette.types import Message


class TestClient(StarletteTestClient):
    """starlette's test client; a plain HTTP request costs one crossing into the loop."""

    __test__ = False

    def __init__(self, app: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(app, *args, **kwargs)
        self._transport = _WholeExchange(self._transport)


class _WholeExchange(httpx.BaseTransport):
    """Runs an HTTP request's whole exchange in the loop; hands WebSockets to ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme in {"ws", "wss"}:
            return self.inner.handle_request(request)  # type: ignore[no-any-return]
        body = request.read()
        with self.inner.portal_factory() as portal:
            start, chunks, error = portal.call(self._exchange, _scope(self.inner, request), body)
        if error is not None and self.inner.raise_server_exceptions:
            raise error
        if start is None:
            if self.inner.raise_server_exceptions:
                raise AssertionError("TestClient did not receive any response.")
            return httpx.Response(500, headers=[], stream=httpx.ByteStream(b""), request=request)
        headers = [(key.decode(), value.decode()) for key, value in start.get("headers", [])]
        stream = httpx.ByteStream(b"".join(chunks))  # as sent: no Content-Length added
        return httpx.Response(start["status"], headers=headers, stream=stream, request=request)

    async def _exchange(
        self, scope: dict[str, Any], body: bytes
    ) -> tuple[Message | None, list[bytes], BaseException | None]:
        """Run the application on one request; its answer's start, body chunks and error."""
        sent_body = False
        done = anyio.Event()
        start: Message | None = None
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                assert start is None, 'Received multiple "http.response.start" messages.'
                start = message
            elif message["type"] == "http.response.body":
                assert start is not None, 'Received "http.response.body" before its start.'
                chunks.append(bytes(message.get("body", b"")))
                if not message.get("more_body", False):
                    done.set()

        try:
            await self.inner.app(scope, receive, send)
        except BaseException as error:
            return start, chunks, error
        finally:
            done.set()
        return start, chunks, None


def _scope(inner: Any, request: httpx.Request) -> dict[str, Any]:
    """The ASGI scope starlette's client builds for ``request``."""
    url = request.url
    port = url.port or {"http": 80, "https": 443}[url.scheme]
    headers: list[tuple[bytes, bytes]] = (
        [] if "host" in request.headers else [(b"host", url.netloc)]
    )
    headers += [
        (key.lower().encode(), value.encode()) for key, value in request.headers.multi_items()
    ]
    return {
        "type": "http",
        "http_version": "1.1",
        "method": request.method,
        "path": unquote(url.path),
        "raw_path": url.raw_path.split(b"?", 1)[0],
        "root_path": inner.root_path,
        "scheme": url.scheme,
        "query_string": url.query,
        "headers": headers,
        "client": inner.client,
        "server": [url.raw_host.decode("ascii"), port],
        "extensions": {"http.response.debug": {}, "http.response.trailers": {}},
        "state": inner.app_state.copy(),
    }
