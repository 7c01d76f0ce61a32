"""Verification by replay: decide every record of a log again with its own draws.

The dice check (:mod:`spieltisch.dice.verify`) proves that every raw draw is the one the seed
gives; this module proves that every record is what the rules make of those draws. For each
record in order, :meth:`~spieltisch.engine.table.Table.replay` decides its command again on a
fresh table, fed with exactly the record's draws, and the result must be the recorded record:
the same command, events, draws (no more, no fewer), hidden flag and claim. After each
command the system's automatic follow-ups (AI seats, forced moves) must follow as recorded;
undo records are re-applied. The first difference is reported as a :class:`ReplayMismatch`
(record ``seq``, event index, a dotted path into the record, what the replay gives and what
the log says).

Records withheld from a player's export (hidden records: no command, no events) are taken as
they are: they leave the shared fold alone, which is the one visible records are decided on,
so the visible records of a redacted log replay on their own. Their draws are checked by the
dice check only; where a player's export withholds the draws themselves (an epoch not yet
revealed), the replay of a log of format 2 counts them as taken so that later draws keep their
indexes (in format 3 every record draws from its own stream: nothing to count).

A contact whose discovery the table shows its issuer alone (the table option ``discovery``)
makes two records: the command's and, after it, the discovery addressed to the issuer; the
replay of the first makes both, and the second must then be exactly the one made.

Chat records (``say``, ``whisper``) are decided again by the chat rules with their draws (an
inline roll), their audience included; the table issues nothing automatic after them. A
whisper withheld from someone else's export is taken as it is, like a hidden record.

Permissions are not re-checked: who may issue what depends on who held which token, which an
export cannot prove (its participant list is informational). Replay proves the outcomes.

Pure: no I/O; the caller passes the game system (the store looks it up in the registry).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spieltisch.dice.fair import ReplayExhausted, ReplaySource
from spieltisch.engine.chat import is_chat
from spieltisch.engine.errors import EngineError
from spieltisch.engine.system import GameSystem, automatic_limit
from spieltisch.engine.table import (
    AUTO_ACTOR,
    Actor,
    DrawModel,
    Record,
    Role,
    Table,
    read_record,
)
from spieltisch.engine.upcast import shapes_of

__all__ = ["ReplayMismatch", "ReplayResult", "replay_log"]

_MISSING = "—"
"""What a mismatch shows for a value that is not there at all."""


@dataclass(frozen=True)
class ReplayMismatch:
    """The first place where the replayed log differs from the recorded one."""

    seq: int
    """The record that differs."""
    field: str
    """Dotted path into the record (``events.0.result``, ``draws.count``, ``claims``, …)."""
    expected: Any
    """What the replay gives."""
    found: Any
    """What the log says."""
    event: int | None = None
    """The index of the event that differs, if it is an event."""

    def to_json(self) -> dict[str, Any]:
        """``{"seq", "event", "field", "expected", "found"}``."""
        return {
            "seq": self.seq,
            "event": self.event,
            "field": self.field,
            "expected": self.expected,
            "found": self.found,
        }

    def error(self) -> EngineError:
        """This mismatch as the error ``verify.replay_mismatch`` (params as in ``to_json``)."""
        return EngineError(
            "verify.replay_mismatch",
            seq=self.seq,
            event=self.event,
            field=self.field,
            expected=_short(self.expected),
            found=_short(self.found),
        )


@dataclass(frozen=True)
class ReplayResult:
    """How many records were replayed, and the first mismatch (``None``: all as logged)."""

    records: int
    mismatch: ReplayMismatch | None

    @property
    def ok(self) -> bool:
        """Every record replayed to exactly what the log says."""
        return self.mismatch is None


def replay_log(
    system: GameSystem[Any, Any, Any],
    options: Mapping[str, Any],
    records: Sequence[Record],
    *,
    streams: bool = False,
) -> ReplayResult:
    """Replay ``records`` on a fresh table of ``system`` with ``options`` (see the module);
    ``streams``: every record draws from its own stream (format 3, nothing is withheld
    between records)."""
    table = Table(system, options, streams=streams)
    shapes = shapes_of(system)
    records = [read_record(shapes, record) for record in records]  # in today's shape
    withheld = {} if streams else _withheld(records)
    expect_auto: Any = None  # the automatic command the table issues next, if any
    basis: Any = None  # the state that command is decided on
    chain = 0  # automatic records since the last command of a participant
    limit = automatic_limit(system, table.options)
    for count, record in enumerate(records):
        if record.seq != count + 1:
            return ReplayResult(count, ReplayMismatch(record.seq, "seq", count + 1, record.seq))
        redacted = record.command is None and record.undoes is None
        if not redacted:
            mismatch = _automatic(system, record, expect_auto, basis)
            if mismatch is not None:
                return ReplayResult(count, mismatch)
        made = record.seq <= table.seq  # the discovery the record before made
        mismatch = _replay_one(table, record, withheld.get(record.seq, 0))
        if mismatch is not None:
            return ReplayResult(count, mismatch)
        if made:
            continue  # part of the record before: what follows it follows that record
        chain = chain + 1 if record.actor == AUTO_ACTOR else 0
        expect_auto = None
        if record.command is not None and chain < limit and not is_chat(record):
            basis = table.state if record.hidden else table.shared_state
            expect_auto = system.automatic(basis)
    if expect_auto is not None and _would_run(system, basis, expect_auto):
        seq = len(records) + 1
        return ReplayResult(len(records), ReplayMismatch(seq, "actor", AUTO_ACTOR, _MISSING))
    return ReplayResult(len(records), None)


def _automatic(
    system: GameSystem[Any, Any, Any], record: Record, expected: Any, basis: Any
) -> ReplayMismatch | None:
    """Whether ``record`` is the automatic command the table was to issue next, if any.

    An automatic record must be expected and be that command. A participant's record may
    stand where an automatic one was expected only if that command was refused by the rules
    (then the table issued nothing): it must fail on its state before it rolls any die.
    """
    if record.actor == AUTO_ACTOR:
        if expected is None:
            return ReplayMismatch(record.seq, "actor", _MISSING, AUTO_ACTOR)
        wanted = system.commands.dump_python(expected, mode="json")
        return _first(record.seq, "command", wanted, record.command)
    if expected is not None and _would_run(system, basis, expected):
        return ReplayMismatch(record.seq, "actor", AUTO_ACTOR, record.actor)
    return None


def _would_run(system: GameSystem[Any, Any, Any], basis: Any, command: Any) -> bool:
    """Whether the rules accept ``command`` on ``basis`` (at least up to its first die)."""
    try:
        system.decide(basis, command, ReplaySource([]))
    except ReplayExhausted:
        return True  # it got as far as rolling
    except EngineError:
        return False
    return True


def _replay_one(table: Table, record: Record, withheld: int) -> ReplayMismatch | None:
    """Replay one record on ``table`` and compare; ``None`` when it is exactly as logged."""
    if record.seq <= table.seq:  # made by the record before: a discovery to its issuer alone
        made = table.records[record.seq - 1]
        return _first(
            record.seq,
            "",
            made.model_dump(mode="json", exclude={"seq"}),
            record.model_dump(mode="json", exclude={"seq"}),
        )
    if record.command is None and record.undoes is None:
        if withheld:
            # Stand-ins for draws the export withholds, so that later draws keep their place.
            start = table.next_draw
            filler = [DrawModel(index=start + k, sides=1, value=1) for k in range(withheld)]
            record = record.model_copy(update={"draws": [*record.draws, *filler]})
        expected_index = 0 if table.streams else table.next_draw
        for position, draw in enumerate(record.draws):
            if draw.index != expected_index + position:
                field = f"draws.{position}.index"
                return ReplayMismatch(record.seq, field, expected_index + position, draw.index)
        table.replay(record, Actor(id=record.actor, role=Role.GM))
        return None
    try:
        again = table.replay(record, Actor(id=record.actor, role=Role.GM))
    except ReplayExhausted as short:
        position = len(record.draws) if short.index < 0 else short.index - record.draws[0].index
        found = _MISSING if short.index < 0 else f"d{record.draws[position].sides}"
        return ReplayMismatch(record.seq, f"draws.{position}", f"d{short.sides}", found)
    except EngineError as refused:  # the rules refuse the recorded command now
        return ReplayMismatch(record.seq, "command", refused.code, "accepted")
    return _first(
        record.seq,
        "",
        again.model_dump(mode="json", exclude={"seq", "actor"}),
        record.model_dump(mode="json", exclude={"seq", "actor"}),
    )


def _withheld(records: Sequence[Record]) -> dict[int, int]:
    """Per redacted draw-less record: how many draws it withholds before the next logged one."""
    result: dict[int, int] = {}
    index = 0
    last_redacted: int | None = None
    for record in records:
        if record.command is None and record.undoes is None and not record.draws:
            last_redacted = record.seq
            continue
        if record.draws:
            first = record.draws[0].index
            if last_redacted is not None and first > index:
                result[last_redacted] = first - index
                index = first
            index += len(record.draws)
            last_redacted = None
    return result


def _first(seq: int, path: str, expected: Any, found: Any) -> ReplayMismatch | None:
    """The first difference between two JSON values, as a mismatch of record ``seq``."""
    if isinstance(expected, Mapping) and isinstance(found, Mapping):
        for key in [*expected, *(k for k in found if k not in expected)]:
            here = f"{path}.{key}" if path else str(key)
            mismatch = _first(seq, here, expected.get(key, _MISSING), found.get(key, _MISSING))
            if mismatch is not None:
                return mismatch
        return None
    if isinstance(expected, list) and isinstance(found, list):
        for position, (mine, theirs) in enumerate(zip(expected, found, strict=False)):
            mismatch = _first(seq, f"{path}.{position}", mine, theirs)
            if mismatch is not None:
                return mismatch
        if len(expected) != len(found):
            return _located(seq, f"{path}.count", len(expected), len(found))
        return None
    if expected == found and type(expected) is type(found):
        return None
    return _located(seq, path, expected, found)


def _located(seq: int, path: str, expected: Any, found: Any) -> ReplayMismatch:
    parts = path.split(".")
    event = (
        int(parts[1]) if parts[0] == "events" and len(parts) > 1 and parts[1].isdigit() else None
    )
    return ReplayMismatch(seq, path, expected, found, event)


def _short(value: Any) -> Any:
    """A value for a message, cut short if it is long."""
    text = repr(value)
    return value if len(text) <= 80 else f"{text[:77]}..."
