"""A Kilkenny game of the AI alone plays to its end, and an old table that stopped keeps its log.

A human seat with no cat left on the board passes by itself, so once the human's cats are all
home, the AI seats play the rest of the game among themselves. Before the rules edition 2
(``systems/kilkenny/commands.py``) the table stopped after 500 automatic records in a row and
then waited for a command no one could give. Tables made before were stored without the option
``edition``; they read as edition 1 (``KilkennySystem.upgrade_options``) and replay as played.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spieltisch.dice.fair import SeededSource
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import AUTO_ACTOR, Actor, Role, Table
from spieltisch.store.events import EventStore
from spieltisch.store.exchange import verify_document
from spieltisch.systems.kilkenny.commands import AUTOMATIC_LIMIT
from spieltisch.systems.kilkenny.system import KilkennySystem

# South's last cat is home; North (the random AI) has three cats left, with 563 plies played.
OPTIONS: dict[str, Any] = {
    "players": 2,
    "seats": [{"player": "human"}, {"player": "random"}],
    "position": "S:S1 N:a3,b13,N2 N - 563",
}
OLD = Path(__file__).parent / "editions" / "kilkenny-ai-stops.json"
"""Made once by the code of the day before the edition, never regenerated (like ``exports/``)."""
ALICE = Actor(id="alice", role=Role.PLAYER)


def _play(edition: int) -> Table:
    table = Table(KilkennySystem(), {**OPTIONS, "edition": edition})
    source = SeededSource(0)
    table.execute({"kind": "sit", "seat": "S"}, ALICE, lambda _: source)
    return table


def test_edition_2_plays_the_ai_to_the_end_of_the_game() -> None:
    table = _play(2)
    assert table.state.outcome is not None, "the game ended"
    assert KilkennySystem().automatic(table.state) is None
    autos = [r for r in table.records if r.actor == AUTO_ACTOR]
    assert len(autos) == len(table.records) - 1 == 1_162
    assert len(autos) < AUTOMATIC_LIMIT


def test_edition_1_stops_after_500_and_waits() -> None:
    table = _play(1)
    assert len(table.records) == 1 + 500
    assert table.state.outcome is None
    assert KilkennySystem().automatic(table.state) is not None, "the AI would go on"


def test_a_new_table_is_made_in_edition_2_and_an_old_one_reads_as_edition_1() -> None:
    system = KilkennySystem()
    assert system.stamp_options({})["edition"] == 2
    assert system.stamp_options({"edition": 1})["edition"] == 1
    assert system.upgrade_options({})["edition"] == 1
    assert system.upgrade_options({"edition": 2})["edition"] == 2


def test_each_log_replays_under_its_own_edition_only() -> None:
    """The edition decides where the chain of AI records stops: a log of either edition
    replays under its own and not under the other."""
    system = KilkennySystem()
    for edition, other in ((1, 2), (2, 1)):
        records = _play(edition).records
        mine = replay_log(system, {**OPTIONS, "edition": edition}, records)
        assert mine.mismatch is None and mine.records == len(records)
        theirs = replay_log(system, {**OPTIONS, "edition": other}, records)
        assert theirs.mismatch is not None and theirs.mismatch.field == "actor"


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    the_store = EventStore(database_url)
    try:
        yield the_store
    finally:
        the_store.close()


def test_a_new_table_is_stored_in_edition_2_and_plays_to_the_end(store: EventStore) -> None:
    created = store.create_table("kilkenny", options=dict(OPTIONS))
    gm = store.authenticate(created.table, created.token)
    store.execute(created.table, gm, {"kind": "sit", "seat": "S"})
    assert store.info(created.table).options["edition"] == 2
    assert store.table(created.table).state.outcome is not None, "nobody waits on the AI"
    store.reveal(created.table, gm)
    assert verify_document(store.export(created.table, gm)).error() is None


def _old_export() -> dict[str, Any]:
    """A table made by the code before the edition (stored without ``edition``, rules 1):
    the random AI stopped after 500 records with its game unfinished."""
    data: dict[str, Any] = json.loads(OLD.read_text(encoding="utf-8"))
    assert "edition" not in data["options"] and data["versions"]["rules"] == 1
    return data


def test_an_old_table_that_stopped_loads_undoes_and_verifies(store: EventStore) -> None:
    old = _old_export()
    assert len(old["records"]) == 501
    assert verify_document(copy.deepcopy(old)).error() is None
    imported = store.import_table(copy.deepcopy(old))
    assert store.info(imported.table).options["edition"] == 1
    table = store.table(imported.table)
    assert len(table.records) == 501
    assert table.state.outcome is None, "stopped where it stopped when it was played"
    gm = store.authenticate(imported.table, imported.token)
    undone = store.undo(imported.table, gm, 1)
    assert undone.records[0].undoes == 1
    store.reveal(imported.table, gm)
    assert verify_document(store.export(imported.table, gm)).error() is None


def test_the_old_log_does_not_verify_under_edition_2() -> None:
    """The edition is what keeps the old table: today's rules expect the AI to go on."""
    old = _old_export()
    old["options"] = {**old["options"], "edition": 2}
    assert verify_document(old).error() is not None
