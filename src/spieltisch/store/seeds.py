"""A table's dice seeds: the committed server seed, its reveal, and the players' seeds.

A reveal publishes the current epoch's seed and commits to a fresh one in the same write
turn; a player's seed takes part in every draw from the next record (or draw) on. See
``docs/fair-dice.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from spieltisch.dice.fair import DiceSource, Epoch, FairDice, PlayerSeed, link_epochs
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Role
from spieltisch.store.loading import Cached
from spieltisch.store.types import Participant, Revealed, StoreError, TableInfo
from spieltisch.store.validation import MAX_SEED, check_text
from spieltisch.store.writes import Write, Writes, present

__all__ = ["add_player_seed", "dice_for", "reveal"]


class _ClosedDice:
    """The dice of a table that no longer rolls (seed revealed or unknown here)."""

    def __init__(self, table: str) -> None:
        self._table = table

    def roll(self, sides: int) -> int:
        raise RuleError("table.dice_closed", table=self._table)


def dice_for(info: TableInfo) -> Callable[[int], DiceSource]:
    """The table's dice: record ``seq`` (streams) or draw index → its source; a table whose
    seed is unknown here refuses to roll (``table.dice_closed``)."""
    dice = info.dice() if info.can_roll else None
    if dice is None:
        closed = _ClosedDice(info.id)
        return lambda _index: closed
    return dice.stream if info.streams else dice.source_at


def _boundary(cached: Cached) -> int:
    """Where a new epoch or player seed begins: the next record (streams), else the next
    draw."""
    return cached.table.seq + 1 if cached.info.streams else cached.table.next_draw


def add_player_seed(writes: Writes, table_id: str, by: Participant, seed: str) -> PlayerSeed:
    """A player's seed string takes part in every draw from the next one on (across epochs:
    a reveal does not end it)."""
    if by.role is Role.SPECTATOR:
        raise RuleError("rule.forbidden", action="player-seed")
    seed = check_text(seed, "table.bad_seed", MAX_SEED)

    def decide(write: Write) -> PlayerSeed:
        present(write, by)
        cached = write.cached
        start = _boundary(cached)
        dice = cached.info.dice()
        if dice is not None:
            dice.with_player_seed(start, seed)  # validates the seed text
        added = PlayerSeed(start, seed)
        seeds = [*cached.info.player_seeds, added]
        writes.update_row(write, player_seeds=[{"start": p.start, "seed": p.seed} for p in seeds])
        return added

    return writes.write(table_id, decide)


def reveal(writes: Writes, table_id: str, by: Participant) -> Revealed:
    """Reveal the current epoch's seed and commit to a fresh one at once (GM only); asked
    again before anything was drawn with the new seed, the same pair."""
    if by.role is not Role.GM:
        raise RuleError("rule.forbidden", action="reveal")

    def decide(write: Write) -> Revealed:
        info = write.cached.info
        start = _boundary(write.cached)
        if len(info.epochs) > 1 and info.current.start == start:
            return Revealed(info.epochs[-2], len(info.epochs) - 1, info.current)
        seed = info._server_seed
        if seed is None:
            raise StoreError("table.seed_unknown", table=table_id)
        revealed = replace(info.current, seed=seed)
        fresh = FairDice.new(info.dice_table)
        closed = [epoch.to_json() for epoch in info.epochs[:-1]]
        writes.update_row(
            write,
            epochs=[*closed, revealed.to_json()],
            epoch_start=start,
            server_seed=fresh.seed_hex,
            commitment=fresh.commitment,
        )
        current = Epoch(start, fresh.commitment)
        if info.streams:  # the new epoch's link, made now over its boundary
            current = link_epochs(info.dice_table, (*info.epochs[:-1], revealed, current))[-1]
        return Revealed(revealed, len(info.epochs), current)

    return writes.write(table_id, decide)
