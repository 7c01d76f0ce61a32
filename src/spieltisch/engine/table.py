"""A table in memory: the append-only log of records and the state folded from it.

A :class:`Record` is one entry of the log: a command with the events it produced and every
raw die draw, or an undo that reverts an earlier record. The state is the fold of the events
of all records that are not undone; undo re-folds and is refused when a later record no longer
applies. Ownership of pieces is derived from the log as well (commands whose
:class:`~spieltisch.engine.system.Access` claims a piece).

A table keeps two folds: the GM's (every record) and the shared one (the records everyone
sees, :mod:`spieltisch.engine.visibility`). Players and spectators only ever get the shared
fold. A visible record is decided on the shared fold (so nothing visible depends on, targets
or reveals a hidden record, and a redacted log replays on its own) and must also apply to the
GM's fold; a hidden record is decided on the GM's fold and leaves the shared one alone.
Where a visible command runs into something hidden (a system implementing
:class:`~spieltisch.engine.system.Contact`: a move onto a secret creature's square), the
system's ``contact`` replaces its events by the command cut short and the discovery of what
it touched; the record says so (``contact``). With the table option ``discovery`` set to
``"player"`` the discovery is a record of its own addressed to the command's issuer, which
changes that participant's own fold alone (:attr:`Table.private_folds`). Checking a command
(:meth:`Table.check`) never consults the GM's fold for anyone but the GM.

Chat (:mod:`spieltisch.engine.chat`: the reserved kinds ``say`` and ``whisper``) is decided
here for every system; its records change neither fold, and a whisper carries its audience.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from typing import Any, Protocol, SupportsIndex, overload

from pydantic import BaseModel, ConfigDict, Field

from spieltisch.dice.fair import DiceSource, Draw, RecordingSource, ReplaySource, SeededSource
from spieltisch.engine import chat
from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.permissions import check_fields, makes_secret
from spieltisch.engine.system import Contact, GameSystem, automatic_limit, parse_command
from spieltisch.engine.upcast import EventShapes, shapes_of
from spieltisch.engine.visibility import Actor, Role, Viewer, sees
from spieltisch.errors import SpieltischError

__all__ = [
    "AUTO_ACTOR",
    "Actor",
    "DrawModel",
    "Log",
    "Record",
    "Role",
    "Table",
    "Viewer",
    "draws_of",
    "read_record",
]

AUTO_ACTOR = "auto"
"""Actor id of commands the table issues by itself (AI seats, forced moves)."""


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
    audience: list[str] | None = None
    """Participants who see this record besides the GM (a whisper: sender and recipient);
    ``None``: everyone who sees the table (see :func:`spieltisch.engine.visibility.sees`)."""
    contact: bool = False
    """The visible command ran into something hidden: ``events`` are what the system's
    :meth:`~spieltisch.engine.system.Contact.contact` made of the events decided on the shared
    fold (the command cut short, then the discovery of what it touched)."""


class Log(Protocol):
    """What a table keeps its records in, oldest first: a list, or a log that reads its
    older records only when they are asked for (:class:`spieltisch.store.cache.LazyLog`)."""

    def __len__(self) -> int: ...

    @overload
    def __getitem__(self, index: SupportsIndex, /) -> Record: ...

    @overload
    def __getitem__(self, index: slice, /) -> list[Record]: ...

    def __iter__(self) -> Iterator[Record]: ...

    def append(self, record: Record, /) -> None:
        """Add the next record."""


class Table:
    """A game system, its options and its log; the state is folded from the log."""

    def __init__(
        self,
        system: GameSystem[Any, Any, Any],
        options: Mapping[str, Any] | None = None,
        records: Iterable[Record] = (),
        *,
        streams: bool = False,
    ) -> None:
        self.system = system
        self.options: dict[str, Any] = dict(options or {})
        self.streams = streams
        """Every record draws from a stream of its own (format 3): ``source_at`` is asked for
        the record's ``seq`` and its draws are numbered from 0. Otherwise (formats 1 and 2)
        draws are numbered across the whole log and ``source_at`` is asked for the index."""
        self.records: Log = []
        self._shapes = shapes_of(system)
        """The event shapes every event is read through (:mod:`spieltisch.engine.upcast`)."""
        self._state = self._shared = system.new_state(self.options)
        self._private: dict[str, Any] = {}
        """Participant → their own fold, for those shown something alone (a discovery, by the
        table option ``discovery``): the shared fold and the records addressed to them."""
        self._withheld = False
        """A hidden record's content was withheld from this log (see :meth:`replay`)."""
        draws = 0
        for record in records:
            record = read_record(self._shapes, record)
            self._append(record, 0 if streams else draws)
            draws += len(record.draws)
        self._state, self._shared, self._private = self._fold(self.records, undoing=None)

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The GM's state: the fold of every event that is not undone."""
        return self._state

    @property
    def shared_state(self) -> Any:
        """The state everyone sees: the fold of the visible records that are not undone."""
        return self._shared

    def state_for(self, viewer: Viewer | Role) -> Any:
        """The state ``viewer`` may see: the GM's, or the shared one, never the GM's to others;
        a player who was shown something alone (:attr:`private_folds`) sees their own fold."""
        if isinstance(viewer, Role):
            return self._state if viewer is Role.GM else self._shared
        if viewer.role is Role.PLAYER and viewer.participant in self._private:
            return self._private[viewer.participant]
        return self._state if viewer.role is Role.GM else self._shared

    @property
    def private_folds(self) -> Mapping[str, Any]:
        """Participant → the fold of the records they see, for every participant who was
        shown something alone (records addressed to them that change state: a discovery
        by the table option ``discovery``); empty at most tables."""
        return self._private

    @property
    def discovers_alone(self) -> bool:
        """Whether what a command discovers by contact is shown to its issuer alone (the
        table option ``discovery`` is ``"player"``) rather than to the table."""
        return isinstance(self.system, Contact) and self.options.get("discovery") == "player"

    def viewer(self, actor: Actor) -> Viewer:
        """The viewer ``actor`` is: its role and the pieces it owns now."""
        owners = self.owners(actor.role)
        pieces = frozenset(piece for piece, owner in owners.items() if owner == actor.id)
        return Viewer(actor.role, actor.id, pieces)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The system's view of the state ``viewer`` may see."""
        return self.system.view(self.state_for(viewer), viewer)

    @property
    def seq(self) -> int:
        """The sequence number of the last record (0 for an empty log)."""
        return len(self.records)

    @property
    def next_draw(self) -> int:
        """The index of the next raw die draw (draws are numbered across the whole log)."""
        return sum(len(record.draws) for record in self.records)

    def _dice_key(self) -> tuple[int, int]:
        """What the next record's dice are asked for, and the index of its first draw: its
        ``seq`` and 0 with streams, else the next draw of the whole log twice."""
        if self.streams:
            return len(self.records) + 1, 0
        start = self.next_draw
        return start, start

    def undone(self) -> set[int]:
        """Sequence numbers of the records that are reverted."""
        return {record.undoes for record in self.records if record.undoes is not None}

    def owners(self, viewer: Viewer | Role = Role.GM) -> dict[str, str]:
        """Piece → owning participant, from the records that claimed pieces and are not undone.

        Only the records ``viewer`` sees count: a piece the GM claimed in a hidden record (a
        hidden kitty) is nobody's to everyone else, as if it did not exist.
        """
        undone = self.undone()
        return {
            record.claims: record.actor
            for record in self.records
            if record.claims is not None and record.seq not in undone and sees(viewer, record)
        }

    def visible(self, viewer: Viewer | Role, since: int = 0) -> list[Record]:
        """The records after ``since`` that ``viewer`` may see (hidden ones only for the GM,
        whispers only for their audience and the GM)."""
        return [r for r in self.records[max(since, 0) :] if sees(viewer, r)]

    # -- writing ---------------------------------------------------------------------------

    def execute(
        self,
        command: Any,
        actor: Actor,
        source_at: Callable[[int], DiceSource],
        *,
        hidden: bool = False,
        automatic: Callable[[Any], Any] | None = None,
        participants: Mapping[str, Role] | None = None,
        gone: Collection[str] = (),
    ) -> list[Record]:
        """Decide ``command`` for ``actor`` and append its record(s).

        ``source_at(key)`` gives the dice source of the record: with :attr:`streams` ``key`` is
        its ``seq``, else the index of the raw draw the source is positioned at. Automatic
        commands the system issues afterwards are appended as records of their own; they come
        from ``automatic(state)`` (default: ``system.automatic``; the server computes them in a
        process pool). On a :class:`RuleError` nothing changes.
        A chat command (``say``, ``whisper``) is decided by :mod:`spieltisch.engine.chat`;
        ``participants`` (id → role) is who a whisper may go to. ``gone`` are participants
        who left the table or were removed: the pieces they owned are nobody's now (the GM
        acts for them; a command that claims a free piece may take them).
        """
        if chat.is_chat_command(command):
            return [self._chat(chat.parse_chat(command), actor, source_at, hidden, participants)]
        parsed = parse_command(self.system, command)
        hidden = hidden or makes_secret(parsed)  # a secret is never an open record
        self._authorize(parsed, actor, hidden, gone)
        first = len(self.records)
        self._decide(parsed, actor.id, source_at, hidden, actor.role is Role.GM)
        plan = automatic or self.system.automatic
        try:
            for _ in range(automatic_limit(self.system, self.options)):
                follow = plan(self._state if hidden else self._shared)
                if follow is None:
                    break
                self._decide(follow, AUTO_ACTOR, source_at, hidden)
        except RuleError:
            pass  # an automatic command that fails leaves the human's record standing
        return self.records[first:]

    def check(
        self, command: Any, actor: Actor, *, hidden: bool = False, gone: Collection[str] = ()
    ) -> SpieltischError | None:
        """Whether :meth:`execute` would accept ``command`` from ``actor`` now: ``None``, or
        the error it would raise. Nothing is written and no state changes.

        A player's or a spectator's answer is decided on what they see alone: their
        permissions and the shared fold, never the GM's. So an answer never moves with a
        hidden record (a hidden id answers as an unknown one, a square with a secret creature
        as an empty one): probing for hidden things costs a real command, which is logged
        and which the GM sees (where it runs into something hidden, it discovers it, see
        :class:`~spieltisch.engine.system.Contact`). Such a command may still be refused when
        executed where the GM's hidden records changed what it builds on
        (``table.hidden_conflict``, see ``docs/table-api.md``). The GM's answer is the one
        executing gives: a visible command also against his fold, contact included, and
        ``table.hidden_conflict`` where it would only work on his fold.

        The dice are a fixed probe source: whether a command is legal never depends on what
        its dice will show. Automatic follow-ups are not tried (they never make a human's
        command fail). A chat command is checked for who may write (the recipient of a
        whisper is checked on sending).
        """
        try:
            if chat.is_chat_command(command):
                said = chat.parse_chat(command)
                if actor.role is Role.SPECTATOR or (hidden and actor.role is not Role.GM):
                    raise RuleError("rule.forbidden", action=said.kind)
                return None
            parsed = parse_command(self.system, command)
            hidden = hidden or makes_secret(parsed)
            self._authorize(parsed, actor, hidden, gone)
            if actor.role is Role.GM:
                events, _ = self._events(
                    parsed, SeededSource(0), hidden, gm=True, probe=lambda: SeededSource(0)
                )
                self._evolve(hidden, events)  # pure: the folds it returns are dropped
            else:  # _authorize refused a hidden record: decided and applied on the shared fold
                shared = self._shared
                for event in self.system.decide(shared, parsed, SeededSource(0)):
                    shared = self.system.evolve(shared, event)
        except SpieltischError as error:
            if not isinstance(error, ValueError):
                raise  # not the command's fault (a broken store, a bug): as when executing
            return error
        return None

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
        # Undoing a whisper is seen by the whisper's audience alone, for the same reason.
        record = Record(
            seq=len(self.records) + 1,
            actor=actor.id,
            undoes=seq,
            hidden=target.hidden,
            audience=target.audience,
        )
        state, shared, private = self._fold([*self.records, record], undoing=seq)
        self.records.append(record)
        self._state, self._shared, self._private = state, shared, private
        return record

    def absorb(self, records: Iterable[Record]) -> None:
        """Append records that were decided elsewhere (committed by another writer) and fold
        them in; an undo re-folds."""
        for record in records:
            if record.seq != len(self.records) + 1:
                raise EngineError(
                    "table.bad_export", detail=f"record seq {record.seq} out of order"
                )
            record = read_record(self._shapes, record)
            self.records.append(record)
            if record.undoes is not None:
                self._state, self._shared, self._private = self._fold(self.records, undoing=None)
                continue
            if chat.is_chat(record):
                continue  # chat changes no state
            events = [self._event(data) for data in record.events]
            if record.audience is not None:  # shown to some alone: their folds
                self._private = self._tell(self._private, self._shared, record.audience, events)
                continue
            self._state, self._shared, self._private = self._evolve(record.hidden, events)

    def replay(self, record: Record, actor: Actor) -> Record:
        """Decide ``record``'s command again with its own draws and append what that gives.

        The caller compares the result with ``record`` (verification by replay). A record
        whose command was withheld (a hidden record in a player's export) is appended as it
        is: it has no events. Undo records are replayed through :meth:`undo`. A discovery
        addressed to its issuer alone (see :attr:`discovers_alone`) is made by replaying the
        record before it; replaying it returns the record the table made.
        """
        if record.undoes is not None:
            return self.undo(record.undoes, actor)
        if record.seq <= len(self.records):
            return self.records[record.seq - 1]
        if record.command is None:
            self._append(record, self._dice_key()[1])
            self._withheld = self._withheld or record.hidden
            return record
        draws = [Draw(d.index, d.sides, d.value) for d in record.draws]
        if chat.is_chat(record):
            actor = Actor(id=record.actor, role=Role.GM)  # permissions are not re-checked
            command = chat.parse_chat(record.command)
            return self._chat(command, actor, lambda _index: ReplaySource(draws), record.hidden)
        parsed = parse_command(self.system, record.command)

        def source(_index: int) -> DiceSource:
            return ReplaySource(draws)

        if record.contact and self._withheld and not record.hidden:
            # Decided by contact with what this log withholds: the draws are decided again
            # on the shared fold, the events are taken as recorded and must apply to it.
            recorded = [self._event(data) for data in record.events]
            return self._decide(parsed, record.actor, source, False, recorded=recorded)
        return self._decide(parsed, record.actor, source, record.hidden)

    # -- internals -------------------------------------------------------------------------

    def _chat(
        self,
        command: chat.Say | chat.Whisper,
        actor: Actor,
        source_at: Callable[[int], DiceSource],
        hidden: bool,
        participants: Mapping[str, Role] | None = None,
    ) -> Record:
        """Decide a chat command and append its record; neither fold changes.

        Spectators read chat but do not write; only the GM writes hidden (a note to self).
        """
        if actor.role is Role.SPECTATOR or (hidden and actor.role is not Role.GM):
            raise RuleError("rule.forbidden", action=command.kind)
        if isinstance(command, chat.Whisper) and participants is not None:
            chat.check_recipient(command, actor, participants)
        key, start = self._dice_key()
        recorder = RecordingSource(source_at(key), start=start)
        events = chat.decide(command, recorder)
        record = Record(
            seq=len(self.records) + 1,
            actor=actor.id,
            command=chat.COMMANDS.dump_python(command, mode="json"),
            events=[self._shapes.mark(chat.EVENTS.dump_python(e, mode="json")) for e in events],
            draws=[DrawModel(index=d.index, sides=d.sides, value=d.value) for d in recorder.draws],
            hidden=hidden,
            audience=chat.audience(command, actor.id),
        )
        self.records.append(record)
        return record

    def _authorize(
        self, command: Any, actor: Actor, hidden: bool, gone: Collection[str] = ()
    ) -> None:
        if actor.role is Role.SPECTATOR:
            raise RuleError("rule.forbidden", action=getattr(command, "kind", "command"))
        if actor.role is Role.GM:
            return
        access = self.system.access(self._shared, command)
        kind = getattr(command, "kind", "command")
        if access.gm_only:
            raise RuleError("rule.forbidden", action=kind)
        check_fields(command)  # names a GM-only field (a secret flag among them) a player set
        if hidden:
            raise RuleError("rule.forbidden", action=kind)
        if access.piece is not None:
            owner = self.owners(actor.role).get(access.piece)
            if owner in gone:
                owner = None  # its owner left the table: nobody's now
            # A claim may take a free piece (or re-claim one's own), never someone else's.
            if owner != actor.id and not (access.claims and owner is None):
                raise RuleError("rule.forbidden", action=kind)

    def _decide(
        self,
        command: Any,
        actor_id: str,
        source_at: Callable[[int], DiceSource],
        hidden: bool,
        gm: bool = False,
        *,
        recorded: list[Any] | None = None,
    ) -> Record:
        key, start = self._dice_key()
        recorder = RecordingSource(source_at(key), start=start)
        events, contact = self._events(command, recorder, hidden, gm, lambda: source_at(key))
        if recorded is not None:
            events, contact = recorded, True
        basis = self._state if hidden else self._shared
        access = self.system.access(basis, command)
        found: list[Any] = []
        if contact and recorded is None and self.discovers_alone and actor_id != AUTO_ACTOR:
            events, found = events[:-1], events[-1:]  # the discovery: to the issuer alone
        state, shared, private = self._evolve(hidden, events)
        record = Record(
            seq=len(self.records) + 1,
            actor=actor_id,
            command=self.system.commands.dump_python(command, mode="json"),
            events=[self._dump(e) for e in events],
            draws=[DrawModel(index=d.index, sides=d.sides, value=d.value) for d in recorder.draws],
            hidden=hidden,
            claims=access.piece if access.claims and actor_id != AUTO_ACTOR else None,
            contact=contact,
        )
        self.records.append(record)
        self._state, self._shared, self._private = state, shared, private
        if found:
            self.records.append(
                Record(
                    seq=len(self.records) + 1,
                    actor=actor_id,
                    events=[self._dump(e) for e in found],
                    audience=[actor_id],
                    contact=True,
                )
            )
            self._private = self._tell(self._private, self._shared, [actor_id], found)
        return record

    def _dump(self, event: Any) -> dict[str, Any]:
        """An event as stored JSON, marked with its version."""
        marked: dict[str, Any] = self._shapes.mark(
            self.system.events.dump_python(event, mode="json")
        )
        return marked

    def _events(
        self,
        command: Any,
        dice: DiceSource,
        hidden: bool,
        gm: bool = False,
        probe: Callable[[], DiceSource] | None = None,
    ) -> tuple[list[Any], bool]:
        """The events of ``command`` on the fold it is decided on, and whether they came by
        contact with something hidden.

        A hidden command is decided on the GM's fold. A visible one on the shared fold; while
        the GM's fold differs, a system with :class:`Contact` then says what the command
        does where it runs into something hidden there. A visible command of the GM that is
        refused on the shared fold but would work on his is ``table.hidden_conflict`` (so
        the GM learns why; ``probe`` rolls for that test).
        """
        basis = self._state if hidden else self._shared
        try:
            events = self.system.decide(basis, command, dice)
        except RuleError:
            if (
                gm
                and basis is not self._state
                and self._decides(command, probe() if probe else dice)
            ):
                raise RuleError("table.hidden_conflict") from None  # tell the GM why
            raise
        if hidden or self._shared is self._state or not isinstance(self.system, Contact):
            return events, False
        replaced = self.system.contact(self._state, command, events)
        if replaced is None:
            return events, False
        return list(replaced), True

    def _event(self, data: Any) -> Any:
        """A stored event as the system's event model, read in today's shape."""
        return self.system.events.validate_python(self._shapes.read(data))

    def _decides(self, command: Any, dice: DiceSource) -> bool:
        """Whether ``command`` would be allowed on the GM's state."""
        try:
            self.system.decide(self._state, command, dice)
        except RuleError:
            return False
        return True

    def _evolve(self, hidden: bool, events: list[Any]) -> tuple[Any, Any, dict[str, Any]]:
        """The GM's, the shared and the private folds after ``events`` of a record (a hidden
        one leaves all but the GM's alone).

        A visible record that applies to the shared fold but not to the GM's (the GM's hidden
        records changed what it builds on) is refused as ``table.hidden_conflict``.
        """
        if hidden:
            state = self._state
            for event in events:
                state = self.system.evolve(state, event)
            return state, self._shared, self._private
        if self._shared is self._state:
            state = self._state
            for event in events:
                state = self.system.evolve(state, event)
            return state, state, self._follow(self._private, events, state)
        shared = self._shared
        for event in events:
            shared = self.system.evolve(shared, event)
        state = self._state
        try:
            for event in events:
                state = self.system.evolve(state, event)
        except RuleError:
            raise RuleError("table.hidden_conflict") from None
        return state, shared, self._follow(self._private, events, shared)

    def _follow(self, private: dict[str, Any], events: list[Any], shared: Any) -> dict[str, Any]:
        """The private folds after the events of a visible record (``shared``: the shared fold
        after them). A private fold the record does not apply to (what the participant was
        shown has changed since) gives way to the shared fold: never a refusal, which would
        tell the issuer of the record what someone else was shown."""
        if not private:
            return private
        after: dict[str, Any] = {}
        for participant, fold in private.items():
            try:
                for event in events:
                    fold = self.system.evolve(fold, event)
            except (RuleError, ValueError):
                fold = shared
            after[participant] = fold
        return after

    def _tell(
        self, private: dict[str, Any], shared: Any, audience: Iterable[str], events: list[Any]
    ) -> dict[str, Any]:
        """The private folds after ``events`` shown to ``audience`` alone (a discovery). What
        does not apply to someone's fold (they know it already) leaves it as it was."""
        after = dict(private)
        for participant in audience:
            fold = after.get(participant, shared)
            try:
                for event in events:
                    fold = self.system.evolve(fold, event)
            except (RuleError, ValueError):
                continue
            after[participant] = fold
        return after

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

    def _fold(self, records: Log, undoing: int | None) -> tuple[Any, Any, dict[str, Any]]:
        """The GM's, the shared and the private folds of ``records`` (the GM's and the shared
        one the same object while nothing hidden has happened)."""
        undone = {r.undoes for r in records if r.undoes is not None}
        state = shared = self.system.new_state(self.options)
        private: dict[str, Any] = {}
        for record in records:
            if record.undoes is not None or record.seq in undone or chat.is_chat(record):
                continue
            try:
                events = [self._event(data) for data in record.events]
                if record.audience is not None:  # shown to some alone: their folds
                    private = self._tell(private, shared, record.audience, events)
                    continue
                before = state
                for event in events:
                    state = self.system.evolve(state, event)
                if record.hidden:
                    continue
                if shared is before:
                    shared = state
                else:
                    for event in events:
                        shared = self.system.evolve(shared, event)
                private = self._follow(private, events, shared)
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
        return state, shared, private


def read_record(
    shapes: EventShapes, record: Record, assumed: Mapping[str, int] | None = None
) -> Record:
    """``record`` with its events in today's shape (:mod:`spieltisch.engine.upcast`); the
    record itself when they already are. ``assumed``: the event versions the export it came
    from declares (for events that do not name their own)."""
    if not record.events or not shapes.needs_reading(record.events, assumed):
        return record
    events = [shapes.stored(event, assumed) for event in record.events]
    return record.model_copy(update={"events": events})


def draws_of(records: Iterable[Record]) -> list[Draw]:
    """Every raw draw of a log, in order (for verifying the dice)."""
    return [Draw(d.index, d.sides, d.value) for r in records for d in r.draws]
