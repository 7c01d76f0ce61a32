"""A table in memory: the append-only log of records and the state folded from it.

A :class:`Record` is one entry of the log: a command with the events it produced and every
raw die draw, or an undo that reverts an earlier record. The state is the fold of the events
of all records that are not undone; undo re-folds and is refused when a later record no longer
applies. Ownership of pieces is derived from the log as well (commands whose
:class:`~spieltisch.engine.system.Access` claims a piece).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from spieltisch.dice.fair import DiceSource, Draw, RecordingSource
from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.system import GameSystem, parse_command

__all__ = ["AUTO_ACTOR", "Actor", "DrawModel", "Record", "Role", "Table", "draws_of"]

MAX_AUTOMATIC = 500
"""Guard against a system that keeps issuing automatic commands."""

AUTO_ACTOR = "auto"
"""Actor id of commands the table issues by itself (AI seats, forced moves)."""


class Role(StrEnum):
    """A participant's role at a table."""

    GM = "gm"
    PLAYER = "player"
    SPECTATOR = "spectator"


class Actor(BaseModel):
    """Who issues a command: a participant id and role."""

    model_config = ConfigDict(frozen=True)

    id: str
    role: Role


class DrawModel(BaseModel):
    """A raw die draw as stored in the log (see :class:`spieltisch.dice.fair.Draw`)."""

    model_config = ConfigDict(frozen=True)

    index: int
    sides: int
    value: int


class Record(BaseModel):
    """One entry of a table's append-only log."""

    model_config = ConfigDict(frozen=True)

    seq: int
    """Position in the log, from 1, without gaps."""
    actor: str
    """Participant id, or ``"auto"`` for commands the table issued itself."""
    command: dict[str, Any] | None = None
    """The command as JSON; ``None`` for an undo record."""
    events: list[dict[str, Any]] = Field(default_factory=list)
    """The events as JSON, in order."""
    draws: list[DrawModel] = Field(default_factory=list)
    """Every raw die value drawn while deciding the command."""
    hidden: bool = False
    """Only the GM sees this record (hidden rolls, notes)."""
    undoes: int | None = None
    """For an undo record: the ``seq`` it reverts."""
    claims: str | None = None
    """A piece this record made the actor the owner of."""


class Table:
    """A game system, its options and its log; the state is folded from the log."""

    def __init__(
        self,
        system: GameSystem[Any, Any, Any],
        options: Mapping[str, Any] | None = None,
        records: Iterable[Record] = (),
    ) -> None:
        self.system = system
        self.options: dict[str, Any] = dict(options or {})
        self.records: list[Record] = []
        self._state = system.new_state(self.options)
        draws = 0
        for record in records:
            self._append(record, draws)
            draws += len(record.draws)
        self._state = self._fold(self.records, undoing=None)

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The current state: the fold of every event that is not undone."""
        return self._state

    @property
    def seq(self) -> int:
        """The sequence number of the last record (0 for an empty log)."""
        return len(self.records)

    @property
    def next_draw(self) -> int:
        """The index of the next raw die draw (draws are numbered across the whole log)."""
        return sum(len(record.draws) for record in self.records)

    def undone(self) -> set[int]:
        """Sequence numbers of the records that are reverted."""
        return {record.undoes for record in self.records if record.undoes is not None}

    def owners(self) -> dict[str, str]:
        """Piece → owning participant, from the records that claimed pieces and are not undone."""
        undone = self.undone()
        return {
            record.claims: record.actor
            for record in self.records
            if record.claims is not None and record.seq not in undone
        }

    def visible(self, role: Role) -> list[Record]:
        """The records ``role`` may see (hidden ones only for the GM)."""
        return [r for r in self.records if role is Role.GM or not r.hidden]

    # -- writing ---------------------------------------------------------------------------

    def execute(
        self,
        command: Any,
        actor: Actor,
        source_at: Callable[[int], DiceSource],
        *,
        hidden: bool = False,
        automatic: Callable[[Any], Any] | None = None,
    ) -> list[Record]:
        """Decide ``command`` for ``actor`` and append its record(s).

        ``source_at(index)`` gives the dice source positioned at raw draw ``index``. Automatic
        commands the system issues afterwards are appended as records of their own; they come
        from ``automatic(state)`` (default: ``system.automatic``; the server computes them in a
        process pool). On a :class:`RuleError` nothing changes.
        """
        next_automatic = automatic or self.system.automatic
        parsed = parse_command(self.system, command)
        self._authorize(parsed, actor, hidden)
        records = [self._decide(parsed, actor.id, source_at, hidden)]
        try:
            for _ in range(MAX_AUTOMATIC):
                issued = next_automatic(self._state)
                if issued is None:
                    break
                records.append(self._decide(issued, AUTO_ACTOR, source_at, hidden))
        except RuleError:
            pass  # an automatic command that fails leaves the human's record standing
        return records

    def undo(self, seq: int, actor: Actor) -> Record:
        """Revert record ``seq`` (GM only). Refused if a later record depends on it."""
        if actor.role is not Role.GM:
            raise RuleError("rule.forbidden", action="undo")
        if not 1 <= seq <= len(self.records):
            raise RuleError("table.unknown_record", seq=seq)
        target = self.records[seq - 1]
        if target.undoes is not None:
            raise RuleError("table.not_undoable", seq=seq)
        if seq in self.undone():
            raise RuleError("table.already_undone", seq=seq)
        # Undoing a hidden record is hidden too: it names the record only the GM has seen.
        record = Record(seq=len(self.records) + 1, actor=actor.id, undoes=seq, hidden=target.hidden)
        state = self._fold([*self.records, record], undoing=seq)
        self.records.append(record)
        self._state = state
        return record

    # -- internals -------------------------------------------------------------------------

    def _authorize(self, command: Any, actor: Actor, hidden: bool) -> None:
        if actor.role is Role.SPECTATOR:
            raise RuleError("rule.forbidden", action=getattr(command, "kind", "command"))
        if actor.role is Role.GM:
            return
        access = self.system.access(self._state, command)
        kind = getattr(command, "kind", "command")
        if hidden or access.gm_only:
            raise RuleError("rule.forbidden", action=kind)
        if access.piece is not None:
            owner = self.owners().get(access.piece)
            # A claim may take a free piece (or re-claim one's own), never someone else's.
            if owner != actor.id and not (access.claims and owner is None):
                raise RuleError("rule.forbidden", action=kind)

    def _decide(
        self,
        command: Any,
        actor_id: str,
        source_at: Callable[[int], DiceSource],
        hidden: bool,
    ) -> Record:
        recorder = RecordingSource(source_at(self.next_draw), start=self.next_draw)
        events = self.system.decide(self._state, command, recorder)
        state = self._state
        for event in events:
            state = self.system.evolve(state, event)
        access = self.system.access(self._state, command)
        record = Record(
            seq=len(self.records) + 1,
            actor=actor_id,
            command=self.system.commands.dump_python(command, mode="json"),
            events=[self.system.events.dump_python(e, mode="json") for e in events],
            draws=[DrawModel(index=d.index, sides=d.sides, value=d.value) for d in recorder.draws],
            hidden=hidden,
            claims=access.piece if access.claims and actor_id != AUTO_ACTOR else None,
        )
        self.records.append(record)
        self._state = state
        return record

    def _append(self, record: Record, next_draw: int) -> None:
        # An imported log must be one this class could have written: otherwise undo targets or
        # draw indexes could clash with later records (a reused draw index repeats a roll).
        if record.seq != len(self.records) + 1:
            raise EngineError("table.bad_export", detail=f"record seq {record.seq} out of order")
        if record.undoes is not None and not (
            1 <= record.undoes < record.seq and self.records[record.undoes - 1].undoes is None
        ):
            raise EngineError(
                "table.bad_export", detail=f"record {record.seq}: bad undo of {record.undoes}"
            )
        for offset, draw in enumerate(record.draws):
            if draw.index != next_draw + offset:
                raise EngineError(
                    "table.bad_export",
                    detail=f"record {record.seq}: draw index {draw.index}, "
                    f"expected {next_draw + offset}",
                )
        self.records.append(record)

    def _fold(self, records: list[Record], undoing: int | None) -> Any:
        undone = {r.undoes for r in records if r.undoes is not None}
        state = self.system.new_state(self.options)
        for record in records:
            if record.undoes is not None or record.seq in undone:
                continue
            for data in record.events:
                try:
                    state = self.system.evolve(state, self.system.events.validate_python(data))
                except (RuleError, ValueError) as error:
                    if undoing is None:
                        raise EngineError(
                            "table.bad_export", detail=f"record {record.seq}: {error}"
                        ) from None
                    raise RuleError(
                        "table.undo_dependent",
                        seq=undoing,
                        dependent=record.seq,
                        reason=error if isinstance(error, RuleError) else str(error),
                    ) from None
        return state


def draws_of(records: Iterable[Record]) -> list[Draw]:
    """Every raw draw of a log, in order (for verifying the dice)."""
    return [Draw(d.index, d.sides, d.value) for r in records for d in r.draws]
