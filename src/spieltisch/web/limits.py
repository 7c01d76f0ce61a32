"""Rate limits per token and per client address, and the size limits of an import.

Each kind of request has a limit per bearer token (when the request carries one) and a
higher one per client address (people at one home share an address). Past a limit the
request is refused with ``api.rate_limited`` (429, ``Retry-After``) before it touches the
game; a refused request is not counted. A limit is a ceiling against a flood, not an
accounting.

Where the counts live (``SPIELTISCH_RATE_STORAGE``):

* ``memory`` (the default on SQLite, where one process serves): ``limits``' moving window in
  the process's memory, exact and without I/O.
* ``database`` (the default on PostgreSQL, where several workers serve one database): the
  table ``rate_hits`` of the event store, so a limit holds for the whole service and not per
  worker. ``limits`` has no PostgreSQL storage (its backends are memory, Redis, Memcached,
  MongoDB), and a second service only for counters is more to run than one small table.
  :class:`DatabaseCounter` keeps the same moving window as memory: one row per counted
  request, counted while it is inside the limit's period. All of a request's limits are
  checked and counted in one transaction that holds a lock per limit and key (PostgreSQL's
  ``pg_advisory_xact_lock``; SQLite's writer lock), so concurrent workers never both take
  the last request of a limit. A few statements per limited request, in a thread off the
  event loop; rows are deleted once they left their window.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, fields
from typing import Annotated, Any

import anyio
from fastapi import Depends, Header, HTTPException, Request
from fastapi.routing import APIRoute
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import Engine, text

from spieltisch import safejson
from spieltisch.engine.text import Label
from spieltisch.errors import InputError, SpieltischError
from spieltisch.safejson import JsonLimitError
from spieltisch.web.deps import bearer_token

__all__ = [
    "RATE_STORAGES",
    "DatabaseCounter",
    "ImportLimits",
    "JsonBodyRefused",
    "MemoryCounter",
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


RATE_STORAGES = ("auto", "memory", "database")
"""Where the counts live: ``auto`` is ``database`` on PostgreSQL, else ``memory``."""

_Check = tuple[RateLimitItem, str]
"""One limit to count a request against, and the key it is counted under."""


class MemoryCounter:
    """Counts in this process's memory (``limits``' moving window)."""

    blocking = False
    """Whether :meth:`hit` does I/O (and must run off the event loop)."""

    def __init__(self) -> None:
        self._window = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, checks: list[_Check]) -> int | None:
        """Count a request under every check; ``None``, or the seconds to wait when one is at
        its limit (then nothing is counted)."""
        for item, key in checks:
            if not self._window.test(item, key):
                reset, _ = self._window.get_window_stats(item, key)
                return max(1, math.ceil(reset - time.time()))
        for item, key in checks:
            self._window.hit(item, key)
        return None


class DatabaseCounter:
    """Counts in the event store's ``rate_hits`` table: one count for every worker on the
    database (see the module)."""

    blocking = True

    CLEAN_EVERY = 200
    """Delete the rows that left their window after this many requests (per process)."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self._engine = engine
        self._clock = clock
        self._postgres = engine.dialect.name == "postgresql"
        self._requests = 0

    def hit(self, checks: list[_Check]) -> int | None:
        """As :meth:`MemoryCounter.hit`, in one transaction on the database."""
        now = self._clock()
        with self._engine.begin() as conn:
            for item, key in sorted(checks, key=lambda check: check[1]):  # one lock order
                if self._postgres:
                    conn.execute(
                        text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
                        {"key": key},
                    )
                since = now - item.get_expiry()
                count = conn.execute(
                    text("SELECT count(*) FROM rate_hits WHERE key = :key AND at > :since"),
                    {"key": key, "since": since},
                ).scalar_one()
                if count + 1 > item.amount:
                    # Free again when the oldest hits beyond the limit have left the window.
                    oldest = conn.execute(
                        text(
                            "SELECT at FROM rate_hits WHERE key = :key AND at > :since "
                            "ORDER BY at LIMIT 1 OFFSET :skip"
                        ),
                        {"key": key, "since": since, "skip": count - item.amount},
                    ).scalar_one()
                    return max(1, math.ceil(float(oldest) + item.get_expiry() - now))
            conn.execute(
                text("INSERT INTO rate_hits (key, at, expires) VALUES (:key, :at, :expires)"),
                [
                    {"key": key, "at": now, "expires": now + item.get_expiry()}
                    for item, key in checks
                ],
            )
            self._requests += 1
            if self._requests % self.CLEAN_EVERY == 0:
                conn.execute(text("DELETE FROM rate_hits WHERE expires < :now"), {"now": now})
        return None


class RateLimiter:
    """Counts requests per kind, token and address (in memory, or in the database)."""

    def __init__(
        self, settings: RateLimits, counter: MemoryCounter | DatabaseCounter | None = None
    ) -> None:
        self.settings = settings
        self._items = settings.items()
        self.counter = counter or MemoryCounter()

    @property
    def blocking(self) -> bool:
        """Whether :meth:`hit` does I/O (the database counter)."""
        return self.counter.blocking

    def hit(self, kind: str, *, token: str | None, address: str | None) -> None:
        """Count one request; :class:`RateLimited` past a limit (the request is not counted)."""
        per_token, per_address = _KINDS[kind]
        checks: list[tuple[RateLimitItem, str]] = []
        if per_token is not None and token is not None:
            item = self._items[per_token]
            if item is not None:
                digest = hashlib.sha256(token.encode()).hexdigest()[:32]
                checks.append((item, item.key_for(kind, "token", digest)))
        item = self._items[per_address]
        if item is not None and address:
            checks.append((item, item.key_for(kind, "address", address)))
        if not checks:
            return
        retry = self.counter.hit(checks)
        if retry is not None:
            limit = next(item for item, _ in checks)
            raise RateLimited(
                "api.rate_limited",
                action=Label(f"api.rate.{kind}"),
                count=limit.amount,
                per=Label(f"api.period.{limit.GRANULARITY.name}", count=limit.multiples),
                retry=retry,
            )


def rate_limit(kind: str) -> Any:
    """A route dependency that counts the request as ``kind`` (see :class:`RateLimits`)."""

    async def check(
        request: Request, authorization: Annotated[str | None, Header()] = None
    ) -> None:
        limiter: RateLimiter | None = getattr(request.app.state, "rates", None)
        if limiter is not None:
            address = request.client.host if request.client else None
            token = bearer_token(authorization)
            if limiter.blocking:  # counted in the database: off the event loop
                await anyio.to_thread.run_sync(
                    lambda: limiter.hit(kind, token=token, address=address)
                )
            else:
                limiter.hit(kind, token=token, address=address)

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
