"""The write path: whose turn it is, the transaction, the records, snapshots and NOTIFY.

:class:`Writes` is what every change of a table goes through. A change is decided inside the
transaction that commits it, after the writer took its turn: on SQLite the process's writer
lock (one process writes a file, :func:`spieltisch.store.db.lock_writer`) and
``BEGIN IMMEDIATE``, on PostgreSQL a row lock on the table (``SELECT … FOR UPDATE``), so
concurrent commands of several workers wait for each other instead of being refused. Within
the turn the table catches up with what others committed, so no command is lost, applied
twice or decided on a stale state. Snapshots of the folded state every ``snapshot_every``
records keep loading fast; a per-process cache keeps hot tables in memory and catches up from
the database with one small query per request.
"""

from __future__ import annotations

import functools
import threading
import uuid
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, Update, bindparam, delete, insert, select, text, update
from sqlalchemy.exc import OperationalError

from spieltisch.engine.table import Record
from spieltisch.engine.upcast import shapes_of
from spieltisch.errors import SpieltischError
from spieltisch.store.cache import StoredTable
from spieltisch.store.db import connect, is_postgres, lock_writer, migrate
from spieltisch.store.loading import Cached, catch_up, info_of, participants_of
from spieltisch.store.models import RecordRow, SnapshotRow, TableRow
from spieltisch.store.snapshots import encode_states
from spieltisch.store.types import Participant, StoreError, TableInfo

__all__ = ["NOTIFY_CHANNEL", "Write", "Writes", "snapshot_due", "snapshot_phase"]

NOTIFY_CHANNEL = "spieltisch"
"""PostgreSQL NOTIFY channel; the payload is ``"<table> <seq> <worker>"``."""

_R = TypeVar("_R")
_T = TypeVar("_T")


@dataclass
class Write:
    """A write transaction on one table during its turn (see :meth:`Writes.write`)."""

    conn: Connection
    cached: Cached
    """The table as committed, caught up inside the turn."""
    fresh: Cached | None = None
    """The table after this write, cached once the transaction committed."""
    seq: int | None = None
    """The ``seq`` to announce to ``on_commit`` after the commit (``None``: nothing changed)."""


class Writes:
    """The database, the tables this process holds, and the turns to change them.

    Thread-safe; one instance per process. ``on_commit`` callbacks run after every committed
    change with ``(table_id, seq)`` (``seq`` is -1 when only the participants changed); with
    PostgreSQL each commit to the log or the table's settings also sends ``NOTIFY``.
    """

    def __init__(
        self,
        url: str,
        *,
        snapshot_every: int,
        spread_snapshots: bool = True,
        cache_size: int,
        lock_timeout: float,
        run_migrations: bool,
        read_only: bool,
    ) -> None:
        self.url = url
        """The database URL (resolved)."""
        self.read_only = read_only
        # First: a refused store touches nothing.
        self._file_lock = None if read_only else lock_writer(self.url)
        self.engine: Engine = connect(self.url, busy_timeout=lock_timeout)
        self._write_engine = self.engine.execution_options(spieltisch_write=True)
        self.postgres = is_postgres(self.url)
        self.snapshot_every = snapshot_every
        self.spread_snapshots = spread_snapshots
        self.lock_timeout = lock_timeout
        self.worker = uuid.uuid4().hex[:12]
        """Identifies this process in NOTIFY payloads."""
        self.on_commit: list[Callable[[str, int], None]] = []
        self._cache: OrderedDict[str, Cached] = OrderedDict()
        self._cache_size = cache_size
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        try:
            if run_migrations and not read_only:
                with self._turn(None):
                    migrate(self.engine)
        except BaseException:
            self.close()
            raise

    @property
    def writer(self) -> Engine:
        """The engine to write with; a read-only store refuses."""
        if self.read_only:
            raise StoreError("store.read_only", url=self.url)
        return self._write_engine

    def close(self) -> None:
        """Release the database connections and the SQLite file's writer lock."""
        self.engine.dispose()
        if self._file_lock is not None:
            self._file_lock.release()

    # -- the tables held in memory ----------------------------------------------------------

    def cached(self, table_id: str) -> Cached | None:
        """The table if this process holds it (no I/O)."""
        with self._guard:
            return self._cache.get(table_id)

    def current(self, table_id: str) -> Cached:
        """The table as committed now: from the cache, caught up with the database."""
        with self.engine.connect() as conn:
            return self._catch_up(conn, table_id)

    def cached_or_load(self, table_id: str) -> Cached:
        """The table held in memory as it is, else read from the database."""
        cached = self.cached(table_id)
        return cached if cached is not None else self.current(table_id)

    def reload_participants(self, table_id: str, cached: Cached) -> Cached:
        """``cached`` with its participants read again from the database."""
        with self.engine.connect() as conn:
            participants = participants_of(conn, table_id)
        fresh = Cached(cached.info, cached.table, participants)
        self._remember(fresh)
        return fresh

    def drop(self, table_id: str) -> Cached | None:
        """Stop holding the table; what was held."""
        with self._guard:
            return self._cache.pop(table_id, None)

    def _remember(self, cached: Cached) -> None:
        with self._guard:
            known = self._cache.get(cached.info.id)
            if known is not None and known.info.version > cached.info.version:
                return  # a slower reader must not replace what a writer just cached
            self._cache[cached.info.id] = cached
            self._cache.move_to_end(cached.info.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _catch_up(self, conn: Connection, table_id: str, *, lock: bool = False) -> Cached:
        fresh = catch_up(conn, self.engine, table_id, self.cached(table_id), lock=lock)
        self._remember(fresh)  # committed by others: safe to cache even if this write fails
        return fresh

    # -- turns and transactions -------------------------------------------------------------

    def write(self, table_id: str, body: Callable[[Write], _R]) -> _R:
        """Run ``body`` on the table as committed, in a write transaction in its turn.

        Commands of one table queue on a lock in the process and, between workers, on the
        table's row (``SELECT … FOR UPDATE`` on PostgreSQL; on SQLite one process writes the
        file, and ``BEGIN IMMEDIATE`` excludes everyone else). Whatever ``body`` decides is
        therefore decided on the table as committed. On SQLite the transaction may be shared
        with other tables' writes (:class:`spieltisch.store.db.GroupCommit`). After the commit
        the new table is cached and announced.
        """
        lock = self._lock(table_id)
        if not lock.acquire(timeout=self.lock_timeout):
            raise StoreError("table.busy", table=table_id)
        try:

            def work(conn: Connection) -> tuple[_R, Write]:
                write = Write(conn, self._catch_up(conn, table_id, lock=True))
                return body(write), write

            try:
                result, write = self.run(table_id, work)
            except SpieltischError:
                raise
            except BaseException:
                self.drop(table_id)  # the cache may have caught up on what was not committed
                raise
            if write.fresh is not None:
                self._remember(write.fresh)
            if write.seq is not None:
                self._committed(table_id, write.seq)
            return result
        finally:
            lock.release()

    def run(self, table_id: str, work: Callable[[Connection], _T]) -> _T:
        """``work`` in a committed writing transaction: grouped on an SQLite file, else alone."""
        if self._file_lock is None:
            with self.transaction(table_id) as conn:
                return work(conn)
        try:
            return self._file_lock.commits.run(work, self.writer.begin, self.lock_timeout)
        except TimeoutError:
            raise StoreError("table.busy", table=table_id) from None
        except OperationalError as error:
            if not _is_lock_timeout(error):
                raise
            raise StoreError("table.busy", table=table_id) from None

    @contextmanager
    def transaction(self, table_id: str) -> Iterator[Connection]:
        """A writing transaction, in this process's turn; a lock wait too long is ``table.busy``."""
        try:
            with self._turn(table_id), self.writer.begin() as conn:
                if self.postgres:
                    conn.execute(
                        text("SELECT set_config('lock_timeout', :ms, true)"),
                        {"ms": f"{max(1, round(self.lock_timeout * 1000))}ms"},
                    )
                yield conn
        except OperationalError as error:  # SQLite's busy_timeout or PostgreSQL's lock_timeout
            if not _is_lock_timeout(error):
                raise
            raise StoreError("table.busy", table=table_id) from None

    def _lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            lock = self._locks.get(table_id)
            if lock is None:
                lock = self._locks[table_id] = threading.Lock()
            return lock

    @contextmanager
    def _turn(self, table_id: str | None) -> Iterator[None]:
        """This process's turn to write (SQLite): threads queue here, not in SQLite's lock.

        SQLite lets a connection that finds the database locked sleep and poll again, in steps
        of up to 100 ms; many threads racing for ``BEGIN IMMEDIATE`` made that the tail of
        the commit latency. One writing process per file, so a lock of the process is a
        complete queue (first come, first served in practice). PostgreSQL needs none.
        """
        if self._file_lock is None:
            yield
            return
        turn = self._file_lock.commits.turn
        if not turn.acquire(timeout=self.lock_timeout):
            raise StoreError("table.busy", table=table_id or "")
        try:
            yield
        finally:
            turn.release()

    # -- what a turn writes ------------------------------------------------------------------

    def append(self, write: Write, work: StoredTable, records: list[Record]) -> TableInfo:
        """Write ``records`` (decided on ``work``, a fork of the caught-up table) in the turn."""
        cached, conn = write.cached, write.conn
        info = cached.info
        version = info.version + 1
        _bump(conn, info, version=version, seq=work.seq)
        conn.execute(
            insert(RecordRow),
            [
                {
                    "table_id": info.id,
                    "seq": r.seq,
                    "hidden": r.hidden,
                    "data": work.record_json(r),  # the text the fan-out sends, dumped once
                }
                for r in records
            ],
        )
        # A snapshot holds the GM's, the shared and the participants' own folds.
        if self._wants_snapshot(info.id, cached.table.seq, work.seq, records):
            state = encode_states(
                work.state,
                work.shared_state,
                shapes_of(work.system).stamp,
                work.facts(),
                work.private_folds,
            )
            if state is not None:
                conn.execute(
                    delete(SnapshotRow).where(
                        SnapshotRow.table_id == info.id, SnapshotRow.seq < work.seq
                    )
                )
                conn.execute(
                    insert(SnapshotRow).values(
                        table_id=info.id, seq=work.seq, system=info.system, state=state
                    )
                )
        if self.postgres:
            self._notify(conn, info.id, work.seq)
        write.fresh = Cached(
            replace(info, seq=work.seq, version=version), work, cached.participants
        )
        write.seq = work.seq
        return write.fresh.info

    def _wants_snapshot(
        self, table_id: str, before: int, after: int, records: list[Record]
    ) -> bool:
        if self.snapshot_every <= 0:
            return False
        if any(r.undoes is not None for r in records):
            return True
        every = self.snapshot_every
        phase = snapshot_phase(table_id, every) if self.spread_snapshots else 0
        return snapshot_due(before, after, every, phase)

    def update_row(self, write: Write, **values: Any) -> None:
        """Change the table's settings in the turn (the log stays as it is)."""
        cached, conn = write.cached, write.conn
        _bump(conn, cached.info, version=cached.info.version + 1, **values)
        if self.postgres:
            self._notify(conn, cached.info.id, cached.info.seq)
        row = conn.execute(select(TableRow.__table__).where(TableRow.id == cached.info.id)).one()
        write.fresh = Cached(info_of(row), cached.table, cached.participants)
        write.seq = cached.info.seq

    def people_changed(self, write: Write) -> None:
        """Someone joined, left or was removed in this turn: bump ``people`` (every worker's
        next turn reads the participants again), notify with ``seq`` -1, cache the table with
        the participants as they are now."""
        cached, conn = write.cached, write.conn
        info = cached.info
        _bump(conn, info, version=info.version + 1, people=info.people + 1)
        if self.postgres:
            self._notify(conn, info.id, -1)
        fresh_info = replace(info, version=info.version + 1, people=info.people + 1)
        write.fresh = Cached(fresh_info, cached.table, participants_of(conn, info.id))
        write.seq = -1

    def _notify(self, conn: Connection, table_id: str, seq: int) -> None:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": f"{table_id} {seq} {self.worker}"},
        )

    def _committed(self, table_id: str, seq: int) -> None:
        for callback in list(self.on_commit):
            callback(table_id, seq)


def present(write: Write, by: Participant) -> None:
    """``by`` is still at the table, as committed (their token was not revoked since it was
    checked, on whichever worker): else ``table.bad_token``."""
    found = write.cached.participants.get(by.id)
    if found is None or found[0].removed:
        raise StoreError("table.bad_token", table=write.cached.info.id)


def _bump(conn: Connection, info: TableInfo, **values: Any) -> None:
    """Update the table's row, checking that its version is the one the turn started from.

    Within a turn nobody else can change the row, so a mismatch is a writer that bypassed the
    lock: the transaction is rolled back rather than risking a doubled or lost record.
    """
    result = conn.execute(
        _bump_statement(tuple(sorted(values))),
        {"row_id": info.id, "row_version": info.version}
        | {f"new_{name}": value for name, value in values.items()},
    )
    if result.rowcount != 1:
        raise RuntimeError(f"table {info.id!r} changed during its write turn")


@functools.cache
def _bump_statement(columns: tuple[str, ...]) -> Update:
    """The update of :func:`_bump` for these columns, built (and so compiled) once."""
    return (
        update(TableRow)
        .where(TableRow.id == bindparam("row_id"), TableRow.version == bindparam("row_version"))
        .values({name: bindparam(f"new_{name}") for name in columns})
    )


def _is_lock_timeout(error: OperationalError) -> bool:
    """Whether ``error`` is a lock wait that timed out (SQLite busy, PostgreSQL lock_timeout)."""
    if getattr(error.orig, "sqlstate", None) == "55P03":  # lock_not_available
        return True
    return "database is locked" in str(error.orig)


def snapshot_phase(table_id: str, every: int) -> int:
    """Where in each stretch of ``every`` records a table's snapshots fall (0 ≤ phase <
    ``every``), fixed by its id: a snapshot is written when the log passes a seq ``n`` with
    ``n % every == phase``.

    Tables opened together and played at one pace (a convention's tables, a load test) would
    otherwise all write their snapshot with the same command, and the writes of every table
    wait while one commit encodes fifty states; spread by id, each command writes at most a
    few."""
    return zlib.crc32(table_id.encode()) % every


def snapshot_due(before: int, after: int, every: int, phase: int = 0) -> bool:
    """Whether a log growing from ``before`` to ``after`` records passed a snapshot point: a
    seq ``n`` with ``n % every == phase`` (a table's phase: :func:`snapshot_phase`; 0, the
    multiples of ``every``)."""
    return (before - phase) // every != (after - phase) // every
