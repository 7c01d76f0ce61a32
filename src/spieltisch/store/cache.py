"""The tables a process keeps in memory: a :class:`Table` that starts from a snapshot, absorbs
the records other writers committed, and renders each viewer's view once per state.

A cached table is shared by every request and WebSocket of its table, so what is derived from
it is derived once: each viewer's view and its JSON text per state, and each record's JSON
text (shared with the table's forks, so the text written to the database is the one sent).
"""

from __future__ import annotations

import json
import operator
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any, SupportsIndex, overload

from spieltisch import jsonpatch
from spieltisch.engine.system import GameSystem
from spieltisch.engine.table import Record, Table, read_record
from spieltisch.engine.visibility import Role, Viewer, sees

__all__ = ["LazyLog", "LogFacts", "StoredTable", "view_class"]

_SPECTATOR = Viewer(Role.SPECTATOR)


def view_class(viewer: Viewer) -> Viewer:
    """The viewer whose view ``viewer`` gets: a spectator who owns nothing sees what a nameless
    spectator sees (the shared state is the same for all, and a view leaves out what belongs to
    someone else: without a name one can only see less), so all of them share one view."""
    if viewer.role is Role.SPECTATOR and not viewer.pieces:
        return _SPECTATOR
    return viewer


class _Head:
    """The older records of a log, read once when first asked for, and the lock its copies
    take to append (shared by all of them)."""

    def __init__(self, count: int, read: Callable[[], Sequence[Record]]) -> None:
        self.count = count
        self._read = read
        self._records: list[Record] | None = [] if count == 0 else None
        self._lock = threading.Lock()
        self.appending = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the records were read."""
        return self._records is not None

    def records(self) -> list[Record]:
        """The records, read on the first call."""
        with self._lock:
            if self._records is None:
                records = list(self._read())
                if len(records) != self.count:
                    raise RuntimeError(f"read {len(records)} older records, not {self.count}")
                self._records = records
            return self._records


class LazyLog:
    """A table's log whose first records stay in the database until they are asked for, and
    whose copies cost nothing.

    A table loaded from a snapshot holds only the records after it (the tail); its length,
    the tail and appending cost nothing. Asking for an older record (an undo, the paged
    history reaching back, an export) reads all of them once, in one query, shared with the
    log's copies. Records never change once written, so reading them later gives what reading
    them at once would have.

    A copy (:meth:`copy`, for each command's fork of a cached table) shares the tail's list
    and remembers its own length: appending at the end of the shared list extends it in
    place, and only a copy that finds records of another copy after its end (a fork that was
    thrown away) copies the list first.
    """

    def __init__(self, head: _Head, tail: list[Record], length: int | None = None) -> None:
        self._head = head
        self._tail = tail
        self._length = len(tail) if length is None else length
        """How many records of ``_tail`` are this log's."""

    @classmethod
    def reading(cls, count: int, read: Callable[[], Sequence[Record]]) -> LazyLog:
        """A log whose first ``count`` records ``read`` gives when they are first needed."""
        return cls(_Head(count, read), [])

    @classmethod
    def holding(cls, records: Iterable[Record]) -> LazyLog:
        """A log of ``records``, all in memory."""
        return cls(_Head(0, list), list(records))

    @property
    def unread(self) -> int:
        """How many older records are not in memory (0 once they were read)."""
        return 0 if self._head.loaded else self._head.count

    def copy(self) -> LazyLog:
        """A log with the same records that grows on its own."""
        return LazyLog(self._head, self._tail, self._length)

    def append(self, record: Record, /) -> None:
        """Add the next record."""
        with self._head.appending:
            if self._length != len(self._tail):  # another copy went on from here
                self._tail = self._tail[: self._length]
            self._tail.append(record)
            self._length += 1

    def __len__(self) -> int:
        return self._head.count + self._length

    def __eq__(self, other: object) -> bool:
        """The same records as ``other``, a log or a list (reads the older ones)."""
        if not isinstance(other, LazyLog | list):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list

    def __iter__(self) -> Iterator[Record]:
        tail = islice(self._tail, self._length)
        if self._head.count == 0:
            return tail
        return chain(self._head.records(), tail)

    @overload
    def __getitem__(self, index: SupportsIndex, /) -> Record: ...

    @overload
    def __getitem__(self, index: slice, /) -> list[Record]: ...

    def __getitem__(self, index: SupportsIndex | slice, /) -> Record | list[Record]:
        held = self._head.count
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step == 1 and start >= held:  # only the tail: nothing to read
                return self._tail[start - held : max(start, stop) - held]
            return list(self)[index]
        position = operator.index(index)
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError("log index out of range")
        if position >= held:
            return self._tail[position - held]
        return self._head.records()[position]


@dataclass(frozen=True)
class LogFacts:
    """What a table derives from its whole log, kept in a snapshot so that a table loaded
    from it needs no record before it: the number of raw draws and who owns which piece, as
    each role sees it (:meth:`Table.owners`)."""

    draws: int
    owners: Mapping[str, Mapping[str, str]]
    """Role value → piece → owner."""

    def to_json(self) -> dict[str, Any]:
        """As stored in a snapshot."""
        return {"draws": self.draws, "owners": {k: dict(v) for k, v in self.owners.items()}}

    @classmethod
    def from_json(cls, data: Any) -> LogFacts | None:
        """From a snapshot; ``None`` if it is not a well-formed set of facts."""
        if not isinstance(data, dict):
            return None
        draws, owners = data.get("draws"), data.get("owners")
        if not isinstance(draws, int) or draws < 0 or not isinstance(owners, dict):
            return None
        if set(owners) != {role.value for role in Role}:
            return None
        for per_role in owners.values():
            if not isinstance(per_role, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in per_role.items()
            ):
                return None
        return cls(draws, owners)


class StoredTable(Table):
    """A :class:`Table` that can start from a snapshot and absorb records committed elsewhere."""

    @classmethod
    def resume(
        cls,
        system: GameSystem[Any, Any, Any],
        options: Mapping[str, Any],
        log: LazyLog,
        states: tuple[Any, Any],
        facts: LogFacts,
        tail: Sequence[Record],
        *,
        streams: bool = False,
        private: Mapping[str, Any] | None = None,
    ) -> StoredTable:
        """A table whose GM and shared states after the records of ``log`` are ``states``,
        whose participants' own folds are ``private`` and whose ``facts`` are those of that
        log (a snapshot); ``log`` reads its records only when they are asked for. The records
        ``tail`` after it are folded in."""
        table = cls(system, options, streams=streams)
        table.records = log
        table._state, table._shared = states
        table._private = dict(private or {})
        table._remember_at("_draws", facts.draws)
        for role, owners in facts.owners.items():
            table._remember_at(f"_owners_{role}", dict(owners))
        table.absorb(tail)
        return table

    def facts(self) -> LogFacts:
        """This log's :class:`LogFacts` (each caught up with the records added since it was
        last asked)."""
        return LogFacts(self.next_draw, {role.value: self.owners(role) for role in Role})

    @classmethod
    def restore(
        cls,
        system: GameSystem[Any, Any, Any],
        options: Mapping[str, Any],
        records: Sequence[Record],
        states: tuple[Any, Any],
        state_seq: int,
        *,
        streams: bool = False,
    ) -> StoredTable:
        """A table whose GM and shared states after record ``state_seq`` are ``states``; the
        later records are folded in."""
        table = cls(system, options, streams=streams)
        table.records = [read_record(table._shapes, record) for record in records[:state_seq]]
        table._state, table._shared = states
        table.absorb(records[state_seq:])
        return table

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The system's view for ``viewer``, computed once per state and viewer class
        (:func:`view_class`: every spectator who owns nothing shares one)."""
        viewer = view_class(viewer)
        memo: dict[Any, tuple[Any, dict[str, Any]]] = self.__dict__.setdefault("_views", {})
        state = self.state_for(viewer)
        known = memo.get(viewer.key)
        if known is not None and known[0] is state:
            return known[1]
        view = super().view(viewer)
        memo[viewer.key] = (state, view)
        return view

    def view_json(self, viewer: Viewer) -> str:
        """:meth:`view` as compact JSON text, encoded once per state and viewer class."""
        viewer = view_class(viewer)
        memo: dict[Any, tuple[Any, str]] = self.__dict__.setdefault("_view_texts", {})
        state = self.state_for(viewer)
        known = memo.get(viewer.key)
        if known is not None and known[0] is state:
            return known[1]
        text = json.dumps(self.view(viewer), separators=(",", ":"))
        memo[viewer.key] = (state, text)
        return text

    def patch_json(self, base: StoredTable, viewer: Viewer) -> str | None:
        """The JSON Patch (RFC 6902, as text) from ``viewer``'s view of ``base`` (an earlier
        version of this table) to its view of this one; ``None`` when the patch would be
        longer than the view itself (send the view then).

        Kept per pair of view texts: viewers whose views are alike (every spectator, players
        who own nothing) share one diff.
        """
        old, new = base.view_json(viewer), self.view_json(viewer)
        memo: dict[tuple[str, str], str | None] = self.__dict__.setdefault("_patches", {})
        key = (old, new)
        if key in memo:
            return memo[key]
        operations = jsonpatch.diff(base.view(viewer), self.view(viewer))
        text: str | None = json.dumps(operations, separators=(",", ":"))
        if len(text or "") >= len(new):
            text = None
        memo[key] = text
        return text

    def record_json(self, record: Record) -> str:
        """``record.model_dump_json()``, dumped once for this table and its forks.

        Kept by ``seq`` together with the record itself and used only for that very object:
        a fork that was thrown away may have had another record at the same ``seq``.
        """
        memo = self._record_texts()
        known = memo.get(record.seq)
        if known is not None and known[0] is record:
            return known[1]
        text = record.model_dump_json()
        memo[record.seq] = (record, text)
        return text

    @property
    def next_draw(self) -> int:
        """As :attr:`Table.next_draw`, counting only the records added since the last ask."""
        memo = self._since_memo("_draws")
        count = 0 if memo is None else memo[0]
        start = 0 if memo is None else memo[1]
        count += sum(len(record.draws) for record in self.records[start:])
        self._remember_at("_draws", count)
        return count

    def owners(self, viewer: Viewer | Role = Role.GM) -> dict[str, str]:
        """As :meth:`Table.owners`; for a bare role kept per role and caught up with the
        records added since (an undo among them: counted anew)."""
        if not isinstance(viewer, Role):
            return super().owners(viewer)
        name = f"_owners_{viewer.value}"
        memo = self._since_memo(name)
        if memo is not None and memo[1] == len(self.records):  # asked again (each connection)
            return dict(memo[0])
        added = self.records[memo[1] :] if memo is not None else None
        if memo is None or added is None or any(r.undoes is not None for r in added):
            owners = super().owners(viewer)
        else:
            owners = dict(memo[0])
            for record in added:
                if record.claims is not None and sees(viewer, record):
                    owners[record.claims] = record.actor
        self._remember_at(name, owners)
        return dict(owners)

    def _since_memo(self, name: str) -> tuple[Any, int] | None:
        """A value remembered for this log up to some record, and how many records that was.

        A log only grows, and its copies (:meth:`fork`) share the records up to where they
        were copied, so a value remembered at a length holds for every longer log of this
        table (a length beyond this log's: not for this one)."""
        known: tuple[Any, int] | None = self.__dict__.get(name)
        if known is None or known[1] > len(self.records):
            return None
        return known

    def _remember_at(self, name: str, value: Any) -> None:
        self.__dict__[name] = (value, len(self.records))

    def _record_texts(self) -> dict[int, tuple[Record, str]]:
        memo: dict[int, tuple[Record, str]] = self.__dict__.setdefault("_texts", {})
        return memo

    def fork(self) -> StoredTable:
        """A copy to decide on; the original stays unchanged if the copy is thrown away."""
        copy = StoredTable(self.system, self.options, streams=self.streams)
        if not isinstance(self.records, LazyLog):  # the same records, copied for nothing
            self.records = LazyLog.holding(self.records)
        copy.records = self.records.copy()
        copy._state, copy._shared, copy._private = self._state, self._shared, self._private
        copy.__dict__["_texts"] = self._record_texts()
        for name, value in self.__dict__.items():
            if name == "_draws" or name.startswith("_owners_"):
                copy.__dict__[name] = value  # the same records up to there
        return copy
