"""The web application: ``create_app()`` builds the FastAPI app around one event store.

Run it with ``spieltisch serve`` or any ASGI server
(``uvicorn --factory spieltisch.web.app:create_app``; the database comes from
``SPIELTISCH_DATABASE_URL`` or the default SQLite file). More routers (pages) are added with
``app.include_router``; a ``static/`` folder beside this module is served under ``/static``.
Every HTTP answer carries the security headers of :mod:`spieltisch.web.headers`.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp

from spieltisch.errors import InputError, SpieltischError, located
from spieltisch.i18n import error_message, translate
from spieltisch.store import EventStore
from spieltisch.web import api, images, pages, ws
from spieltisch.web.assets import Assets
from spieltisch.web.collector import Collector
from spieltisch.web.deps import request_language
from spieltisch.web.headers import SecurityHeaders, allowed_methods, allowed_origins_from_env
from spieltisch.web.limits import (
    RATE_STORAGES,
    DatabaseCounter,
    ImportLimits,
    JsonBodyRefused,
    MemoryCounter,
    RateLimited,
    RateLimiter,
    RateLimits,
)
from spieltisch.web.live import Broker, PostgresListener
from spieltisch.web.workers import PoolSettings, Workers, automatic_in_pool

__all__ = ["STATUS", "Settings", "create_app", "status_of"]


@dataclass(frozen=True)
class Settings:
    """The server's limits: the process pool, rate limits, import sizes (``docs/table-api.md``,
    section "Limits")."""

    pool: PoolSettings = field(default_factory=PoolSettings)
    rates: RateLimits = field(default_factory=RateLimits)
    imports: ImportLimits = field(default_factory=ImportLimits)
    rate_storage: str = "auto"
    """Where rate limits count (:data:`~spieltisch.web.limits.RATE_STORAGES`): ``memory``,
    ``database`` (every worker on one PostgreSQL shares the counts), ``auto`` (``database``
    on PostgreSQL, else ``memory``)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """From ``SPIELTISCH_POOL_SIZE``, ``SPIELTISCH_POOL_TIMEOUT``, ``SPIELTISCH_ODDS_BUDGET``,
        ``SPIELTISCH_IMPORT_MAX_BYTES``, ``SPIELTISCH_IMPORT_MAX_RECORDS``,
        ``SPIELTISCH_RATE_STORAGE`` and the ``SPIELTISCH_RATE_*`` limits; unset ones keep
        their defaults."""
        env = os.environ if env is None else env
        pool, imports = PoolSettings(), ImportLimits()

        def number(name: str, default: float, kind: type[int] | type[float]) -> Any:
            text = env.get(name)
            if text is None or not text.strip():
                return default
            try:
                value = kind(text)
            except ValueError:
                raise InputError("api.bad_setting", name=name, value=text) from None
            if value < 0:
                raise InputError("api.bad_setting", name=name, value=text)
            return value

        storage = env.get("SPIELTISCH_RATE_STORAGE", "").strip() or "auto"
        if storage not in RATE_STORAGES:
            raise InputError("api.bad_setting", name="SPIELTISCH_RATE_STORAGE", value=storage)
        return cls(
            rate_storage=storage,
            pool=PoolSettings(
                size=number("SPIELTISCH_POOL_SIZE", pool.size, int),
                timeout=number("SPIELTISCH_POOL_TIMEOUT", pool.timeout, float),
                odds_budget=max(1, number("SPIELTISCH_ODDS_BUDGET", pool.odds_budget, int)),
            ),
            rates=RateLimits.from_env(env),
            imports=ImportLimits(
                max_bytes=number("SPIELTISCH_IMPORT_MAX_BYTES", imports.max_bytes, int),
                max_records=number("SPIELTISCH_IMPORT_MAX_RECORDS", imports.max_records, int),
            ),
        )


STATUS: dict[str, int] = {
    "table.unknown": 404,
    "table.unknown_record": 404,
    "table.unknown_participant": 404,
    "table.bad_token": 401,
    "table.bad_invite": 403,
    "rule.forbidden": 403,
    "rule.forbidden_field": 403,
    "table.stale": 409,
    "table.busy": 409,
    "table.seed_unknown": 409,
    "table.dice_closed": 409,
    "api.malformed_json": 400,
    "json.too_deep": 400,
    "json.number_too_long": 400,
    "json.bad_number": 400,
    "api.too_large": 413,
    "api.too_many_records": 413,
    "api.rate_limited": 429,
    "api.too_slow": 503,
    "image.unknown": 404,
    "image.too_big": 413,
}
"""HTTP status of error codes that are not a plain 422 (bad input / rule refused)."""

_STATIC = Path(__file__).parent / "static"

_DOCS_ASSETS = "/docs-assets"


def _swagger_assets() -> Path:
    """Swagger UI's files from the ``swagger-ui-py`` package.

    Served by the server itself, ``/docs`` works without internet (a home network, a train).
    """
    spec = importlib.util.find_spec("swagger_ui")
    assert spec is not None and spec.submodule_search_locations, "swagger-ui-py is missing"
    return Path(next(iter(spec.submodule_search_locations))) / "static"


def status_of(error: SpieltischError) -> int:
    """The HTTP status for a deliberate error: 4xx, never 5xx (422 unless listed in STATUS)."""
    return STATUS.get(error.code, 422)


def _error(
    code: str,
    message: str,
    status: int,
    headers: dict[str, str] | None = None,
    where: dict[str, Any] | None = None,
) -> JSONResponse:
    error: dict[str, Any] = {"code": code, "message": message, **(where or {})}
    return JSONResponse({"error": error}, status_code=status, headers=headers)


async def _language(request: Request) -> str:
    """The language of an error answer (see :func:`request_language`).

    A request can fail before anything loaded its table (a body that is not JSON is refused
    before authentication): then the table is loaded off the event loop first, so the answer
    still speaks the table's language.
    """
    table_id = request.path_params.get("table_id")
    store: EventStore | None = getattr(request.app.state, "store", None)
    if (
        table_id
        and store is not None
        and not request.query_params.get("lang")
        and store.cached_info(str(table_id)) is None
    ):
        with contextlib.suppress(SpieltischError):  # an unknown table has no language
            await anyio.to_thread.run_sync(store.info, str(table_id))
    return request_language(request)


async def _on_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, SpieltischError)
    lang = await _language(request)
    # A text parser's error (dice notation, a stat line) says where in the text it stopped
    # (the page puts the cursor there) and, for a form of another tool, what to write.
    return _error(error.code, error_message(error, lang), status_of(error), where=located(error))


async def _on_rate_limited(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RateLimited)
    response = await _on_error(request, error)
    response.headers["Retry-After"] = str(error.params["retry"])
    return response


async def _on_invalid(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    lang = await _language(request)
    problems = error.errors()
    first = problems[0] if problems else {}
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    if first.get("type") == "json_invalid":
        detail = str(first.get("ctx", {}).get("error", first.get("msg", "")))
        return _error(
            "api.malformed_json", translate("api.malformed_json", lang, detail=detail), 400
        )
    detail = f"{where}: {first.get('msg', '')}" if where else str(first.get("msg", ""))
    return _error("api.invalid_request", translate("api.invalid_request", lang, detail=detail), 422)


async def _on_http(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if isinstance(error, JsonBodyRefused):
        return await _on_error(request, error.error)
    lang = await _language(request)
    code = {404: "api.not_found", 405: "api.method_not_allowed"}.get(error.status_code, "api.http")
    message = translate(code, lang, path=request.url.path, status=error.status_code)
    headers = dict(error.headers or {})
    if error.status_code == 405:
        headers["Allow"] = ", ".join(allowed_methods(request.app.routes, request.scope))
    return _error(code, message, error.status_code, headers)


async def _docs(request: Request) -> HTMLResponse:
    """The API's interactive documentation (Swagger UI, served from this server).

    A module-level function, not a closure over the application: FastAPI keeps every route's
    callable in process-wide caches, and a closure there would keep its application (with its
    store and tables) alive after the application is gone.
    """
    return pages.docs_page(request, request.app.openapi_url or "/openapi.json", _DOCS_ASSETS)


class _App(FastAPI):
    """FastAPI with :class:`SecurityHeaders` outside everything, error answers included."""

    def build_middleware_stack(self) -> ASGIApp:
        """The usual stack, wrapped in the security headers."""
        return SecurityHeaders(super().build_middleware_stack())


def create_app(
    store: EventStore | None = None,
    *,
    db_path: str | None = None,
    database_url: str | None = None,
    allowed_origins: tuple[str, ...] | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """The application. Without ``store`` one is opened (and migrated) from the settings;
    without ``settings`` the limits come from the environment (:meth:`Settings.from_env`).

    ``allowed_origins`` are the pages' origins that may open the WebSocket (default:
    ``SPIELTISCH_ALLOWED_ORIGINS``, else the origin of the request's own ``Host``).
    """
    owned = store is None
    config = settings or Settings.from_env()
    the_store = store or EventStore(database_url, db_path=db_path)
    broker = Broker()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        broker.bind(asyncio.get_running_loop())
        the_store.on_commit.append(broker.publish)
        workers = Workers(config.pool)
        app.state.workers = workers
        if workers.pooled:
            the_store.automatic = lambda system: automatic_in_pool(workers, system)
        listener = None
        if the_store.postgres:
            listener = PostgresListener(
                the_store.url, broker, the_store.worker, on_people=the_store.forget
            )
            listener.start()
        collector = Collector()
        collector.install()
        try:
            yield
        finally:
            collector.uninstall()
            the_store.automatic = None
            app.state.workers = None
            await anyio.to_thread.run_sync(workers.close)
            if listener is not None:
                listener.stop()
            the_store.on_commit.remove(broker.publish)
            if owned:
                the_store.close()

    app = _App(
        title="Spieltisch",
        summary="Rules-aware game table: tables, live log, fair dice.",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.mount(_DOCS_ASSETS, StaticFiles(directory=_swagger_assets()), name="docs-assets")

    app.add_api_route("/docs", _docs, methods=["GET"], include_in_schema=False)
    app.state.store = the_store
    app.state.allowed_origins = (
        allowed_origins if allowed_origins is not None else allowed_origins_from_env()
    )
    app.state.broker = broker
    app.state.settings = config
    shared = config.rate_storage == "database" or (
        config.rate_storage == "auto" and the_store.postgres
    )
    counter = DatabaseCounter(the_store.engine) if shared else MemoryCounter()
    app.state.rates = RateLimiter(config.rates, counter)
    app.state.workers = None
    handlers: dict[Any, Any] = {
        SpieltischError: _on_error,
        RateLimited: _on_rate_limited,
        RequestValidationError: _on_invalid,
        StarletteHTTPException: _on_http,
    }
    for kind, handler in handlers.items():
        app.add_exception_handler(kind, handler)
    # Pages, scripts, texts and large answers travel compressed to a browser that accepts it;
    # a middle level: most of the gain for a fraction of the highest level's time.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=5)
    app.include_router(api.router)
    app.include_router(images.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    if _STATIC.is_dir():
        app.mount("/static", Assets(_STATIC), name="static")
    return app
