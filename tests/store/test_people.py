"""People at a table in the store, on SQLite and PostgreSQL: removing a participant, leaving,
rotating invites, and what every worker does with a revoked token."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from spieltisch.errors import SpieltischError
from spieltisch.store import EventStore, Participant
from spieltisch.store.models import ParticipantRow
from spieltisch.store.types import hash_secret


def _error(code: str) -> Any:
    return pytest.raises(SpieltischError, match="^" + re.escape(code) + "(:|$)")


@pytest.fixture
def store(database_url: str, toy: Any) -> Iterator[EventStore]:
    store = EventStore(database_url)
    try:
        yield store
    finally:
        store.close()


class Table:
    """A free table with a GM and two players (Paul, Petra)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.created = store.create_table("free-dice", language="en", name="Gina")
        self.id = self.created.table
        self.gm = store.authenticate(self.id, self.created.token)
        self.paul_token = store.join(self.id, self.created.invites["player"], "Paul").token
        self.paul = store.authenticate(self.id, self.paul_token)
        self.petra_token = store.join(self.id, self.created.invites["player"], "Petra").token
        self.petra = store.authenticate(self.id, self.petra_token)

    def do(self, who: Participant, command: dict[str, Any]) -> Any:
        return self.store.execute(self.id, who, command)


@pytest.fixture
def table(store: EventStore) -> Table:
    return Table(store)


def test_the_gm_removes_a_player_whose_token_stops_working(table: Table) -> None:
    store = table.store
    table.do(table.paul, {"kind": "roll", "expression": "1d6"})
    gone = store.remove_participant(table.id, table.gm, table.paul.id)
    assert (gone.id, gone.removed) == (table.paul.id, True)
    with _error("table.bad_token"):
        store.authenticate(table.id, table.paul_token)
    assert store.authenticate_cached(table.id, table.paul_token) is None
    with _error("table.bad_token"):  # a request already past authentication
        table.do(table.paul, {"kind": "roll", "expression": "1d6"})
    with _error("table.bad_token"):
        store.add_player_seed(table.id, table.paul, "late")
    people = store.participants(table.id)
    assert [(p.name, p.removed) for p in people] == [
        ("Gina", False),
        ("Petra", False),
        ("Paul", True),
    ]
    with store.engine.connect() as conn:
        stored = conn.execute(
            select(ParticipantRow.token_hash).where(ParticipantRow.id == table.paul.id)
        ).scalar_one()
    assert stored != hash_secret(table.paul_token)
    table.do(table.petra, {"kind": "roll", "expression": "1d6"})  # the others play on
    assert store.table(table.id).records[0].actor == table.paul.id  # the log keeps its actor


def test_a_player_leaves_but_removes_nobody_else(table: Table) -> None:
    store = table.store
    with _error("rule.forbidden"):
        store.remove_participant(table.id, table.paul, table.petra.id)
    with _error("rule.forbidden"):
        store.remove_participant(table.id, table.paul, table.gm.id)
    store.remove_participant(table.id, table.paul, table.paul.id)
    with _error("table.bad_token"):
        store.authenticate(table.id, table.paul_token)
    with _error("table.unknown_participant"):
        store.remove_participant(table.id, table.gm, table.paul.id)  # already gone
    with _error("table.unknown_participant"):
        store.remove_participant(table.id, table.gm, "nobody")
    with _error("table.gm_stays"):
        store.remove_participant(table.id, table.gm, table.gm.id)


def test_the_pieces_of_someone_who_left_are_nobodys(table: Table) -> None:
    store = table.store
    table.do(table.gm, {"kind": "add_combatant", "id": "hero", "name": "Hero", "claimable": True})
    table.do(table.paul, {"kind": "claim", "combatant": "hero"})
    with _error("rule.forbidden"):
        table.do(table.petra, {"kind": "claim", "combatant": "hero"})
    store.remove_participant(table.id, table.gm, table.paul.id)
    [record] = table.do(table.petra, {"kind": "claim", "combatant": "hero"}).records
    assert record.claims == "hero"
    assert store.table(table.id).owners() == {"hero": table.petra.id}


def test_rotated_invites_keep_who_joined_and_refuse_the_old_codes(table: Table) -> None:
    store = table.store
    fresh = store.new_invites(table.id, table.gm)
    with _error("table.bad_invite"):
        store.join(table.id, table.created.invites["player"], "Late")
    assert store.authenticate(table.id, table.paul_token).id == table.paul.id
    joined = store.join(table.id, fresh["player"], "Late")
    assert store.authenticate(table.id, joined.token).name == "Late"
    with _error("rule.forbidden"):
        store.new_invites(table.id, table.paul)


def test_an_export_keeps_the_removed_and_an_import_gives_them_no_token(table: Table) -> None:
    store = table.store
    table.do(table.paul, {"kind": "roll", "expression": "1d6"})
    store.remove_participant(table.id, table.gm, table.paul.id)
    data = store.export(table.id, table.gm)
    assert {"id": table.paul.id, "name": "Paul", "role": "player", "removed": True} in data[
        "participants"
    ]
    made = store.import_table(data)
    assert [p["name"] for p in made.participants] == ["Petra"]
    people = {p.name: p.removed for p in store.participants(made.table)}
    assert people == {"": False, "Petra": False, "Paul": True}


@pytest.mark.postgres
def test_a_token_revoked_on_one_worker_fails_on_the_other(postgres_server: Any) -> None:
    url = postgres_server.create_database()
    one, two = EventStore(url), EventStore(url)
    try:
        created = one.create_table("free-dice", language="en")
        token = one.join(created.table, created.invites["player"], "Paul").token
        gm = one.authenticate(created.table, created.token)
        paul = two.authenticate(created.table, token)  # worker two holds the table in memory
        assert two.authenticate_cached(created.table, token) == paul
        one.remove_participant(created.table, gm, paul.id)
        # Its next write turn reads who is at the table, whatever its memory says ...
        with _error("table.bad_token"):
            two.execute(created.table, paul, {"kind": "roll", "expression": "1d6"})
        # ... and its listener makes it forget the table on the NOTIFY (see test_people_web).
        two.forget(created.table)
        assert two.authenticate_cached(created.table, token) is None
        with _error("table.bad_token"):
            two.authenticate(created.table, token)
    finally:
        one.close()
        two.close()


def test_a_new_id_never_begins_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command line would read such an id as an option; one drawn so is drawn again."""
    from spieltisch.store import people

    drawn = iter(["-dashFirst01", "--twoDashes0", "plainId01234"])
    monkeypatch.setattr(people.secrets, "token_urlsafe", lambda _n: next(drawn))
    assert people.new_id() == "plainId01234"
    monkeypatch.undo()
    ids = {people.new_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]{11}", made) for made in ids)
