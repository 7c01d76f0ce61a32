"""An old Magical Kitties table whose player's check sat under many hidden checks still loads,
undoes and verifies.

Before the rules edition 2 (``docs/games/magical-kitties.md``, "Hidden checks") every check a
newer one replaced stayed reachable until the scene ended, so a reroll could name a check
behind any number of the GM's hidden checks. Such a table was stored without the option
``edition``; it reads as edition 1 (``MagicalKitties.upgrade_options``) and replays by the
rules it was played with. The log here is made that way (edition 1) and exported with the
options and rules version the code of then wrote (``{}``, rules 1).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from spieltisch.engine.visibility import Role
from spieltisch.store.events import EventStore
from spieltisch.store.exchange import verify_document

HIDDEN_CHECKS = 9
"""One more than edition 2 keeps by default."""


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    the_store = EventStore(database_url)
    try:
        yield the_store
    finally:
        the_store.close()


def _kitty(kitty_id: str, name: str, cute: int, fierce: int) -> dict[str, Any]:
    return {
        "kind": "create_kitty",
        "id": kitty_id,
        "name": name,
        "attributes": {"cute": cute, "cunning": 2, "fierce": fierce},
        "talents": ["Climbing"],
        "powers": [{"name": "Teleport"}],
        "flaw": "Lazy",
    }


def _old_export(store: EventStore) -> dict[str, Any]:
    created = store.create_table("magical-kitties", options={"edition": 1})
    gm = store.authenticate(created.table, created.token)
    for command in [
        _kitty("mia", "Mia", 3, 1),
        _kitty("tom", "Tom", 1, 3),
        {"kind": "start_episode"},
        {"kind": "start_scene"},
        {"kind": "check", "kitty": "mia", "attribute": "cute"},  # check 1, seen by all
    ]:
        store.execute(created.table, gm, command)
    for _ in range(HIDDEN_CHECKS):
        tom = {"kind": "check", "kitty": "tom", "attribute": "fierce"}
        store.execute(created.table, gm, tom, hidden=True)
    # Decided on the shared fold, where check 1 is the last: it names check 1, nine hidden
    # checks down in the GM's fold.
    store.execute(created.table, gm, {"kind": "reroll", "dice": [0]})
    store.reveal(created.table, gm)
    data = store.export(created.table, gm)
    data["options"] = {}  # as stored before the option existed
    data["versions"]["rules"] = 1
    return data


def test_an_old_table_with_a_check_under_many_hidden_ones_loads_undoes_and_verifies(
    store: EventStore,
) -> None:
    old = _old_export(store)
    assert verify_document(copy.deepcopy(old)).error() is None
    imported = store.import_table(copy.deepcopy(old))
    gm = store.authenticate(imported.table, imported.token)
    table = store.table(imported.table)
    assert table.state_for(Role.GM).options.edition == 1
    mine = table.state_for(Role.GM).earlier_checks[1]
    assert (mine.kitty, mine.rerolls) == ("mia", 1)
    assert table.state_for(Role.PLAYER).last_check.rerolls == 1
    undone = store.undo(imported.table, gm, len(old["records"]))
    assert undone.records[0].undoes == len(old["records"])
    again = store.export(imported.table, gm)
    assert verify_document(again).error() is None


def test_the_same_log_does_not_verify_under_edition_2(store: EventStore) -> None:
    """The edition is what keeps the old table: by today's rules the reroll names a check
    no longer kept (the test above could fail)."""
    old = _old_export(store)
    old["options"] = {"edition": 2}
    assert verify_document(old).error() is not None
