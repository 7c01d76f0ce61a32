"""Every game loads from its latest snapshot: after a stretch of its own commands, a table
read into a fresh store reads only the records after the snapshot, and its state and views
are those of the whole log folded.

The commands are the leak suite's samples of each game (its set-up, then the player's
commands over and over, each decided by the game; one it refuses in the state it is in is
left out), played by the GM on SQLite.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

from spieltisch.engine.table import Table
from spieltisch.engine.upcast import shapes_of
from spieltisch.engine.visibility import GM_VIEWER, Role
from spieltisch.errors import SpieltischError
from spieltisch.store import EventStore
from spieltisch.store.cache import LazyLog, LogFacts, StoredTable
from spieltisch.store.snapshots import decode_snapshot, encode_states
from spieltisch.systems.registry import get_system

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "security"))
from leak_samples import SAMPLES, UNDO_LAST, Samples, Whisper

EVERY = 8
"""Snapshot distance of these tables."""

RECORDS = 60
"""Records each table is played to (seven snapshots and a tail)."""


def _command(step: Any, table: StoredTable) -> dict[str, Any] | None:
    """A sample step as the GM's command (``None``: a step that is no command of the GM)."""
    if isinstance(step, Whisper) or step == UNDO_LAST:
        return None
    return step(table.view(GM_VIEWER)) if callable(step) else dict(step)


def _play(store: EventStore, samples: Samples) -> str:
    created = store.create_table(samples.system, options=samples.options or None)
    gm = store.authenticate(created.table, created.token)
    for _, step in samples.setup:
        command = _command(step, store.table(created.table))
        if command is not None:
            store.execute(created.table, gm, command)
    steps, refused = list(samples.player.values()), 0
    for n in itertools.count():
        table = store.table(created.table)
        if table.seq >= RECORDS or refused >= len(steps):  # played, or nothing more is taken
            break
        command = _command(steps[n % len(steps)], table)
        try:
            if command is None:
                raise SpieltischError("not.a_command")
            store.execute(created.table, gm, command)
            refused = 0
        except SpieltischError:
            refused += 1
    return created.table


@pytest.mark.parametrize("samples", SAMPLES, ids=lambda s: s.system)
def test_a_game_loads_from_its_snapshot(tmp_path: Path, samples: Samples) -> None:
    url = f"sqlite:///{tmp_path / 'cold.sqlite3'}"
    store = EventStore(url, snapshot_every=EVERY)
    try:
        table_id = _play(store, samples)
        played = store.table(table_id)
    finally:
        store.close()
    assert played.seq >= EVERY * 3, f"{samples.system} took too few commands: {played.seq}"
    fresh = EventStore(url, snapshot_every=EVERY)
    try:
        loaded = fresh.table(table_id)
        assert isinstance(loaded.records, LazyLog), f"{samples.system}: no snapshot was used"
        # Only the records after the snapshot were read (at most one snapshot distance).
        assert loaded.seq - loaded.records.unread <= EVERY
        whole = Table(played.system, played.options, list(played.records), streams=played.streams)
        assert loaded.state == whole.state
        assert loaded.view(GM_VIEWER) == whole.view(GM_VIEWER)
        for role in (Role.PLAYER, Role.SPECTATOR):
            assert loaded.owners(role) == played.owners(role)
        assert loaded.records.unread > 0  # the views read nothing older
    finally:
        fresh.close()


def test_a_snapshot_keeps_the_participants_own_folds() -> None:
    system = get_system("free-dice")
    shared = system.new_state({})
    state = shared.model_copy(update={"image": "gm"})
    own = shared.model_copy(update={"image": "anna"})
    stamp, facts = shapes_of(system).stamp, LogFacts(3, {})
    text = encode_states(state, shared, stamp, facts, {"anna": own})
    assert text is not None
    decoded = decode_snapshot(system, {}, text)
    assert decoded is not None
    assert (decoded.state, decoded.shared, dict(decoded.private)) == (state, shared, {"anna": own})
    # Without own folds the snapshot is as before: no "private" key, none decoded.
    plain = encode_states(state, shared, stamp, facts, {})
    assert plain is not None and '"private"' not in plain
    again = decode_snapshot(system, {}, plain)
    assert again is not None and again.private == {}
    # An own fold that does not round-trip: no snapshot at all.
    assert encode_states(state, shared, stamp, facts, {"anna": object()}) is None
