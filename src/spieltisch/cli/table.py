"""``spieltisch table new|list|export|import``: administer the tables of a store.

These commands work on the database directly (the same one ``spieltisch serve`` uses, chosen
with ``--db PATH`` or ``SPIELTISCH_DATABASE_URL``), so they need no token: whoever can read
the database file is the administrator.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table as RichTable

from spieltisch import safejson
from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.errors import InputError, SpieltischError
from spieltisch.store import Created, EventStore, StoreError

__all__ = ["table_app"]

table_app = typer.Typer(
    name="table",
    help=help_text("cli.help.table"),
    no_args_is_help=True,
)
app.add_typer(table_app, name="table")

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help=help_text("cli.help.opt.db")),
]
JsonOption = Annotated[bool, typer.Option("--json", help=help_text("cli.help.table.opt.json"))]


def _store(db: Path | None, *, read_only: bool = False) -> EventStore:
    path = str(db) if db is not None else None
    try:
        return EventStore(db_path=path)
    except StoreError as error:
        # Reading commands work beside a running server, which holds the SQLite file's
        # writer lock (and has brought the database up to date).
        if not read_only or error.code != "store.in_use":
            raise
        return EventStore(db_path=path, read_only=True)


def _print_created(created: Created, as_json: bool) -> None:
    if as_json:
        emit_json(
            {
                "table": created.table,
                "token": created.token,
                "participant": created.participant,
                "invites": created.invites,
                "commitment": created.commitment,
                "participants": created.participants,
            }
        )
        return
    out = settings.console
    out.print(t("table.cli.created", table=created.table))
    out.print(t("table.cli.gm_token", token=created.token))
    for role, code in created.invites.items():
        out.print(t("table.cli.invite", role=t(f"table.role.{role}"), code=code))
    out.print(t("table.cli.commitment", commitment=created.commitment))
    for person in created.participants:
        out.print(
            t(
                "table.cli.participant_token",
                name=escape(person["name"]),
                role=t(f"table.role.{person['role']}"),
                token=person["token"],
            )
        )


def _options(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError("table.cli.bad_options_json", value=text, detail=error.msg) from None
    if not isinstance(options, dict):
        raise InputError("table.cli.bad_options_json", value=text, detail="not an object")
    return options


@table_app.command("new", help=help_text("cli.help.table.new"))
def new(
    system: Annotated[str, typer.Argument(help=help_text("cli.help.table.opt.system"))],
    title: Annotated[str, typer.Option("--title", help=help_text("cli.help.table.opt.title"))] = "",
    language: Annotated[
        str, typer.Option("--language", help=help_text("cli.help.table.opt.language"))
    ] = "de",
    options: Annotated[
        str | None, typer.Option("--options", help=help_text("cli.help.table.opt.options"))
    ] = None,
    name: Annotated[str, typer.Option("--name", help=help_text("cli.help.table.opt.gm_name"))] = "",
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Open a table and print the GM's token and the invite codes."""
    try:
        store = _store(db)
        created = store.create_table(
            system, language=language, title=title, options=_options(options), name=name
        )
    except SpieltischError as error:
        fail(error, as_json=as_json)
    _print_created(created, as_json)


@table_app.command("list", help=help_text("cli.help.table.list"))
def list_tables(db: DbOption = None, as_json: JsonOption = False) -> None:
    """List the tables of the store, newest first."""
    try:
        tables = _store(db, read_only=True).list_tables()
    except SpieltischError as error:
        fail(error, as_json=as_json)
    if as_json:
        emit_json(
            [
                {
                    "table": info.id,
                    "system": info.system,
                    "title": info.title,
                    "language": info.language,
                    "seq": info.seq,
                    "revealed": info.revealed,
                    "created": info.created.isoformat() if info.created else None,
                }
                for info in tables
            ]
        )
        return
    if not tables:
        settings.console.print(t("table.cli.none"))
        return
    grid = RichTable(
        t("table.cli.col_table"),
        t("table.cli.col_system"),
        t("table.cli.col_title"),
        t("table.cli.col_language"),
        t("table.cli.col_seq"),
        t("table.cli.col_created"),
    )
    for info in tables:
        created = info.created.strftime("%Y-%m-%d %H:%M") if info.created else ""
        grid.add_row(
            info.id, info.system, escape(info.title), info.language, str(info.seq), created
        )
    settings.console.print(grid)


@table_app.command("export", help=help_text("cli.help.table.export"))
def export(
    table: Annotated[str, typer.Argument(help=help_text("cli.help.table.opt.table"))],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help=help_text("cli.help.table.opt.out"))
    ] = None,
    db: DbOption = None,
) -> None:
    """Write the whole table (log and dice commitment) as one JSON file."""
    try:
        data = _store(db, read_only=True).export(table, None)
    except SpieltischError as error:
        fail(error)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        fail(InputError("table.cli.unwritable", path=str(out), detail=error.strerror or ""))
    settings.console.print(t("table.cli.exported", table=table, path=str(out)))


@table_app.command("import", help=help_text("cli.help.table.import"))
def import_(
    file: Annotated[Path, typer.Argument(help=help_text("cli.help.table.opt.file"))],
    name: Annotated[
        str, typer.Option("--name", help=help_text("cli.help.table.opt.import_name"))
    ] = "",
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Create a new table from an export file: same log and dice, new id and tokens."""
    try:
        raw = sys.stdin.read() if str(file) == "-" else _read(file)
        try:
            data = safejson.loads(raw)
        except json.JSONDecodeError as error:
            raise InputError(
                "table.cli.not_json", path=str(file), line=error.lineno, detail=error.msg
            ) from None
        created = _store(db).import_table(data, name=name)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    _print_created(created, as_json)


def _read(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        detail = error.strerror if isinstance(error, OSError) else str(error)
        raise InputError("table.cli.unreadable", path=str(file), detail=detail or "") from None
