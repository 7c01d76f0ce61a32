"""How long a condition lasts and what exhaustion does per level (SRD 5.1): data and small pure
rules; the table keeps what it needs in :class:`ConditionTrack`.

A condition lasts until it is removed, until the start or the end of a creature's next turn,
for a number of rounds (it ends at that many round ends, the current round counted), or until
the creature makes a saving throw the table rolls at the end of each of its turns.
Exhaustion's effects by level are data (``exhaustion_levels`` in ``data/conditions.json``),
each level with those of the levels below.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from spieltisch.engine.effects import Duration
from spieltisch.engine.text import Ref
from spieltisch.systems.dnd5e.data import exhaustion_levels

__all__ = [
    "ConditionDuration",
    "ConditionTrack",
    "Ended",
    "RepeatSave",
    "engine_duration",
    "exhaustion_tags",
]

Until = Literal["removed", "turn_start", "turn_end", "rounds", "save"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ConditionDuration(_Frozen):
    """How long a condition the GM puts on lasts.

    ``turn_start`` and ``turn_end`` need ``of`` (whose next turn); ``rounds`` needs
    ``rounds``; ``save`` needs ``ability`` and ``dc`` (the creature repeats the save at the end
    of each of its turns and the condition ends on a success).
    """

    until: Until = "removed"
    of: Ref | None = None
    rounds: StrictInt | None = Field(default=None, ge=1, le=100)
    ability: Literal["str", "dex", "con", "int", "wis", "cha"] | None = None
    dc: StrictInt | None = Field(default=None, ge=1, le=40)

    def missing(self) -> str | None:
        """The field this kind of duration needs and lacks (None: complete)."""
        needs = {
            "turn_start": ("of",),
            "turn_end": ("of",),
            "rounds": ("rounds",),
            "save": ("ability", "dc"),
        }.get(self.until, ())
        return next((name for name in needs if getattr(self, name) is None), None)


def engine_duration(duration: ConditionDuration | None) -> Duration:
    """The toolkit's duration of a condition (a save-ended one lasts until removed: the save
    removes it)."""
    if duration is None:
        return Duration()
    match duration.until:
        case "turn_start":
            return Duration.until_turn_start(duration.of or "")
        case "turn_end":
            return Duration.until_turn_end(duration.of or "")
        case "rounds":
            return Duration.rounds(duration.rounds or 1)
        case _:
            return Duration()


class RepeatSave(_Frozen):
    """A condition that ends when its creature makes this save at the end of one of its
    turns."""

    target: str
    condition: str
    ability: str
    dc: int


class Ended(_Frozen):
    """A condition that ended by itself at the latest turn change: its time ran out
    (``duration``) or its creature made the save (``save``)."""

    target: str
    condition: str
    reason: Literal["duration", "save"]
    after: str
    """Whose turn ended."""
    round: int


class ConditionTrack(_Frozen):
    """What the table keeps of condition durations."""

    saves: tuple[RepeatSave, ...] = ()
    ended: tuple[Ended, ...] = ()
    """The conditions that ended at the latest turn change (for the table to show)."""

    def with_ended(self, ended: tuple[Ended, ...]) -> ConditionTrack:
        """The track with ``ended`` added; entries of an earlier turn change are dropped."""
        if not ended:
            return self
        mark = (ended[0].after, ended[0].round)
        kept = tuple(x for x in self.ended if (x.after, x.round) == mark)
        return self.model_copy(update={"ended": kept + ended})

    def turn_ending(self, after: str, round_: int) -> ConditionTrack:
        """The track as a turn change begins: only what ended at this one is kept (the saves
        rolled as ``after``'s turn ends in round ``round_``)."""
        kept = tuple(x for x in self.ended if (x.after, x.round) == (after, round_))
        return self if kept == self.ended else self.model_copy(update={"ended": kept})

    def without(self, target: str, condition: str) -> ConditionTrack:
        """The track without the repeat save of that condition."""
        saves = tuple(s for s in self.saves if (s.target, s.condition) != (target, condition))
        return self.model_copy(update={"saves": saves})


@cache
def exhaustion_tags(level: int) -> frozenset[str]:
    """What exhaustion of ``level`` does: the tags of every level up to it."""
    table = exhaustion_levels()
    return frozenset(tag for n in range(1, level + 1) for tag in table.get(n, ()))
