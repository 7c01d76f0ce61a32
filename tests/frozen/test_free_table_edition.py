"""An old free table where two tokens shared a square still loads, undoes and verifies.

Before tokens took space (the free table's rules edition 2, ``systems/freedice/rules.py``),
a move could end on another token's square, and a visible move onto a secret one was taken
as the player saw it. Such a table was stored without the option ``edition``; it reads as
edition 1 (``FreeDice.upgrade_options``) and replays by the rules it was played with. The
log here is made the way the code of then made it (edition 1) and exported with the options
and rules version that code wrote (``{}``, rules 1).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from spieltisch.engine.visibility import Role
from spieltisch.store.events import EventStore
from spieltisch.store.exchange import verify_document


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    the_store = EventStore(database_url)
    try:
        yield the_store
    finally:
        the_store.close()


def _old_export(store: EventStore) -> dict[str, Any]:
    created = store.create_table("free-dice", options={"edition": 1})
    gm = store.authenticate(created.table, created.token)
    for command in [
        {"kind": "add_combatant", "id": "ork", "name": "Ork", "at": "a1"},
        {"kind": "add_combatant", "id": "elf", "name": "Elf", "side": "party", "at": "b1"},
        {"kind": "move", "combatant": "elf", "to": "a1"},  # onto the Ork: allowed then
        {"kind": "roll", "expression": "1d20"},
    ]:
        store.execute(created.table, gm, command)
    store.execute(
        created.table,
        gm,
        {"kind": "add_combatant", "id": "spy", "name": "Spy", "secret": True, "at": "c1"},
        hidden=True,
    )
    store.execute(created.table, gm, {"kind": "move", "combatant": "elf", "to": "c1"})
    store.reveal(created.table, gm)
    data = store.export(created.table, gm)
    data["options"] = {}  # as stored before the option existed
    data["versions"]["rules"] = 1
    return data


def test_an_old_table_with_two_tokens_on_a_square_loads_undoes_and_verifies(
    store: EventStore,
) -> None:
    old = _old_export(store)
    assert verify_document(copy.deepcopy(old)).error() is None
    imported = store.import_table(copy.deepcopy(old))
    assert store.info(imported.table).options == {"edition": 1}
    gm = store.authenticate(imported.table, imported.token)
    table = store.table(imported.table)
    squares = [f["position"] for f in table.view(table.viewer(gm.actor))["combatants"]]
    assert squares.count("c1") == 2, "the Elf stands on the secret Spy's square, as played"
    assert table.state_for(Role.PLAYER).options.edition == 1
    undone = store.undo(imported.table, gm, len(old["records"]))
    assert undone.records[0].undoes == len(old["records"])
    again = store.export(imported.table, gm)
    assert verify_document(again).error() is None


def test_the_same_log_does_not_verify_under_edition_2(store: EventStore) -> None:
    """The edition is what keeps the old table: read by today's rules the log would not
    replay (the test above could fail)."""
    old = _old_export(store)
    old["options"] = {"edition": 2}
    assert verify_document(old).error() is not None
