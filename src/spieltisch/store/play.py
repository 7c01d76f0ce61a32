"""Commands and undos: decided by the game on the table as committed, in its write turn."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spieltisch.engine.chat import is_chat_command
from spieltisch.engine.system import GameSystem
from spieltisch.engine.table import Record
from spieltisch.store.cache import StoredTable
from spieltisch.store.loading import participants_of
from spieltisch.store.people import gone
from spieltisch.store.seeds import dice_for
from spieltisch.store.types import Participant, StoreError, TableInfo
from spieltisch.store.writes import Write, Writes, present

__all__ = ["Automatic", "Executed", "execute", "undo"]

Automatic = Callable[[GameSystem[Any, Any, Any]], Callable[[Any], Any]]
"""System → the ``automatic`` to decide with (the server's runs in its pool)."""


@dataclass(frozen=True)
class Executed:
    """What a write produced: the new records and the table after them."""

    records: list[Record]
    table: StoredTable
    info: TableInfo


def execute(
    writes: Writes,
    table_id: str,
    by: Participant,
    command: Any,
    *,
    hidden: bool = False,
    expected_seq: int | None = None,
    automatic: Automatic | None = None,
) -> Executed:
    """Decide ``command`` for ``by`` on the table as committed and commit its records."""

    def decide(write: Write) -> Executed:
        cached = write.cached
        if expected_seq is not None and expected_seq != cached.table.seq:
            raise StoreError(
                "table.stale", table=table_id, expected=expected_seq, seq=cached.table.seq
            )
        present(write, by)
        work = cached.table.fork()
        people = None
        if is_chat_command(command):  # whom a whisper may go to, as committed now
            people = {
                p.id: p.role
                for p, _ in participants_of(write.conn, table_id).values()
                if not p.removed
            }
        records = work.execute(
            command,
            by.actor,
            dice_for(cached.info),
            hidden=hidden,
            automatic=automatic(work.system) if automatic else None,
            participants=people,
            gone=gone(cached),
        )
        return Executed(records, work, writes.append(write, work, records))

    return writes.write(table_id, decide)


def undo(writes: Writes, table_id: str, by: Participant, seq: int) -> Executed:
    """Revert record ``seq`` (GM only); refused when a later record depends on it."""

    def decide(write: Write) -> Executed:
        present(write, by)
        work = write.cached.table.fork()
        record = work.undo(seq, by.actor)
        return Executed([record], work, writes.append(write, work, [record]))

    return writes.write(table_id, decide)
