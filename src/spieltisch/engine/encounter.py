"""Encounters: who fights, in which order, whose turn it is, and the phases a fight passes.

An :class:`Encounter` is a value. The verbs :func:`start`, :func:`next_turn`, :func:`join`,
:func:`leave` and :func:`delay` return the new encounter together with the
:class:`PhaseEvent` markers that occurred on the way (a turn ended, a round ended, HeXXen's
INI-0 phase came, the next turn started …). A system reacts to those markers: it refreshes
budgets (:mod:`spieltisch.engine.economy`), ticks effects (:mod:`spieltisch.engine.effects`)
and records what happened as its own events.

The order is computed from a *sort key* the system supplies (a pure function of the
:class:`Combatant`; the default :func:`by_initiative` puts the highest initiative first, then
the highest tie-break values in turn); equal keys fall back to the order of entry, so the order
is always deterministic. Each round starts in that order; delaying changes only the current
round.

For undo and replay a system records the steps as data (:data:`Step`: :class:`Start`,
:class:`NextTurn`, :class:`Join`, :class:`Leave`, :class:`Delay`) and folds them with
:func:`apply` — always with the same sort key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from spieltisch.engine.errors import RuleError

__all__ = [
    "Combatant",
    "Delay",
    "Encounter",
    "Join",
    "Leave",
    "NextTurn",
    "Phase",
    "PhaseEvent",
    "SortKey",
    "Start",
    "Step",
    "apply",
    "by_initiative",
    "delay",
    "join",
    "leave",
    "next_turn",
    "run_hooks",
    "start",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Phase(StrEnum):
    """The phases every encounter passes; systems add their own names (plain strings)."""

    ROUND_START = "round_start"
    """A round begins (before its first turn)."""
    TURN_START = "turn_start"
    """A combatant's turn begins."""
    TURN_DELAYED = "turn_delayed"
    """The combatant whose turn it was delays it; it moves later in this round."""
    TURN_RESUMED = "turn_resumed"
    """A combatant that delayed gets its turn back (its turn did not start a second time)."""
    TURN_END = "turn_end"
    """A combatant's turn ends."""
    ROUND_END = "round_end"
    """The round ends (after the system's own round-end phases)."""
    JOINED = "joined"
    """A combatant joined the fight."""
    LEFT = "left"
    """A combatant left the fight."""


class PhaseEvent(_Frozen):
    """A marker of something that happened: a phase, in a round, for a combatant or for all."""

    phase: str
    round: int
    combatant: str | None = None


class Combatant(_Frozen):
    """A piece of any system taking part in a fight.

    ``initiative`` and ``tiebreak`` are what the default sort key reads; a system with another
    key may leave them at their defaults. ``entered`` is set by the encounter (the stable
    fallback for equal keys).
    """

    id: str
    side: str
    initiative: Decimal = Decimal(0)
    tiebreak: tuple[Decimal, ...] = ()
    entered: int = 0


_LAST = Decimal("Infinity")

SortKey = Callable[[Combatant], tuple[Any, ...]]
"""A system's order: combatants with smaller keys act first; ties fall back to entry order."""


def by_initiative(combatant: Combatant) -> tuple[Decimal, ...]:
    """The default key: highest initiative first, then the highest tie-break values in turn.

    A combatant with fewer tie-break values goes after one that has more (a missing value
    counts lowest).
    """
    return (-combatant.initiative, *(-value for value in combatant.tiebreak), _LAST)


class Encounter(_Frozen):
    """A fight: its combatants, this round's order, the turn pointer and the round number.

    ``combatants`` is in the order the sort key gives (the order every round starts in);
    ``order`` is this round's order (after delays), always a permutation of the combatants'
    ids; ``index`` points at the combatant whose turn it is. Round 0 means not yet started.
    """

    combatants: tuple[Combatant, ...] = ()
    order: tuple[str, ...] = ()
    index: int = 0
    round: int = 0
    delayed: frozenset[str] = frozenset()
    """Combatants that delayed this round: their turn resumes rather than starts."""
    round_start_phases: tuple[str, ...] = ()
    """System phases right after ``round_start``, before the first turn."""
    round_end_phases: tuple[str, ...] = ()
    """System phases after the last turn, before ``round_end`` (HeXXen: ``("ini0",)``)."""
    entries: int = 0
    """How many combatants ever entered (the next entry number)."""

    @property
    def current(self) -> str | None:
        """The id of the combatant whose turn it is (None before the start or when empty)."""
        if self.round == 0 or not self.order:
            return None
        return self.order[self.index]

    @property
    def ids(self) -> frozenset[str]:
        """The ids of all combatants."""
        return frozenset(combatant.id for combatant in self.combatants)

    def combatant(self, combatant_id: str) -> Combatant:
        """The combatant with this id; ``toolkit.encounter.unknown_combatant`` otherwise."""
        for combatant in self.combatants:
            if combatant.id == combatant_id:
                return combatant
        raise RuleError("toolkit.encounter.unknown_combatant", value=combatant_id)

    def pending(self) -> tuple[str, ...]:
        """The combatants still to act this round after the current one, in order."""
        if self.round == 0:
            return self.order
        return self.order[self.index + 1 :]


Result = tuple[Encounter, list[PhaseEvent]]

S = TypeVar("S")


def run_hooks(
    state: S, events: Iterable[PhaseEvent], hooks: Mapping[str, Callable[[S, PhaseEvent], S]]
) -> S:
    """Fold markers into a system's state: each marker through the hook of its phase, in order.

    Phases without a hook pass by. A system's ``evolve`` typically calls this with the markers
    a verb returned (refresh budgets on ``turn_start``, tick effects on ``ini0`` …).
    """
    for event in events:
        hook = hooks.get(event.phase)
        if hook is not None:
            state = hook(state, event)
    return state


def _sort(combatants: Iterable[Combatant], key: SortKey) -> tuple[Combatant, ...]:
    return tuple(sorted(combatants, key=lambda c: (key(c), c.entered)))


def _rank(combatant: Combatant, key: SortKey) -> tuple[Any, ...]:
    return (key(combatant), combatant.entered)


def _begin_turn(encounter: Encounter) -> PhaseEvent:
    who = encounter.order[encounter.index]
    phase = Phase.TURN_RESUMED if who in encounter.delayed else Phase.TURN_START
    return PhaseEvent(phase=phase, round=encounter.round, combatant=who)


def _new_round(encounter: Encounter) -> Result:
    """Round ``round + 1`` in the base order; markers from its start to the first turn."""
    round_ = encounter.round + 1
    fresh = encounter.model_copy(
        update={
            "round": round_,
            "order": tuple(c.id for c in encounter.combatants),
            "index": 0,
            "delayed": frozenset(),
        }
    )
    events = [PhaseEvent(phase=Phase.ROUND_START, round=round_)]
    events += [PhaseEvent(phase=phase, round=round_) for phase in encounter.round_start_phases]
    if fresh.order:
        events.append(_begin_turn(fresh))
    return fresh, events


def _end_round(encounter: Encounter) -> Result:
    """The round-end markers, then the next round up to its first turn."""
    round_ = encounter.round
    events = [PhaseEvent(phase=phase, round=round_) for phase in encounter.round_end_phases]
    events.append(PhaseEvent(phase=Phase.ROUND_END, round=round_))
    fresh, more = _new_round(encounter)
    return fresh, events + more


def _check_id(combatant: Combatant, known: Iterable[str]) -> None:
    if not combatant.id:
        raise RuleError("toolkit.encounter.bad_combatant", value=combatant.id)
    if combatant.id in set(known):
        raise RuleError("toolkit.encounter.duplicate_combatant", value=combatant.id)


def start(
    combatants: Sequence[Combatant],
    key: SortKey = by_initiative,
    *,
    round_start_phases: Sequence[str] = (),
    round_end_phases: Sequence[str] = (),
) -> Result:
    """Begin a fight: round 1, the first combatant's turn.

    Entry numbers follow the given sequence (the fallback for equal keys). Raises
    ``toolkit.encounter.empty`` without combatants and
    ``toolkit.encounter.duplicate_combatant`` for an id given twice.
    """
    if not combatants:
        raise RuleError("toolkit.encounter.empty")
    entered: list[Combatant] = []
    for number, combatant in enumerate(combatants):
        _check_id(combatant, (c.id for c in entered))
        entered.append(combatant.model_copy(update={"entered": number}))
    base = Encounter(
        combatants=_sort(entered, key),
        round_start_phases=tuple(round_start_phases),
        round_end_phases=tuple(round_end_phases),
        entries=len(entered),
    )
    return _new_round(base)


def _require_turn(encounter: Encounter) -> str:
    current = encounter.current
    if current is None:
        raise RuleError("toolkit.encounter.not_started")
    return current


def next_turn(encounter: Encounter) -> Result:
    """End the current turn and begin the next one (ending the round after the last turn)."""
    current = _require_turn(encounter)
    events = [PhaseEvent(phase=Phase.TURN_END, round=encounter.round, combatant=current)]
    if encounter.index + 1 < len(encounter.order):
        moved = encounter.model_copy(update={"index": encounter.index + 1})
        return moved, [*events, _begin_turn(moved)]
    fresh, more = _end_round(encounter)
    return fresh, events + more


def join(encounter: Encounter, combatant: Combatant, key: SortKey = by_initiative) -> Result:
    """Add a combatant; the current turn stays with the same combatant.

    It enters the base order by its key. In a running round it acts this round if its key
    comes after the current combatant's, at its place among those still to act; otherwise its
    first turn is next round.
    """
    _check_id(combatant, encounter.ids)
    entered = combatant.model_copy(update={"entered": encounter.entries})
    combatants = _sort((*encounter.combatants, entered), key)
    by_id = {c.id: c for c in combatants}
    rank = _rank(entered, key)
    order = list(encounter.order)
    index = encounter.index
    current = encounter.current
    events = [PhaseEvent(phase=Phase.JOINED, round=encounter.round, combatant=entered.id)]
    if encounter.round == 0:
        order = [c.id for c in combatants]
    elif current is None:  # everyone had left: the newcomer's turn begins
        order, index = [entered.id], 0
    else:
        if rank > _rank(by_id[current], key):
            lo, hi = index + 1, len(order)
        else:
            lo, hi = 0, index
        place = next((i for i in range(lo, hi) if _rank(by_id[order[i]], key) > rank), hi)
        order.insert(place, entered.id)
        if place <= index:
            index += 1
    joined = encounter.model_copy(
        update={
            "combatants": combatants,
            "order": tuple(order),
            "index": index,
            "entries": encounter.entries + 1,
        }
    )
    if encounter.round > 0 and current is None:
        events.append(_begin_turn(joined))
    return joined, events


def leave(encounter: Encounter, combatant_id: str) -> Result:
    """Remove a combatant. If it was its turn, the next combatant's turn begins at once.

    The leaving combatant's turn does not end (no ``turn_end``); the system sees ``left``.
    """
    encounter.combatant(combatant_id)
    events = [PhaseEvent(phase=Phase.LEFT, round=encounter.round, combatant=combatant_id)]
    combatants = tuple(c for c in encounter.combatants if c.id != combatant_id)
    if encounter.round == 0:
        order = tuple(c.id for c in combatants)
        return encounter.model_copy(update={"combatants": combatants, "order": order}), events
    position = encounter.order.index(combatant_id)
    order = encounter.order[:position] + encounter.order[position + 1 :]
    index = encounter.index - 1 if position < encounter.index else encounter.index
    left = encounter.model_copy(
        update={
            "combatants": combatants,
            "order": order,
            "index": index,
            "delayed": encounter.delayed - {combatant_id},
        }
    )
    if position != encounter.index or not order:
        return left.model_copy(update={"index": index if order else 0}), events
    if index < len(order):
        return left, [*events, _begin_turn(left)]
    fresh, more = _end_round(left)
    return fresh, events + more


def delay(encounter: Encounter, after: str | None = None) -> Result:
    """The current combatant delays: it moves right behind ``after`` (default: last) this round.

    ``after`` must still be to act this round. Raises ``toolkit.encounter.cannot_delay`` when
    nobody acts after the current combatant, ``toolkit.encounter.bad_delay`` for an ``after``
    that is not still to act.
    """
    current = _require_turn(encounter)
    pending = encounter.pending()
    if not pending:
        raise RuleError("toolkit.encounter.cannot_delay", combatant=current)
    target = pending[-1] if after is None else after
    if target not in pending:
        encounter.combatant(target)
        raise RuleError("toolkit.encounter.bad_delay", combatant=current, value=target)
    order = [who for who in encounter.order if who != current]
    order.insert(order.index(target) + 1, current)
    moved = encounter.model_copy(
        update={"order": tuple(order), "delayed": encounter.delayed | {current}}
    )
    marker = PhaseEvent(phase=Phase.TURN_DELAYED, round=encounter.round, combatant=current)
    return moved, [marker, _begin_turn(moved)]


# -- the steps as recordable data ------------------------------------------------------------


class Start(_Frozen):
    """Record of :func:`start`."""

    kind: Literal["encounter.start"] = "encounter.start"
    combatants: tuple[Combatant, ...]
    round_start_phases: tuple[str, ...] = ()
    round_end_phases: tuple[str, ...] = ()


class NextTurn(_Frozen):
    """Record of :func:`next_turn`."""

    kind: Literal["encounter.next_turn"] = "encounter.next_turn"


class Join(_Frozen):
    """Record of :func:`join`."""

    kind: Literal["encounter.join"] = "encounter.join"
    combatant: Combatant


class Leave(_Frozen):
    """Record of :func:`leave`."""

    kind: Literal["encounter.leave"] = "encounter.leave"
    combatant: str


class Delay(_Frozen):
    """Record of :func:`delay`."""

    kind: Literal["encounter.delay"] = "encounter.delay"
    after: str | None = None


Step = Annotated[Start | NextTurn | Join | Leave | Delay, Field(discriminator="kind")]
"""One recorded step of an encounter (a discriminated union on ``kind``)."""


def apply(encounter: Encounter | None, step: Step, key: SortKey = by_initiative) -> Result:
    """Fold one recorded step: the same encounter and markers the verb gave when it was taken.

    ``encounter`` is None only for a :class:`Start`; a start on a running encounter raises
    ``toolkit.encounter.already_started``, any other step without one
    ``toolkit.encounter.not_started``.
    """
    if isinstance(step, Start):
        if encounter is not None:
            raise RuleError("toolkit.encounter.already_started")
        return start(
            step.combatants,
            key,
            round_start_phases=step.round_start_phases,
            round_end_phases=step.round_end_phases,
        )
    if encounter is None:
        raise RuleError("toolkit.encounter.not_started")
    if isinstance(step, NextTurn):
        return next_turn(encounter)
    if isinstance(step, Join):
        return join(encounter, step.combatant, key)
    if isinstance(step, Leave):
        return leave(encounter, step.combatant)
    return delay(encounter, step.after)
