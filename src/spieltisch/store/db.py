"""Connecting to the database: SQLite by default, PostgreSQL by URL; migrations on start.

SQLite runs in WAL mode with ``synchronous=FULL`` (an acknowledged write survives a crash of
the process and of the machine) and every writing transaction starts with ``BEGIN IMMEDIATE`` so
that writers queue on the database lock instead of failing half-way. One process at a time
writes an SQLite file (:func:`lock_writer`). PostgreSQL URLs use psycopg 3.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, make_url

from spieltisch.store.types import StoreError

__all__ = [
    "DATABASE_URL_VARIABLE",
    "SCHEMA_REVISION",
    "GroupCommit",
    "WriterLock",
    "connect",
    "default_database_path",
    "is_postgres",
    "libpq_url",
    "lock_path",
    "lock_writer",
    "migrate",
    "resolve_url",
]

DATABASE_URL_VARIABLE = "SPIELTISCH_DATABASE_URL"
"""Environment variable naming a PostgreSQL (or any SQLAlchemy) database URL."""

_MIGRATIONS = Path(__file__).parent / "migrations"
SCHEMA_REVISION = "0005_dice_streams"
"""The newest migration's revision. A database there needs no migration, and a process that
opens only such databases never imports Alembic (``tests/store/test_migrations.py`` checks
that this is the head of ``migrations/versions``)."""
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


def connect(url: str, *, busy_timeout: float = 30.0) -> Engine:
    """An engine for ``url`` with the store's durability settings.

    On SQLite a writer waits up to ``busy_timeout`` seconds for another one's lock.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            parsed,
            connect_args={"timeout": busy_timeout, "check_same_thread": False},
            pool_size=8,
        )
        milliseconds = max(1, round(busy_timeout * 1000))
        event.listen(
            engine, "connect", lambda connection, _record: _sqlite_connect(connection, milliseconds)
        )
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(parsed, pool_size=8, max_overflow=8, pool_pre_ping=True)


def _sqlite_connect(dbapi_connection: Any, busy_milliseconds: int) -> None:
    # Let SQLAlchemy's "begin" event issue BEGIN itself (pysqlite's own handling defers it).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={busy_milliseconds:d}")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # Writers take the write lock up front and queue on busy_timeout; readers never block.
    if connection.get_execution_options().get("spieltisch_write"):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (safe when several workers start at once).

    A database already there is only read (its revision); Alembic and the migration scripts
    are loaded for one that is not.
    """
    with engine.execution_options(spieltisch_write=True).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": _MIGRATION_LOCK})
        if _revisions(connection) == [SCHEMA_REVISION]:
            return
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _revisions(connection: Connection) -> list[str]:
    """The revisions Alembic recorded in the database (none before the first migration)."""
    if not inspect(connection).has_table("alembic_version"):
        return []
    return list(connection.execute(text("SELECT version_num FROM alembic_version")).scalars())


# -- one writing process per SQLite file ---------------------------------------------------


_T = TypeVar("_T")


@dataclass(eq=False)
class _Job(Generic[_T]):
    work: Callable[[Connection], _T]
    done: bool = False
    result: _T | None = None
    error: BaseException | None = None


class GroupCommit:
    """The writing transactions of one process on one SQLite file, several per commit.

    Every commit of an SQLite file in WAL mode with ``synchronous=FULL`` waits for the disk,
    and only one writer commits at a time. A thread that has to wait therefore queues its
    work; one thread at a time leads: it takes ``turn``, runs every queued work in one
    transaction, each in a savepoint of its own (a work that raises is rolled back alone and
    its thread gets the error; a batch of one needs no savepoint), commits once, and wakes
    the threads whose work it committed.
    Nobody's work is acknowledged before the commit that contains it. The others wait on a
    condition that wakes them as soon as their work is committed or nobody leads any more;
    they never queue for ``turn`` themselves, so a committed work does not wait for the lock
    to be handed through every waiting thread (or lose it to a newcomer and wait for one more
    commit). ``turn`` is also taken by single transactions (:meth:`EventStore._transaction`)
    so that all writes of the process queue in one place.
    """

    def __init__(self) -> None:
        self.turn = threading.Lock()
        self._changed = threading.Condition(threading.Lock())
        self._queue: list[_Job[Any]] = []
        self._leading = False

    def run(
        self,
        work: Callable[[Connection], _T],
        begin: Callable[[], AbstractContextManager[Connection]],
        timeout: float,
    ) -> _T:
        """Run ``work`` in a committed transaction (perhaps someone else's); its result.

        ``begin`` opens a writing transaction; ``timeout`` bounds the wait for the turn, after
        which :class:`TimeoutError` is raised and ``work`` was not run.
        """
        job: _Job[_T] = _Job(work)
        deadline = time.monotonic() + timeout
        with self._changed:
            self._queue.append(job)
            while not job.done and self._leading:
                left = deadline - time.monotonic()
                if left <= 0 and job in self._queue:
                    self._queue.remove(job)
                    raise TimeoutError("no turn to write")
                # Once a leader took the work it is being committed: wait for the outcome.
                self._changed.wait(left if job in self._queue else None)
            lead = not job.done
            if lead:
                self._leading = True
        if lead:
            try:
                if not self.turn.acquire(timeout=max(0.0, deadline - time.monotonic())):
                    with self._changed:
                        self._queue.remove(job)
                    raise TimeoutError("no turn to write")
                try:
                    self._lead(begin)
                finally:
                    self.turn.release()
            finally:
                with self._changed:
                    self._leading = False
                    self._changed.notify_all()
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]

    def _lead(self, begin: Callable[[], AbstractContextManager[Connection]]) -> None:
        with self._changed:
            batch, self._queue = self._queue, []
        if len(batch) == 1:
            self._lead_alone(batch[0], begin)
            return
        try:
            with begin() as conn:
                for job in batch:
                    try:
                        with conn.begin_nested():
                            job.result = job.work(conn)
                    except Exception as error:  # handed to the job's thread
                        job.error = error
        except BaseException as error:  # the commit failed: nothing of the batch is written
            for job in batch:
                job.error = job.error or error
            if not isinstance(error, Exception):
                raise
        finally:
            with self._changed:
                for job in batch:
                    job.done = True
                self._changed.notify_all()

    def _lead_alone(
        self, job: _Job[Any], begin: Callable[[], AbstractContextManager[Connection]]
    ) -> None:
        """A batch of one: its own transaction, no savepoint (an error rolls it all back)."""
        try:
            with begin() as conn:
                job.result = job.work(conn)
        except BaseException as error:  # not committed: handed to the job's thread
            job.error = error
            if not isinstance(error, Exception):
                raise
        finally:
            with self._changed:
                job.done = True
                self._changed.notify_all()


@dataclass(eq=False)
class _Held:
    """The OS lock on one lock file, shared by the stores of this process."""

    fd: int
    pid: int
    users: int = 0
    commits: GroupCommit = field(default_factory=GroupCommit)


_HELD: dict[str, _Held] = {}
_HELD_GUARD = threading.Lock()


@dataclass(eq=False)
class WriterLock:
    """This process's right to write one SQLite file (see :func:`lock_writer`).

    ``commits`` serializes the writing transactions of the process's threads: they queue
    there and share commits instead of polling SQLite's lock with its sleeping busy handler.
    """

    database: Path
    path: Path
    """The lock file beside the database."""
    commits: GroupCommit
    _key: str
    _released: bool = False

    def release(self) -> None:
        """Give the right back; the OS lock goes when the process's last store lets go."""
        with _HELD_GUARD:
            if self._released:
                return
            self._released = True
            held = _HELD.get(self._key)
            if held is None or held.pid != os.getpid():
                return
            held.users -= 1
            if held.users == 0:
                del _HELD[self._key]
                os.close(held.fd)  # closing the descriptor releases the flock


def lock_path(database: Path) -> Path:
    """The lock file of an SQLite database: ``<file>.lock`` beside it."""
    return database.with_name(database.name + ".lock")


def lock_writer(url: str) -> WriterLock | None:
    """Take the one-writer lock of the SQLite file ``url`` names (``None`` for other databases).

    An exclusive ``flock`` on ``<file>.lock``, held until :meth:`WriterLock.release`. A
    separate file, because SQLite locks the database and its ``-shm`` file with POSIX record
    locks of its own, which an ``flock`` must not disturb (on NFS the two kinds are the same).
    The lock is per process: several stores of one process share it (tests, the CLI in the
    server's process); another process is refused with ``store.in_use``. The OS drops the
    lock when the process ends, however it ends, so a crash leaves nothing to clean up; the
    file itself stays (removing it could let two processes lock two different files).
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    database = Path(parsed.database).resolve()
    path = lock_path(database)
    key = os.path.realpath(path)
    pid = os.getpid()
    with _HELD_GUARD:
        held = _HELD.get(key)
        if held is not None and held.pid != pid:  # inherited through fork: not ours
            del _HELD[key]
            os.close(held.fd)
            held = None
        if held is None:
            held = _Held(_take(path, database), pid)
            _HELD[key] = held
        held.users += 1
        return WriterLock(database, path, held.commits, key)


def _take(path: Path, database: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        owner = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StoreError("store.in_use", path=str(database), pid=owner) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd
