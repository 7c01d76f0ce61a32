"""A table's life: made new or from an export, listed, and exported again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import insert, select

from spieltisch.dice.fair import Epoch, FairDice
from spieltisch.engine.system import stamp_options
from spieltisch.engine.table import Record, Role
from spieltisch.store.exchange import export_document, parse_export
from spieltisch.store.loading import info_of
from spieltisch.store.models import InviteRow, ParticipantRow, RecordRow, TableRow
from spieltisch.store.people import new_id, new_secret
from spieltisch.store.types import Created, Participant, TableInfo, hash_secret
from spieltisch.store.validation import (
    MAX_NAME,
    MAX_TITLE,
    check_language,
    check_options,
    check_text,
)
from spieltisch.store.writes import Writes
from spieltisch.systems.registry import get_system

__all__ = ["create_table", "export_table", "import_table", "list_tables"]


def create_table(
    writes: Writes,
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
    table_id = new_id()
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
    return _insert_table(writes, row, name, [], [])


def import_table(writes: Writes, data: Any, *, name: str = "") -> Created:
    """A new table from an export: same log and dice, new id, new tokens (see
    :func:`spieltisch.store.exchange.parse_export` for what is checked)."""
    parsed = parse_export(data)
    row = TableRow(
        id=new_id(),
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
    return _insert_table(writes, row, name, parsed.records, parsed.participants)


def export_table(writes: Writes, table_id: str, by: Participant | None) -> dict[str, Any]:
    """The table as one JSON document; the GM (and the administrator, ``by=None``) gets the
    whole log, others what they may see."""
    cached = writes.current(table_id)
    participants = writes.reload_participants(table_id, cached).participants.values()
    return export_document(
        cached.info,
        cached.table,
        [p for p, _ in participants],
        None if by is None else cached.table.viewer(by.actor),
    )


def list_tables(writes: Writes) -> list[TableInfo]:
    """Every table, newest first."""
    with writes.engine.connect() as conn:
        rows = conn.execute(select(TableRow.__table__).order_by(TableRow.created.desc())).all()
    return [info_of(row) for row in rows]


def _insert_table(
    writes: Writes,
    row: TableRow,
    gm_name: str,
    records: Sequence[Record],
    others: Sequence[Participant],
) -> Created:
    gm_id = new_id()
    token = new_secret()
    invites = {role.value: new_secret() for role in (Role.PLAYER, Role.SPECTATOR)}
    tokens = {p.id: new_secret() for p in others}  # a removed one's is never handed out
    with writes.transaction(row.id) as conn:
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


def _row_values(row: TableRow) -> dict[str, Any]:
    return {
        column.key: getattr(row, column.key)
        for column in TableRow.__table__.columns
        if column.key != "created"
    }


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
