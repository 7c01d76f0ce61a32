"""Rate limits per token and per client address, and the size limits of an import.

Counted in memory (``limits``' moving window), per application process: a limit is a ceiling
against a flood, not an accounting. Each kind of request has a limit per bearer token (when the
request carries one) and a higher one per client address (people at one home share an
address). Past a limit the request is refused with ``api.rate_limited`` (429, ``Retry-After``)
before it touches the database.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, fields
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Request
from fastapi.routing import APIRoute
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from spieltisch import safejson
from spieltisch.errors import InputError, SpieltischError
from spieltisch.safejson import JsonLimitError
from spieltisch.web.deps import bearer_token

__all__ = [
    "ImportLimits",
    "JsonBodyRefused",
    "RateLimited",
    "RateLimiter",
    "RateLimits",
    "SafeJsonRoute",
    "TooLarge",
    "parse_import",
    "rate_limit",
    "read_body",
]


class RateLimited(SpieltischError):
    """Too many requests of one kind; ``params["retry"]`` is the wait in seconds."""


class TooLarge(InputError):
    """An upload past a size limit (413)."""


@dataclass(frozen=True)
class RateLimits:
    """Limits in the ``limits`` notation (``"120/minute"``); ``""`` switches one off.

    Per token: ``commands``, ``odds``. Per client address: the ``*_address`` ones, and
    ``create``, ``join``, ``imports`` (those requests carry no token).
    """

    commands: str = "120/minute"
    commands_address: str = "600/minute"
    odds: str = "120/minute"
    odds_address: str = "600/minute"
    create: str = "30/hour"
    join: str = "60/hour"
    imports: str = "20/hour"

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RateLimits:
        """From ``SPIELTISCH_RATE_<FIELD>`` variables (e.g. ``SPIELTISCH_RATE_COMMANDS``)."""
        values = {
            f.name: env[f"SPIELTISCH_RATE_{f.name.upper()}"]
            for f in fields(cls)
            if f"SPIELTISCH_RATE_{f.name.upper()}" in env
        }
        limits = cls(**values)
        limits.items()  # refuse a bad value at start-up
        return limits

    def items(self) -> dict[str, RateLimitItem | None]:
        """Each limit parsed (``None`` where it is off)."""
        out: dict[str, RateLimitItem | None] = {}
        for f in fields(self):
            text = str(getattr(self, f.name)).strip()
            try:
                out[f.name] = parse(text) if text else None
            except ValueError:
                raise InputError("api.bad_rate_limit", name=f.name, value=text) from None
        return out


# kind of request → (limit per token, limit per address)
_KINDS: dict[str, tuple[str | None, str]] = {
    "commands": ("commands", "commands_address"),
    "odds": ("odds", "odds_address"),
    "create": (None, "create"),
    "join": (None, "join"),
    "imports": (None, "imports"),
}


class RateLimiter:
    """Counts requests per kind, token and address in memory."""

    def __init__(self, settings: RateLimits) -> None:
        self.settings = settings
        self._items = settings.items()
        self._window = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, kind: str, *, token: str | None, address: str | None) -> None:
        """Count one request; :class:`RateLimited` past a limit (the request is not counted)."""
        per_token, per_address = _KINDS[kind]
        checks: list[tuple[RateLimitItem, str, str]] = []
        if per_token is not None and token is not None:
            item = self._items[per_token]
            if item is not None:
                digest = hashlib.sha256(token.encode()).hexdigest()[:32]
                checks.append((item, "token", digest))
        item = self._items[per_address]
        if item is not None and address:
            checks.append((item, "address", address))
        for item, scope, key in checks:
            if not self._window.test(item, kind, scope, key):
                reset, _ = self._window.get_window_stats(item, kind, scope, key)
                retry = max(1, math.ceil(reset - time.time()))
                raise RateLimited("api.rate_limited", action=kind, limit=str(item), retry=retry)
        for item, scope, key in checks:
            self._window.hit(item, kind, scope, key)


def rate_limit(kind: str) -> Any:
    """A route dependency that counts the request as ``kind`` (see :class:`RateLimits`)."""

    async def check(
        request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> None:
        limiter: RateLimiter | None = getattr(request.app.state, "rates", None)
        if limiter is not None:
            address = request.client.host if request.client else None
            limiter.hit(kind, token=bearer_token(authorization), address=address)

    dependency: Callable[..., Coroutine[Any, Any, None]] = check
    return Depends(dependency)


@dataclass(frozen=True)
class ImportLimits:
    """How large an import may be."""

    max_bytes: int = 8 * 1024 * 1024
    """Request body size (the JSON export), refused before it is parsed."""
    max_records: int = 100_000
    """Records in the export."""


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The request body, refused with ``api.too_large`` past ``max_bytes`` (by its declared
    length up front, else while it streams in)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_bytes:
        raise TooLarge("api.too_large", size=int(declared), limit=max_bytes)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise TooLarge("api.too_large", size=f">{max_bytes}", limit=max_bytes)
        chunks.append(chunk)
    return b"".join(chunks)


def parse_import(body: bytes, max_records: int) -> Any:
    """The JSON of an export, refused past ``max_records`` records (before anything is
    validated), and past the limits of :mod:`spieltisch.safejson` (nesting, long numbers,
    ``NaN``), naming where."""
    try:
        data = safejson.loads(body)
    except JsonLimitError:
        raise
    except (ValueError, UnicodeDecodeError) as error:
        raise InputError("api.malformed_json", detail=str(error)) from None
    records = data.get("records") if isinstance(data, dict) else None
    if isinstance(records, list) and len(records) > max_records:
        raise TooLarge("api.too_many_records", count=len(records), limit=max_records)
    return data


class JsonBodyRefused(HTTPException):
    """A JSON request body past the limits of :mod:`spieltisch.safejson`.

    Raised where FastAPI reads a body (which answers any other exception there with a bare
    400 naming nothing); the app's handler answers with ``error``'s code and message.
    """

    def __init__(self, error: JsonLimitError) -> None:
        super().__init__(status_code=400, detail=error.code)
        self.error = error


class _SafeJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = safejson.loads(await self.body())
            except JsonLimitError as error:
                raise JsonBodyRefused(error) from None
        return self._json


class SafeJsonRoute(APIRoute):
    """A route whose JSON body is parsed by :func:`spieltisch.safejson.loads` (deep nesting,
    a 5000-digit number or ``NaN`` get a 400 naming where, not a bare 400 or a 500)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Any]]:
        handler = super().get_route_handler()

        async def safe(request: Request) -> Any:
            return await handler(_SafeJsonRequest(request.scope, request.receive))

        return safe
