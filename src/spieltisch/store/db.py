"""Connecting to the database: SQLite by default, PostgreSQL by URL; migrations on start.

SQLite runs in WAL mode with ``synchronous=FULL`` (an acknowledged write survives a crash of
the process and of the machine) and every writing transaction starts with ``BEGIN IMMEDIATE`` so
that writers queue on the database lock instead of failing half-way. PostgreSQL URLs use psycopg 3.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url

__all__ = [
    "DATABASE_URL_VARIABLE",
    "connect",
    "default_database_path",
    "is_postgres",
    "libpq_url",
    "migrate",
    "resolve_url",
]

DATABASE_URL_VARIABLE = "SPIELTISCH_DATABASE_URL"
"""Environment variable naming a PostgreSQL (or any SQLAlchemy) database URL."""

_MIGRATIONS = Path(__file__).parent / "migrations"
_MIGRATION_LOCK = 73_617_401
"""PostgreSQL advisory lock id that serializes migrations of workers starting together."""


def default_database_path() -> Path:
    """The SQLite file in the user's data directory (created on first use)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("spieltisch", appauthor=False)) / "spieltisch.sqlite3"


def resolve_url(db_path: str | os.PathLike[str] | None = None, url: str | None = None) -> str:
    """The database URL to use: ``url``, else ``--db PATH``, else the environment, else default."""
    if url:
        return _normalize(url)
    if db_path is not None:
        return f"sqlite:///{Path(db_path).expanduser().resolve()}"
    env = os.environ.get(DATABASE_URL_VARIABLE)
    if env:
        return _normalize(env)
    return f"sqlite:///{default_database_path()}"


def _normalize(url: str) -> str:
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def is_postgres(url: str | URL) -> bool:
    """Whether ``url`` names a PostgreSQL database."""
    return make_url(url).get_backend_name() == "postgresql"


def libpq_url(url: str | URL) -> str:
    """``url`` as a plain libpq connection string (for psycopg's own connections)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def connect(url: str) -> Engine:
    """An engine for ``url`` with the store's durability settings."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            parsed, connect_args={"timeout": 30, "check_same_thread": False}, pool_size=8
        )
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(parsed, pool_size=8, max_overflow=8, pool_pre_ping=True)


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's own handling defers it).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # Writers take the write lock up front and queue on busy_timeout; readers never block.
    if connection.get_execution_options().get("spieltisch_write"):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (safe when several workers start at once)."""
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.execution_options(spieltisch_write=True).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
