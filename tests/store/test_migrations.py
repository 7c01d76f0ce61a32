"""The Alembic migrations build exactly the schema of the models, run twice safely, and turn
existing tables into seed epochs of format 2; a database at the newest revision opens without
them."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from spieltisch.store import EventStore
from spieltisch.store.db import _MIGRATIONS, SCHEMA_REVISION, connect, migrate
from spieltisch.store.models import Base


def test_migrations_match_the_models_and_are_idempotent(database_url: str) -> None:
    engine = connect(database_url)
    try:
        migrate(engine)
        migrate(engine)  # a second start changes nothing
        with engine.connect() as conn:
            context = MigrationContext.configure(conn)
            assert context.get_current_revision() == SCHEMA_REVISION
            differences: list[Any] = compare_metadata(context, Base.metadata)
        assert differences == []
        tables = set(inspect(engine).get_table_names())
        assert {"tables", "participants", "invites", "records", "snapshots", "rate_hits"} <= tables
    finally:
        engine.dispose()


def test_the_schema_revision_is_the_newest_migration() -> None:
    """A database at ``SCHEMA_REVISION`` is taken as migrated: it must be the head."""
    assert ScriptDirectory(str(_MIGRATIONS)).get_current_head() == SCHEMA_REVISION


_OPENS = """
import sys
from spieltisch.store import EventStore
EventStore(sys.argv[1]).close()
print("alembic" in sys.modules, flush=True)
EventStore(sys.argv[2]).close()
print("alembic" in sys.modules)
"""


def test_a_migrated_database_opens_without_alembic(tmp_path: Path, migrated_sqlite: Path) -> None:
    """Opening a database at the newest revision reads its revision and loads nothing of
    Alembic (a store's start, the command line's table commands); a new one is migrated."""
    migrated = tmp_path / "migrated.sqlite3"
    shutil.copyfile(migrated_sqlite, migrated)
    fresh = tmp_path / "fresh.sqlite3"
    urls = [f"sqlite:///{migrated}", f"sqlite:///{fresh}"]
    opened = subprocess.run(
        [sys.executable, "-c", _OPENS, *urls], capture_output=True, text=True, timeout=120
    )
    assert opened.returncode == 0, opened.stderr
    assert opened.stdout.split() == ["False", "True"]
    engine = connect(urls[1])
    try:
        with engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == SCHEMA_REVISION
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


def test_existing_tables_become_one_epoch_and_revealed_ones_roll_on(database_url: str) -> None:
    engine = connect(database_url)
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    seed = bytes(range(32))
    commitment = hashlib.sha256(seed).hexdigest()
    record = {"seq": 1, "actor": "p", "draws": [{"index": 0, "sides": 6, "value": 1}] * 1}
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0001")
            for table_id, revealed in (("open", False), ("shown", True)):
                conn.execute(
                    text(
                        "INSERT INTO tables (id, system, title, language, options, dice_table,"
                        " server_seed, commitment, revealed, player_seeds, seq, version)"
                        " VALUES (:id, 'free-dice', '', 'de', '{}', :id, :seed, :c, :r, '[]', 1, 0)"
                    ),
                    {"id": table_id, "seed": seed.hex(), "c": commitment, "r": revealed},
                )
                conn.execute(
                    text(
                        "INSERT INTO records (table_id, seq, hidden, data) VALUES (:t, 1, :h, :d)"
                    ),
                    {"t": table_id, "h": False, "d": json.dumps(record)},
                )
        migrate(engine)
        store = EventStore(database_url, run_migrations=False)
        try:
            untouched = store.info("open")
            assert [(e.start, e.commitment, e.seed) for e in untouched.epochs] == [
                (0, commitment, None)
            ]
            assert untouched.can_roll
            rolled_on = store.info("shown")
            assert [(e.start, e.commitment, e.seed) for e in rolled_on.epochs[:1]] == [
                (0, commitment, seed.hex())
            ]
            fresh = rolled_on.epochs[1]
            assert (fresh.start, fresh.seed, rolled_on.can_roll) == (1, None, True)
            assert fresh.commitment != commitment
            # They keep numbering their draws across the log (format 2, no links) for ever.
            assert not untouched.streams and not rolled_on.streams
            assert all(e.chain is None for e in (*untouched.epochs, *rolled_on.epochs))
            exported = store.export("shown", None)
            assert exported["format"] == "spieltisch-table/2"
            assert [e["start"] for e in exported["fair"]["epochs"]] == [0, 1]
        finally:
            store.close()
    finally:
        engine.dispose()
