"""The events of the free-dice table: what a command did, as data for the log and the fold.

Events carry absolute values where a replay must not depend on arithmetic done twice (a
track's new value), and the toolkit's recorded steps (:data:`~spieltisch.engine.encounter.Step`)
where the encounter moves on, so ``evolve`` folds them with the toolkit's verbs.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from spieltisch.engine.creatures import Creature
from spieltisch.engine.effects import Duration
from spieltisch.engine.encounter import Step
from spieltisch.engine.grid import Diagonal

__all__ = [
    "EVENTS",
    "Claimed",
    "CombatantAdded",
    "CombatantRemoved",
    "DieFace",
    "Discovered",
    "DiscoveredCombatant",
    "DiscoveredSquare",
    "EffectApplied",
    "EffectRemoved",
    "Event",
    "ExpiredEffect",
    "FightAdvanced",
    "FightEnded",
    "ImageSet",
    "InitiativeRoll",
    "InitiativeRolled",
    "MapSet",
    "Moved",
    "RollPart",
    "Rolled",
    "TerrainPainted",
    "TrackChanged",
]

SymbolCounts = dict[str, int]


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _unset(value: object) -> bool:
    """Fields added after the first tables were logged are left out of the JSON while they
    hold nothing, so that older records replay to exactly what they logged."""
    return value is None or value is False or value == ()


class DieFace(_Event):
    """One die of a roll as logged: which die, the face shown, kept and exploded flags; a
    rerolled throw, the value a throw adds when it is not its face, the term's label."""

    die: str
    face: int | SymbolCounts
    kept: bool = True
    exploded: bool = False
    rerolled: bool = Field(default=False, exclude_if=_unset)
    value: int | None = Field(default=None, exclude_if=_unset)
    label: str | None = Field(default=None, exclude_if=_unset)


class RollPart(_Event):
    """The value of a labelled term or a group member within a roll."""

    term: str
    label: str | None = None
    value: int | SymbolCounts
    kept: bool = True


class Rolled(_Event):
    """An expression was rolled; carries every die face."""

    kind: Literal["rolled"] = "rolled"
    expression: str
    """The expression in canonical notation."""
    label: str | None = None
    result: int | SymbolCounts
    dice: tuple[DieFace, ...] = ()
    total: int | None = Field(default=None, exclude_if=_unset)
    """The compared total of ``1d20+5>=15`` (the result is 1 or 0)."""
    parts: tuple[RollPart, ...] = Field(default=(), exclude_if=_unset)
    """Labelled terms and group members with their values."""
    comment: str | None = Field(default=None, exclude_if=_unset)
    """The comment of the expression (``# …``, or a label at its end)."""


class CombatantAdded(_Event):
    """A combatant joined the roster (by the GM, or a player's own character)."""

    kind: Literal["combatant_added"] = "combatant_added"
    creature: Creature
    colour: str
    initiative: str
    """The initiative notation, canonical."""
    tiebreak: int | None = None
    speed: int
    position: str | None = None
    claimable: bool = False


class Claimed(_Event):
    """A player took a claimable combatant as theirs."""

    kind: Literal["claimed"] = "claimed"
    combatant: str


class CombatantRemoved(_Event):
    """A combatant left the roster (and the fight and the map)."""

    kind: Literal["combatant_removed"] = "combatant_removed"
    combatant: str
    name: str


class InitiativeRoll(_Event):
    """One combatant's initiative roll."""

    combatant: str
    name: str
    expression: str
    result: int
    dice: tuple[DieFace, ...] = ()


class InitiativeRolled(_Event):
    """Initiative was rolled; in a running fight, combatants not in it join with their roll."""

    kind: Literal["initiative_rolled"] = "initiative_rolled"
    rolls: tuple[InitiativeRoll, ...]


class ExpiredEffect(_Event):
    """An effect that ended on the way (for the log; the fold recomputes it)."""

    name: str
    target: str


class FightAdvanced(_Event):
    """The encounter took recorded steps (start, next turn, delay, leave)."""

    kind: Literal["fight_advanced"] = "fight_advanced"
    steps: tuple[Annotated[Step, Field(discriminator="kind")], ...]
    round: int
    """The round after the steps."""
    current: str | None
    """Whose turn it is after the steps."""
    expired: tuple[ExpiredEffect, ...] = ()


class FightEnded(_Event):
    """The fight is over."""

    kind: Literal["fight_ended"] = "fight_ended"
    expired: tuple[ExpiredEffect, ...] = ()


class EffectApplied(_Event):
    """An effect was put on a combatant.

    Effects are named, not numbered, in commands and events: a hidden effect in the GM's fold
    would otherwise take a number the shared fold gives again.
    """

    kind: Literal["effect_applied"] = "effect_applied"
    target: str
    name: str
    level: int | None = None
    duration: Duration = Duration()


class EffectRemoved(_Event):
    """Every effect of that name on the target was ended by hand."""

    kind: Literal["effect_removed"] = "effect_removed"
    name: str
    target: str


class TrackChanged(_Event):
    """A track has a new value (and maximum)."""

    kind: Literal["track_changed"] = "track_changed"
    combatant: str
    track: str
    change: Literal["damage", "heal", "set"]
    amount: int
    current: int
    maximum: int


class Moved(_Event):
    """A token moved along ``path`` (its squares, the start first) at ``cost`` squares."""

    kind: Literal["moved"] = "moved"
    combatant: str
    path: tuple[str, ...]
    cost: Decimal
    diagonals: int = 0
    """Diagonal steps this turn after the move (for the alternating rule)."""
    free: bool = False


class MapSet(_Event):
    """The battle map got a new size, square size or diagonal rule."""

    kind: Literal["map_set"] = "map_set"
    width: int
    height: int
    square_m: Decimal
    diagonal: Diagonal


class TerrainPainted(_Event):
    """Squares got a terrain (None: plain ground)."""

    kind: Literal["terrain_painted"] = "terrain_painted"
    squares: tuple[str, ...]
    terrain: str | None = None


class ImageSet(_Event):
    """The map's background image (None: none)."""

    kind: Literal["image_set"] = "image_set"
    image: str | None = None


class DiscoveredCombatant(_Event):
    """A combatant found by contact, as the GM's fold has it (it is no longer secret)."""

    creature: Creature
    colour: str
    initiative: str
    tiebreak: int | None = None
    speed: int
    position: str | None = None
    claimable: bool = False
    roll: int | None = None
    """Its initiative roll, if it has one."""
    in_fight: bool = False
    """It takes part in the running fight (the shared fold lets it join)."""


class DiscoveredSquare(_Event):
    """A square's terrain found by contact (None: plain ground)."""

    square: str
    terrain: str | None = None


class Discovered(_Event):
    """A visible command ran into something hidden, which the table now sees (contact).

    ``combatant`` (named ``name``) was moved or placed; it stands at ``at`` now (None: not on
    the map), short of ``to``, where it was going. What it ran into: ``combatants`` (tokens
    in its way, or on the square it was to end on), ``walls`` (the squares of walls in its
    way), the map's edge (``width`` × ``height``: the map's real size), and ``rough`` ground
    (in a fight, the way cost more or less than it looked). ``terrain`` is the real terrain
    of the walls and, in a fight, of the ground walked. See
    :mod:`spieltisch.systems.freedice.contact`.
    """

    kind: Literal["discovered"] = "discovered"
    combatant: str
    name: str
    at: str | None
    to: str
    combatants: tuple[DiscoveredCombatant, ...] = ()
    walls: tuple[str, ...] = ()
    rough: bool = False
    terrain: tuple[DiscoveredSquare, ...] = ()
    width: int | None = None
    height: int | None = None


Event = Annotated[
    Rolled
    | CombatantAdded
    | Claimed
    | CombatantRemoved
    | InitiativeRolled
    | FightAdvanced
    | FightEnded
    | EffectApplied
    | EffectRemoved
    | TrackChanged
    | Moved
    | MapSet
    | TerrainPainted
    | ImageSet
    | Discovered,
    Field(discriminator="kind"),
]
"""Every event of the free-dice table (a discriminated union on ``kind``)."""

EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
"""Parses and dumps the system's events."""
