"""Concurrent writers: two stores (as two server workers) and many threads on one table.

Every command must be applied exactly once — none refused as busy, none lost, none doubled —
the log must have no gaps, and the folded state must count every command; on SQLite and on
PostgreSQL. Writers wait for their turn (SQLite's write lock, PostgreSQL's row lock on the
table) and decide on the table as committed when their turn comes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from pg import PostgresServer
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Role
from spieltisch.errors import SpieltischError
from spieltisch.store import EventStore
from spieltisch.store.db import libpq_url
from spieltisch.store.writes import Writes


def test_concurrent_commands_are_each_applied_exactly_once(database_url: str, toy: Any) -> None:
    workers = [EventStore(database_url, snapshot_every=7), EventStore(database_url)]
    try:
        created = workers[0].create_table("toy")
        gm = workers[0].authenticate(created.table, created.token)
        acknowledged: list[tuple[str, int]] = []
        failed: list[BaseException] = []
        lock = threading.Lock()

        def write(thread: int) -> None:
            store = workers[thread % 2]
            try:
                for n in range(12):
                    label = f"t{thread}-{n}"
                    done = store.execute(created.table, gm, {"kind": "note", "text": label})
                    with lock:
                        acknowledged.append((label, done.records[0].seq))
                    if thread == 5 and n % 4 == 0:  # the table's row changes in between
                        store.add_player_seed(created.table, gm, f"seed {n}")
            except BaseException as error:  # reported below
                with lock:
                    failed.append(error)

        threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert failed == []  # in particular no table.busy
        assert len(acknowledged) == 72
        assert sorted(seq for _, seq in acknowledged) == list(range(1, 73))
        for store in workers:
            records = store.records_since(created.table, 0, Role.GM)
            assert [r.seq for r in records] == list(range(1, 73))
            assert {r.seq: r.command["text"] for r in records if r.command} == dict(
                (seq, label) for label, seq in acknowledged
            )
            labels = [r.command["text"] for r in records if r.command]
            assert store.table(created.table).state.notes == tuple(labels)
            info = store.info(created.table)
            assert [p.seed for p in info.player_seeds] == ["seed 0", "seed 4", "seed 8"]
            assert info.seq == 72
    finally:
        for store in workers:
            store.close()


def test_a_command_after_another_workers_commit_is_decided_on_the_new_state(
    database_url: str, toy: Any
) -> None:
    rival, store = EventStore(database_url), EventStore(database_url)
    try:
        created = rival.create_table("toy")
        gm = store.authenticate(created.table, created.token)
        assert store.table(created.table).seq == 0  # cached here, about to be stale
        rival.execute(created.table, gm, {"kind": "join", "piece": "cat"})
        with pytest.raises(RuleError) as taken:
            store.execute(created.table, gm, {"kind": "join", "piece": "cat"})
        assert taken.value.code == "toy.taken"
        store.execute(created.table, gm, {"kind": "count"})
        records = store.records_since(created.table, 0, Role.GM)
        assert [r.command["kind"] for r in records if r.command] == ["join", "count"]

        before = store.table(created.table).seq
        rival.execute(created.table, gm, {"kind": "count"})
        with pytest.raises(SpieltischError) as stale:
            store.execute(created.table, gm, {"kind": "count"}, expected_seq=before)
        assert stale.value.code == "table.stale"
        assert stale.value.params == {"table": created.table, "expected": 2, "seq": 3}
        assert store.table(created.table).state.counted == 2  # the rival's only
    finally:
        rival.close()
        store.close()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A fresh database on the test PostgreSQL server."""
    return postgres_server.create_database()


@pytest.mark.postgres
def test_a_worker_waits_for_the_other_workers_turn_on_postgres(postgres_url: str, toy: Any) -> None:
    import psycopg

    first, second = EventStore(postgres_url), EventStore(postgres_url)
    try:
        created = first.create_table("toy")
        gm = first.authenticate(created.table, created.token)
        second.table(created.table)  # both workers have the table cached
        entered, release = threading.Event(), threading.Event()
        outcome: list[Any] = []

        def hold(write: Any, work: Any, records: Any) -> Any:
            """The first worker holds its turn, decided but not committed, until released."""
            entered.set()
            assert release.wait(60)
            return Writes.append(first.writes, write, work, records)

        first.writes.append = hold  # type: ignore[method-assign]

        def late() -> None:
            try:
                outcome.append(second.execute(created.table, gm, {"kind": "join", "piece": "cat"}))
            except SpieltischError as error:
                outcome.append(error)

        holder = threading.Thread(
            target=first.execute, args=(created.table, gm, {"kind": "join", "piece": "cat"})
        )
        holder.start()
        assert entered.wait(60)
        waiter = threading.Thread(target=late)
        waiter.start()
        with psycopg.connect(libpq_url(postgres_url), autocommit=True) as watch:
            deadline = time.monotonic() + 60
            while True:  # the second worker is blocked on the table's row lock
                waiting = watch.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                ).fetchone()
                if waiting is not None and waiting[0] == 1:
                    break
                assert time.monotonic() < deadline and not outcome
                time.sleep(0.05)
        release.set()
        holder.join()
        waiter.join()
        # Decided after the first commit, on the state with the cat taken: not busy, refused.
        assert len(outcome) == 1 and isinstance(outcome[0], RuleError)
        assert outcome[0].code == "toy.taken"
        assert [r.seq for r in second.records_since(created.table, 0, Role.GM)] == [1]
    finally:
        release.set()
        first.close()
        second.close()


@pytest.fixture
def held_row(database_url: str, toy: Any) -> Iterator[tuple[EventStore, str, Any]]:
    """A table whose row some other writer keeps locked (a stuck transaction)."""
    store = EventStore(database_url, lock_timeout=0.3)
    created = store.create_table("toy")
    gm = store.authenticate(created.table, created.token)
    raw = store.engine.raw_connection()
    try:
        cursor = raw.cursor()
        if store.postgres:
            cursor.execute("BEGIN")
            cursor.execute("SELECT 1 FROM tables WHERE id = %s FOR UPDATE", (created.table,))
        else:
            cursor.execute("BEGIN IMMEDIATE")
        yield store, created.table, gm
    finally:
        raw.rollback()
        raw.close()
        store.close()


def test_a_writer_that_waits_too_long_is_refused_busy_and_changes_nothing(
    held_row: tuple[EventStore, str, Any],
) -> None:
    store, table, gm = held_row
    with pytest.raises(SpieltischError) as busy:
        store.execute(table, gm, {"kind": "count"})
    assert busy.value.code == "table.busy"
    assert busy.value.params == {"table": table}
    assert store.table(table).seq == 0
