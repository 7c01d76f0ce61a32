"""A table loads from its latest snapshot and the records after it; the older records stay in
the database until something asks for them (an undo, the history reaching back, an export).

Against SQLite and a real PostgreSQL server (``database_url``); the property runs on SQLite.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from spieltisch.engine.table import Record, Role, Table
from spieltisch.engine.visibility import GM_VIEWER, Actor
from spieltisch.errors import SpieltischError
from spieltisch.store import EventStore, Participant
from spieltisch.store.cache import LazyLog, StoredTable
from spieltisch.store.models import SnapshotRow
from spieltisch.store.writes import snapshot_due, snapshot_phase


class _Party:
    """A toy table with a GM and a player, snapshots every 4 records."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.store = EventStore(url, snapshot_every=4, spread_snapshots=False)
        created = self.store.create_table("toy")
        self.id = created.table
        self.gm = self.store.authenticate(self.id, created.token)
        joined = self.store.join(self.id, created.invites["player"], "Paul")
        self.player = joined.participant

    def fresh(self) -> EventStore:
        """A store in a 'new process': nothing of the table in memory."""
        return EventStore(self.url, snapshot_every=4)


@pytest.fixture
def party(database_url: str, toy: Any) -> Iterator[_Party]:
    made = _Party(database_url)
    try:
        yield made
    finally:
        made.store.close()


def _unread(table: StoredTable) -> int:
    assert isinstance(table.records, LazyLog)
    return table.records.unread


def _folded(table: StoredTable) -> Table:
    return Table(table.system, table.options, list(table.records), streams=table.streams)


def _play(party: _Party, rolls: int) -> None:
    party.store.execute(party.id, party.player, {"kind": "join", "piece": "cat"})
    for _ in range(rolls):
        party.store.execute(party.id, party.player, {"kind": "roll", "piece": "cat"})


def test_loading_reads_only_the_records_after_the_snapshot(party: _Party) -> None:
    _play(party, 9)  # 10 records: the snapshot is at 8
    expected = party.store.table(party.id)
    fresh = party.fresh()
    try:
        loaded = fresh.table(party.id)
        assert loaded.seq == 10 and _unread(loaded) == 8
        assert loaded.state == expected.state
        assert (
            loaded.owners(Role.PLAYER) == expected.owners(Role.PLAYER) == {"cat": party.player.id}
        )
        assert loaded.view(GM_VIEWER) == expected.view(GM_VIEWER)
        assert loaded.next_draw == expected.next_draw
        # A command, the records since the snapshot and the views read nothing older.
        fresh.execute(party.id, party.player, {"kind": "roll", "piece": "cat"})
        assert [r.seq for r in fresh.records_since(party.id, 8, Role.GM)] == [9, 10, 11]
        assert _unread(fresh.table(party.id)) == 8
        # Asking for an older record reads them, once, and they are the stored ones.
        assert fresh.table(party.id).records[0] == expected.records[0]
        assert _unread(fresh.table(party.id)) == 0
        assert list(fresh.table(party.id).records)[:10] == list(expected.records)
    finally:
        fresh.close()


def test_an_undo_right_after_loading_is_right(party: _Party) -> None:
    _play(party, 9)
    fresh = party.fresh()
    try:
        done = fresh.undo(party.id, party.gm, 10)  # the last record, after the snapshot
        assert done.table.state == _folded(done.table).state
        assert done.table.state.pieces["cat"] == sum(
            r.events[0]["value"] for r in list(done.table.records)[1:9]
        )
    finally:
        fresh.close()


def test_an_undo_behind_the_snapshot_is_right(party: _Party) -> None:
    _play(party, 9)
    fresh = party.fresh()
    try:
        table = fresh.table(party.id)
        assert _unread(table) == 8
        done = fresh.undo(party.id, party.gm, 3)  # a roll before the snapshot at 8
        assert done.table.state == _folded(done.table).state
        rolls = [r for r in list(done.table.records)[1:10] if r.seq != 3]
        assert done.table.state.pieces["cat"] == sum(r.events[0]["value"] for r in rolls)
        with pytest.raises(SpieltischError) as refused:
            fresh.undo(party.id, party.gm, 1)  # the rolls depend on the join
        assert refused.value.code == "table.undo_dependent"
    finally:
        fresh.close()
    again = party.fresh()  # the undo wrote a snapshot: loads from it, undone roll and all
    try:
        loaded = again.table(party.id)
        assert _unread(loaded) == 11
        assert loaded.state == party.store.table(party.id).state == _folded(loaded).state
        with pytest.raises(SpieltischError) as twice:
            again.undo(party.id, party.gm, 3)
        assert twice.value.code == "table.already_undone"
    finally:
        again.close()


def test_another_worker_absorbs_an_undo_behind_its_snapshot(party: _Party) -> None:
    _play(party, 9)
    other = party.fresh()
    try:
        assert _unread(other.table(party.id)) == 8
        party.store.undo(party.id, party.gm, 2)
        caught_up = other.table(party.id)
        assert caught_up.state == party.store.table(party.id).state
        assert caught_up.state == _folded(caught_up).state
    finally:
        other.close()


def test_an_export_of_a_lazily_loaded_table_has_every_record(party: _Party) -> None:
    _play(party, 9)
    fresh = party.fresh()
    try:
        exported = fresh.export(party.id, party.gm)
        assert [r["seq"] for r in exported["records"]] == list(range(1, 11))
        assert exported == party.store.export(party.id, party.gm)
    finally:
        fresh.close()


def test_a_slice_of_a_lazy_log_reads_only_when_it_reaches_back() -> None:
    reads: list[int] = []
    stored = [_record(seq) for seq in range(1, 6)]

    def read() -> list[Any]:
        reads.append(1)
        return stored[:3]

    log = LazyLog.reading(3, read)
    for record in stored[3:]:
        log.append(record)
    assert len(log) == 5 and log[3:] == stored[3:] and log[-1] == stored[4]
    assert log[4:2] == [] and log[10:] == [] and not reads
    copy = log.copy()
    copy.append(_record(6))
    assert len(log) == 5 and len(copy) == 6
    assert log[1] == stored[1] and reads == [1]
    assert list(copy)[:5] == stored and log == stored and log[::2] == stored[::2]
    assert reads == [1]  # read once, shared with the copy
    with pytest.raises(IndexError):
        log[5]


def test_copies_of_a_log_share_its_records_and_grow_apart() -> None:
    base = LazyLog.holding([_record(1), _record(2)])
    kept, dropped = base.copy(), base.copy()
    dropped.append(_record(3))  # extends the shared list in place: a fork thrown away
    assert len(base) == 2 and list(base) == [_record(1), _record(2)]
    assert kept[-1] == _record(2)
    with pytest.raises(IndexError):
        kept[2]
    other = Record(seq=3, actor="someone")
    kept.append(other)  # finds the dropped fork's record after its end: copies first
    assert list(kept) == [_record(1), _record(2), other]
    assert list(dropped) == [_record(1), _record(2), _record(3)]
    assert list(base) == [_record(1), _record(2)] and base[1:] == [_record(2)]
    later = base.copy()
    later.append(_record(3))
    assert later == [_record(1), _record(2), _record(3)] and kept[2] is other


def _record(seq: int) -> Record:
    return Record(seq=seq, actor="gm")


# -- the property: snapshot + tail == the whole log folded -----------------------------------

TOY = st.one_of(
    st.tuples(st.just("join"), st.sampled_from(["gm", "player"]), st.sampled_from(["a", "b"])),
    st.tuples(st.just("roll"), st.sampled_from(["gm", "player"]), st.sampled_from(["a", "b"])),
    st.tuples(st.just("count"), st.sampled_from(["gm", "player"]), st.booleans()),
    st.tuples(st.just("undo"), st.just("gm"), st.integers(min_value=1, max_value=30)),
)

FREE = st.one_of(
    st.tuples(st.just("roll"), st.sampled_from(["gm", "player"]), st.sampled_from(["1d6", "2d4"])),
    st.tuples(st.just("add_character"), st.just("player"), st.sampled_from(["x", "y"])),
    st.tuples(st.just("add_combatant"), st.just("gm"), st.sampled_from(["o", "q"])),
    st.tuples(st.just("apply_effect"), st.sampled_from(["gm", "player"]), st.sampled_from("xo")),
    st.tuples(st.just("undo"), st.just("gm"), st.integers(min_value=1, max_value=30)),
)


def _toy_command(kind: str, arg: Any) -> tuple[dict[str, Any], bool]:
    if kind == "count":
        return {"kind": "count"}, bool(arg)
    return {"kind": kind, "piece": arg}, False


def _free_command(kind: str, arg: Any) -> tuple[dict[str, Any], bool]:
    if kind == "roll":
        return {"kind": "roll", "expression": arg}, False
    if kind == "apply_effect":
        return {"kind": "apply_effect", "target": arg, "name": "Gift"}, False
    hidden = kind == "add_combatant" and arg == "q"  # a secret foe, in a hidden record
    command = {"kind": kind, "id": arg, "name": arg.upper()}
    if hidden:
        command["secret"] = True
    return command, hidden


def _check_snapshot_and_tail(system: str, operations: list[Any], every: int) -> None:
    make = _toy_command if system == "toy" else _free_command
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'lazy.sqlite3'}"
        store = EventStore(url, snapshot_every=every)
        try:
            created = store.create_table(system)
            people: dict[str, Participant] = {
                "gm": store.authenticate(created.table, created.token)
            }
            people["player"] = store.join(
                created.table, created.invites["player"], "Pia"
            ).participant
            fresh: EventStore | None = None
            for index, (kind, who, arg) in enumerate(operations):
                try:
                    if kind == "undo":
                        store.undo(created.table, people[who], arg)
                    else:
                        command, hidden = make(kind, arg)
                        store.execute(created.table, people[who], command, hidden=hidden)
                except SpieltischError:
                    pass
                if index % 3 == 2:  # load afresh now and then, and go on with either store
                    fresh = EventStore(url, snapshot_every=every)
                    loaded = fresh.table(created.table)
                    _assert_same(loaded, store.table(created.table))
                    store.close()
                    store = fresh
            loaded_store = EventStore(url, snapshot_every=every)
            try:
                _assert_same(loaded_store.table(created.table), store.table(created.table))
            finally:
                loaded_store.close()
        finally:
            store.close()


def _assert_same(loaded: StoredTable, current: StoredTable) -> None:
    folded = Table(current.system, current.options, list(current.records), streams=True)
    assert loaded.seq == current.seq
    assert loaded.state == current.state == folded.state
    assert loaded.shared_state == folded.shared_state
    for role in Role:
        assert loaded.owners(role) == folded.owners(role)
        assert loaded.view(loaded.viewer(_actor(role))) == folded.view(folded.viewer(_actor(role)))
    assert loaded.next_draw == folded.next_draw
    assert list(loaded.records) == list(current.records)


def _actor(role: Role) -> Actor:
    return Actor(id="gm" if role is Role.GM else "someone", role=role)


_SETTINGS = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@_SETTINGS
@given(operations=st.lists(TOY, max_size=18), every=st.integers(min_value=1, max_value=4))
def test_snapshot_and_tail_fold_as_the_whole_log_on_the_toy(
    toy: Any, operations: list[Any], every: int
) -> None:
    _check_snapshot_and_tail("toy", operations, every)


@_SETTINGS
@given(operations=st.lists(FREE, max_size=18), every=st.integers(min_value=1, max_value=4))
def test_snapshot_and_tail_fold_as_the_whole_log_on_the_free_table(
    operations: list[Any], every: int
) -> None:
    _check_snapshot_and_tail("free-dice", operations, every)


@given(
    table_id=st.text(min_size=1, max_size=12),
    every=st.integers(1, 60),
    before=st.integers(0, 500),
    grown=st.integers(1, 80),
)
def test_a_snapshot_is_due_exactly_when_the_log_passes_the_tables_point(
    table_id: str, every: int, before: int, grown: int
) -> None:
    phase = snapshot_phase(table_id, every)
    assert 0 <= phase < every
    after = before + grown
    passed = any(n % every == phase for n in range(before + 1, after + 1))
    assert snapshot_due(before, after, every, phase) == passed


def test_tables_played_in_step_write_their_snapshots_at_their_own_points(
    database_url: str, toy: Any
) -> None:
    store = EventStore(database_url, snapshot_every=4)
    try:
        made = [store.create_table("toy") for _ in range(12)]
        players = []
        for created in made:
            joined = store.join(created.table, created.invites["player"], "Paul")
            players.append(joined.participant)
            store.execute(created.table, joined.participant, {"kind": "join", "piece": "cat"})
        for _ in range(5):  # every table at the same pace
            for created, player in zip(made, players, strict=True):
                store.execute(created.table, player, {"kind": "roll", "piece": "cat"})
        with store.engine.connect() as conn:
            rows = conn.execute(select(SnapshotRow.table_id, SnapshotRow.seq)).all()
        written = {table: seq for table, seq in rows}
        for created in made:
            phase = snapshot_phase(created.table, 4)
            seq = store.table(created.table).seq
            assert seq >= 4
            # The latest point of the table's own phase: older snapshots are pruned.
            point = max(n for n in range(1, seq + 1) if n % 4 == phase)
            assert written[created.table] == point
        assert len(set(written.values())) > 1  # not all with the same command
        for created in made:  # and each loads from it to the same table
            fresh = EventStore(database_url, snapshot_every=4)
            try:
                loaded = fresh.table(created.table)
                assert _unread(loaded) == written[created.table]
                assert loaded.state == store.table(created.table).state
            finally:
                fresh.close()
    finally:
        store.close()
