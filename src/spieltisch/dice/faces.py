"""The kinds of dice, as data.

A numeric die ``dN`` shows the numbers 1 to N. A symbol die is a table of six faces, each a
mapping of stable English symbol keys to counts; a roll of a plain d6 (1..6) picks the face.
The HeXXen dice (``H M J B E S``) are such tables; the Elixier die (``E``) and the Fate die
(``F``, written ``dF``) have numbers on their faces and so are numeric. Adding a symbol die
means adding a row of data here, nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "SYMBOL_DICE",
    "SYMBOL_KEYS",
    "VALUE_KEYS",
    "DieKind",
    "Face",
    "numeric_die",
    "symbol_die",
]

Face = int | Mapping[str, int]
"""What one face of a die shows: a number, or symbol key → count (empty for a blank face)."""

SYMBOL_KEYS: tuple[str, ...] = ("successes", "stars", "drops", "janus")
"""Every symbol key in canonical order. ``janus`` appears on faces only: in a result it
folds into ``successes`` (bonus adds, malus removes)."""

VALUE_KEYS: tuple[str, ...] = ("successes", "stars", "drops")
"""The keys a symbol result may have, in canonical order."""


@dataclass(frozen=True)
class DieKind:
    """One kind of die: its notation code, its number of sides and its faces."""

    code: str
    """How the die is written: ``d6``, ``d100``, ``H``, ``E`` …"""
    faces: tuple[Face, ...]
    """The faces in the order of the underlying d``sides`` roll (face ``i`` for roll ``i+1``)."""

    @property
    def sides(self) -> int:
        """How many faces the die has (the ``sides`` drawn from a dice source)."""
        return len(self.faces)

    @property
    def numeric(self) -> bool:
        """Whether every face is a number (so the die adds up like a dN)."""
        return all(isinstance(face, int) for face in self.faces)

    @property
    def keys(self) -> tuple[str, ...]:
        """The symbol keys on this die's faces, in canonical order (empty for numeric dice)."""
        found = {key for face in self.faces if not isinstance(face, int) for key in face}
        return tuple(key for key in SYMBOL_KEYS if key in found)

    def face(self, roll: int) -> Face:
        """The face shown when the underlying d``sides`` shows ``roll`` (1-based)."""
        return self.faces[roll - 1]


def _faces(*rows: dict[str, int]) -> tuple[Face, ...]:
    return tuple(MappingProxyType(dict(row)) for row in rows)


_STAR = {"stars": 1}
_HIT = {"successes": 1}
_BLANK: dict[str, int] = {}

SYMBOL_DICE: Mapping[str, DieKind] = MappingProxyType(
    {
        # HeXXenwürfel: star on 1, blanks on 2-4, the success symbol on 5 and 6.
        "H": DieKind("H", _faces(_STAR, _BLANK, _BLANK, _BLANK, _HIT, _HIT)),
        # The same die as the GM counts it: every symbol (the star too) is a success.
        "M": DieKind("M", _faces(_HIT, _BLANK, _BLANK, _BLANK, _HIT, _HIT)),
        # Januswürfel: the Janus symbol on 4-6.
        "J": DieKind("J", _faces(_BLANK, _BLANK, _BLANK, {"janus": 1}, {"janus": 1}, {"janus": 1})),
        # Blutwürfel: blank, 1, 1, 2, 2, 3 drops.
        "B": DieKind(
            "B",
            _faces(_BLANK, {"drops": 1}, {"drops": 1}, {"drops": 2}, {"drops": 2}, {"drops": 3}),
        ),
        # Elixierwürfel: numbers 1, 2, 3, 4, 5 and the 3 again.
        "E": DieKind("E", (1, 2, 3, 4, 5, 3)),
        # Segnungswürfel: two stars, a blank, one success twice, two successes once.
        "S": DieKind("S", _faces(_STAR, _STAR, _BLANK, _HIT, _HIT, {"successes": 2})),
        # Fate (Fudge) die, written 4dF: minus, minus, blank, blank, plus, plus.
        "F": DieKind("dF", (-1, -1, 0, 0, 1, 1)),
    }
)
"""The symbol dice by their notation letter (RULES.md §2 face tables; ``F`` is the Fate die
of ``dF``)."""


def numeric_die(sides: int) -> DieKind:
    """The plain die ``d<sides>`` with faces 1..sides."""
    return DieKind(f"d{sides}", tuple(range(1, sides + 1)))


def symbol_die(letter: str) -> DieKind:
    """The symbol die written as ``letter`` (``H``, ``M``, ``J``, ``B``, ``E`` or ``S``)."""
    return SYMBOL_DICE[letter]
