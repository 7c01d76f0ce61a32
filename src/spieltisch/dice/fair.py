"""Where dice values come from.

Everything that rolls takes a :class:`DiceSource`; randomness is never module-global, so the
same seed gives the same game everywhere.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeGuard, runtime_checkable

from spieltisch.dice.errors import DiceError
from spieltisch.errors import InputError

__all__ = [
    "MAX_SIDES",
    "SEPARATORS",
    "DiceSource",
    "Draw",
    "Epoch",
    "FairDice",
    "FairDiceError",
    "FairDraw",
    "PlayerSeed",
    "RecordingSource",
    "ReplayExhausted",
    "ReplaySource",
    "SeededSource",
    "chain_link",
    "epoch_at",
    "export_fair",
    "link_epochs",
    "mac_message",
    "stream_message",
]

MAX_SIDES = 1 << 64
"""The most faces a fair die may have: draws are taken from 64-bit numbers."""

SEPARATORS = ("\x1e", "\x1f")
"""Control characters that delimit the parts of a MAC message; a player seed may not hold them."""


class FairDiceError(DiceError, InputError):
    """Bad input to the fair dice: a seed that is not hex, a negative index, no sides."""


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


class ReplayExhausted(Exception):
    """A replayed command asked for a die the recorded draws do not have (or other sides)."""

    def __init__(self, index: int, sides: int) -> None:
        super().__init__(f"draw {index}: d{sides} not recorded")
        self.index = index
        self.sides = sides


@dataclass
class ReplaySource:
    """Gives back recorded draws in order, so a command can be decided again with its dice.

    Asking for a die beyond the recorded ones, or with other sides than recorded, raises
    :class:`ReplayExhausted`; ``used`` counts the draws given back.
    """

    draws: Sequence[Draw]
    used: int = 0

    def roll(self, sides: int) -> int:
        """The next recorded value, if it was drawn from a die with ``sides``."""
        if self.used >= len(self.draws) or self.draws[self.used].sides != sides:
            index = self.draws[self.used].index if self.used < len(self.draws) else -1
            raise ReplayExhausted(index, sides)
        value = self.draws[self.used].value
        self.used += 1
        return value


@dataclass(frozen=True)
class PlayerSeed:
    """A seed string a player added; it takes part in every draw from index ``start`` on."""

    start: int
    seed: str

    @classmethod
    def parse(cls, data: PlayerSeed | Mapping[str, Any]) -> PlayerSeed:
        """A player seed from itself or from its JSON form ``{"start": int, "seed": str}``."""
        if isinstance(data, PlayerSeed):
            return data
        if not isinstance(data, Mapping):
            raise FairDiceError("fair.bad_player_seed", value=data)
        start, seed = data.get("start"), data.get("seed")
        if not _is_int(start) or start < 0 or not isinstance(seed, str):
            raise FairDiceError("fair.bad_player_seed", value=dict(data))
        return cls(start, seed)

    def to_json(self) -> dict[str, Any]:
        """The JSON form used in exports: ``{"start": int, "seed": str}``."""
        return {"start": self.start, "seed": self.seed}


@dataclass(frozen=True)
class FairDraw:
    """How one fair draw came about: its ``value`` and the ``attempt`` that was accepted.

    ``attempt`` is 0 unless rejection sampling threw away earlier MACs.
    """

    index: int
    sides: int
    value: int
    attempt: int


def mac_message(table: str, index: int, attempt: int, mixed: str) -> bytes:
    """The message MACed for draw ``index``: UTF-8 of table, index, attempt and mixed seeds.

    The four parts are joined with the unit separator U+001F; ``mixed`` is the player seeds in
    effect at ``index`` joined with the record separator U+001E (empty when there are none).
    """
    return f"{table}\x1f{index}\x1f{attempt}\x1f{mixed}".encode()


def stream_message(table: str, seq: int, index: int, attempt: int, mixed: str) -> bytes:
    """The message MACed for draw ``index`` of record ``seq``'s own stream (format 3).

    UTF-8 of table, record ``seq``, the draw's ``index`` within the record, attempt and mixed
    seeds, joined with U+001F: four separators, where :func:`mac_message` has three, so the
    two derivations never share a message.
    """
    return f"{table}\x1f{seq}\x1f{index}\x1f{attempt}\x1f{mixed}".encode()


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


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

    @classmethod
    def from_hex(
        cls,
        seed_hex: str,
        table: str,
        player_seeds: Iterable[PlayerSeed | Mapping[str, Any]] = (),
    ) -> FairDice:
        """Dice from a stored or revealed server seed in hex and the player seeds, in order.

        ``player_seeds`` may be :class:`PlayerSeed` objects or their JSON form
        ``{"start": int, "seed": str}``; their order matters and is kept.
        """
        if not isinstance(seed_hex, str) or not _HEX.fullmatch(seed_hex):
            raise FairDiceError("fair.bad_seed", value=seed_hex)
        server_seed = bytes.fromhex(seed_hex)
        return cls(server_seed, table, tuple(PlayerSeed.parse(p) for p in player_seeds))

    @property
    def seed_hex(self) -> str:
        """The server seed in lower-case hex: what the table reveals."""
        return self.server_seed.hex()

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, hex: published before the first roll."""
        return hashlib.sha256(self.server_seed).hexdigest()

    def with_player_seed(self, start: int, seed: str) -> FairDice:
        """These dice with a player's seed string taking part from draw ``start`` on.

        The seed must be non-empty text that encodes as UTF-8 and holds none of the
        :data:`SEPARATORS` (so that different seed lists never give the same MAC message).
        """
        if not _is_int(start) or start < 0:
            raise FairDiceError("fair.bad_index", value=start)
        if (
            not isinstance(seed, str)
            or not seed
            or any(separator in seed for separator in SEPARATORS)
            or not _encodes(seed)
        ):
            raise FairDiceError("fair.bad_player_seed", value=seed)
        return replace(self, player_seeds=(*self.player_seeds, PlayerSeed(start, seed)))

    def mixed_seeds(self, index: int) -> str:
        """The player seeds in effect at ``index``, in the order added, joined by U+001E.

        ``index`` is a draw index in formats 1 and 2, a record's ``seq`` in format 3."""
        return "\x1e".join(p.seed for p in self.player_seeds if p.start <= index)

    def draw(self, index: int, sides: int) -> FairDraw:
        """Draw ``index`` of the whole log (formats 1 and 2), with the accepted attempt."""
        _check(index, sides)
        mixed = self.mixed_seeds(index)
        return self._derive(
            index, sides, lambda attempt: mac_message(self.table, index, attempt, mixed)
        )

    def stream_draw(self, seq: int, index: int, sides: int) -> FairDraw:
        """Draw ``index`` of record ``seq``'s own stream (format 3), with the accepted attempt.

        Every record draws from a stream of its own, so no draw of one record moves with how
        many dice another one rolled (a hidden one above all).
        """
        _check(index, sides)
        if not _is_int(seq) or seq < 1:
            raise FairDiceError("fair.bad_index", value=seq)
        mixed = self.mixed_seeds(seq)
        return self._derive(
            index, sides, lambda attempt: stream_message(self.table, seq, index, attempt, mixed)
        )

    def _derive(self, index: int, sides: int, message: Callable[[int], bytes]) -> FairDraw:
        """Rejection sampling over the MACs of ``message(attempt)`` for attempt 0, 1, …"""
        limit = _SPACE - _SPACE % sides
        attempt = 0
        while True:
            mac = hmac.new(self.server_seed, message(attempt), hashlib.sha256).digest()
            number = int.from_bytes(mac[:8], "big")
            if number < limit:
                return FairDraw(index, sides, number % sides + 1, attempt)
            attempt += 1

    def value(self, index: int, sides: int) -> int:
        """The value of draw ``index`` for a die with ``sides`` faces (1..sides)."""
        return self.draw(index, sides).value

    def stream_value(self, seq: int, index: int, sides: int) -> int:
        """The value of draw ``index`` of record ``seq``'s stream (format 3)."""
        return self.stream_draw(seq, index, sides).value

    def source_at(self, index: int) -> DiceSource:
        """A source whose first roll is draw ``index`` of the whole log (formats 1 and 2)."""
        return _FairSource(self, index)

    def stream(self, seq: int) -> DiceSource:
        """The source of record ``seq`` (format 3): its rolls are draws 0, 1, … of its stream."""
        return _StreamSource(self, seq)


_SPACE = MAX_SIDES
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})+")


def _check(index: int, sides: int) -> None:
    if not _is_int(index) or index < 0:
        raise FairDiceError("fair.bad_index", value=index)
    if not _is_int(sides) or not 1 <= sides <= MAX_SIDES:
        raise FairDiceError("fair.bad_sides", value=sides)


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


@dataclass(frozen=True)
class Epoch:
    """One seed of a table's chain of seeds: the draws from ``start`` up to the next epoch's.

    A table commits to a fresh server seed whenever it reveals the current one, so its log
    falls into epochs; draw ``i`` is derived with the seed of the epoch it falls in. ``seed``
    is the server seed in hex once the epoch is revealed, else ``None``.
    """

    start: int
    """Where the epoch begins: the index of its first draw (formats 1 and 2), the ``seq`` of
    the first record it covers (format 3)."""
    commitment: str
    """SHA-256 of the epoch's server seed, hex."""
    seed: str | None = None
    chain: str | None = None
    """Format 3: the link that binds the epoch to its place (:func:`chain_link`)."""

    @property
    def revealed(self) -> bool:
        """Whether the epoch's seed is public."""
        return self.seed is not None

    def dice(self, table: str, player_seeds: Iterable[PlayerSeed] = ()) -> FairDice:
        """The epoch's dice (it must be revealed); ``fair.bad_seed`` otherwise."""
        return FairDice.from_hex(self.seed or "", table, player_seeds)

    def to_json(self) -> dict[str, Any]:
        """``{"start", "commitment", "seed"}`` (``seed`` is ``null`` until revealed), and
        ``"chain"`` in format 3."""
        data: dict[str, Any] = {"start": self.start, "commitment": self.commitment}
        data["seed"] = self.seed
        if self.chain is not None:
            data["chain"] = self.chain
        return data


def chain_link(table: str, number: int, start: int, commitment: str, previous: str) -> str:
    """The link of epoch ``number`` (from 1) in a format-3 chain, lower-case hex.

    SHA-256 of UTF-8 ``"spieltisch-epoch" ␟ table ␟ number ␟ start ␟ commitment ␟ previous``
    (␟ = U+001F, numbers in decimal, the commitment in lower case, ``previous`` the link of
    the epoch before, empty for the first). It is made when the epoch begins, from its seed's
    commitment and the first record it covers, and chains every earlier boundary: moving,
    dropping, doubling or reordering an epoch changes this link and every later one.
    """
    parts = ("spieltisch-epoch", table, str(number), str(start), commitment.lower(), previous)
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def link_epochs(table: str, epochs: Iterable[Epoch]) -> tuple[Epoch, ...]:
    """``epochs`` with their :attr:`Epoch.chain` links, computed in order (format 3)."""
    linked: list[Epoch] = []
    previous = ""
    for number, epoch in enumerate(epochs, start=1):
        previous = chain_link(table, number, epoch.start, epoch.commitment, previous)
        linked.append(replace(epoch, chain=previous))
    return tuple(linked)


def epoch_at(epochs: Sequence[Epoch], index: int) -> int:
    """The number (position in ``epochs``) of the epoch that draw ``index`` falls in.

    ``epochs`` are in order of their ``start``; the first starts at 0.
    """
    number = 0
    for position, epoch in enumerate(epochs):
        if epoch.start <= index:
            number = position
    return number


def export_fair(dice: FairDice, revealed: bool) -> dict[str, Any]:
    """The ``fair`` block of a table export.

    ``{"commitment": hex, "seed": hex or None, "player_seeds": [{"start", "seed"}, ...]}``;
    the seed is only included once the table has ``revealed`` it.
    """
    return {
        "commitment": dice.commitment,
        "seed": dice.seed_hex if revealed else None,
        "player_seeds": [p.to_json() for p in dice.player_seeds],
    }


class _FairSource:
    def __init__(self, dice: FairDice, index: int) -> None:
        self._dice = dice
        self._index = index

    def roll(self, sides: int) -> int:
        value = self._dice.value(self._index, sides)
        self._index += 1
        return value


class _StreamSource:
    def __init__(self, dice: FairDice, seq: int) -> None:
        self._dice = dice
        self._seq = seq
        self._index = 0

    def roll(self, sides: int) -> int:
        value = self._dice.stream_value(self._seq, self._index, sides)
        self._index += 1
        return value
