"""The event store: tables, participants and their append-only logs in a SQL database.

:class:`EventStore` is the one way the web and the CLI change a table. A command is decided
by the game system on the table's current state (:class:`spieltisch.engine.table.Table`) and
its records are committed in one transaction that compare-and-swaps the table's ``version``:
when another worker committed first, the command is decided again on the new state (a few
times), so no command is lost or applied twice. Snapshots of the folded state every
``snapshot_every`` records keep loading fast; a per-process cache keeps hot tables in memory
and catches up from the database with one small query per request.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

from pydantic import TypeAdapter
from sqlalchemy import Engine, delete, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from spieltisch.dice.fair import DiceSource, Epoch, FairDice, PlayerSeed
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Record, Role
from spieltisch.store.cache import StoredTable
from spieltisch.store.db import connect, is_postgres, migrate, resolve_url
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


class _Conflict(Exception):
    """Another writer committed first."""


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
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        db_path: str | None = None,
        snapshot_every: int = 50,
        cache_size: int = 256,
        retries: int = 10,
        run_migrations: bool = True,
    ) -> None:
        self.url = resolve_url(db_path, url)
        self.engine: Engine = connect(self.url)
        self._writer = self.engine.execution_options(spieltisch_write=True)
        self.postgres = is_postgres(self.url)
        self.snapshot_every = snapshot_every
        self.retries = retries
        self.worker = uuid.uuid4().hex[:12]
        """Identifies this process in NOTIFY payloads."""
        self.on_commit: list[Callable[[str, int], None]] = []
        self.conflicts = 0
        """How many commits lost the race to another writer (and were decided again)."""
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_size = cache_size
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        if run_migrations:
            migrate(self.engine)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

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
        options = check_options(game, options)
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
            epoch_start=0,
            epochs=[],
            player_seeds=[],
            seq=0,
            version=0,
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
        tokens = {p.id: _new_secret() for p in others}
        with self._writer.begin() as conn:
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
                    },
                    *(
                        {
                            "table_id": row.id,
                            "id": p.id,
                            "name": p.name,
                            "role": p.role.value,
                            "token_hash": hash_secret(tokens[p.id]),
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

    def participants(self, table_id: str) -> list[Participant]:
        """Everyone at the table: the GM first, then players and spectators by name."""
        cached = self._reload_participants(table_id, self._current(table_id))
        return [participant for participant, _ in cached.participants.values()]

    def join(self, table_id: str, invite: str, name: str) -> Joined:
        """Join a table with an invite code: a new participant in the invite's role."""
        self._current(table_id)
        name = check_text(name, "table.bad_name", MAX_NAME)
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
        participant = Participant(_new_id(), name, role)
        token = _new_secret()
        with self._writer.begin() as conn:
            conn.execute(
                insert(ParticipantRow).values(
                    table_id=table_id,
                    id=participant.id,
                    name=name,
                    role=role.value,
                    token_hash=hash_secret(token),
                )
            )
            if self.postgres:
                self._notify(conn, table_id, -1)
        self._drop(table_id)
        self._committed(table_id, -1)
        return Joined(participant, token)

    def new_invites(self, table_id: str, by: Participant) -> dict[str, str]:
        """Fresh invite codes for every role (GM only); the old codes stop working."""
        if by.role is not Role.GM:
            raise RuleError("rule.forbidden", action="invites")
        invites = {role.value: _new_secret() for role in (Role.PLAYER, Role.SPECTATOR)}
        with self._writer.begin() as conn:
            for role, code in invites.items():
                conn.execute(
                    update(InviteRow)
                    .where(InviteRow.table_id == table_id, InviteRow.role == role)
                    .values(code_hash=hash_secret(code))
                )
        return invites

    # -- the log ---------------------------------------------------------------------------

    def records_since(self, table_id: str, since: int, role: Role) -> list[Record]:
        """The records after ``since`` that ``role`` may see."""
        return self._current(table_id).table.visible(role, since)

    def execute(
        self,
        table_id: str,
        by: Participant,
        command: Any,
        *,
        hidden: bool = False,
        expected_seq: int | None = None,
    ) -> Executed:
        """Decide ``command`` for ``by`` and commit its records (retried on a lost race)."""
        with self._lock(table_id):
            for _ in range(self.retries):
                cached = self._current(table_id)
                if expected_seq is not None and expected_seq != cached.table.seq:
                    raise StoreError(
                        "table.stale", table=table_id, expected=expected_seq, seq=cached.table.seq
                    )
                work = cached.table.fork()
                source_at = self._dice(cached.info)
                records = work.execute(command, by.actor, source_at, hidden=hidden)
                try:
                    info = self._commit(cached, work, records)
                except _Conflict:
                    self.conflicts += 1
                    continue
                return Executed(records, work, info)
        raise StoreError("table.busy", table=table_id)

    def undo(self, table_id: str, by: Participant, seq: int) -> Executed:
        """Revert record ``seq`` (GM only); refused when a later record depends on it."""
        with self._lock(table_id):
            for _ in range(self.retries):
                cached = self._current(table_id)
                work = cached.table.fork()
                record = work.undo(seq, by.actor)
                try:
                    info = self._commit(cached, work, [record])
                except _Conflict:
                    self.conflicts += 1
                    continue
                return Executed([record], work, info)
        raise StoreError("table.busy", table=table_id)

    def add_player_seed(self, table_id: str, by: Participant, seed: str) -> PlayerSeed:
        """A player's seed string takes part in every draw from the next one on.

        Player seeds stay in effect across epochs: a reveal does not end them.
        """
        if by.role is Role.SPECTATOR:
            raise RuleError("rule.forbidden", action="player-seed")
        seed = check_text(seed, "table.bad_seed", MAX_SEED)
        with self._lock(table_id):
            for _ in range(self.retries):
                cached = self._current(table_id)
                start = cached.table.next_draw
                dice = cached.info.dice()
                if dice is not None:
                    dice.with_player_seed(start, seed)  # validates the seed text
                added = PlayerSeed(start, seed)
                seeds = [*cached.info.player_seeds, added]
                if self._update_row(
                    cached,
                    player_seeds=[{"start": p.start, "seed": p.seed} for p in seeds],
                ):
                    return added
        raise StoreError("table.busy", table=table_id)

    def reveal(self, table_id: str, by: Participant) -> Revealed:
        """Reveal the current epoch's seed and commit to a fresh one at once (GM only).

        Returns the revealed epoch and the new current one; the table rolls on with the new
        seed from the next draw. Asked again before anything was drawn with the new seed, it
        answers the same pair (so a repeated request reveals nothing new).
        """
        if by.role is not Role.GM:
            raise RuleError("rule.forbidden", action="reveal")
        with self._lock(table_id):
            for _ in range(self.retries):
                cached = self._current(table_id)
                info = cached.info
                start = cached.table.next_draw
                if len(info.epochs) > 1 and info.current.start == start:
                    return Revealed(info.epochs[-2], len(info.epochs) - 1, info.current)
                seed = info._server_seed
                if seed is None:
                    raise StoreError("table.seed_unknown", table=table_id)
                revealed = replace(info.current, seed=seed)
                fresh = FairDice.new(info.dice_table)
                closed = [epoch.to_json() for epoch in info.epochs[:-1]]
                if self._update_row(
                    cached,
                    epochs=[*closed, revealed.to_json()],
                    epoch_start=start,
                    server_seed=fresh.seed_hex,
                    commitment=fresh.commitment,
                ):
                    return Revealed(revealed, len(info.epochs), Epoch(start, fresh.commitment))
        raise StoreError("table.busy", table=table_id)

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
            None if by is None else by.role,
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
            **_import_epochs(parsed.epochs, parsed.dice_table, parsed.next_draw),
            player_seeds=[{"start": p.start, "seed": p.seed} for p in parsed.player_seeds],
            seq=len(parsed.records),
            version=0,
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

    def _dice(self, info: TableInfo) -> Callable[[int], DiceSource]:
        dice = info.dice() if info.can_roll else None
        if dice is None:
            closed = _ClosedDice(info.id)
            return lambda _index: closed
        return dice.source_at

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
        with self._guard:
            cached = self._cache.get(table_id)
        with self.engine.connect() as conn:
            head = conn.execute(
                select(TableRow.version, TableRow.seq).where(TableRow.id == table_id)
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
                fresh = _Cached(info, table, cached.participants)
            else:
                fresh = self._load(conn, info)
        self._remember(fresh)
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
                table = StoredTable.restore(system, info.options, records, states, snap.seq)
        if table is None:
            table = StoredTable(system, info.options, records)
        participants = _participants(conn, info.id)
        return _Cached(info, table, participants)

    def _reload_participants(self, table_id: str, cached: _Cached) -> _Cached:
        with self.engine.connect() as conn:
            participants = _participants(conn, table_id)
        fresh = _Cached(cached.info, cached.table, participants)
        self._remember(fresh)
        return fresh

    def _commit(self, cached: _Cached, work: StoredTable, records: list[Record]) -> TableInfo:
        info = cached.info
        version = info.version + 1
        try:
            with self._writer.begin() as conn:
                result = conn.execute(
                    update(TableRow)
                    .where(TableRow.id == info.id, TableRow.version == info.version)
                    .values(version=version, seq=work.seq)
                )
                if result.rowcount != 1:
                    raise _Conflict
                conn.execute(
                    insert(RecordRow),
                    [
                        {
                            "table_id": info.id,
                            "seq": r.seq,
                            "hidden": r.hidden,
                            "data": r.model_dump_json(),
                        }
                        for r in records
                    ],
                )
                if self._wants_snapshot(cached.table.seq, work.seq, records):
                    state = encode_states(work.state, work.shared_state)
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
        except IntegrityError:
            raise _Conflict from None
        fresh = _Cached(replace(info, seq=work.seq, version=version), work, cached.participants)
        self._remember(fresh)
        self._committed(info.id, work.seq)
        return fresh.info

    def _wants_snapshot(self, before: int, after: int, records: list[Record]) -> bool:
        if self.snapshot_every <= 0:
            return False
        if any(r.undoes is not None for r in records):
            return True
        return before // self.snapshot_every != after // self.snapshot_every

    def _update_row(self, cached: _Cached, **values: Any) -> bool:
        info = cached.info
        with self._writer.begin() as conn:
            result = conn.execute(
                update(TableRow)
                .where(TableRow.id == info.id, TableRow.version == info.version)
                .values(version=info.version + 1, **values)
            )
            if result.rowcount != 1:
                return False
            if self.postgres:
                self._notify(conn, info.id, info.seq)
        self._current(info.id)  # cache the new settings (newer versions are never replaced)
        self._committed(info.id, info.seq)
        return True

    def _notify(self, conn: Any, table_id: str, seq: int) -> None:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": f"{table_id} {seq} {self.worker}"},
        )

    def _committed(self, table_id: str, seq: int) -> None:
        for callback in list(self.on_commit):
            callback(table_id, seq)


def _match(cached: _Cached, wanted: str) -> Participant | None:
    found = None
    for participant, stored in cached.participants.values():
        if hmac.compare_digest(stored, wanted):
            found = participant
    return found


def _row_values(row: TableRow) -> dict[str, Any]:
    return {
        column.key: getattr(row, column.key)
        for column in TableRow.__table__.columns
        if column.key != "created"
    }


def _info(row: Any) -> TableInfo:
    epochs = tuple(
        Epoch(cast(int, e["start"]), str(e["commitment"]), cast("str | None", e.get("seed")))
        for e in row.epochs or []
    )
    return TableInfo(
        id=row.id,
        system=row.system,
        title=row.title,
        language=row.language,
        options=dict(row.options or {}),
        dice_table=row.dice_table,
        epochs=(*epochs, Epoch(row.epoch_start, row.commitment)),
        player_seeds=tuple(
            PlayerSeed(cast(int, p["start"]), str(p["seed"])) for p in row.player_seeds
        ),
        seq=row.seq,
        version=row.version,
        created=row.created,
        _server_seed=row.server_seed,
    )


def _import_epochs(epochs: Sequence[Epoch], dice_table: str, next_draw: int) -> dict[str, Any]:
    """The epoch columns of an imported table: its revealed epochs, then the current one.

    When the export's last epoch is revealed too, or nothing was drawn with it yet, the new
    table commits to a fresh seed for the draws after the log and rolls on; otherwise that
    epoch's seed is unknown here and the table rolls no dice.
    """
    closed = [epoch for epoch in epochs if epoch.revealed]
    if epochs[-1].revealed or epochs[-1].start >= next_draw:
        fresh = FairDice.new(dice_table)
        current = Epoch(next_draw, fresh.commitment)
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
        ((Participant(row.id, row.name, Role(row.role)), row.token_hash) for row in rows),
        key=lambda item: (order[item[0].role], item[0].name, item[0].id),
    )
    return {participant.id: (participant, token) for participant, token in people}
