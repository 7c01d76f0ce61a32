"""The frozen exports replay forever: every table made by older code still loads, undoes and
verifies with today's code.

``tests/frozen/exports/`` holds real sessions (one per game system, the GM's export and a
player's redacted export) made through the store by the code of the day they were frozen; see
``make_frozen_exports.py`` for how, and why those files are never regenerated. For every file
this module imports it through the real import path into a fresh SQLite store, folds it, loads
it again from the database, builds the GM's and a player's view, undoes the last record that
can be undone, checks the dice and replays the log (``verify_document``, the check
``spieltisch verify`` makes) and runs ``spieltisch verify FILE`` itself.

A failure here means a change broke old tables: give the changed event an upcaster (or read
the old event as documented), do not touch the files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import Role
from spieltisch.store.events import EventStore
from spieltisch.store.exchange import verify_document
from spieltisch.store.types import Participant

EXPORTS = Path(__file__).parent / "exports"
FILES = sorted(EXPORTS.glob("*.json"))
SYSTEMS = ("magical-kitties", "hexxen", "kreiswanderer", "dnd5e", "kilkenny", "free-dice")


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_system_has_a_gm_and_a_player_export() -> None:
    names = {path.name for path in FILES}
    for system in SYSTEMS:
        assert f"{system}-v2.json" in names
        assert f"{system}-v2-player.json" in names


GM_FILES = [path for path in FILES if not path.name.endswith("-player.json")]


@pytest.mark.parametrize("path", GM_FILES, ids=lambda p: p.stem)
def test_a_gm_export_is_a_rich_session(path: Path) -> None:
    """What the files promise: dice, hidden records, an undo, chat, several epochs, all
    revealed (so every draw verifies)."""
    data = _load(path)
    records = data["records"]
    if path.name == f"{data['system']}-v2.json":  # the main session of each system
        assert len(records) >= 30
    assert sum(len(r["draws"]) for r in records) >= 10
    assert any(r["hidden"] for r in records)
    assert any(r["undoes"] is not None for r in records)
    assert any(r["audience"] for r in records), "a whisper"
    assert any((r["command"] or {}).get("kind") == "say" for r in records)
    assert any(r["actor"] == "auto" for r in records) or data["system"] != "kilkenny"
    epochs = data["fair"]["epochs"]
    # Two epochs revealed during the session and at its end; the fresh one after the last
    # reveal covers no draw.
    assert len(epochs) >= 3 and all(epoch.get("seed") for epoch in epochs[:-1])
    assert epochs[-1]["start"] == sum(len(r["draws"]) for r in records)
    assert data["fair"]["player_seeds"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_file_verifies(path: Path) -> None:
    verdict = verify_document(_load(path))
    assert verdict.error() is None
    assert verdict.ok and verdict.replay.records == len(_load(path)["records"])
    assert verdict.dice.to_json()["ok"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_spieltisch_verify_passes_on_the_file(path: Path) -> None:
    result = CliRunner().invoke(app, ["verify", "--json", str(path)])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["ok"] and verdict["replay"] is None
    assert verdict["replayed"] == len(_load(path)["records"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_file_imports_folds_shows_undoes_and_exports_again(
    path: Path, database_url: str
) -> None:
    """On SQLite and on PostgreSQL."""
    data = _load(path)
    database = database_url
    with _store(database) as store:
        created = store.import_table(data, name="Importer")
        gm = store.authenticate(created.table, created.token)
        table = store.table(created.table)
        assert len(table.records) == len(data["records"])
        assert table.view(table.viewer(gm.actor))
        players = [p for p in store.participants(created.table) if p.role is Role.PLAYER]
        assert players, "the exported players are recreated"
        for player in players:
            assert isinstance(table.view(table.viewer(player.actor)), dict)
        state, shared = table.state, table.shared_state
    # The table loads again from the database alone (another process: snapshots, the log).
    with _store(database) as store:
        reloaded = store.table(created.table)
        assert reloaded.state == state and reloaded.shared_state == shared
        _undo_last_undoable(store, created.table, gm)
        after = store.table(created.table)
        assert after.records[-1].undoes is not None
        assert after.view(after.viewer(gm.actor))
        assert after.view(after.viewer(players[0].actor))
        assert verify_document(store.export(created.table, gm)).ok
        assert verify_document(store.export(created.table, players[0])).ok
    with _store(database) as store:  # and once more after the undo
        assert store.table(created.table).state == after.state


@contextmanager
def _store(database: str) -> Iterator[EventStore]:
    opened = EventStore(database, snapshot_every=5)
    try:
        yield opened
    finally:
        opened.close()


def _undo_last_undoable(store: EventStore, table_id: str, gm: Participant) -> None:
    """Undo the latest record that may be undone (later records may depend on others)."""
    table = store.table(table_id)
    undone = table.undone()
    refused: list[str] = []
    for record in reversed(table.records):
        if record.undoes is not None or record.seq in undone or record.command is None:
            continue
        try:
            store.undo(table_id, gm, record.seq)
        except RuleError as error:
            refused.append(f"{record.seq}: {error.code}")
            continue
        return
    raise AssertionError(f"nothing could be undone: {refused}")
