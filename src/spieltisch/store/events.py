"""The event store: tables, participants and their append-only logs in a SQL database.

:class:`EventStore` is the one way the web and the CLI change a table. A command is decided
by the game system on the table's current state (:class:`spieltisch.engine.table.Table`)
inside the transaction that commits its records, after the writer took its turn: on SQLite the
process's writer lock (one process writes a file, :func:`spieltisch.store.db.lock_writer`) and
``BEGIN IMMEDIATE``, on PostgreSQL a row lock on the table (``SELECT … FOR UPDATE``), so
concurrent commands of several workers wait for each other instead of being refused. Within
the turn the table catches up with what others committed, so no command is lost, applied
twice or decided on a stale state. Snapshots of the folded state every ``snapshot_every``
records keep loading fast; a per-process cache keeps hot tables in memory and catches up from
the database with one small query per request.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from pydantic import TypeAdapter
from sqlalchemy import Connection, Engine, delete, insert, select, text, update
from sqlalchemy.exc import OperationalError

from spieltisch.dice.fair import DiceSource, Epoch, FairDice, PlayerSeed, link_epochs
from spieltisch.engine.chat import is_chat_command
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import GameSystem, stamp_options, upgrade_options
from spieltisch.engine.table import Record, Role
from spieltisch.engine.upcast import shapes_of
from spieltisch.errors import SpieltischError
from spieltisch.store.cache import StoredTable
from spieltisch.store.db import connect, is_postgres, lock_writer, migrate, resolve_url
from spieltisch.store.exchange import export_document, parse_export
from spieltisch.store.models import (
    InviteRow,
    ParticipantRow,
    RecordRow,
    SnapshotRow,
    TableRow,
)
from spieltisch.store.snapshots import decode_states, encode_states
from spieltisch.store.types import (
    Created,
    Joined,
    Participant,
    Revealed,
    StoreError,
    TableInfo,
    hash_secret,
)
from spieltisch.store.validation import (
    MAX_NAME,
    MAX_SEED,
    MAX_TITLE,
    check_language,
    check_options,
    check_text,
)
from spieltisch.systems.registry import get_system

__all__ = ["NOTIFY_CHANNEL", "EventStore", "Executed"]

NOTIFY_CHANNEL = "spieltisch"
"""PostgreSQL NOTIFY channel; the payload is ``"<table> <seq> <worker>"``."""

_RECORDS: TypeAdapter[list[Record]] = TypeAdapter(list[Record])

_log = logging.getLogger(__name__)

_R = TypeVar("_R")
_T = TypeVar("_T")


@dataclass
class _Cached:
    info: TableInfo
    table: StoredTable
    participants: dict[str, tuple[Participant, str]]
    """participant id → (participant, token hash)."""


def _new_secret() -> str:
    return secrets.token_urlsafe(32)


def _new_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass(frozen=True)
class Executed:
    """What a write produced: the new records and the table after them."""

    records: list[Record]
    table: StoredTable
    info: TableInfo


@dataclass
class _Write:
    """A write transaction on one table during its turn (see :meth:`EventStore._write`)."""

    conn: Connection
    cached: _Cached
    """The table as committed, caught up inside the turn."""
    fresh: _Cached | None = None
    """The table after this write, cached once the transaction committed."""
    seq: int | None = None
    """The ``seq`` to announce to ``on_commit`` after the commit (``None``: nothing changed)."""


class _ClosedDice:
    """The dice of a table that no longer rolls (seed revealed or unknown here)."""

    def __init__(self, table: str) -> None:
        self._table = table

    def roll(self, sides: int) -> int:
        raise RuleError("table.dice_closed", table=self._table)


class EventStore:
    """Tables, participants and logs in SQLite (default) or PostgreSQL.

    Thread-safe; one instance per process. ``on_commit`` callbacks run after every committed
    change with ``(table_id, seq)`` (the in-process fan-out; ``seq`` is -1 when only the
    participants changed); with PostgreSQL each commit to the log or the table's settings also
    sends ``NOTIFY spieltisch`` so that other workers can fan out too.

    On an SQLite file the store holds the file's writer lock from start to :meth:`close`: a
    store in a second process is refused (``store.in_use``), stores of the same process share
    the lock. A writer waits at most ``lock_timeout`` seconds for its turn, then the command is
    refused with ``table.busy``.
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        db_path: str | None = None,
        snapshot_every: int = 50,
        cache_size: int = 256,
        lock_timeout: float = 30.0,
        run_migrations: bool = True,
        read_only: bool = False,
    ) -> None:
        self.url = resolve_url(db_path, url)
        self.read_only = read_only
        """A reader only (``spieltisch table list``/``export`` beside a running server): it
        takes no writer lock, runs no migrations and refuses every write (``store.read_only``)."""
        # First: a refused store touches nothing.
        self._file_lock = None if read_only else lock_writer(self.url)
        self.engine: Engine = connect(self.url, busy_timeout=lock_timeout)
        self._write_engine = self.engine.execution_options(spieltisch_write=True)
        self.postgres = is_postgres(self.url)
        self.snapshot_every = snapshot_every
        self.lock_timeout = lock_timeout
        self.worker = uuid.uuid4().hex[:12]
        """Identifies this process in NOTIFY payloads."""
        self.on_commit: list[Callable[[str, int], None]] = []
        self.automatic: Callable[[GameSystem[Any, Any, Any]], Callable[[Any], Any]] | None = None
        """System → the ``automatic`` to decide with (the server's runs in its pool)."""
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
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
    def _writer(self) -> Engine:
        """The engine to write with; a read-only store refuses."""
        if self.read_only:
            raise StoreError("store.read_only", url=self.url)
        return self._write_engine

    def close(self) -> None:
        """Release the database connections and the SQLite file's writer lock."""
        self.engine.dispose()
        if self._file_lock is not None:
            self._file_lock.release()

    # -- tables ----------------------------------------------------------------------------

    def create_table(
        self,
        system: str,
        *,
        language: str = "de",
        title: str = "",
        options: Mapping[str, Any] | None = None,
        name: str = "",
    ) -> Created:
        """A new table with a fresh secret seed; the caller becomes its GM."""
        game = get_system(system)
        options = stamp_options(game, check_options(game, options))
        language = check_language(language)
        title = check_text(title, "table.bad_title", MAX_TITLE, allow_empty=True)
        name = check_text(name, "table.bad_name", MAX_NAME, allow_empty=True)
        table_id = _new_id()
        dice = FairDice.new(table_id)
        row = TableRow(
            id=table_id,
            system=game.id,
            title=title,
            language=language,
            options=options,
            dice_table=table_id,
            server_seed=dice.server_seed.hex(),
            commitment=dice.commitment,
            dice_format=3,
            epoch_start=1,
            epochs=[],
            player_seeds=[],
            seq=0,
            version=0,
            people=0,
        )
        return self._insert_table(row, name, [], [])

    def _insert_table(
        self,
        row: TableRow,
        gm_name: str,
        records: Sequence[Record],
        others: Sequence[Participant],
    ) -> Created:
        gm_id = _new_id()
        token = _new_secret()
        invites = {role.value: _new_secret() for role in (Role.PLAYER, Role.SPECTATOR)}
        tokens = {p.id: _new_secret() for p in others}  # a removed one's is never handed out
        with self._transaction(row.id) as conn:
            conn.execute(insert(TableRow).values(_row_values(row)))
            conn.execute(
                insert(ParticipantRow),
                [
                    {
                        "table_id": row.id,
                        "id": gm_id,
                        "name": gm_name,
                        "role": Role.GM.value,
                        "token_hash": hash_secret(token),
                        "removed": False,
                    },
                    *(
                        {
                            "table_id": row.id,
                            "id": p.id,
                            "name": p.name,
                            "role": p.role.value,
                            "token_hash": hash_secret(tokens[p.id]),
                            "removed": p.removed,
                        }
                        for p in others
                    ),
                ],
            )
            conn.execute(
                insert(InviteRow),
                [
                    {"table_id": row.id, "role": role, "code_hash": hash_secret(code)}
                    for role, code in invites.items()
                ],
            )
            if records:
                conn.execute(
                    insert(RecordRow),
                    [
                        {
                            "table_id": row.id,
                            "seq": r.seq,
                            "hidden": r.hidden,
                            "data": r.model_dump_json(),
                        }
                        for r in records
                    ],
                )
        return Created(
            table=row.id,
            participant=gm_id,
            token=token,
            invites=invites,
            commitment=row.commitment,
            participants=[
                {"participant": p.id, "name": p.name, "role": p.role.value, "token": tokens[p.id]}
                for p in others
                if not p.removed
            ],
        )

    def list_tables(self) -> list[TableInfo]:
        """Every table, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(TableRow.__table__).order_by(TableRow.created.desc())).all()
        return [_info(row) for row in rows]

    def info(self, table_id: str) -> TableInfo:
        """A table's settings and status."""
        return self._current(table_id).info

    def table(self, table_id: str) -> StoredTable:
        """The table with its log and current state (do not modify it)."""
        return self._current(table_id).table

    def cached_info(self, table_id: str) -> TableInfo | None:
        """The table's settings if this process has the table in memory (no I/O)."""
        with self._guard:
            cached = self._cache.get(table_id)
        return None if cached is None else cached.info

    def peek(self, table_id: str, min_seq: int) -> tuple[TableInfo, StoredTable] | None:
        """The cached table if it already has record ``min_seq`` (no I/O), else ``None``."""
        with self._guard:
            cached = self._cache.get(table_id)
        if cached is not None and cached.table.seq >= min_seq:
            return cached.info, cached.table
        return None

    def snapshot(self, table_id: str, min_seq: int | None = None) -> tuple[TableInfo, StoredTable]:
        """Settings and table at one consistent moment.

        With ``min_seq``, a cached table that already has record ``min_seq`` is used without
        asking the database (for fan-out after a commit in this process).
        """
        if min_seq is not None:
            with self._guard:
                cached = self._cache.get(table_id)
            if cached is not None and cached.table.seq >= min_seq:
                return cached.info, cached.table
        cached = self._current(table_id)
        return cached.info, cached.table

    # -- participants ----------------------------------------------------------------------

    def authenticate(self, table_id: str, token: str | None) -> Participant:
        """The participant whose secret ``token`` this is (compared in constant time)."""
        if not token:
            raise StoreError("table.bad_token", table=table_id)
        wanted = hash_secret(token)
        found = _match(self._cached_or_load(table_id), wanted)
        if found is None:  # joined through another worker, or a wrong token
            found = _match(self._reload_participants(table_id, self._current(table_id)), wanted)
        if found is None:
            raise StoreError("table.bad_token", table=table_id)
        return found

    def authenticate_cached(self, table_id: str, token: str | None) -> Participant | None:
        """:meth:`authenticate` from memory alone (no I/O, for the event loop): the
        participant if this process holds the table and the token matches one of its
        participants, else ``None`` (then ask :meth:`authenticate`)."""
        if not token:
            return None
        with self._guard:
            cached = self._cache.get(table_id)
        return None if cached is None else _match(cached, hash_secret(token))

    def participants(self, table_id: str) -> list[Participant]:
        """Everyone at the table: the GM first, then players and spectators by name; those
        who left or were removed last (``removed``: named in the log, no longer there)."""
        cached = self._reload_participants(table_id, self._current(table_id))
        people = [participant for participant, _ in cached.participants.values()]
        return [p for p in people if not p.removed] + [p for p in people if p.removed]

    def invite_role(self, table_id: str, invite: str) -> Role:
        """The role an invite code of the table gives (compared in constant time);
        ``table.bad_invite`` for a code the table does not have (or no longer has)."""
        self._current(table_id)
        wanted = hash_secret(invite or "")
        with self.engine.connect() as conn:
            invites = conn.execute(
                select(InviteRow.role, InviteRow.code_hash).where(InviteRow.table_id == table_id)
            ).all()
        role: Role | None = None
        for invite_role, code_hash in invites:
            if hmac.compare_digest(code_hash, wanted):
                role = Role(invite_role)
        if role is None:
            raise StoreError("table.bad_invite", table=table_id)
        return role

    def join(self, table_id: str, invite: str, name: str) -> Joined:
        """Join a table with an invite code: a new participant in the invite's role."""
        role = self.invite_role(table_id, invite)
        name = check_text(name, "table.bad_name", MAX_NAME)
        participant = Participant(_new_id(), name, role)
        token = _new_secret()

        def add(write: _Write) -> None:
            write.conn.execute(
                insert(ParticipantRow).values(
                    table_id=table_id,
                    id=participant.id,
                    name=name,
                    role=role.value,
                    token_hash=hash_secret(token),
                )
            )
            self._people_changed(write)

        self._write(table_id, add)
        return Joined(participant, token)

    def remove_participant(
        self, table_id: str, by: Participant, participant_id: str
    ) -> Participant:
        """Remove a participant (the GM), or leave the table (``by`` names itself).

        Their token stops working at once: its hash is replaced by that of a secret nobody
        knows, in the table's write turn, which also bumps the table's ``people`` so that
        every worker's next write turn reads the participants again; open WebSockets are
        closed (``table.removed``) on every worker, other workers' caches dropped (the
        ``NOTIFY`` with ``seq`` -1). The participant stays in the list as ``removed``, so the
        log still names them. Their pieces stay in the game and become nobody's
        (:meth:`execute`): the GM acts for them, and a command that claims a free piece may
        take them. The GM cannot leave nor be removed (``table.gm_stays``).
        """
        if by.role is not Role.GM and by.id != participant_id:
            raise RuleError("rule.forbidden", action="remove")

        def remove(write: _Write) -> Participant:
            self._present(write, by)
            found = write.cached.participants.get(participant_id)
            if found is None or found[0].removed:
                raise StoreError(
                    "table.unknown_participant", table=table_id, participant=participant_id
                )
            target = found[0]
            if target.role is Role.GM:
                raise RuleError("table.gm_stays")
            write.conn.execute(
                update(ParticipantRow)
                .where(ParticipantRow.table_id == table_id, ParticipantRow.id == participant_id)
                .values(removed=True, token_hash=hash_secret(_new_secret()))
            )
            self._people_changed(write)
            return replace(target, removed=True)

        return self._write(table_id, remove)

    def gone(self, table_id: str) -> frozenset[str]:
        """The participants who left or were removed (their pieces are nobody's now)."""
        return _gone(self._cached_or_load(table_id))

    def forget(self, table_id: str) -> None:
        """Another worker changed who is at the table: read it again from the database if this
        process holds it, so tokens are checked against the participants as they are now.

        Re-reading (rather than only dropping it) also keeps out a slower reader that read the
        table before the change: the cache never takes an older version than it holds.
        """
        with self._guard:
            known = self._cache.pop(table_id, None)
        if known is None:
            return
        try:
            self._current(table_id)
        except Exception:  # the table is gone, or the database: read it on the next request
            _log.warning("could not read table %s again", table_id, exc_info=True)
            self._drop(table_id)

    def new_invites(self, table_id: str, by: Participant) -> dict[str, str]:
        """Fresh invite codes for every role (GM only); the old codes stop working (those
        who joined with them stay: remove them with :meth:`remove_participant`)."""
        if by.role is not Role.GM:
            raise RuleError("rule.forbidden", action="invites")
        invites = {role.value: _new_secret() for role in (Role.PLAYER, Role.SPECTATOR)}

        def rotate(write: _Write) -> None:
            self._present(write, by)
            for role, code in invites.items():
                write.conn.execute(
                    update(InviteRow)
                    .where(InviteRow.table_id == table_id, InviteRow.role == role)
                    .values(code_hash=hash_secret(code))
                )

        self._write(table_id, rotate)
        return invites

    # -- the log ---------------------------------------------------------------------------

    def records_since(self, table_id: str, since: int, by: Participant | Role) -> list[Record]:
        """The records after ``since`` that participant ``by`` may see (a bare role: no
        whispers but the GM's)."""
        table = self._current(table_id).table
        return table.visible(table.viewer(by.actor) if isinstance(by, Participant) else by, since)

    def execute(
        self,
        table_id: str,
        by: Participant,
        command: Any,
        *,
        hidden: bool = False,
        expected_seq: int | None = None,
    ) -> Executed:
        """Decide ``command`` for ``by`` on the table as committed and commit its records."""

        def decide(write: _Write) -> Executed:
            cached = write.cached
            if expected_seq is not None and expected_seq != cached.table.seq:
                raise StoreError(
                    "table.stale", table=table_id, expected=expected_seq, seq=cached.table.seq
                )
            self._present(write, by)
            work = cached.table.fork()
            source_at = self._dice(cached.info)
            auto = self.automatic(work.system) if self.automatic else None
            people = None
            if is_chat_command(command):  # whom a whisper may go to, as committed now
                people = {
                    p.id: p.role
                    for p, _ in _participants(write.conn, table_id).values()
                    if not p.removed
                }
            records = work.execute(
                command,
                by.actor,
                source_at,
                hidden=hidden,
                automatic=auto,
                participants=people,
                gone=_gone(cached),
            )
            info = self._append(write, work, records)
            return Executed(records, work, info)

        return self._write(table_id, decide)

    def undo(self, table_id: str, by: Participant, seq: int) -> Executed:
        """Revert record ``seq`` (GM only); refused when a later record depends on it."""

        def decide(write: _Write) -> Executed:
            self._present(write, by)
            work = write.cached.table.fork()
            record = work.undo(seq, by.actor)
            info = self._append(write, work, [record])
            return Executed([record], work, info)

        return self._write(table_id, decide)

    def add_player_seed(self, table_id: str, by: Participant, seed: str) -> PlayerSeed:
        """A player's seed string takes part in every draw from the next one on.

        Player seeds stay in effect across epochs: a reveal does not end them.
        """
        if by.role is Role.SPECTATOR:
            raise RuleError("rule.forbidden", action="player-seed")
        seed = check_text(seed, "table.bad_seed", MAX_SEED)

        def decide(write: _Write) -> PlayerSeed:
            self._present(write, by)
            cached = write.cached
            start = _boundary(cached)
            dice = cached.info.dice()
            if dice is not None:
                dice.with_player_seed(start, seed)  # validates the seed text
            added = PlayerSeed(start, seed)
            seeds = [*cached.info.player_seeds, added]
            self._update_row(
                write, player_seeds=[{"start": p.start, "seed": p.seed} for p in seeds]
            )
            return added

        return self._write(table_id, decide)

    def reveal(self, table_id: str, by: Participant) -> Revealed:
        """Reveal the current epoch's seed and commit to a fresh one at once (GM only).

        Returns the revealed epoch and the new current one; the table rolls on with the new
        seed from the next draw. Asked again before anything was drawn with the new seed, it
        answers the same pair (so a repeated request reveals nothing new).
        """
        if by.role is not Role.GM:
            raise RuleError("rule.forbidden", action="reveal")

        def decide(write: _Write) -> Revealed:
            info = write.cached.info
            start = _boundary(write.cached)
            if len(info.epochs) > 1 and info.current.start == start:
                return Revealed(info.epochs[-2], len(info.epochs) - 1, info.current)
            seed = info._server_seed
            if seed is None:
                raise StoreError("table.seed_unknown", table=table_id)
            revealed = replace(info.current, seed=seed)
            fresh = FairDice.new(info.dice_table)
            closed = [epoch.to_json() for epoch in info.epochs[:-1]]
            self._update_row(
                write,
                epochs=[*closed, revealed.to_json()],
                epoch_start=start,
                server_seed=fresh.seed_hex,
                commitment=fresh.commitment,
            )
            current = Epoch(start, fresh.commitment)
            if info.streams:  # the new epoch's link, made now over its boundary
                current = link_epochs(info.dice_table, (*info.epochs[:-1], revealed, current))[-1]
            return Revealed(revealed, len(info.epochs), current)

        return self._write(table_id, decide)

    # -- export / import -------------------------------------------------------------------

    def export(self, table_id: str, by: Participant | None) -> dict[str, Any]:
        """The table as one JSON document (see :func:`spieltisch.store.exchange.export_document`).

        The GM (and the administrator, ``by=None``) gets the whole log, others what they may see.
        """
        cached = self._current(table_id)
        participants = self._reload_participants(table_id, cached).participants.values()
        return export_document(
            cached.info,
            cached.table,
            [p for p, _ in participants],
            None if by is None else cached.table.viewer(by.actor),
        )

    def import_table(self, data: Any, *, name: str = "") -> Created:
        """A new table from an export: same log and dice, new id, new tokens.

        The importer becomes the GM; the exported participants are recreated with the same
        ids (so their pieces stay theirs) and fresh tokens. See
        :func:`spieltisch.store.exchange.parse_export` for what is checked.
        """
        parsed = parse_export(data)
        row = TableRow(
            id=_new_id(),
            system=parsed.system,
            title=parsed.title,
            language=parsed.language,
            options=parsed.options,
            dice_table=parsed.dice_table,
            dice_format=3 if parsed.streams else 2,
            **_import_epochs(parsed.epochs, parsed.dice_table, parsed.next_start),
            player_seeds=[{"start": p.start, "seed": p.seed} for p in parsed.player_seeds],
            seq=len(parsed.records),
            version=0,
            people=0,
        )
        name = check_text(name, "table.bad_name", MAX_NAME, allow_empty=True)
        return self._insert_table(row, name, parsed.records, parsed.participants)

    # -- internals -------------------------------------------------------------------------

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

    @contextmanager
    def _transaction(self, table_id: str) -> Iterator[Connection]:
        """A writing transaction, in this process's turn; a lock wait too long is ``table.busy``."""
        try:
            with self._turn(table_id), self._writer.begin() as conn:
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

    def _write(self, table_id: str, body: Callable[[_Write], _R]) -> _R:
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

            def work(conn: Connection) -> tuple[_R, _Write]:
                write = _Write(conn, self._catch_up(conn, table_id, lock=True))
                return body(write), write

            try:
                result, write = self._run(table_id, work)
            except SpieltischError:
                raise
            except BaseException:
                self._drop(table_id)  # the cache may have caught up on what was not committed
                raise
            if write.fresh is not None:
                self._remember(write.fresh)
            if write.seq is not None:
                self._committed(table_id, write.seq)
            return result
        finally:
            lock.release()

    def _run(self, table_id: str, work: Callable[[Connection], _T]) -> _T:
        """``work`` in a committed writing transaction: grouped on an SQLite file, else alone."""
        if self._file_lock is None:
            with self._transaction(table_id) as conn:
                return work(conn)
        try:
            return self._file_lock.commits.run(work, self._writer.begin, self.lock_timeout)
        except TimeoutError:
            raise StoreError("table.busy", table=table_id) from None
        except OperationalError as error:
            if not _is_lock_timeout(error):
                raise
            raise StoreError("table.busy", table=table_id) from None

    def _dice(self, info: TableInfo) -> Callable[[int], DiceSource]:
        dice = info.dice() if info.can_roll else None
        if dice is None:
            closed = _ClosedDice(info.id)
            return lambda _index: closed
        return dice.stream if info.streams else dice.source_at

    def _drop(self, table_id: str) -> None:
        with self._guard:
            self._cache.pop(table_id, None)

    def _remember(self, cached: _Cached) -> None:
        with self._guard:
            known = self._cache.get(cached.info.id)
            if known is not None and known.info.version > cached.info.version:
                return  # a slower reader must not replace what a writer just cached
            self._cache[cached.info.id] = cached
            self._cache.move_to_end(cached.info.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _cached_or_load(self, table_id: str) -> _Cached:
        with self._guard:
            cached = self._cache.get(table_id)
        return cached if cached is not None else self._current(table_id)

    def _current(self, table_id: str) -> _Cached:
        """The table as committed now: from the cache, caught up with the database."""
        with self.engine.connect() as conn:
            return self._catch_up(conn, table_id)

    def _catch_up(self, conn: Connection, table_id: str, *, lock: bool = False) -> _Cached:
        """The cached table caught up on ``conn``; ``lock`` also locks its row (PostgreSQL)."""
        with self._guard:
            cached = self._cache.get(table_id)
        head_query = select(TableRow.version, TableRow.seq).where(TableRow.id == table_id)
        head = conn.execute(
            head_query.with_for_update(key_share=True) if lock else head_query
        ).first()
        if head is None:
            raise StoreError("table.unknown", table=table_id)
        if cached is not None and cached.info.version == head.version:
            return cached
        row = conn.execute(select(TableRow.__table__).where(TableRow.id == table_id)).one()
        info = _info(row)
        if cached is not None and cached.table.seq <= info.seq:
            rows = conn.execute(
                select(RecordRow.data)
                .where(
                    RecordRow.table_id == table_id,
                    RecordRow.seq > cached.table.seq,
                    RecordRow.seq <= info.seq,
                )
                .order_by(RecordRow.seq)
            ).scalars()
            table = cached.table.fork()
            table.absorb(Record.model_validate_json(data) for data in rows)
            people = cached.participants
            if info.people != cached.info.people:  # someone joined, left or was removed
                people = _participants(conn, table_id)
            fresh = _Cached(info, table, people)
        else:
            fresh = self._load(conn, info)
        self._remember(fresh)  # committed by others: safe to cache even if this write fails
        return fresh

    def _load(self, conn: Any, info: TableInfo) -> _Cached:
        system = get_system(info.system)
        rows = conn.execute(
            select(RecordRow.data)
            .where(RecordRow.table_id == info.id, RecordRow.seq <= info.seq)
            .order_by(RecordRow.seq)
        ).scalars()
        # One JSON array parsed in one call is much faster than a call per record.
        records = _RECORDS.validate_json("[" + ",".join(rows) + "]")
        snap = conn.execute(
            select(SnapshotRow.seq, SnapshotRow.state)
            .where(
                SnapshotRow.table_id == info.id,
                SnapshotRow.system == info.system,
                SnapshotRow.seq <= info.seq,
            )
            .order_by(SnapshotRow.seq.desc())
            .limit(1)
        ).first()
        table: StoredTable | None = None
        if snap is not None:
            states = decode_states(system, info.options, snap.state)
            if states is not None:
                table = StoredTable.restore(
                    system, info.options, records, states, snap.seq, streams=info.streams
                )
        if table is None:
            table = StoredTable(system, info.options, records, streams=info.streams)
        participants = _participants(conn, info.id)
        return _Cached(info, table, participants)

    def _reload_participants(self, table_id: str, cached: _Cached) -> _Cached:
        with self.engine.connect() as conn:
            participants = _participants(conn, table_id)
        fresh = _Cached(cached.info, cached.table, participants)
        self._remember(fresh)
        return fresh

    def _append(self, write: _Write, work: StoredTable, records: list[Record]) -> TableInfo:
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
        # A snapshot holds the GM's and the shared fold; a table where someone was shown
        # something alone (its private folds) folds from its log instead.
        if not work.private_folds and self._wants_snapshot(cached.table.seq, work.seq, records):
            state = encode_states(work.state, work.shared_state, shapes_of(work.system).stamp)
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
        write.fresh = _Cached(
            replace(info, seq=work.seq, version=version), work, cached.participants
        )
        write.seq = work.seq
        return write.fresh.info

    def _wants_snapshot(self, before: int, after: int, records: list[Record]) -> bool:
        if self.snapshot_every <= 0:
            return False
        if any(r.undoes is not None for r in records):
            return True
        return before // self.snapshot_every != after // self.snapshot_every

    def _update_row(self, write: _Write, **values: Any) -> None:
        """Change the table's settings in the turn (the log stays as it is)."""
        cached, conn = write.cached, write.conn
        _bump(conn, cached.info, version=cached.info.version + 1, **values)
        if self.postgres:
            self._notify(conn, cached.info.id, cached.info.seq)
        row = conn.execute(select(TableRow.__table__).where(TableRow.id == cached.info.id)).one()
        write.fresh = _Cached(_info(row), cached.table, cached.participants)
        write.seq = cached.info.seq

    def _present(self, write: _Write, by: Participant) -> None:
        """``by`` is still at the table, as committed (their token was not revoked since it
        was checked, on whichever worker): else ``table.bad_token``."""
        found = write.cached.participants.get(by.id)
        if found is None or found[0].removed:
            raise StoreError("table.bad_token", table=write.cached.info.id)

    def _people_changed(self, write: _Write) -> None:
        """Someone joined, left or was removed in this turn: bump ``people`` (every worker's
        next turn reads the participants again), notify with ``seq`` -1, cache the table with
        the participants as they are now."""
        cached, conn = write.cached, write.conn
        info = cached.info
        _bump(conn, info, version=info.version + 1, people=info.people + 1)
        if self.postgres:
            self._notify(conn, info.id, -1)
        fresh_info = replace(info, version=info.version + 1, people=info.people + 1)
        write.fresh = _Cached(fresh_info, cached.table, _participants(conn, info.id))
        write.seq = -1

    def _notify(self, conn: Any, table_id: str, seq: int) -> None:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": f"{table_id} {seq} {self.worker}"},
        )

    def _committed(self, table_id: str, seq: int) -> None:
        for callback in list(self.on_commit):
            callback(table_id, seq)


def _bump(conn: Connection, info: TableInfo, **values: Any) -> None:
    """Update the table's row, checking that its version is the one the turn started from.

    Within a turn nobody else can change the row, so a mismatch is a writer that bypassed the
    lock: the transaction is rolled back rather than risking a doubled or lost record.
    """
    result = conn.execute(
        update(TableRow)
        .where(TableRow.id == info.id, TableRow.version == info.version)
        .values(**values)
    )
    if result.rowcount != 1:
        raise RuntimeError(f"table {info.id!r} changed during its write turn")


def _is_lock_timeout(error: OperationalError) -> bool:
    """Whether ``error`` is a lock wait that timed out (SQLite busy, PostgreSQL lock_timeout)."""
    if getattr(error.orig, "sqlstate", None) == "55P03":  # lock_not_available
        return True
    return "database is locked" in str(error.orig)


def _match(cached: _Cached, wanted: str) -> Participant | None:
    found = None
    for participant, stored in cached.participants.values():
        if hmac.compare_digest(stored, wanted) and not participant.removed:
            found = participant
    return found


def _gone(cached: _Cached) -> frozenset[str]:
    """The participants who left or were removed (their pieces are nobody's now)."""
    return frozenset(p.id for p, _ in cached.participants.values() if p.removed)


def _row_values(row: TableRow) -> dict[str, Any]:
    return {
        column.key: getattr(row, column.key)
        for column in TableRow.__table__.columns
        if column.key != "created"
    }


def _stored_options(system: str, options: Any) -> dict[str, Any]:
    """A row's options as this release reads them (see :func:`upgrade_options`)."""
    try:
        game = get_system(system)
    except SpieltischError:
        return dict(options or {})
    return upgrade_options(game, options or {})


def _info(row: Any) -> TableInfo:
    epochs = tuple(
        Epoch(cast(int, e["start"]), str(e["commitment"]), cast("str | None", e.get("seed")))
        for e in row.epochs or []
    )
    epochs = (*epochs, Epoch(row.epoch_start, row.commitment))
    streams = row.dice_format == 3
    return TableInfo(
        id=row.id,
        system=row.system,
        title=row.title,
        language=row.language,
        options=_stored_options(row.system, row.options),
        dice_table=row.dice_table,
        epochs=link_epochs(row.dice_table, epochs) if streams else epochs,
        player_seeds=tuple(
            PlayerSeed(cast(int, p["start"]), str(p["seed"])) for p in row.player_seeds
        ),
        seq=row.seq,
        version=row.version,
        created=row.created,
        people=row.people,
        _server_seed=row.server_seed,
        streams=streams,
    )


def _boundary(cached: _Cached) -> int:
    """Where a new epoch or player seed begins: the next record (streams), else the next
    draw."""
    return cached.table.seq + 1 if cached.info.streams else cached.table.next_draw


def _import_epochs(epochs: Sequence[Epoch], dice_table: str, next_start: int) -> dict[str, Any]:
    """The epoch columns of an imported table: its revealed epochs, then the current one
    (``next_start``: where an epoch after the log would begin).

    When the export's last epoch is revealed too, or nothing was drawn with it yet, the new
    table commits to a fresh seed for the draws after the log and rolls on; otherwise that
    epoch's seed is unknown here and the table rolls no dice.
    """
    closed = [epoch for epoch in epochs if epoch.revealed]
    if epochs[-1].revealed or epochs[-1].start >= next_start:
        fresh = FairDice.new(dice_table)
        current = Epoch(next_start, fresh.commitment)
        seed: str | None = fresh.seed_hex
    else:
        current, seed = epochs[-1], None
    return {
        "epochs": [epoch.to_json() for epoch in closed],
        "epoch_start": current.start,
        "commitment": current.commitment,
        "server_seed": seed,
    }


def _participants(conn: Any, table_id: str) -> dict[str, tuple[Participant, str]]:
    rows = conn.execute(
        select(ParticipantRow.__table__).where(ParticipantRow.table_id == table_id)
    ).all()
    order = {Role.GM: 0, Role.PLAYER: 1, Role.SPECTATOR: 2}
    people = sorted(
        (
            (Participant(row.id, row.name, Role(row.role), bool(row.removed)), row.token_hash)
            for row in rows
        ),
        key=lambda item: (order[item[0].role], item[0].name, item[0].id),
    )
    return {participant.id: (participant, token) for participant, token in people}
