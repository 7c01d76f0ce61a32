"""The tables a process keeps in memory: a :class:`Table` that starts from a snapshot, absorbs
the records other writers committed, and renders each viewer's view once per state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spieltisch.engine.system import GameSystem
from spieltisch.engine.table import Record, Table
from spieltisch.engine.visibility import Viewer

__all__ = ["StoredTable"]


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
    ) -> StoredTable:
        """A table whose GM and shared states after record ``state_seq`` are ``states``; the
        later records are folded in."""
        table = cls(system, options)
        table.records = list(records[:state_seq])
        table._state, table._shared = states
        table.absorb(records[state_seq:])
        return table

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The system's view for ``viewer``, computed once per state and viewer."""
        memo: dict[Any, tuple[Any, dict[str, Any]]] = self.__dict__.setdefault("_views", {})
        state = self.state_for(viewer)
        known = memo.get(viewer.key)
        if known is not None and known[0] is state:
            return known[1]
        view = super().view(viewer)
        memo[viewer.key] = (state, view)
        return view

    def fork(self) -> StoredTable:
        """A copy to decide on; the original stays unchanged if the copy is thrown away."""
        copy = StoredTable(self.system, self.options)
        copy.records = list(self.records)
        copy._state, copy._shared = self._state, self._shared
        return copy
