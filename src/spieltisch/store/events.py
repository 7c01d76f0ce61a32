"""The event store: tables, participants and their append-only logs in a SQL database.

:class:`EventStore` is the one way the web and the CLI change a table. It is a facade over
the store's jobs, each in a module of its own: :mod:`.writes` (the write path: turns, locks,
transactions, snapshots, NOTIFY, the tables held in memory), :mod:`.loading` (reading a
table from the database), :mod:`.tables` (a table's life: new, listed, imported, exported),
:mod:`.people` (participants and invites), :mod:`.seeds` (the dice seeds: reveal and the
players' seeds) and :mod:`.play` (commands and undos).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Engine

from spieltisch.dice.fair import PlayerSeed
from spieltisch.engine.table import Record, Role
from spieltisch.store import people, play, seeds, tables
from spieltisch.store.cache import StoredTable
from spieltisch.store.db import resolve_url
from spieltisch.store.play import Automatic, Executed
from spieltisch.store.types import Created, Joined, Participant, Revealed, TableInfo
from spieltisch.store.writes import NOTIFY_CHANNEL, Writes

__all__ = ["NOTIFY_CHANNEL", "EventStore", "Executed"]

_log = logging.getLogger(__name__)


class EventStore:
    """Tables, participants and logs in SQLite (default) or PostgreSQL.

    Thread-safe; one instance per process. ``on_commit`` callbacks run after every committed
    change with ``(table_id, seq)`` (the in-process fan-out; ``seq`` is -1 when only the
    participants changed); with PostgreSQL each commit to the log or the table's settings also
    sends ``NOTIFY spieltisch`` so that other workers can fan out too.

    A snapshot of a table's folds is written every ``snapshot_every`` records (0: never), at
    a point of each stretch fixed by the table's id (``spread_snapshots``, see
    :func:`spieltisch.store.writes.snapshot_phase`; without it at the multiples of
    ``snapshot_every``), and after every undo.

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
        spread_snapshots: bool = True,
        cache_size: int = 256,
        lock_timeout: float = 30.0,
        run_migrations: bool = True,
        read_only: bool = False,
    ) -> None:
        self.writes = Writes(
            resolve_url(db_path, url),
            snapshot_every=snapshot_every,
            spread_snapshots=spread_snapshots,
            cache_size=cache_size,
            lock_timeout=lock_timeout,
            run_migrations=run_migrations,
            read_only=read_only,
        )
        """The write path (turns, transactions, the tables held in memory)."""
        self.url = self.writes.url
        self.read_only = read_only
        """A reader only (``spieltisch table list``/``export`` beside a running server): it
        takes no writer lock, runs no migrations and refuses every write (``store.read_only``)."""
        self.engine: Engine = self.writes.engine
        self.postgres = self.writes.postgres
        self.snapshot_every = snapshot_every
        self.lock_timeout = lock_timeout
        self.worker = self.writes.worker
        """Identifies this process in NOTIFY payloads."""
        self.on_commit: list[Callable[[str, int], None]] = self.writes.on_commit
        self.automatic: Automatic | None = None
        """System → the ``automatic`` to decide with (the server's runs in its pool)."""

    @property
    def _writer(self) -> Engine:
        """The engine to write with; a read-only store refuses."""
        return self.writes.writer

    def close(self) -> None:
        """Release the database connections and the SQLite file's writer lock."""
        self.writes.close()

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
        return tables.create_table(
            self.writes, system, language=language, title=title, options=options, name=name
        )

    def list_tables(self) -> list[TableInfo]:
        """Every table, newest first."""
        return tables.list_tables(self.writes)

    def info(self, table_id: str) -> TableInfo:
        """A table's settings and status."""
        return self.writes.current(table_id).info

    def table(self, table_id: str) -> StoredTable:
        """The table with its log and current state (do not modify it)."""
        return self.writes.current(table_id).table

    def cached_info(self, table_id: str) -> TableInfo | None:
        """The table's settings if this process has the table in memory (no I/O)."""
        cached = self.writes.cached(table_id)
        return None if cached is None else cached.info

    def peek(self, table_id: str, min_seq: int) -> tuple[TableInfo, StoredTable] | None:
        """The cached table if it already has record ``min_seq`` (no I/O), else ``None``."""
        cached = self.writes.cached(table_id)
        if cached is not None and cached.table.seq >= min_seq:
            return cached.info, cached.table
        return None

    def snapshot(self, table_id: str, min_seq: int | None = None) -> tuple[TableInfo, StoredTable]:
        """Settings and table at one consistent moment.

        With ``min_seq``, a cached table that already has record ``min_seq`` is used without
        asking the database (for fan-out after a commit in this process).
        """
        if min_seq is not None:
            known = self.peek(table_id, min_seq)
            if known is not None:
                return known
        cached = self.writes.current(table_id)
        return cached.info, cached.table

    # -- participants ----------------------------------------------------------------------

    def authenticate(self, table_id: str, token: str | None) -> Participant:
        """The participant whose secret ``token`` this is (compared in constant time)."""
        return people.authenticate(self.writes, table_id, token)

    def authenticate_cached(self, table_id: str, token: str | None) -> Participant | None:
        """:meth:`authenticate` from memory alone (no I/O, for the event loop): the
        participant if this process holds the table and the token matches one of its
        participants, else ``None`` (then ask :meth:`authenticate`)."""
        return people.authenticate_cached(self.writes, table_id, token)

    def participants(self, table_id: str) -> list[Participant]:
        """Everyone at the table: the GM first, then players and spectators by name; those
        who left or were removed last (``removed``: named in the log, no longer there)."""
        return people.participants(self.writes, table_id)

    def invite_role(self, table_id: str, invite: str) -> Role:
        """The role an invite code of the table gives (compared in constant time);
        ``table.bad_invite`` for a code the table does not have (or no longer has)."""
        return people.invite_role(self.writes, table_id, invite)

    def join(self, table_id: str, invite: str, name: str) -> Joined:
        """Join a table with an invite code: a new participant in the invite's role."""
        return people.join(self.writes, table_id, invite, name)

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
        return people.remove_participant(self.writes, table_id, by, participant_id)

    def gone(self, table_id: str) -> frozenset[str]:
        """The participants who left or were removed (their pieces are nobody's now)."""
        return people.gone(self.writes.cached_or_load(table_id))

    def forget(self, table_id: str) -> None:
        """Another worker changed who is at the table: read it again from the database if this
        process holds it, so tokens are checked against the participants as they are now.

        Re-reading (rather than only dropping it) also keeps out a slower reader that read the
        table before the change: the cache never takes an older version than it holds.
        """
        if self.writes.drop(table_id) is None:
            return
        try:
            self.writes.current(table_id)
        except Exception:  # the table is gone, or the database: read it on the next request
            _log.warning("could not read table %s again", table_id, exc_info=True)
            self.writes.drop(table_id)

    def new_invites(self, table_id: str, by: Participant) -> dict[str, str]:
        """Fresh invite codes for every role (GM only); the old codes stop working (those
        who joined with them stay: remove them with :meth:`remove_participant`)."""
        return people.new_invites(self.writes, table_id, by)

    # -- the log ---------------------------------------------------------------------------

    def records_since(self, table_id: str, since: int, by: Participant | Role) -> list[Record]:
        """The records after ``since`` that participant ``by`` may see (a bare role: no
        whispers but the GM's)."""
        table = self.writes.current(table_id).table
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
        return play.execute(
            self.writes,
            table_id,
            by,
            command,
            hidden=hidden,
            expected_seq=expected_seq,
            automatic=self.automatic,
        )

    def undo(self, table_id: str, by: Participant, seq: int) -> Executed:
        """Revert record ``seq`` (GM only); refused when a later record depends on it."""
        return play.undo(self.writes, table_id, by, seq)

    def add_player_seed(self, table_id: str, by: Participant, seed: str) -> PlayerSeed:
        """A player's seed string takes part in every draw from the next one on.

        Player seeds stay in effect across epochs: a reveal does not end them.
        """
        return seeds.add_player_seed(self.writes, table_id, by, seed)

    def reveal(self, table_id: str, by: Participant) -> Revealed:
        """Reveal the current epoch's seed and commit to a fresh one at once (GM only).

        Returns the revealed epoch and the new current one; the table rolls on with the new
        seed from the next draw. Asked again before anything was drawn with the new seed, it
        answers the same pair (so a repeated request reveals nothing new).
        """
        return seeds.reveal(self.writes, table_id, by)

    # -- export / import -------------------------------------------------------------------

    def export(self, table_id: str, by: Participant | None) -> dict[str, Any]:
        """The table as one JSON document (see :func:`spieltisch.store.exchange.export_document`).

        The GM (and the administrator, ``by=None``) gets the whole log, others what they may see.
        """
        return tables.export_table(self.writes, table_id, by)

    def import_table(self, data: Any, *, name: str = "") -> Created:
        """A new table from an export: same log and dice, new id, new tokens.

        The importer becomes the GM; the exported participants are recreated with the same
        ids (so their pieces stay theirs) and fresh tokens. See
        :func:`spieltisch.store.exchange.parse_export` for what is checked.
        """
        return tables.import_table(self.writes, data, name=name)
