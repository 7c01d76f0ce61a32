"""The commands and table options of a Kilkenny Cats table.

Commands are JSON objects told apart by their field ``kind``: ``sit`` takes a human seat,
``roll`` rolls the die for the seat to move, ``move`` moves a cat. None of their fields is the
GM's alone. The AI seats and their work budgets are table options, which only the table's
creator (its GM) sets; a budget is bounded by :data:`MAX_BUDGET`.

Every model forbids unknown fields; numbers are strict (``"2"`` or ``true`` is no number) and
texts follow the text rules of :mod:`spieltisch.engine.text`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from spieltisch.engine.system import Edition
from spieltisch.engine.text import Ref, text_rule

__all__ = [
    "AUTOMATIC_LIMIT",
    "EDITION",
    "MAX_BUDGET",
    "MAX_PLIES",
    "MAX_POSITION",
    "KilkennyCommand",
    "KilkennyOptions",
    "MoveCommand",
    "RollCommand",
    "SeatOption",
    "SitCommand",
]

MAX_BUDGET = 16
"""Most candidate moves the strongest AI searches deeper per move at a table.

Each candidate costs about as much as the whole depth-2 search, so the default of 6 keeps a
move well under a second; 16 is the most a table accepts (``kilkenny.bad_options`` above it).
"""
MAX_PLIES = 100_000
"""Largest ply cap a table accepts."""
MAX_POSITION = 500
"""Longest start position (notation) a table accepts."""
EDITION: Literal[2] = 2
"""The edition of the rules a new table is made with (see :class:`KilkennyOptions`)."""
AUTOMATIC_LIMIT = 20_000
"""How many AI records may follow one command of a participant in edition 2: enough for any
game the AI seats play to its end among themselves (the longest found stop near a few
thousand records), still a guard against a game that never ends. Edition 1 keeps the
table's general 500, so tables made before replay as recorded."""


# -- options ---------------------------------------------------------------------------------


class SeatOption(BaseModel):
    """Who plays a seat: ``human``, or an AI by name with an optional work budget."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    player: Ref = "human"
    budget: StrictInt | None = Field(default=None, ge=1, le=MAX_BUDGET)
    """For the strongest AI: candidate moves searched deeper (deterministic; keeps a table fast)."""


class KilkennyOptions(BaseModel):
    """Table options: players (2–4), layout, one entry per seat, an optional ply cap."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: StrictInt = 2
    layout: Ref = "default"
    seats: list[SeatOption] = Field(default_factory=list, max_length=4)
    max_plies: StrictInt | None = Field(default=None, ge=1, le=MAX_PLIES)
    position: (
        Annotated[StrictStr, Field(max_length=MAX_POSITION), text_rule(MAX_POSITION)] | None
    ) = None
    """Start from this position (notation) instead of the layout's start."""
    edition: Edition = EDITION
    """1: at most 500 AI records follow a participant's command, then the table waits (tables
    made before); 2: the AI seats play on until a human is to act or the game ends (up to
    :data:`AUTOMATIC_LIMIT` records)."""


# -- commands --------------------------------------------------------------------------------


class SitCommand(BaseModel):
    """Take a human seat (the issuing participant then owns it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["sit"] = "sit"
    seat: Ref


class RollCommand(BaseModel):
    """Roll the die for the seat to move."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["roll"] = "roll"


class MoveCommand(BaseModel):
    """Move a cat ``from`` a square ``to`` a square or a hole (``S1``)."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True
    )

    kind: Literal["move"] = "move"
    origin: Ref = Field(alias="from")
    target: Ref = Field(alias="to")


KilkennyCommand = Annotated[SitCommand | RollCommand | MoveCommand, Field(discriminator="kind")]
"""Every command of the game."""
