"""The values the store hands out: participants, table settings, what a write produced."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from spieltisch.dice.fair import Epoch, FairDice, PlayerSeed, epoch_at
from spieltisch.engine.table import Actor, DrawModel, Record, Role
from spieltisch.errors import SpieltischError

__all__ = [
    "Created",
    "Joined",
    "Participant",
    "Revealed",
    "StoreError",
    "TableInfo",
    "hash_secret",
]


class StoreError(SpieltischError):
    """A request the store refuses: unknown table, bad token, stale state, …"""


def hash_secret(secret: str) -> str:
    """SHA-256 hex of a token or invite code: only this is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Participant:
    """Someone at a table."""

    id: str
    name: str
    role: Role
    removed: bool = False
    """Removed by the GM, or left the table: the token no longer works; kept for the log."""

    @property
    def actor(self) -> Actor:
        """The engine's view of this participant."""
        return Actor(id=self.id, role=self.role)


@dataclass(frozen=True)
class TableInfo:
    """A table's settings and fair-dice status (without its log).

    ``epochs`` is the table's chain of seeds: every revealed epoch with its seed, then the
    current one (its seed ``None``: secret, or unknown here for a table imported before its
    reveal). Draw ``i`` comes from the epoch it falls in; new draws from the current one.
    """

    id: str
    system: str
    title: str
    language: str
    options: dict[str, Any]
    dice_table: str
    epochs: tuple[Epoch, ...]
    player_seeds: tuple[PlayerSeed, ...]
    seq: int
    version: int
    created: datetime | None
    people: int = 0
    """Bumped whenever someone joins, leaves or is removed."""
    _server_seed: str | None = field(default=None, repr=False)
    """The current epoch's secret seed (hex); ``None`` when unknown here."""
    streams: bool = False
    """Every record draws from a stream of its own and epochs begin at records and are
    chained (export format 3); else draws are numbered across the log (format 2)."""

    @property
    def current(self) -> Epoch:
        """The epoch new draws come from."""
        return self.epochs[-1]

    @property
    def commitment(self) -> str:
        """The commitment of the current epoch."""
        return self.current.commitment

    @property
    def revealed(self) -> bool:
        """Whether any epoch has been revealed."""
        return any(epoch.revealed for epoch in self.epochs)

    @property
    def seed(self) -> str | None:
        """The seed of the epoch revealed last (hex), or ``None`` before the first reveal."""
        revealed = [epoch.seed for epoch in self.epochs if epoch.seed is not None]
        return revealed[-1] if revealed else None

    @property
    def can_roll(self) -> bool:
        """Whether the table draws dice (the current epoch's seed is known here)."""
        return self._server_seed is not None

    def dice(self) -> FairDice | None:
        """The current epoch's fair dice, if its server seed is known here."""
        if self._server_seed is None:
            return None
        return FairDice(bytes.fromhex(self._server_seed), self.dice_table, self.player_seeds)

    def epoch_revealed(self, index: int) -> bool:
        """Whether ``index`` falls in a revealed epoch: a record's ``seq`` with streams, a
        draw's index without."""
        return self.epochs[epoch_at(self.epochs, index)].revealed

    def revealed_draws(self, record: Record) -> list[DrawModel]:
        """The draws of ``record`` that fall in a revealed epoch (what a redacted record
        shows): all or none of them with streams, where an epoch begins at a record."""
        if self.streams:
            return list(record.draws) if self.epoch_revealed(record.seq) else []
        return [d for d in record.draws if self.epoch_revealed(d.index)]

    def fair_block(self) -> dict[str, Any]:
        """The ``fair`` block of an export: ``{"epochs": [...], "player_seeds": [...]}``."""
        return {
            "epochs": [epoch.to_json() for epoch in self.epochs],
            "player_seeds": [{"start": p.start, "seed": p.seed} for p in self.player_seeds],
        }


@dataclass(frozen=True)
class Created:
    """A new table: its id, the GM's participant id and token, invite codes, commitment."""

    table: str
    participant: str
    token: str
    invites: dict[str, str]
    commitment: str
    participants: list[dict[str, str]] = field(default_factory=list)
    """For an import: the recreated participants with their fresh tokens."""


@dataclass(frozen=True)
class Joined:
    """A participant who joined with an invite code, and their secret token."""

    participant: Participant
    token: str


@dataclass(frozen=True)
class Revealed:
    """What a reveal did: the epoch it revealed and the fresh epoch the table rolls on with."""

    epoch: Epoch
    """The revealed epoch (its ``seed`` set)."""
    number: int
    """Its position in the table's chain of epochs, from 1."""
    current: Epoch
    """The new current epoch (its commitment public, its seed secret)."""

    @property
    def seed(self) -> str:
        """The revealed seed in hex."""
        return self.epoch.seed or ""
