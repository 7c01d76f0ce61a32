"""The Alembic migrations build exactly the schema of the models, and run twice safely."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from spieltisch.store.db import connect, migrate
from spieltisch.store.models import Base


def test_migrations_match_the_models_and_are_idempotent(database_url: str) -> None:
    engine = connect(database_url)
    try:
        migrate(engine)
        migrate(engine)  # a second start changes nothing
        with engine.connect() as conn:
            context = MigrationContext.configure(conn)
            assert context.get_current_revision() == "0001"
            differences: list[Any] = compare_metadata(context, Base.metadata)
        assert differences == []
        tables = set(inspect(engine).get_table_names())
        assert {"tables", "participants", "invites", "records", "snapshots"} <= tables
    finally:
        engine.dispose()


def test_sqlite_is_durable(tmp_path: Any) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'd.sqlite3'}")
    try:
        with engine.connect() as conn:
            journal = conn.exec_driver_sql("PRAGMA journal_mode").scalar()
            synchronous = conn.exec_driver_sql("PRAGMA synchronous").scalar()
        assert (journal, synchronous) == ("wal", 2)  # 2 = FULL
    finally:
        engine.dispose()
