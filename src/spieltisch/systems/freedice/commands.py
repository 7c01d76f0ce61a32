"""The commands of the free-dice table: rolls, and a fight on the combat toolkit.

Every command is a frozen pydantic model with a literal ``kind``; :data:`COMMANDS` parses the
union. Texts follow the text rules (:mod:`spieltisch.engine.text`); fields only the GM may
set are declared with :class:`~spieltisch.engine.permissions.GmOnly`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

from spieltisch.engine.grid import Diagonal, Size
from spieltisch.engine.permissions import GmOnly, Secret
from spieltisch.engine.text import Name, Ref, text_rule

__all__ = [
    "COMMANDS",
    "MAX_COMBATANTS",
    "MAX_MAP_SIDE",
    "MAX_TRACKS",
    "AddCharacter",
    "AddCombatant",
    "ApplyEffect",
    "ChangeTrack",
    "Claim",
    "Command",
    "DelayTurn",
    "EffectDuration",
    "EndFight",
    "EndTurn",
    "LeaveFight",
    "Move",
    "NextRound",
    "NextTurn",
    "PaintTerrain",
    "RemoveCombatant",
    "RemoveEffect",
    "Roll",
    "RollInitiative",
    "SetImage",
    "SetMap",
    "StartFight",
    "TrackSpec",
]

MAX_MAP_SIDE = 60
"""Largest side of the free table's battle map, in squares."""
MAX_COMBATANTS = 60
"""Most combatants one free table holds."""
MAX_TRACKS = 6
"""Most tracks (hit points, magic points …) per combatant."""
MAX_TRACK_VALUE = 100_000

Notation = Annotated[StrictStr, Field(min_length=1, max_length=100), text_rule(100)]
Colour = Annotated[StrictStr, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
SquareRef = Annotated[StrictStr, Field(min_length=2, max_length=8), text_rule(8)]
TrackValue = Annotated[StrictInt, Field(ge=-MAX_TRACK_VALUE, le=MAX_TRACK_VALUE)]
Amount = Annotated[StrictInt, Field(ge=0, le=MAX_TRACK_VALUE)]
Terrain = Literal["difficult", "water", "wall"]
"""The terrain kinds a free table paints (plain ground has none)."""


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Roll(_Command):
    """Roll ``expression`` (any notation), optionally with a label."""

    kind: Literal["roll"] = "roll"
    expression: Annotated[StrictStr, Field(max_length=500), text_rule(500)]
    label: Annotated[StrictStr, Field(max_length=100), text_rule(100)] | None = None


class TrackSpec(_Command):
    """A track of a new combatant: ``LeP 30`` is name ``LeP``, maximum 30 (current = maximum)."""

    name: Annotated[StrictStr, Field(min_length=1, max_length=20), text_rule(20)]
    maximum: Amount
    current: TrackValue | None = None
    floor: TrackValue = 0


class _NewCombatant(_Command):
    id: Annotated[StrictStr, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9_-]*$")]
    name: Annotated[Name, Field(min_length=1)]
    initiative: Notation = "1d20"
    """The initiative roll in any notation (``1W20+2``), or a fixed number."""
    tiebreak: Annotated[StrictInt, Field(ge=-1000, le=1000)] | None = None
    """Decides equal initiative (higher first); without it, the order of entry decides."""
    tracks: Annotated[tuple[TrackSpec, ...], Field(max_length=MAX_TRACKS)] = ()
    colour: Colour = "#3366cc"
    size: Size = Size.MEDIUM
    speed: Annotated[StrictInt, Field(ge=0, le=100)] = 6
    """Squares of movement per turn in a fight."""
    at: SquareRef | None = None
    """Where the token stands (None: not on the map yet)."""


class AddCombatant(_NewCombatant):
    """GM: a combatant joins the roster (``secret``: the GM's alone; add it hidden)."""

    kind: Literal["add_combatant"] = "add_combatant"
    side: Annotated[Name, Field(min_length=1)] = "foes"
    secret: Annotated[StrictBool, Secret()] = False
    claimable: StrictBool = False
    """A player may claim it as theirs (a pre-made character)."""


class AddCharacter(_NewCombatant):
    """A player adds their own character; it becomes theirs."""

    kind: Literal["add_character"] = "add_character"
    side: Annotated[Name, Field(min_length=1)] = "party"


class Claim(_Command):
    """A player takes a combatant the GM made claimable."""

    kind: Literal["claim"] = "claim"
    combatant: Ref


class RemoveCombatant(_Command):
    """GM: a combatant leaves the roster (and the fight, and the map)."""

    kind: Literal["remove_combatant"] = "remove_combatant"
    combatant: Ref


class RollInitiative(_Command):
    """GM: roll initiative for some combatants (all without one if empty; in a fight they join)."""

    kind: Literal["roll_initiative"] = "roll_initiative"
    combatants: Annotated[tuple[Ref, ...], Field(max_length=MAX_COMBATANTS)] = ()
    again: StrictBool = False
    """Roll again for those that have initiative already (only before the fight)."""


class StartFight(_Command):
    """GM: round 1 begins with every combatant that has initiative."""

    kind: Literal["start_fight"] = "start_fight"


class NextTurn(_Command):
    """GM: the current turn ends and the next begins."""

    kind: Literal["next_turn"] = "next_turn"


class NextRound(_Command):
    """GM: the rest of this round's turns end; the next round begins."""

    kind: Literal["next_round"] = "next_round"


class EndTurn(_Command):
    """The owner (or the GM) ends ``combatant``'s turn; it must be its turn."""

    kind: Literal["end_turn"] = "end_turn"
    combatant: Ref


class DelayTurn(_Command):
    """The owner (or the GM) delays ``combatant``'s turn behind ``after`` (default: last)."""

    kind: Literal["delay"] = "delay"
    combatant: Ref
    after: Ref | None = None


class LeaveFight(_Command):
    """GM: a combatant leaves the fight (it stays on the roster and the map)."""

    kind: Literal["leave_fight"] = "leave_fight"
    combatant: Ref


class EndFight(_Command):
    """GM: the fight is over; initiative and effects with a duration are cleared."""

    kind: Literal["end_fight"] = "end_fight"


class EffectDuration(_Command):
    """How long an effect lasts: ``rounds`` round ends, someone's next turn start or end, or on."""

    until: Literal["rounds", "turn_start", "turn_end", "removed"] = "removed"
    rounds: Annotated[StrictInt, Field(ge=1, le=1000)] = 1
    who: Ref | None = None
    """Whose turn (for ``turn_start`` / ``turn_end``; default: the target)."""


class ApplyEffect(_Command):
    """The GM (or the target's owner) puts a named effect on a combatant."""

    kind: Literal["apply_effect"] = "apply_effect"
    target: Ref
    name: Annotated[Name, Field(min_length=1)]
    level: Annotated[StrictInt, Field(ge=1, le=99)] | None = None
    duration: EffectDuration = EffectDuration()


class RemoveEffect(_Command):
    """The GM (or the target's owner) ends every effect of that name on the target."""

    kind: Literal["remove_effect"] = "remove_effect"
    target: Ref
    name: Annotated[Name, Field(min_length=1)]


class ChangeTrack(_Command):
    """The GM or the owner: damage, heal or set a track; only the GM changes its maximum."""

    kind: Literal["change_track"] = "change_track"
    combatant: Ref
    track: Annotated[StrictStr, Field(min_length=1, max_length=20), text_rule(20)]
    change: Literal["damage", "heal", "set"] = "damage"
    amount: TrackValue = 0
    maximum: Annotated[Amount | None, GmOnly("freedice.field.maximum")] = None


class Move(_Command):
    """The owner or the GM moves a token to ``to`` along ``path`` (or the cheapest path)."""

    kind: Literal["move"] = "move"
    combatant: Ref
    to: SquareRef
    path: Annotated[tuple[SquareRef, ...], Field(max_length=200)] | None = None
    """The squares after the start, ending at ``to``; None: the server picks the cheapest."""
    free: Annotated[StrictBool, GmOnly("freedice.field.free")] = False
    """Place the token without the movement rules (still on the grid, not into a wall)."""


class SetMap(_Command):
    """GM: the battle map's size in squares, the square size and the diagonal rule."""

    kind: Literal["set_map"] = "set_map"
    width: Annotated[StrictInt, Field(ge=1, le=MAX_MAP_SIDE)]
    height: Annotated[StrictInt, Field(ge=1, le=MAX_MAP_SIDE)]
    square_m: Annotated[Decimal, Field(gt=0, le=100, decimal_places=2)] = Decimal("1.5")
    diagonal: Diagonal = Diagonal.UNIFORM


class PaintTerrain(_Command):
    """GM: give squares a terrain (None: plain ground)."""

    kind: Literal["paint"] = "paint"
    squares: Annotated[tuple[SquareRef, ...], Field(min_length=1, max_length=400)]
    terrain: Terrain | None = None


class SetImage(_Command):
    """GM: the map's background image by its id (None: no image)."""

    kind: Literal["set_image"] = "set_image"
    image: Annotated[StrictStr, Field(pattern=r"^[A-Za-z0-9_-]{8,40}$")] | None = None


Command = Annotated[
    Roll
    | AddCombatant
    | AddCharacter
    | Claim
    | RemoveCombatant
    | RollInitiative
    | StartFight
    | NextTurn
    | NextRound
    | EndTurn
    | DelayTurn
    | LeaveFight
    | EndFight
    | ApplyEffect
    | RemoveEffect
    | ChangeTrack
    | Move
    | SetMap
    | PaintTerrain
    | SetImage,
    Field(discriminator="kind"),
]
"""Every command of the free-dice table (a discriminated union on ``kind``)."""

COMMANDS: TypeAdapter[Command] = TypeAdapter(Command)
"""Parses and dumps the system's commands."""
