"""The Alembic migrations build exactly the schema of the models, run twice safely, and turn
existing tables into seed epochs of format 2."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from spieltisch.store import EventStore
from spieltisch.store.db import _MIGRATIONS, connect, migrate
from spieltisch.store.models import Base


def test_migrations_match_the_models_and_are_idempotent(database_url: str) -> None:
    engine = connect(database_url)
    try:
        migrate(engine)
        migrate(engine)  # a second start changes nothing
        with engine.connect() as conn:
            context = MigrationContext.configure(conn)
            assert context.get_current_revision() == "0005_dice_streams"
            differences: list[Any] = compare_metadata(context, Base.metadata)
        assert differences == []
        tables = set(inspect(engine).get_table_names())
        assert {"tables", "participants", "invites", "records", "snapshots", "rate_hits"} <= tables
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
