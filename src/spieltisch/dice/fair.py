"""Where dice values come from.

Everything that rolls takes a :class:`DiceSource`; randomness is never module-global, so the
same seed gives the same game everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

__all__ = ["DiceSource", "Draw", "RecordingSource", "SeededSource"]


@runtime_checkable
class DiceSource(Protocol):
    """A source of fair die values."""

    def roll(self, sides: int) -> int:
        """One uniformly random integer from 1 to ``sides`` (``sides`` ≥ 1)."""
        ...


class SeededSource:
    """A reproducible source for tests and tools: ``random.Random`` with a fixed seed."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self._random = random.Random(seed)

    def roll(self, sides: int) -> int:
        """One value from 1 to ``sides``."""
        return self._random.randint(1, sides)


@dataclass(frozen=True)
class Draw:
    """One raw value drawn from a source: the ``index``-th roll of a die with ``sides``."""

    index: int
    sides: int
    value: int


@dataclass
class RecordingSource:
    """Wraps a source and records every draw, numbered from ``start``."""

    inner: DiceSource
    start: int = 0
    draws: list[Draw] = field(default_factory=list)

    def roll(self, sides: int) -> int:
        """Draw from the inner source and record the draw."""
        value = self.inner.roll(sides)
        self.draws.append(Draw(self.start + len(self.draws), sides, value))
        return value
