"""Property: whatever mix of commands, refusals and undos a table sees, the stored log reloads
into the same records and the same state as folding it from scratch (with snapshots on)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.engine.table import Table
from spieltisch.errors import SpieltischError
from spieltisch.store import EventStore

WHO = st.sampled_from(["gm", "player", "other", "spectator"])
PIECE = st.sampled_from(["a", "b"])
OPERATION = st.one_of(
    st.tuples(st.just("join"), WHO, PIECE),
    st.tuples(st.just("roll"), WHO, PIECE),
    st.tuples(st.just("damage"), WHO, PIECE),
    st.tuples(st.just("note"), WHO, st.booleans()),
    st.tuples(st.just("count"), WHO, st.booleans()),
    st.tuples(st.just("undo"), WHO, st.integers(min_value=0, max_value=30)),
)


def _command(kind: str, arg: Any) -> dict[str, Any]:
    if kind in ("join", "roll"):
        return {"kind": kind, "piece": arg}
    if kind == "damage":
        return {"kind": kind, "piece": arg, "amount": 2}
    if kind == "note":
        return {"kind": kind, "text": "n"}
    return {"kind": "count"}


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(operations=st.lists(OPERATION, max_size=25))
def test_the_stored_log_always_reloads_to_its_fold(toy: Any, operations: list[Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'p.sqlite3'}"
        store = EventStore(url, snapshot_every=3)
        try:
            created = store.create_table("toy")
            table = created.table
            people = {"gm": store.authenticate(table, created.token)}
            for name, role in [
                ("player", "player"),
                ("other", "player"),
                ("spectator", "spectator"),
            ]:
                joined = store.join(table, created.invites[role], name)
                people[name] = joined.participant
            for kind, who, arg in operations:
                before = store.snapshot(table)
                try:
                    if kind == "undo":
                        store.undo(table, people[who], arg)
                    else:
                        hidden = bool(arg) if kind in ("note", "count") else False
                        store.execute(table, people[who], _command(kind, arg), hidden=hidden)
                except SpieltischError:
                    after = store.snapshot(table)
                    assert list(after[1].records) == list(before[1].records)
                    assert after[1].state == before[1].state
            current = store.table(table)
            assert [r.seq for r in current.records] == list(range(1, current.seq + 1))
            fresh = EventStore(url, snapshot_every=3)
            try:
                reloaded = fresh.table(table)
            finally:
                fresh.close()
            assert list(reloaded.records) == list(current.records)
            folded = Table(current.system, {}, current.records, streams=current.streams)
            assert reloaded.state == current.state == folded.state
            assert reloaded.owners() == folded.owners()
        finally:
            store.close()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_damaged_export_imports_or_is_refused_with_a_code(toy: Any, data: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(f"sqlite:///{Path(tmp) / 'i.sqlite3'}")
        try:
            created = store.create_table("toy")
            gm = store.authenticate(created.table, created.token)
            store.execute(created.table, gm, {"kind": "join", "piece": "a"})
            store.execute(created.table, gm, {"kind": "roll", "piece": "a"})
            store.reveal(created.table, gm)
            export = store.export(created.table, gm)
            path = data.draw(st.sampled_from(_paths(export)[1:]))
            replacement = data.draw(JSON)
            target: Any = export
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = replacement
            before = len(store.list_tables())
            try:
                imported = store.import_table(export)
            except SpieltischError:
                assert len(store.list_tables()) == before
            else:
                table = store.table(imported.table)
                assert (
                    table.state
                    == Table(
                        table.system, table.options, table.records, streams=table.streams
                    ).state
                )
        finally:
            store.close()
