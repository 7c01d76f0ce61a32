"""Hidden dice are not counted by players (a stream per record, format 3).

Two tables play the same open game; between two visible rolls the GM's hidden record rolls
one die at one table and five at the other. Everything a player receives — the records sent
to them, their view, the ``start`` that ``POST /player-seeds`` answers, their export before
the reveal, the epochs after it — must be the same at both, but for the values the dice
showed. Every record draws from a stream of its own, so its draws are numbered 0, 1, … in
the record, whatever other records rolled.

A table of format 2 (draws numbered across the whole log, as every table made before streams
is) shows the difference: that is the leak this guards against, and it proves the comparison
can fail.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from legacy import log_format_table
from spieltisch.store import EventStore
from spieltisch.store.types import Created

SYSTEMS = ("free-dice", "kilkenny", "magical-kitties", "hexxen", "kreiswanderer", "dnd5e")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    the_store = EventStore(f"sqlite:///{tmp_path / 'streams.sqlite3'}")
    try:
        yield the_store
    finally:
        the_store.close()


def _say(text: str) -> dict[str, Any]:
    return {"kind": "say", "text": text}


def _numbers_blanked(value: Any) -> Any:
    """``value`` with every number 0: what the dice showed is left out, not how many."""
    if isinstance(value, dict):
        return {key: _numbers_blanked(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_numbers_blanked(inner) for inner in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return 0
    return value


def _seen_by_player(
    store: EventStore, system: str, hidden_dice: int, created: Created | None = None
) -> dict[str, Any]:
    """What the player of a fresh table of ``system`` receives around a hidden roll of
    ``hidden_dice`` d6, the dice values blanked and the ids of table and people named."""
    created = created or store.create_table(system, language="en")
    table_id = created.table
    gm = store.authenticate(table_id, created.token)
    player = store.authenticate(
        table_id, store.join(table_id, created.invites["player"], "Paul").token
    )
    first = store.execute(table_id, player, _say("/r 2d6 # first")).records[0]
    store.execute(table_id, gm, _say(f"/r {hidden_dice}d6 # behind the screen"), hidden=True)
    added = store.add_player_seed(table_id, player, "Mauz")
    second = store.execute(table_id, player, _say("/r 3d6 # second")).records[0]
    table = store.table(table_id)
    viewer = table.viewer(player.actor)
    export = store.export(table_id, player)
    revealed = store.reveal(table_id, gm)
    seen = {
        "player seed start": added.start,
        "draw indexes": [[d.index for d in r.draws] for r in (first, second)],
        "records sent": [r.model_dump(mode="json") for r in table.visible(viewer)],
        "view": table.view(viewer),
        "export records": export["records"],
        "export player seeds": export["fair"]["player_seeds"],
        "epoch starts": [e.start for e in store.info(table_id).epochs],
        "new epoch start": revealed.current.start,
    }
    text = json.dumps(seen, sort_keys=True)
    for secret, name in ((player.id, "PLAYER"), (gm.id, "GM"), (table_id, "TABLE")):
        text = text.replace(secret, name)
    named = json.loads(text)
    draws = {
        "draws sent": [[d["index"] for d in r["draws"]] for r in named["records sent"]],
        "export draws": [[d["index"] for d in r["draws"]] for r in named["export records"]],
    }
    exact = {k: v for k, v in named.items() if k not in ("records sent", "export records", "view")}
    return {"exact": exact | draws, "blanked": _numbers_blanked(named)}


@pytest.mark.parametrize("system", SYSTEMS)
def test_what_a_player_receives_does_not_move_with_hidden_dice(
    store: EventStore, system: str
) -> None:
    one = _seen_by_player(store, system, hidden_dice=1)
    five = _seen_by_player(store, system, hidden_dice=5)
    assert one["blanked"] == five["blanked"]
    exact = one["exact"]
    assert exact == five["exact"]
    # The player's records are 1 and 3 (record 2 is the GM's hidden one): each draws 0, 1, …
    # from its own stream; the seed takes part from record 3, the next epoch from record 4.
    assert exact["draw indexes"] == [[0, 1], [0, 1, 2]]
    assert exact["player seed start"] == 3
    assert exact["epoch starts"] == [1, 4] and exact["new epoch start"] == 4


def test_a_table_of_format_2_shows_the_difference(store: EventStore) -> None:
    """Where draws are numbered across the log, the player's next draw index and the seed's
    start move by exactly the four dice more that the GM rolled in secret."""
    one = _seen_by_player(store, "free-dice", 1, log_format_table(store, "free-dice"))
    five = _seen_by_player(store, "free-dice", 5, log_format_table(store, "free-dice"))
    assert one["exact"] != five["exact"]
    assert five["exact"]["player seed start"] - one["exact"]["player seed start"] == 4
    assert [i + 4 for i in one["exact"]["draw indexes"][1]] == five["exact"]["draw indexes"][1]
