"""Reading a table from the database: its settings, its participants and its folded log.

:func:`catch_up` brings a table held in memory up to what is committed (one small query when
nothing changed, the new records when some were added) or loads it afresh (:func:`load`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from pydantic import TypeAdapter
from sqlalchemy import Connection, Engine, bindparam, select

from spieltisch.dice.fair import Epoch, PlayerSeed, link_epochs
from spieltisch.engine.system import upgrade_options
from spieltisch.engine.table import Record, Role, read_record
from spieltisch.engine.upcast import shapes_of
from spieltisch.errors import SpieltischError
from spieltisch.store.cache import LazyLog, StoredTable
from spieltisch.store.models import ParticipantRow, RecordRow, SnapshotRow, TableRow
from spieltisch.store.snapshots import decode_snapshot
from spieltisch.store.types import Participant, StoreError, TableInfo
from spieltisch.systems.registry import get_system

__all__ = ["Cached", "catch_up", "info_of", "load", "participants_of"]

_RECORDS: TypeAdapter[list[Record]] = TypeAdapter(list[Record])


@dataclass
class Cached:
    """A table as this process holds it: settings, log and state, participants."""

    info: TableInfo
    table: StoredTable
    participants: dict[str, tuple[Participant, str]]
    """participant id → (participant, token hash)."""


_HEAD = select(TableRow.version, TableRow.seq).where(TableRow.id == bindparam("table_id"))
"""A table's version and last seq: built once, it is compiled once (each command asks)."""
_HEAD_LOCKED = _HEAD.with_for_update(key_share=True)


def catch_up(
    conn: Connection, engine: Engine, table_id: str, cached: Cached | None, *, lock: bool = False
) -> Cached:
    """``cached`` (``None``: not held) caught up with what is committed on ``conn``; ``lock``
    also locks the table's row (PostgreSQL: the writer's turn). A table loaded afresh reads
    its older records later through ``engine`` (see :func:`load`)."""
    head = conn.execute(_HEAD_LOCKED if lock else _HEAD, {"table_id": table_id}).first()
    if head is None:
        raise StoreError("table.unknown", table=table_id)
    if cached is not None and cached.info.version == head.version:
        return cached
    row = conn.execute(select(TableRow.__table__).where(TableRow.id == table_id)).one()
    info = info_of(row)
    if cached is None or cached.table.seq > info.seq:
        return load(conn, info, engine)
    table = cached.table.fork()
    table.absorb(_records(conn, table_id, cached.table.seq, info.seq))
    people = cached.participants
    if info.people != cached.info.people:  # someone joined, left or was removed
        people = participants_of(conn, table_id)
    return Cached(info, table, people)


def load(conn: Connection, info: TableInfo, engine: Engine) -> Cached:
    """The table ``info`` describes, read from the database.

    From its latest usable snapshot, only the records after it are read; the older ones stay
    in the database until something asks for them (:class:`~spieltisch.store.cache.LazyLog`,
    read through ``engine``). Without a snapshot (or one of other rules or shapes) the whole
    log is read and folded; with one written before snapshots carried the log's facts, the
    whole log is read and the records after it folded.
    """
    system = get_system(info.system)
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
    decoded = None if snap is None else decode_snapshot(system, info.options, snap.state)
    table: StoredTable
    if snap is not None and decoded is not None and decoded.facts is not None:
        shapes = shapes_of(system)
        start = snap.seq

        def older() -> list[Record]:
            with engine.connect() as reader:
                return [read_record(shapes, r) for r in _records(reader, info.id, 0, start)]

        table = StoredTable.resume(
            system,
            info.options,
            LazyLog.reading(start, older),
            (decoded.state, decoded.shared),
            decoded.facts,
            _records(conn, info.id, start, info.seq),
            streams=info.streams,
            private=decoded.private,
        )
    else:
        records = _records(conn, info.id, 0, info.seq)
        if snap is not None and decoded is not None:
            table = StoredTable.restore(
                system,
                info.options,
                records,
                (decoded.state, decoded.shared),
                snap.seq,
                streams=info.streams,
            )
        else:
            table = StoredTable(system, info.options, records, streams=info.streams)
    return Cached(info, table, participants_of(conn, info.id))


def _records(conn: Connection, table_id: str, after: int, upto: int) -> list[Record]:
    """The records ``after`` < seq ≤ ``upto`` of a table, in order, as stored."""
    rows = conn.execute(
        select(RecordRow.data)
        .where(RecordRow.table_id == table_id, RecordRow.seq > after, RecordRow.seq <= upto)
        .order_by(RecordRow.seq)
    ).scalars()
    # One JSON array parsed in one call is much faster than a call per record.
    return _RECORDS.validate_json("[" + ",".join(rows) + "]")


def participants_of(conn: Connection, table_id: str) -> dict[str, tuple[Participant, str]]:
    """Everyone at the table as committed: participant id → (participant, token hash), the GM
    first, then players and spectators, each by name."""
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


def _stored_options(system: str, options: Any) -> dict[str, Any]:
    """A row's options as this release reads them (see :func:`upgrade_options`)."""
    try:
        game = get_system(system)
    except SpieltischError:
        return dict(options or {})
    return upgrade_options(game, options or {})


def info_of(row: Any) -> TableInfo:
    """The settings and status of a table's database row."""
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
