"""The tables a process keeps in memory: a :class:`Table` that starts from a snapshot, absorbs
the records other writers committed, and renders each viewer's view once per state.

A cached table is shared by every request and WebSocket of its table, so what is derived from
it is derived once: each viewer's view and its JSON text per state, and each record's JSON
text (shared with the table's forks, so the text written to the database is the one sent).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from spieltisch import jsonpatch
from spieltisch.engine.system import GameSystem
from spieltisch.engine.table import Record, Table, read_record
from spieltisch.engine.visibility import Role, Viewer, sees

__all__ = ["StoredTable", "view_class"]

_SPECTATOR = Viewer(Role.SPECTATOR)


def view_class(viewer: Viewer) -> Viewer:
    """The viewer whose view ``viewer`` gets: a spectator who owns nothing sees what a nameless
    spectator sees (the shared state is the same for all, and a view leaves out what belongs to
    someone else: without a name one can only see less), so all of them share one view."""
    if viewer.role is Role.SPECTATOR and not viewer.pieces:
        return _SPECTATOR
    return viewer


class StoredTable(Table):
    """A :class:`Table` that can start from a snapshot and absorb records committed elsewhere."""

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

        Only valid while the log still holds the very record it was remembered at (the log
        only grows; a table is never rewound, but a check costs nothing)."""
        known: tuple[Any, int, Record | None] | None = self.__dict__.get(name)
        if known is None:
            return None
        value, length, last = known
        if length > len(self.records) or (length and self.records[length - 1] is not last):
            return None
        return value, length

    def _remember_at(self, name: str, value: Any) -> None:
        length = len(self.records)
        self.__dict__[name] = (value, length, self.records[length - 1] if length else None)

    def _record_texts(self) -> dict[int, tuple[Record, str]]:
        memo: dict[int, tuple[Record, str]] = self.__dict__.setdefault("_texts", {})
        return memo

    def fork(self) -> StoredTable:
        """A copy to decide on; the original stays unchanged if the copy is thrown away."""
        copy = StoredTable(self.system, self.options, streams=self.streams)
        copy.records = list(self.records)
        copy._state, copy._shared, copy._private = self._state, self._shared, self._private
        copy.__dict__["_texts"] = self._record_texts()
        for name, value in self.__dict__.items():
            if name == "_draws" or name.startswith("_owners_"):
                copy.__dict__[name] = value  # the same records up to there
        return copy
