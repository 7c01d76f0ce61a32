"""Kilkenny Cats: a race of cat gangs across a 14×14 board into the mouse holes.

Importing this package registers the game system ``kilkenny``.
"""

from __future__ import annotations

from spieltisch.systems.kilkenny.board import Geometry, geometry
from spieltisch.systems.kilkenny.layout import Layout, get_layout
from spieltisch.systems.kilkenny.position import Position, move_text, parse_move
from spieltisch.systems.kilkenny.rules import Board, EndReason, Outcome, OutcomeKind, playout
from spieltisch.systems.kilkenny.system import KilkennyState, KilkennySystem

__all__ = [
    "Board",
    "EndReason",
    "Geometry",
    "KilkennyState",
    "KilkennySystem",
    "Layout",
    "Outcome",
    "OutcomeKind",
    "Position",
    "geometry",
    "get_layout",
    "move_text",
    "parse_move",
    "playout",
]
