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

import hashlib
import hmac
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, cast

from pydantic import TypeAdapter
from sqlalchemy import Engine, delete, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from spieltisch.dice.fair import DiceSource, FairDice, FairDiceError, PlayerSeed
from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.system import GameSystem, get_system
from spieltisch.engine.table import Actor, Record, Role, Table
from spieltisch.errors import InputError, SpieltischError
from spieltisch.i18n import LANGUAGES
from spieltisch.store.db import connect, is_postgres, migrate, resolve_url
from spieltisch.store.models import (
    InviteRow,
    ParticipantRow,
    RecordRow,
    SnapshotRow,
    TableRow,
)

__all__ = [
    "EXPORT_FORMAT",
    "NOTIFY_CHANNEL",
    "Created",
    "EventStore",
    "Executed",
    "Joined",
    "Participant",
    "StoreError",
    "StoredTable",
    "TableInfo",
    "hash_secret",
]

EXPORT_FORMAT = "spieltisch-table/1"
"""The ``format`` of a table export."""

NOTIFY_CHANNEL = "spieltisch"
"""PostgreSQL NOTIFY channel; the payload is ``"<table> <seq> <worker>"``."""

MAX_NAME = 100
MAX_TITLE = 200
MAX_SEED = 200


_RECORDS: TypeAdapter[list[Record]] = TypeAdapter(list[Record])


class StoreError(SpieltischError):
    """A request the store refuses: unknown table, bad token, stale state, …"""


def hash_secret(secret: str) -> str:
    """SHA-256 hex of a token or invite code: only this is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_secret() -> str:
    return secrets.token_urlsafe(32)


def _new_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass(frozen=True)
class Participant:
    """Someone at a table."""

    id: str
    name: str
    role: Role

    @property
    def actor(self) -> Actor:
        """The engine's view of this participant."""
        return Actor(id=self.id, role=self.role)


@dataclass(frozen=True)
class TableInfo:
    """A table's settings and fair-dice status (without its log)."""

    id: str
    system: str
    title: str
    language: str
    options: dict[str, Any]
    dice_table: str
    commitment: str
    revealed: bool
    player_seeds: tuple[PlayerSeed, ...]
    seq: int
    version: int
    created: datetime | None
    _server_seed: str | None = field(default=None, repr=False)

    @property
    def seed(self) -> str | None:
        """The server seed in hex once revealed, else ``None``."""
        return self._server_seed if self.revealed else None

    @property
    def can_roll(self) -> bool:
        """Whether the table still draws dice (its seed is known here and not revealed)."""
        return self._server_seed is not None and not self.revealed

    def dice(self) -> FairDice | None:
        """The table's fair dice, if the server seed is known here."""
        if self._server_seed is None:
            return None
        return FairDice(bytes.fromhex(self._server_seed), self.dice_table, self.player_seeds)

    def fair_block(self) -> dict[str, Any]:
        """The ``fair`` block of an export."""
        return {
            "commitment": self.commitment,
            "seed": self.seed,
            "player_seeds": [{"start": p.start, "seed": p.seed} for p in self.player_seeds],
        }


@dataclass(frozen=True)
class Created:
    """A new table: its id, the GM's participant id and token, invite codes, commitment."""

    table: str
    participant: str
    token: str
    invites: dict[str, str]
    commitment: str
    participants: list[dict[str, str]] = field(default_factory=list)
    """For an import: the recreated participants with their fresh tokens."""


@dataclass(frozen=True)
class Joined:
    """A participant who joined with an invite code, and their secret token."""

    participant: Participant
    token: str


@dataclass(frozen=True)
class Executed:
    """What a write produced: the new records and the table after them."""

    records: list[Record]
    table: StoredTable
    info: TableInfo


class StoredTable(Table):
    """A :class:`Table` that can start from a snapshot and absorb records committed elsewhere."""

    @classmethod
    def restore(
        cls,
        system: GameSystem[Any, Any, Any],
        options: Mapping[str, Any],
        records: Sequence[Record],
        state: Any,
        state_seq: int,
    ) -> StoredTable:
        """A table whose state after record ``state_seq`` is ``state``; later records folded."""
        table = cls(system, options)
        table.records = list(records[:state_seq])
        table._state = state
        table.absorb(records[state_seq:])
        return table

    _public: tuple[Any, dict[str, Any]] | None = None

    def public_state(self) -> dict[str, Any]:
        """``system.public_state`` of the current state, computed once per state."""
        memo = self._public
        if memo is not None and memo[0] is self._state:
            return memo[1]
        public = self.system.public_state(self._state)
        self._public = (self._state, public)
        return public

    _shared: tuple[Any, dict[str, Any]] | None = None

    def public_state_for(self, role: Role) -> dict[str, Any]:
        """The public state as ``role`` may see it, computed once per state.

        The GM sees the whole state. Players and spectators see the fold of the records they
        may see: a hidden record's effects (its dice, a secret foe, a note) stay with the GM.
        Once a record they see no longer applies without the hidden ones (a check numbered
        after a hidden check), the hidden effects cannot be told apart from theirs: then they
        see the whole state, as leaving their own record out would break their game.
        """
        if role is Role.GM or not any(record.hidden for record in self.records):
            return self.public_state()
        memo = self._shared
        if memo is not None and memo[0] is self._state:
            return memo[1]
        undone = self.undone()
        state = self.system.new_state(self.options)
        try:
            for record in self.records:
                if record.hidden or record.undoes is not None or record.seq in undone:
                    continue
                for data in record.events:
                    state = self.system.evolve(state, self.system.events.validate_python(data))
        except (RuleError, ValueError):
            state = self._state  # a visible record builds on a hidden one
        shared = self.system.public_state(state)
        self._shared = (self._state, shared)
        return shared

    def fork(self) -> StoredTable:
        """A copy to decide on; the original stays unchanged if the copy is thrown away."""
        copy = StoredTable(self.system, self.options)
        copy.records = list(self.records)
        copy._state = self._state
        return copy

    def absorb(self, records: Iterable[Record]) -> None:
        """Append records committed by someone else and fold them in (undo re-folds)."""
        for record in records:
            if record.seq != len(self.records) + 1:
                raise EngineError(
                    "table.bad_export", detail=f"record seq {record.seq} out of order"
                )
            self.records.append(record)
            if record.undoes is not None:
                self._state = self._fold(self.records, undoing=None)
                continue
            for data in record.events:
                self._state = self.system.evolve(
                    self._state, self.system.events.validate_python(data)
                )


@dataclass
class _Cached:
    info: TableInfo
    table: StoredTable
    participants: dict[str, tuple[Participant, str]]
    """participant id → (participant, token hash)."""


class _Conflict(Exception):
    """Another writer committed first."""


class _ClosedDice:
    """The dice of a table that no longer rolls (seed revealed or unknown here)."""

    def __init__(self, table: str) -> None:
        self._table = table

    def roll(self, sides: int) -> int:
        raise RuleError("table.dice_closed", table=self._table)


_STATE_ADAPTERS: dict[type, TypeAdapter[Any] | None] = {}


def _state_adapter(kind: type) -> TypeAdapter[Any] | None:
    if kind not in _STATE_ADAPTERS:
        try:
            _STATE_ADAPTERS[kind] = TypeAdapter(kind)
        except Exception:  # a state type pydantic cannot describe: no snapshots for it
            _STATE_ADAPTERS[kind] = None
    return _STATE_ADAPTERS[kind]


def encode_state(state: Any) -> str | None:
    """The state as JSON if it round-trips exactly (else ``None``: no snapshot)."""
    adapter = _state_adapter(type(state))
    if adapter is None:
        return None
    try:
        data = adapter.dump_json(state)
        if adapter.validate_json(data) != state:
            return None
    except Exception:  # systems' states are open-ended; a snapshot is only an optimisation
        return None
    return data.decode()


def decode_state(system: GameSystem[Any, Any, Any], options: Mapping[str, Any], data: str) -> Any:
    """A snapshot's state, parsed as the type of the system's state; ``None`` if it fails."""
    adapter = _state_adapter(type(system.new_state(options)))
    if adapter is None:
        return None
    try:
        return adapter.validate_json(data)
    except Exception:  # an old snapshot the current code cannot read: fold from the log
        return None


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
        self.automatic: Callable[[GameSystem[Any, Any, Any]], Callable[[Any], Any]] | None = None
        """System → the ``automatic`` to decide with (the server's runs in its pool)."""
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
        options = _check_options(game, options)
        language = _check_language(language)
        title = _check_text(title, "table.bad_title", MAX_TITLE, allow_empty=True)
        name = _check_text(name, "table.bad_name", MAX_NAME, allow_empty=True)
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
            revealed=False,
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
        name = _check_text(name, "table.bad_name", MAX_NAME)
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
        table = self._current(table_id).table
        return [r for r in table.records[max(since, 0) :] if role is Role.GM or not r.hidden]

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
                auto = self.automatic(work.system) if self.automatic else None
                records = work.execute(command, by.actor, source_at, hidden=hidden, automatic=auto)
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
        """A player's seed string takes part in every draw from the next one on."""
        if by.role is Role.SPECTATOR:
            raise RuleError("rule.forbidden", action="player-seed")
        seed = _check_text(seed, "table.bad_seed", MAX_SEED)
        with self._lock(table_id):
            for _ in range(self.retries):
                cached = self._current(table_id)
                if cached.info.revealed:
                    raise StoreError("table.revealed", table=table_id)
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

    def reveal(self, table_id: str, by: Participant) -> str:
        """Reveal the server seed (GM only). The table draws no dice afterwards."""
        if by.role is not Role.GM:
            raise RuleError("rule.forbidden", action="reveal")
        with self._lock(table_id):
            for _ in range(self.retries):
                cached = self._current(table_id)
                seed = cached.info._server_seed
                if seed is None:
                    raise StoreError("table.seed_unknown", table=table_id)
                if cached.info.revealed or self._update_row(cached, revealed=True):
                    return seed
        raise StoreError("table.busy", table=table_id)

    # -- export / import -------------------------------------------------------------------

    def export(self, table_id: str, by: Participant | None) -> dict[str, Any]:
        """The table as one JSON document (format ``spieltisch-table/1``).

        The GM (and the administrator, ``by=None``) gets the whole log. Others get the records
        they may see; once the seed is revealed, hidden records are added with their raw draws
        only (no command, no events), so the export verifies while the GM's secrets stay his.
        """
        cached = self._current(table_id)
        info, table = cached.info, cached.table
        if by is None or by.role is Role.GM:
            records = table.records
        elif info.revealed:
            records = [
                r.model_copy(update={"command": None, "events": []}) if r.hidden else r
                for r in table.records
            ]
        else:
            records = table.visible(by.role)
        participants = self._reload_participants(table_id, cached).participants.values()
        return {
            "format": EXPORT_FORMAT,
            "table": info.dice_table,
            "system": info.system,
            "options": info.options,
            "language": info.language,
            "title": info.title,
            "fair": info.fair_block(),
            "participants": [
                {"id": p.id, "name": p.name, "role": p.role.value} for p, _ in participants
            ],
            "records": [r.model_dump(mode="json") for r in records],
        }

    def import_table(self, data: Any, *, name: str = "") -> Created:
        """A new table from an export: same log and dice, new id, new tokens.

        The importer becomes the GM; the exported participants are recreated with the same
        ids (so their pieces stay theirs) and fresh tokens. Draws are checked against the
        seed when it is revealed.
        """
        if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
            value = data.get("format") if isinstance(data, Mapping) else type(data).__name__
            raise InputError("table.bad_format", value=value, expected=EXPORT_FORMAT)
        try:
            system = get_system(str(data["system"]))
            options = _check_options(system, data.get("options") or {})
            language = _check_language(str(data.get("language", "de")))
            fair = data["fair"]
            commitment = str(fair["commitment"])
            seed = fair.get("seed")
            seeds = tuple(PlayerSeed.parse(p) for p in fair.get("player_seeds") or [])
            records = [Record.model_validate(r) for r in data["records"]]
            dice_table = str(data["table"])
            title = _check_text(str(data.get("title", "")), "table.bad_title", MAX_TITLE, True)
            others = [
                Participant(
                    _check_id(p["id"]),
                    _check_text(p.get("name", ""), "table.bad_name", MAX_NAME, True),
                    Role(p["role"]),
                )
                for p in data.get("participants") or []
                if p.get("role") != Role.GM.value
            ]
            ids = [p.id for p in others]
            if len(set(ids)) != len(ids):
                raise EngineError("table.bad_export", detail=f"participants: repeated ids {ids!r}")
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            if isinstance(error, SpieltischError):
                raise
            raise EngineError("table.bad_export", detail=str(error)) from None
        table = Table(system, options, records)  # validates order and folds every event
        if seed is not None:
            try:
                dice = FairDice(bytes.fromhex(str(seed)), dice_table, seeds)
            except ValueError:
                raise EngineError("table.bad_export", detail=f"fair.seed: {seed!r}") from None
            _check_draws(dice, commitment, table)
        row = TableRow(
            id=_new_id(),
            system=system.id,
            title=title,
            language=language,
            options=options,
            dice_table=dice_table,
            server_seed=None if seed is None else str(seed).lower(),
            commitment=commitment,
            revealed=seed is not None,
            player_seeds=[{"start": p.start, "seed": p.seed} for p in seeds],
            seq=table.seq,
            version=0,
        )
        name = _check_text(name, "table.bad_name", MAX_NAME, allow_empty=True)
        return self._insert_table(row, name, table.records, others)

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
            state = decode_state(system, info.options, snap.state)
            if state is not None:
                table = StoredTable.restore(system, info.options, records, state, snap.seq)
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
                    state = encode_state(work.state)
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
    return TableInfo(
        id=row.id,
        system=row.system,
        title=row.title,
        language=row.language,
        options=dict(row.options or {}),
        dice_table=row.dice_table,
        commitment=row.commitment,
        revealed=bool(row.revealed),
        player_seeds=tuple(
            PlayerSeed(cast(int, p["start"]), str(p["seed"])) for p in row.player_seeds
        ),
        seq=row.seq,
        version=row.version,
        created=row.created,
        _server_seed=row.server_seed,
    )


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


def _check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise InputError("table.bad_language", value=language, known=", ".join(LANGUAGES))
    return language


def _check_text(value: Any, code: str, limit: int, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise InputError(code, value=value, limit=limit)
    text_value = value.strip()
    if (not text_value and not allow_empty) or len(text_value) > limit:
        raise InputError(code, value=value, limit=limit)
    return text_value


def _check_id(value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise EngineError("table.bad_export", detail=f"participant id {value!r}")
    return value


def _check_options(system: GameSystem[Any, Any, Any], options: Any) -> dict[str, Any]:
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise InputError("table.bad_options", system=system.id, detail=repr(options))
    try:
        system.new_state(options)
    except SpieltischError:
        raise
    except (ValueError, TypeError) as error:
        raise InputError("table.bad_options", system=system.id, detail=str(error)) from None
    return dict(options)


def _check_draws(dice: FairDice, commitment: str, table: Table) -> None:
    if dice.commitment != commitment.lower():
        raise EngineError("table.commitment_mismatch", commitment=commitment)
    expected_index = 0
    for record in table.records:
        for draw in record.draws:
            if draw.index != expected_index:
                raise EngineError("table.draw_mismatch", seq=record.seq, index=draw.index)
            try:
                value = dice.value(draw.index, draw.sides)
            except FairDiceError:
                raise EngineError("table.draw_mismatch", seq=record.seq, index=draw.index) from None
            if value != draw.value:
                raise EngineError("table.draw_mismatch", seq=record.seq, index=draw.index)
            expected_index += 1
