"""The values the store hands out: participants, table settings, what a write produced."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from spieltisch.dice.fair import FairDice, PlayerSeed
from spieltisch.engine.table import Actor, Role
from spieltisch.errors import SpieltischError

__all__ = ["Created", "Joined", "Participant", "StoreError", "TableInfo", "hash_secret"]


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

    @property
    def actor(self) -> Actor:
        """The engine's view of this participant."""
        return Actor(id=self.id, role=self.role)


@dataclass(frozen=True)
class TableInfo:
    """A table's settings and fair-dice status (without its log)."""

    id: str
    system: str
    title: str
    language: str
    options: dict[str, Any]
    dice_table: str
    commitment: str
    revealed: bool
    player_seeds: tuple[PlayerSeed, ...]
    seq: int
    version: int
    created: datetime | None
    _server_seed: str | None = field(default=None, repr=False)

    @property
    def seed(self) -> str | None:
        """The server seed in hex once revealed, else ``None``."""
        return self._server_seed if self.revealed else None

    @property
    def can_roll(self) -> bool:
        """Whether the table still draws dice (its seed is known here and not revealed)."""
        return self._server_seed is not None and not self.revealed

    def dice(self) -> FairDice | None:
        """The table's fair dice, if the server seed is known here."""
        if self._server_seed is None:
            return None
        return FairDice(bytes.fromhex(self._server_seed), self.dice_table, self.player_seeds)

    def fair_block(self) -> dict[str, Any]:
        """The ``fair`` block of an export."""
        return {
            "commitment": self.commitment,
            "seed": self.seed,
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
