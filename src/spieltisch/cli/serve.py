"""``spieltisch serve``: run the web table (HTTP API, WebSocket, pages) with uvicorn."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy.engine import make_url

from spieltisch.cli.app import app
from spieltisch.cli.context import fail, help_text, settings, t
from spieltisch.errors import InputError, SpieltischError
from spieltisch.store.db import DATABASE_URL_VARIABLE, is_postgres, resolve_url

__all__ = ["serve"]


@app.command("serve", help=help_text("cli.help.serve"))
def serve(
    host: Annotated[
        str, typer.Option("--host", help=help_text("cli.help.serve.opt.host"))
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help=help_text("cli.help.serve.opt.port"), min=0, max=65535)
    ] = 8000,
    db: Annotated[
        Path | None,
        typer.Option("--db", help=help_text("cli.help.opt.db")),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", help=help_text("cli.help.serve.opt.workers"), min=1)
    ] = 1,
    pool_size: Annotated[
        int | None,
        typer.Option("--pool-size", help=help_text("cli.help.serve.opt.pool_size"), min=0),
    ] = None,
    pool_timeout: Annotated[
        float | None,
        typer.Option("--pool-timeout", help=help_text("cli.help.serve.opt.pool_timeout"), min=0),
    ] = None,
    odds_budget: Annotated[
        int | None,
        typer.Option("--odds-budget", help=help_text("cli.help.serve.opt.odds_budget"), min=1),
    ] = None,
    import_max_bytes: Annotated[
        int | None,
        typer.Option(
            "--import-max-bytes", help=help_text("cli.help.serve.opt.import_max_bytes"), min=1
        ),
    ] = None,
    import_max_records: Annotated[
        int | None,
        typer.Option(
            "--import-max-records", help=help_text("cli.help.serve.opt.import_max_records"), min=1
        ),
    ] = None,
    rate: Annotated[
        list[str] | None, typer.Option("--rate", help=help_text("cli.help.serve.opt.rate"))
    ] = None,
) -> None:
    """Serve the table API and pages; prints the address to open."""
    import uvicorn

    # The limits reach the application (and every worker process) as SPIELTISCH_* variables.
    for name, value in (
        ("SPIELTISCH_POOL_SIZE", pool_size),
        ("SPIELTISCH_POOL_TIMEOUT", pool_timeout),
        ("SPIELTISCH_ODDS_BUDGET", odds_budget),
        ("SPIELTISCH_IMPORT_MAX_BYTES", import_max_bytes),
        ("SPIELTISCH_IMPORT_MAX_RECORDS", import_max_records),
    ):
        if value is not None:
            os.environ[name] = str(value)
    from dataclasses import fields

    from spieltisch.web.limits import RateLimits

    known = {f.name for f in fields(RateLimits)}
    for item in rate or []:
        key, _, limit = item.partition("=")
        if key.strip() not in known:
            fail(InputError("api.bad_rate_limit", name=key.strip(), value=limit.strip()))
        os.environ[f"SPIELTISCH_RATE_{key.strip().upper()}"] = limit.strip()

    url = resolve_url(str(db) if db is not None else None)
    if workers > 1 and not is_postgres(url):
        fail(InputError("serve.workers_need_postgres", workers=workers))
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        if workers > 1:
            os.environ[DATABASE_URL_VARIABLE] = url
            settings.console.print(t("serve.listening", url=f"http://{host}:{port}", db=shown))
            uvicorn.run(
                "spieltisch.web.app:create_app",
                factory=True,
                host=host,
                port=port,
                workers=workers,
                log_level="warning",
                ws_per_message_deflate=False,
            )
            return
        from spieltisch.web.app import create_app

        application = create_app(database_url=url)
    except SpieltischError as error:
        fail(error)
    settings.console.print(t("serve.listening", url=f"http://{host}:{port}", db=shown))
    # Without per-message deflate: compressing each message separately for every client was
    # the largest single cost of the fan-out in a profile under bench/table_load.py.
    uvicorn.run(
        application,
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
    )
