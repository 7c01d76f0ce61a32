"""The tables a process keeps in memory: a :class:`Table` that starts from a snapshot and
absorbs the records other writers committed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.system import GameSystem
from spieltisch.engine.table import Record, Role, Table

__all__ = ["StoredTable"]


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
