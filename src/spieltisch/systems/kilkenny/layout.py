"""Layouts of the Kilkenny Cats board as data: board size, start squares, holes, seating.

The rules fix a 14×14 board with two mouse holes per player beyond the opposite edge; where the
cats start is not known from the rules, so layouts are data (``data/layouts.json``). A layout
names four seats ``S``, ``W``, ``N``, ``E``, each with its start squares (square names such as
``f4``) and its two holes as coordinates just outside the board (``[6, 14]`` is above file g).
``seating`` gives the seats in turn order for 2, 3 and 4 players.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from spieltisch.engine.errors import RuleError

__all__ = [
    "FILES",
    "Layout",
    "SeatLayout",
    "builtin_layouts",
    "get_layout",
    "parse_square",
    "square_name",
]

FILES = "abcdefghijklmnopqrstuvwxyz"
"""File letters; a layout may be at most 26 squares wide."""


def square_name(x: int, y: int) -> str:
    """The name of the on-board square at column ``x`` and row ``y`` (both from 0): ``f4``."""
    return f"{FILES[x]}{y + 1}"


def parse_square(text: str, size: int) -> tuple[int, int]:
    """Column and row of the square named ``text`` on a ``size``×``size`` board.

    Raises :class:`RuleError` ``kilkenny.bad_square`` naming the value if it is no square.
    """
    name = text.strip().lower()
    if len(name) >= 2 and name[0] in FILES and name[1:].isdigit():
        x = FILES.index(name[0])
        y = int(name[1:]) - 1
        if 0 <= x < size and 0 <= y < size and name[1] != "0":
            return x, y
    raise RuleError("kilkenny.bad_square", value=text)


@dataclass(frozen=True)
class SeatLayout:
    """One seat of a layout: its start squares and its holes (coordinates off the board)."""

    seat: str
    start: tuple[tuple[int, int], ...]
    holes: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Layout:
    """A board layout: size, the seats and which seats play at 2, 3 and 4 players."""

    id: str
    size: int
    seats: Mapping[str, SeatLayout]
    seating: Mapping[int, tuple[str, ...]]
    description: str = ""

    @classmethod
    def from_dict(cls, layout_id: str, data: Mapping[str, Any]) -> Layout:
        """Build and check a layout from its JSON form; ``kilkenny.bad_layout`` if it is wrong."""
        try:
            size = int(data["size"])
            if not 2 <= size <= len(FILES):
                raise ValueError(f"size {size!r} out of range")
            seats: dict[str, SeatLayout] = {}
            for seat, spec in data["seats"].items():
                start = tuple(parse_square(str(name), size) for name in spec["start"])
                holes = tuple((int(x), int(y)) for x, y in spec["holes"])
                if len(holes) != 2:
                    raise ValueError(f"seat {seat!r} needs exactly two holes")
                for x, y in holes:
                    outside = x in (-1, size) or y in (-1, size)
                    if not (outside and -1 <= x <= size and -1 <= y <= size):
                        raise ValueError(
                            f"hole {[x, y]!r} of seat {seat!r} is not beside the board"
                        )
                if len(start) < 2:
                    raise ValueError(f"seat {seat!r} needs at least two cats")
                seats[str(seat)] = SeatLayout(str(seat), start, holes)
            seating = {
                int(count): tuple(str(s) for s in order) for count, order in data["seating"].items()
            }
        except RuleError as error:
            raise RuleError("kilkenny.bad_layout", value=layout_id, detail=str(error)) from None
        except (KeyError, TypeError, ValueError) as error:
            raise RuleError("kilkenny.bad_layout", value=layout_id, detail=str(error)) from None
        layout = cls(layout_id, size, seats, seating, str(data.get("description", "")))
        layout._check()
        return layout

    def _check(self) -> None:
        squares: set[tuple[int, int]] = set()
        holes: set[tuple[int, int]] = set()
        for count, order in self.seating.items():
            if count != len(order) or len(set(order)) != count or count < 2:
                raise RuleError("kilkenny.bad_layout", value=self.id, detail=f"seating {count}")
            for seat in order:
                if seat not in self.seats:
                    raise RuleError("kilkenny.bad_layout", value=self.id, detail=f"seat {seat!r}")
        for spec in self.seats.values():
            for square in spec.start:
                if square in squares:
                    raise RuleError(
                        "kilkenny.bad_layout", value=self.id, detail=f"square {square!r} twice"
                    )
                squares.add(square)
            for hole in spec.holes:
                if hole in holes:
                    raise RuleError(
                        "kilkenny.bad_layout", value=self.id, detail=f"hole {hole!r} twice"
                    )
                holes.add(hole)

    def seats_for(self, players: int) -> tuple[str, ...]:
        """The seats in turn order for ``players`` players; ``kilkenny.bad_players`` if none."""
        order = self.seating.get(players)
        if order is None:
            raise RuleError(
                "kilkenny.bad_players",
                value=players,
                allowed=", ".join(str(n) for n in sorted(self.seating)),
            )
        return order


@cache
def builtin_layouts() -> dict[str, Layout]:
    """The layouts shipped with Spieltisch, by id (``default`` is the rules' default)."""
    text = resources.files(__package__).joinpath("data/layouts.json").read_text("utf-8")
    raw: dict[str, Any] = json.loads(text)
    return {layout_id: Layout.from_dict(layout_id, spec) for layout_id, spec in raw.items()}


def get_layout(layout_id: str) -> Layout:
    """A built-in layout by id; ``kilkenny.unknown_layout`` naming the id otherwise."""
    layouts = builtin_layouts()
    if layout_id not in layouts:
        raise RuleError("kilkenny.unknown_layout", value=layout_id, known=", ".join(layouts))
    return layouts[layout_id]
