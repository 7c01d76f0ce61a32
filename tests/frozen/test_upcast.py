"""Event versions and upcasters at work: a table written by old code is read by new code.

A small game exists here in two releases, registered under one id only for a test's duration:
the *old* release writes ``rolled`` events as ``{"piece", "value"}`` (version 1); the *new*
release stores ``{"piece", "faces", "bonus"}`` (version 3: ``value`` became a list of
``faces`` in version 2, ``bonus`` came in version 3) and carries the upcasters
``v1→v2→v3``. A table is played by the old release through the real store; the new release
then imports its export, loads its database, undoes, verifies and exports it again. The same
release without its upcasters cannot read the table at all, so these tests fail without the
mechanism.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from sqlalchemy import select
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.dice.fair import DiceSource
from spieltisch.dice.verify import VerifyError
from spieltisch.engine.errors import EngineError, RuleError
from spieltisch.engine.system import Access, Odds
from spieltisch.engine.table import Record, Table
from spieltisch.engine.upcast import VERSION_FIELD, EventShapes, shapes_of
from spieltisch.engine.visibility import Role, Viewer
from spieltisch.errors import SpieltischError
from spieltisch.store.events import EventStore
from spieltisch.store.exchange import verify_document
from spieltisch.store.models import RecordRow
from spieltisch.store.snapshots import decode_states, encode_states
from spieltisch.systems import registry
from spieltisch.systems.registry import get_system

SYSTEM = "shapes-toy"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Join(_Model):
    kind: Literal["join"] = "join"
    piece: str


class Roll(_Model):
    kind: Literal["roll"] = "roll"
    piece: str


Command = Annotated[Join | Roll, Field(discriminator="kind")]


class Joined(_Model):
    kind: Literal["joined"] = "joined"
    piece: str


class RolledV1(_Model):
    """The old release's event: one die value."""

    kind: Literal["rolled"] = "rolled"
    piece: str
    value: int


class RolledV3(_Model):
    """The new release's event: the faces rolled and a bonus."""

    class_version: ClassVar[int] = 3
    kind: Literal["rolled"] = "rolled"
    piece: str
    faces: tuple[int, ...]
    bonus: int


def upcast_rolled_v1_v2(event: dict[str, Any]) -> dict[str, Any]:
    """Version 2 keeps every face rolled: the one ``value`` of version 1 is one face."""
    value = event.pop("value")
    return {**event, "faces": [value]}


def upcast_rolled_v2_v3(event: dict[str, Any]) -> dict[str, Any]:
    """Version 3 adds a bonus; there was none before."""
    return {**event, "bonus": 0}


class State(_Model):
    pieces: dict[str, int] = Field(default_factory=dict)


class _Game:
    id = SYSTEM
    commands: TypeAdapter[Any] = TypeAdapter(Command)
    options: TypeAdapter[Any] = TypeAdapter(dict[str, int])
    rolled: type[BaseModel] = RolledV1

    def new_state(self, options: Mapping[str, Any]) -> State:
        return State()

    def decide(self, state: State, command: Any, dice: DiceSource) -> list[Any]:
        if isinstance(command, Join):
            return [Joined(piece=command.piece)]
        if command.piece not in state.pieces:
            raise RuleError("toy.no_piece", piece=command.piece)
        return [self._rolled(command.piece, dice.roll(6))]

    def _rolled(self, piece: str, value: int) -> Any:
        raise NotImplementedError

    def _score(self, event: Any) -> int:
        raise NotImplementedError

    def evolve(self, state: State, event: Any) -> State:
        if isinstance(event, Joined):
            return State(pieces={**state.pieces, event.piece: 0})
        if event.piece not in state.pieces:
            raise RuleError("toy.no_piece", piece=event.piece)
        total = state.pieces[event.piece] + self._score(event)
        return State(pieces={**state.pieces, event.piece: total})

    def odds(self, state: State, command: Any) -> Odds | None:
        return None

    def access(self, state: State, command: Any) -> Access:
        return Access(piece=command.piece, claims=isinstance(command, Join))

    def automatic(self, state: State) -> Any:
        return None

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return state.model_dump(mode="json")


_OLD_EVENTS = Annotated[Joined | RolledV1, Field(discriminator="kind")]


class OldRelease(_Game):
    """The release that wrote the table: ``rolled`` at version 1."""

    events: TypeAdapter[Any] = TypeAdapter(_OLD_EVENTS)
    shapes = EventShapes.of(_OLD_EVENTS)

    def _rolled(self, piece: str, value: int) -> Any:
        return RolledV1(piece=piece, value=value)

    def _score(self, event: Any) -> int:
        return int(event.value)


_NEW_EVENTS = Annotated[Joined | RolledV3, Field(discriminator="kind")]


class NewReleaseWithoutUpcasters(_Game):
    """Today's models, but nothing that reads the old shape."""

    events: TypeAdapter[Any] = TypeAdapter(_NEW_EVENTS)

    def _rolled(self, piece: str, value: int) -> Any:
        return RolledV3(piece=piece, faces=(value,), bonus=0)

    def _score(self, event: Any) -> int:
        return sum(event.faces) + int(event.bonus)


class NewRelease(NewReleaseWithoutUpcasters):
    """Today's release: ``rolled`` at version 3 with its upcasters (its one place)."""

    shapes = EventShapes.of(
        _NEW_EVENTS, upcasters={"rolled": (upcast_rolled_v1_v2, upcast_rolled_v2_v3)}
    )


@contextmanager
def _release(factory: type[_Game]) -> Iterator[None]:
    registry.REGISTRY[SYSTEM] = factory  # type: ignore[assignment]
    try:
        yield
    finally:
        registry.REGISTRY.pop(SYSTEM, None)


@contextmanager
def _store(path: Path) -> Iterator[EventStore]:
    # Snapshots at every third record, not at the table's own points: the old table's last
    # records then come after its last snapshot, so loading it has to read old events (a
    # snapshot on its last record would be all a release without upcasters reads).
    store = EventStore(db_path=str(path), snapshot_every=3, spread_snapshots=False)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def old_table(tmp_path: Path) -> tuple[Path, str, str, dict[str, Any]]:
    """A table played by the old release through the store: the database, the table id, the
    GM's token and the GM's export after the reveal."""
    database = tmp_path / "old.sqlite3"
    with _release(OldRelease), _store(database) as store:
        created = store.create_table(SYSTEM, name="GM")
        gm = store.authenticate(created.table, created.token)
        anna = store.join(created.table, created.invites["player"], "Anna").participant
        store.execute(created.table, anna, {"kind": "join", "piece": "cat"})
        store.execute(created.table, gm, {"kind": "join", "piece": "owl"}, hidden=True)
        for _ in range(3):
            store.execute(created.table, anna, {"kind": "roll", "piece": "cat"})
        store.execute(created.table, gm, {"kind": "roll", "piece": "owl"}, hidden=True)
        store.execute(created.table, anna, {"kind": "whisper", "to": gm.id, "text": "/r 1W6"})
        store.reveal(created.table, gm)
        store.execute(created.table, anna, {"kind": "roll", "piece": "cat"})
        store.reveal(created.table, gm)
        export = store.export(created.table, gm)
    return database, created.table, created.token, export


def _old_totals(export: Mapping[str, Any]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for record in export["records"]:
        for event in record["events"]:
            if event["kind"] == "joined":
                totals[event["piece"]] = 0
            elif event["kind"] == "rolled":
                totals[event["piece"]] += event["value"]
    return totals


def test_the_old_release_wrote_version_1_events_and_no_versions(old_table: Any) -> None:
    _, _, _, export = old_table
    rolled = [e for r in export["records"] for e in r["events"] if e["kind"] == "rolled"]
    assert len(rolled) == 5 and all(set(e) == {"kind", "piece", "value"} for e in rolled)
    assert export["versions"] == {"rules": 1, "events": {"joined": 1, "rolled": 1, "said": 1}}


def test_the_new_release_imports_folds_undoes_and_verifies_the_old_export(
    old_table: Any, tmp_path: Path
) -> None:
    _, _, _, export = old_table
    del export["versions"]  # as an export written before versions existed
    with _release(NewRelease), _store(tmp_path / "new.sqlite3") as store:
        assert verify_document(export).ok
        created = store.import_table(export)
        gm = store.authenticate(created.table, created.token)
        table = store.table(created.table)
        assert table.state == State(pieces=_old_totals(export))
        assert table.view(table.viewer(gm.actor)) == {"pieces": _old_totals(export)}
        players = [p for p in store.participants(created.table) if p.role is Role.PLAYER]
        assert table.view(table.viewer(players[0].actor)) == {
            "pieces": {"cat": _old_totals(export)["cat"]}
        }
        last_roll = max(r.seq for r in table.records if r.events and r.actor == players[0].id)
        store.undo(created.table, gm, last_roll)
        again = store.export(created.table, gm)
    # Read in today's shape: version 3 with its marker, and the versions block says so.
    rolled = [e for r in again["records"] for e in r["events"] if e["kind"] == "rolled"]
    assert all(e[VERSION_FIELD] == 3 and e["bonus"] == 0 and len(e["faces"]) == 1 for e in rolled)
    assert again["versions"]["events"]["rolled"] == 3
    with _release(NewRelease):
        assert verify_document(again).ok


def test_without_the_upcasters_the_old_table_cannot_be_read(old_table: Any, tmp_path: Path) -> None:
    database, table_id, _, export = old_table
    with _release(NewReleaseWithoutUpcasters):
        assert not verify_document(export).ok
        with _store(tmp_path / "new.sqlite3") as store, pytest.raises(SpieltischError):
            store.import_table(export)
        with _store(database) as store, pytest.raises((EngineError, ValueError)):
            store.table(table_id)  # the old events do not fit today's models


def test_the_old_database_loads_undoes_and_is_never_rewritten(old_table: Any) -> None:
    database, table_id, token, export = old_table
    with _store(database) as store:
        before = _rows(store, table_id)
    with _release(NewRelease), _store(database) as store:
        gm = store.authenticate(table_id, token)
        table = store.table(table_id)
        assert table.state == State(pieces=_old_totals(export))
        # The log in memory is in today's shape; the rows stay as the old release wrote them.
        assert all(
            VERSION_FIELD in e for r in table.records for e in r.events if e["kind"] == "rolled"
        )
        rolls = [r.seq for r in table.records if r.events and r.events[0]["kind"] == "rolled"]
        store.undo(table_id, gm, rolls[-1])
        assert verify_document(store.export(table_id, gm)).ok
        after = _rows(store, table_id)
    assert after[: len(before)] == before
    assert json.loads(after[-1])["undoes"] == rolls[-1]
    with _release(NewRelease), _store(database) as store:  # once more, from the database
        assert store.table(table_id).state.pieces["cat"] < _old_totals(export)["cat"] + 1


def _rows(store: EventStore, table_id: str) -> list[str]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(RecordRow.data).where(RecordRow.table_id == table_id).order_by(RecordRow.seq)
        )
        return [data for (data,) in rows]


def test_spieltisch_verify_reads_the_old_export_through_the_upcasters(
    old_table: Any, tmp_path: Path
) -> None:
    _, _, _, export = old_table
    path = tmp_path / "old.json"
    path.write_text(json.dumps(export))
    with _release(NewRelease):
        result = CliRunner().invoke(app, ["verify", "--json", str(path)])
    assert result.exit_code == 0, result.output
    with _release(NewReleaseWithoutUpcasters):
        result = CliRunner().invoke(app, ["verify", "--json", str(path)])
    assert result.exit_code == 1, result.output


def test_a_file_of_newer_shapes_or_rules_is_refused_by_name(old_table: Any) -> None:
    _, _, _, export = old_table
    newer = json.loads(json.dumps(export))
    newer["versions"]["events"]["rolled"] = 4
    with _release(NewRelease), pytest.raises(VerifyError) as refused:
        verify_document(newer)
    assert refused.value.code == "verify.newer_event"
    assert refused.value.params == {"kind": "rolled", "version": 4, "known": 3}
    newer = json.loads(json.dumps(export))
    newer["versions"]["rules"] = 2
    with _release(NewRelease), pytest.raises(VerifyError) as refused:
        verify_document(newer)
    assert refused.value.code == "verify.newer_rules"
    newer = json.loads(json.dumps(export))
    del newer["versions"]
    event = next(e for r in newer["records"] for e in r["events"] if e["kind"] == "rolled")
    event[VERSION_FIELD] = 9
    with _release(NewRelease), pytest.raises(VerifyError) as refused:
        verify_document(newer)
    assert refused.value.code == "verify.newer_event"
    assert refused.value.params["version"] == 9
    newer["versions"] = {"rules": 1, "events": {"rolled": "2"}}
    with _release(NewRelease), pytest.raises(VerifyError) as refused:
        verify_document(newer)
    assert refused.value.code == "verify.bad_format"


def test_a_declared_version_reads_events_that_name_none() -> None:
    """An export's versions block tells the shape of events without a marker."""
    shapes = NewRelease.shapes
    v2 = {"kind": "rolled", "piece": "cat", "faces": [2, 3]}
    assert shapes.read(v2, {"rolled": 2}) == {**v2, "bonus": 0}
    assert shapes.stored(v2, {"rolled": 2}) == {**v2, "bonus": 0, VERSION_FIELD: 3}
    v1 = {"kind": "rolled", "piece": "cat", "value": 5}
    assert shapes.read(v1) == {"kind": "rolled", "piece": "cat", "faces": [5], "bonus": 0}
    assert shapes.read({**v1, VERSION_FIELD: 1}, {"rolled": 2})["faces"] == [5]
    with pytest.raises(EngineError) as bad:
        shapes.read({**v1, VERSION_FIELD: True})
    assert bad.value.code == "table.bad_event_version"


def test_a_table_reads_old_records_and_writes_marked_ones() -> None:
    system = NewRelease()
    old = [
        Record(
            seq=1,
            actor="a",
            command={"kind": "join", "piece": "cat"},
            events=[{"kind": "joined", "piece": "cat"}],
            claims="cat",
        ),
        Record(
            seq=2,
            actor="a",
            command={"kind": "roll", "piece": "cat"},
            events=[{"kind": "rolled", "piece": "cat", "value": 4}],
            draws=[{"index": 0, "sides": 6, "value": 4}],
        ),  # type: ignore[list-item]
    ]
    table = Table(system, {}, old)
    assert table.state.pieces == {"cat": 4}
    assert table.records[1].events == [
        {"kind": "rolled", "piece": "cat", "faces": [4], "bonus": 0, VERSION_FIELD: 3}
    ]
    assert table.records[0] is old[0]  # nothing to read: the very record


def test_a_shape_change_without_its_upcaster_fails_at_once() -> None:
    with pytest.raises(TypeError, match="needs 2 upcaster"):
        EventShapes.of(_NEW_EVENTS)
    with pytest.raises(TypeError, match="unknown event kinds"):
        EventShapes.of(Joined, upcasters={"rolled": (upcast_rolled_v1_v2,)})


def test_a_snapshot_of_other_shapes_is_not_used() -> None:
    system = NewRelease()
    state = State(pieces={"cat": 3})
    old = encode_states(state, state)  # written before versions: no stamp
    assert old is not None and decode_states(system, {}, old) is None
    fresh = encode_states(state, state, shapes_of(system).stamp)
    assert fresh is not None and decode_states(system, {}, fresh) == (state, state)
    assert shapes_of(system).stamp == "r1;rolled=3"


@pytest.mark.parametrize("system_id", registry.system_ids())
def test_every_system_declares_its_shapes(system_id: str) -> None:
    system = get_system(system_id)
    own = system.shapes  # type: ignore[attr-defined]
    assert isinstance(own, EventShapes)
    described = shapes_of(system).describe()
    assert described["rules"] >= 1
    assert "said" in described["events"]
    assert set(own.versions) <= set(described["events"])
    assert all(version >= 1 for version in described["events"].values())
    # Every event kind of the system's frozen tables is one its shapes know.
    for path in (Path(__file__).parent / "exports").glob(f"{system_id}-v2*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        kinds = {e["kind"] for r in data["records"] for e in r["events"]}
        assert kinds <= set(described["events"]), path.name
