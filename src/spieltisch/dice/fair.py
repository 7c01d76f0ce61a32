"""Where dice values come from.

Everything that rolls takes a :class:`DiceSource`; randomness is never module-global, so the
same seed gives the same game everywhere.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable

__all__ = ["DiceSource", "Draw", "FairDice", "PlayerSeed", "RecordingSource", "SeededSource"]


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


@dataclass(frozen=True)
class PlayerSeed:
    """A seed string a player added; it takes part in every draw from index ``start`` on."""

    start: int
    seed: str


@dataclass(frozen=True)
class FairDice:
    """Commit–reveal dice of one table.

    The server seed stays secret until the table reveals it; its SHA-256 ``commitment`` is
    public from the start. Draw ``i`` of a die with ``sides`` faces is derived from
    HMAC-SHA256(server seed, message) where the message names the table, ``i``, an attempt
    counter and the player seeds in effect at ``i``; the first 8 bytes of the MAC are used
    when they fall below the largest multiple of ``sides`` (rejection sampling, no modulo
    bias), otherwise the attempt counter goes up.
    """

    server_seed: bytes
    table: str
    player_seeds: tuple[PlayerSeed, ...] = ()

    @classmethod
    def new(cls, table: str) -> FairDice:
        """Fresh dice for ``table`` with a random 32-byte server seed."""
        return cls(secrets.token_bytes(32), table)

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, hex: published before the first roll."""
        return hashlib.sha256(self.server_seed).hexdigest()

    def with_player_seed(self, start: int, seed: str) -> FairDice:
        """These dice with a player's seed string taking part from draw ``start`` on."""
        return replace(self, player_seeds=(*self.player_seeds, PlayerSeed(start, seed)))

    def value(self, index: int, sides: int) -> int:
        """The value of draw ``index`` for a die with ``sides`` faces (1..sides)."""
        if sides < 1:
            raise ValueError(f"sides must be positive, got {sides!r}")
        mixed = "\x1e".join(p.seed for p in self.player_seeds if p.start <= index)
        limit = _SPACE - _SPACE % sides
        attempt = 0
        while True:
            message = f"{self.table}\x1f{index}\x1f{attempt}\x1f{mixed}".encode()
            mac = hmac.new(self.server_seed, message, hashlib.sha256).digest()
            number = int.from_bytes(mac[:8], "big")
            if number < limit:
                return number % sides + 1
            attempt += 1

    def source_at(self, index: int) -> DiceSource:
        """A source whose first roll is draw ``index``."""
        return _FairSource(self, index)


_SPACE = 1 << 64


class _FairSource:
    def __init__(self, dice: FairDice, index: int) -> None:
        self._dice = dice
        self._index = index

    def roll(self, sides: int) -> int:
        value = self._dice.value(self._index, sides)
        self._index += 1
        return value
