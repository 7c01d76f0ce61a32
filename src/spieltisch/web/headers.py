"""Security headers on every HTTP answer, ``Allow`` on 405, and the WebSocket's Origin rule.

:class:`SecurityHeaders` is a plain ASGI middleware: it adds :data:`HEADERS` to every answer
(pages, static files, the API, error answers, ``/docs``) and ``Cache-Control: no-store`` to
every answer under ``/api``, whatever route or exception handler made it. WebSocket
connections pass through untouched; :func:`origin_allowed` is the rule ``ws.py`` applies to
them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "ALLOWED_ORIGINS_VARIABLE",
    "CONTENT_SECURITY_POLICY",
    "HEADERS",
    "SecurityHeaders",
    "allowed_methods",
    "allowed_origins_from_env",
    "origin_allowed",
]

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "font-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "object-src 'none'",
    ]
)
"""No inline script or style, nothing from another origin; ``'self'`` covers ws:/wss:."""

HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
)
"""The headers every HTTP answer carries."""

ALLOWED_ORIGINS_VARIABLE = "SPIELTISCH_ALLOWED_ORIGINS"
"""Comma-separated origins a browser may open the WebSocket from (default: the Host's own)."""

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

_Encoded = tuple[frozenset[bytes], list[tuple[bytes, bytes]]]
_ENCODED = [(name.encode(), value.encode()) for name, value in HEADERS]
_OTHERS: _Encoded = (frozenset(name for name, _ in _ENCODED), _ENCODED)
_API: _Encoded = (_OTHERS[0] | {b"cache-control"}, [*_ENCODED, (b"cache-control", b"no-store")])
"""(names replaced, headers added) for answers outside and under ``/api``, encoded once."""


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every answer, ``no-store`` on ``/api`` answers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the start of its answer."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        api = path == "/api" or path.startswith("/api/")

        names, added = _API if api else _OTHERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + added}
            await send(message)

        await self.app(scope, receive, send_with_headers)


_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(routes: Iterable[BaseRoute], scope: Scope) -> list[str]:
    """The HTTP methods some route accepts at the path of ``scope`` (sorted), for ``Allow``.

    Each method is tried against the routes as a fresh request to the same path; a mounted
    folder of files (``/static``) accepts GET and HEAD.
    """
    root = scope.get("app_root_path", scope.get("root_path", ""))
    methods: set[str] = set()
    for route in routes:
        for method in _METHODS:
            probe: Scope = {
                "type": "http",
                "method": method,
                "path": scope["path"],
                "root_path": root,
                "headers": [],
            }
            match, _ = route.matches(probe)
            if match is Match.NONE:
                break
            if isinstance(route, Mount):
                methods.update(("GET", "HEAD"))
                break
            if match is Match.FULL:
                methods.add(method)
    return sorted(methods)


def allowed_origins_from_env() -> tuple[str, ...] | None:
    """The origins of ``SPIELTISCH_ALLOWED_ORIGINS`` (normalized), or None when unset."""
    value = os.environ.get(ALLOWED_ORIGINS_VARIABLE, "").strip()
    if not value:
        return None
    return tuple(_origin(part) for part in value.split(",") if part.strip())


def _origin(url: str) -> str:
    """``scheme://host[:port]`` in lower case, the scheme's default port left out."""
    parts = urlsplit(url.strip().lower())
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or ""
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme):
        host = f"{host}:{port}"
    return f"{parts.scheme}://{host}"


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str] | None) -> bool:
    """Whether a WebSocket from a page at ``origin`` may connect.

    Without an ``Origin`` header the client is not a browser page (browsers always send one),
    so there is no foreign page to guard against. With ``allowed`` (from
    ``SPIELTISCH_ALLOWED_ORIGINS``) exactly those origins are accepted; otherwise the origin
    must name the host the request was sent to (``Host``), over http or https.
    """
    if origin is None:
        return True
    if not origin or origin == "null":
        return False
    seen = _origin(origin)
    if allowed is not None:
        return seen in {_origin(item) for item in allowed}
    if not host:
        return False
    scheme = seen.split("://", 1)[0]
    return scheme in ("http", "https") and seen == _origin(f"{scheme}://{host}")
