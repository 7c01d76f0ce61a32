"""Contact on the free table: a visible move or placement that runs into something hidden stops
there, and what it touched becomes visible (``docs/table-api.md``, "Contact").

Each case: a fight where it is Mia's turn (Anna's character), the GM hides something in her
way, Anna moves. Checked every time: the record is marked, the GM's map holds no two tokens on
a square and no token in a wall, Anna sees what was touched (and nothing else hidden), the
movement spent is the real cost of the squares walked, and both folds are the fold of their
records (reloading, replaying the GM's log and the redacted log agree).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from spieltisch.dice.fair import DiceSource, FairDice
from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import footprint
from spieltisch.engine.replay import replay_log
from spieltisch.engine.system import Contact
from spieltisch.engine.table import Actor, Record, Role, Table
from spieltisch.engine.visibility import GM_VIEWER, Viewer
from spieltisch.store import EventStore
from spieltisch.store.cache import LazyLog
from spieltisch.systems.freedice.rules import TERRAIN_COST, FreeDiceState
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
ANNA_VIEWER = Viewer(Role.PLAYER, "anna", frozenset({"mia"}))
DICE = FairDice(b"free contact test seed".ljust(32, b"!"), "tisch-kontakt")
SECRET = "zqsecret"
"""Marks what stays hidden after a contact (the touched spy's own hidden effects)."""


def fair(index: int) -> DiceSource:
    return DICE.source_at(index)


def spy(at: str, **more: Any) -> dict[str, Any]:
    return {
        "kind": "add_combatant",
        "id": "spy",
        "name": "Spy",
        "side": "foes",
        "initiative": "15",
        "secret": True,
        "at": at,
        "tracks": [{"name": "LeP", "maximum": 9}],
        **more,
    }


def mia_table(width: int = 8, height: int = 6) -> Table:
    """Mia (Anna's, speed 6, at a1) and a rat in a fight, Mia's turn."""
    table = Table(get_system("free-dice"))
    table.execute({"kind": "set_map", "width": width, "height": height}, GM, fair)
    table.execute(
        {"kind": "add_character", "id": "mia", "name": "Mia", "initiative": "20", "at": "a1"},
        ANNA,
        fair,
    )
    table.execute(
        {"kind": "add_combatant", "id": "rat", "name": "Rat", "initiative": "10", "at": "h6"},
        GM,
        fair,
    )
    table.execute({"kind": "roll_initiative"}, GM, fair)
    table.execute({"kind": "start_fight"}, GM, fair)
    assert table.shared_state.encounter.current == "mia"
    return table


def hide(table: Table, *commands: dict[str, Any]) -> None:
    for command in commands:
        table.execute(command, GM, fair, hidden=True)


def move(table: Table, to: str, path: list[str] | None = None, actor: Actor = ANNA) -> Record:
    command: dict[str, Any] = {"kind": "move", "combatant": "mia", "to": to}
    if path is not None:
        command["path"] = path
    [record] = table.execute(command, actor, fair)
    return record


def seen(table: Table) -> dict[str, Any]:
    return table.view(ANNA_VIEWER)


def token(view: dict[str, Any], cid: str) -> dict[str, Any] | None:
    return next((c for c in view["combatants"] if c["id"] == cid), None)


def consistent(table: Table) -> None:
    """The GM's map: no two tokens on a square, no token off the map or in a wall; both folds
    are the fold of their records, and the logs replay (the GM's, and Anna's redacted one)."""
    for state in (table.state, table.shared_state):
        assert isinstance(state, FreeDiceState)
        covered: dict[Any, str] = {}
        for fighter in state.fighters:
            if fighter.position is None:
                continue
            for square in footprint(fighter.position, fighter.creature.size):
                assert state.grid.contains(square), (fighter.id, square)
                kinds = state.grid.terrain_at(square)
                assert all(TERRAIN_COST.get(k, 1) is not None for k in kinds), (fighter.id, square)
                assert square not in covered, (fighter.id, covered[square], square)
                covered[square] = fighter.id
    again = Table(table.system, table.options, table.records)
    assert (again.state, again.shared_state) == (table.state, table.shared_state)
    assert replay_log(table.system, table.options, table.records).ok
    redacted = [
        r.model_copy(update={"command": None, "events": [], "claims": None}) if r.hidden else r
        for r in table.records
    ]
    assert replay_log(table.system, table.options, redacted).ok
    alone = Table(table.system, table.options, redacted)
    assert alone.shared_state == table.shared_state


def test_the_free_table_implements_contact() -> None:
    assert isinstance(get_system("free-dice"), Contact)


def test_a_move_onto_a_secret_combatant_stops_before_it_and_discovers_it() -> None:
    table = mia_table()
    hide(table, spy("d1"), {"kind": "roll_initiative", "combatants": ["spy"]})
    hide(table, {"kind": "apply_effect", "target": "spy", "name": f"{SECRET} invisible"})
    assert token(seen(table), "spy") is None
    record = move(table, "d1", ["b1", "c1", "d1"])
    assert record.contact and not record.hidden
    moved, found = record.events
    assert (moved["kind"], moved["path"], moved["cost"]) == ("moved", ["a1", "b1", "c1"], "2")
    assert found["kind"] == "discovered"
    assert (found["combatant"], found["at"], found["to"]) == ("mia", "c1", "d1")
    assert [c["creature"]["name"] for c in found["combatants"]] == ["Spy"]
    view = seen(table)
    shown = token(view, "spy")
    assert shown is not None
    assert (shown["position"], shown["secret"], shown["tracks"][0]["current"]) == ("d1", False, 9)
    assert shown["effects"] == []  # what else is hidden about it stays hidden
    assert SECRET not in repr(view) and SECRET not in repr(record)
    assert "spy" in view["fight"]["order"]  # it fights: the table sees it in the order
    assert token(view, "mia")["position"] == "c1"
    assert token(view, "mia")["move_left"] == "4"
    assert token(table.view(GM_VIEWER), "mia")["move_left"] == "4"
    assert token(table.view(GM_VIEWER), "spy")["secret"] is False
    consistent(table)


def test_a_move_passes_its_own_side_but_not_another_side() -> None:
    table = mia_table()
    hide(table, spy("c2", side="party"))  # a hidden friend: passing it is no contact
    record = move(table, "e1", ["b1", "c2", "d1", "e1"])
    assert not record.contact
    assert token(seen(table), "spy") is None
    consistent(table)
    table = mia_table()
    hide(table, spy("c2"))  # a hidden foe in the way
    record = move(table, "e1", ["b1", "c2", "d1", "e1"])
    assert record.contact
    assert record.events[0]["path"] == ["a1", "b1"]
    assert token(seen(table), "spy")["position"] == "c2"
    consistent(table)


def test_a_move_ending_on_a_hidden_friend_backs_off_and_discovers_both() -> None:
    table = mia_table()
    hide(
        table,
        spy("c1", side="party"),
        {**spy("d1"), "id": "ogre", "name": "Ogre"},
    )
    # d1 holds a foe: she stops before it, but c1 holds a friend she may only pass.
    record = move(table, "d1", ["b1", "c1", "d1"])
    moved, found = record.events
    assert moved["path"] == ["a1", "b1"]
    assert [c["creature"]["id"] for c in found["combatants"]] == ["spy", "ogre"]
    assert {c["id"] for c in seen(table)["combatants"]} >= {"spy", "ogre"}
    consistent(table)


def test_the_cheapest_path_runs_into_a_secret_combatant_the_player_could_not_avoid() -> None:
    table = mia_table()
    hide(table, spy("b1"))
    record = move(table, "c1")  # the server's cheapest path on what Anna sees: through b1
    assert record.contact
    assert [e["kind"] for e in record.events] == ["discovered"]  # not a step taken
    assert record.events[0]["at"] == "a1"
    assert token(seen(table), "mia")["move_left"] == "6"
    consistent(table)


def test_a_hidden_wall_stops_the_move_and_shows_itself() -> None:
    table = mia_table()
    hide(table, {"kind": "paint", "squares": ["c1", "c3"], "terrain": "wall"})
    record = move(table, "e1", ["b1", "c1", "d1", "e1"])
    moved, found = record.events
    assert moved["path"] == ["a1", "b1"]
    assert found["walls"] == ["c1"]
    terrain = seen(table)["map"]["terrain"]
    assert terrain.get("c1") == "wall"
    assert "c3" not in terrain  # the wall not in the way stays hidden
    consistent(table)


def test_hidden_difficult_ground_costs_what_it_costs_and_can_end_the_move() -> None:
    table = mia_table()
    hide(table, {"kind": "paint", "squares": ["b1", "c1", "d1", "e1"], "terrain": "difficult"})
    record = move(table, "e1", ["b1", "c1", "d1", "e1"])  # looks like 4, costs 8 of 6
    moved, found = record.events
    assert (moved["path"], moved["cost"]) == (["a1", "b1", "c1", "d1"], "6")
    assert found["rough"] and not found["walls"]
    assert {s["square"]: s["terrain"] for s in found["terrain"]} == {
        "b1": "difficult",
        "c1": "difficult",
        "d1": "difficult",
    }
    assert token(seen(table), "mia")["move_left"] == "0"
    consistent(table)
    table = mia_table()
    hide(table, {"kind": "paint", "squares": ["b1"], "terrain": "water"})
    record = move(table, "c1", ["b1", "c1"])  # looks like 2, costs 3: she gets there
    assert record.contact
    assert (record.events[0]["path"], record.events[0]["cost"]) == (["a1", "b1", "c1"], "3")
    assert token(seen(table), "mia")["move_left"] == "3"
    consistent(table)


def test_outside_a_fight_only_what_blocks_is_a_contact() -> None:
    table = Table(get_system("free-dice"))
    table.execute({"kind": "add_character", "id": "mia", "name": "Mia", "at": "a1"}, ANNA, fair)
    hide(table, {"kind": "paint", "squares": ["b1"], "terrain": "difficult"})
    assert not move(table, "c1", ["b1", "c1"]).contact
    hide(table, spy("e1"))
    record = move(table, "e1", ["d1", "e1"])
    assert record.contact
    assert record.events[0]["path"] == ["c1", "d1"]
    consistent(table)


def test_placing_a_character_on_a_secret_combatant_keeps_it_off_the_map() -> None:
    table = mia_table()
    hide(table, spy("b2"))
    [record] = table.execute(
        {"kind": "add_character", "id": "lu", "name": "Lu", "at": "b2"}, ANNA, fair
    )
    added, found = record.events
    assert added["kind"] == "combatant_added" and added["position"] is None
    assert (found["combatant"], found["at"], found["to"]) == ("lu", None, "b2")
    assert record.claims == "lu"
    assert token(seen(table), "lu")["position"] is None
    assert token(seen(table), "spy")["position"] == "b2"
    consistent(table)


def test_the_gms_open_placement_onto_his_own_secret_discovers_it_too() -> None:
    table = mia_table()
    hide(table, spy("b2"))
    [record] = table.execute(
        {"kind": "move", "combatant": "rat", "to": "b2", "free": True}, GM, fair
    )
    assert record.contact
    assert [e["kind"] for e in record.events] == ["discovered"]
    assert token(seen(table), "rat")["position"] == "h6"
    consistent(table)


def test_the_edge_of_a_map_shrunk_in_secret() -> None:
    table = mia_table()
    hide(table, {"kind": "set_map", "width": 3, "height": 6})
    record = move(table, "e1", ["b1", "c1", "d1", "e1"])
    moved, found = record.events
    assert moved["path"] == ["a1", "b1", "c1"]
    assert (found["width"], found["height"]) == (3, 6)
    assert seen(table)["map"]["width"] == 3
    consistent(table)


def test_a_visible_token_moved_in_secret_is_found_where_it_is() -> None:
    table = mia_table()
    hide(table, {"kind": "move", "combatant": "rat", "to": "c1", "free": True})
    assert token(seen(table), "rat")["position"] == "h6"
    record = move(table, "d1", ["b1", "c1", "d1"])
    assert record.contact
    assert token(seen(table), "rat")["position"] == "c1"
    consistent(table)


def test_nothing_hidden_in_the_way_is_no_contact() -> None:
    table = mia_table()
    hide(table, spy("f5"), {"kind": "paint", "squares": ["h1"], "terrain": "wall"})
    record = move(table, "d1", ["b1", "c1", "d1"])
    assert not record.contact
    assert token(seen(table), "spy") is None
    consistent(table)


def test_undoing_the_contact_hides_the_discovered_again() -> None:
    table = mia_table()
    hide(table, spy("d1"))
    record = move(table, "d1", ["b1", "c1", "d1"])
    assert token(seen(table), "spy") is not None
    table.undo(record.seq, GM)
    assert token(seen(table), "spy") is None
    assert token(table.view(GM_VIEWER), "spy")["secret"] is True
    consistent(table)


def test_a_players_check_never_consults_the_hidden_map() -> None:
    table = mia_table()
    squares = [f"{f}{r}" for f in "abcdefgh" for r in range(1, 7)]

    def answers() -> list[Any]:
        out = []
        for square in squares:
            for command in (
                {"kind": "move", "combatant": "mia", "to": square},
                {"kind": "add_character", "id": "lu", "name": "Lu", "at": square},
            ):
                error = table.check(command, ANNA)
                out.append(None if error is None else (error.code, error.params))
        return out

    before = answers()
    hide(table, spy("c2"), {"kind": "paint", "squares": ["d4"], "terrain": "wall"})
    hide(table, {"kind": "move", "combatant": "rat", "to": "e5", "free": True})
    assert answers() == before
    # The GM's own check says what executing it would do (a contact, here: fine).
    assert table.check({"kind": "move", "combatant": "mia", "to": "c2"}, GM) is None


def test_visible_tokens_take_their_space() -> None:
    table = mia_table()
    with pytest.raises(RuleError) as taken:
        move(table, "h6")
    assert (taken.value.code, taken.value.params) == (
        "freedice.occupied",
        {"to": "h6", "combatant": "Rat"},
    )
    with pytest.raises(RuleError) as placed:
        table.execute({"kind": "add_character", "id": "lu", "name": "Lu", "at": "a1"}, ANNA, fair)
    assert placed.value.code == "freedice.occupied"
    table.execute({"kind": "move", "combatant": "rat", "to": "b2", "free": True}, GM, fair)
    with pytest.raises(RuleError) as through:
        move(table, "c3", ["b2", "c3"])
    assert through.value.code == "toolkit.grid.impassable"
    record = move(table, "c3")  # the cheapest path goes around the rat
    assert "b2" not in record.events[0]["path"]
    assert Decimal(record.events[0]["cost"]) == 3


def test_a_token_the_map_shrank_away_from_finds_itself_off_it() -> None:
    table = mia_table()
    move(table, "e1", ["b1", "c1", "d1", "e1"])
    hide(table, {"kind": "set_map", "width": 3, "height": 6})  # e1 is gone in the GM's map
    record = move(table, "f1", ["f1"])
    [found] = record.events
    assert (found["at"], found["width"], found["height"]) == (None, 3, 6)
    assert token(seen(table), "mia")["position"] is None
    consistent(table)


def test_a_contact_replays_from_the_gms_log_and_a_forged_one_does_not() -> None:
    table = mia_table()
    hide(table, spy("d1"))
    record = move(table, "d1", ["b1", "c1", "d1"])
    assert replay_log(table.system, table.options, table.records).ok
    at = record.seq - 1
    forged_events = [dict(e) for e in record.events]
    forged_events[0] = {**forged_events[0], "path": ["a1", "b1"], "cost": "1"}
    for forged in (
        record.model_copy(update={"events": forged_events}),  # stopped shorter than it did
        record.model_copy(update={"contact": False}),  # claims it met nothing
    ):
        log = [*table.records[:at], forged]
        result = replay_log(table.system, table.options, log)
        assert not result.ok and result.mismatch is not None
        assert result.mismatch.seq == record.seq
    # Without a contact, a record may not claim one.
    table = mia_table()
    plain = move(table, "c1", ["b1", "c1"])
    log = [*table.records[:-1], plain.model_copy(update={"contact": True})]
    assert not replay_log(table.system, table.options, log).ok


SQUARES = [f"{file}{rank}" for file in "abcdefgh" for rank in range(1, 7)]


@settings(max_examples=25, deadline=None)
@example(at="c1", targets=["d1"])  # through the spy: a discovery for certain
@given(
    at=st.sampled_from([s for s in SQUARES if s not in ("a1", "h6")]),
    targets=st.lists(st.sampled_from(SQUARES), min_size=1, max_size=4),
)
def test_a_discovery_shown_to_one_player_is_theirs_alone(at: str, targets: list[str]) -> None:
    """With ``discovery: "player"``, whatever Anna's moves run into: another player and a
    spectator see exactly the log without the discoveries, Anna sees the spy once she has
    touched it, the GM's map stays consistent, and a re-fold and a replay agree."""
    table = Table(get_system("free-dice"), {"discovery": "player"})
    for record in mia_table().records:
        table.execute(record.command, GM if record.actor == "gm" else ANNA, fair)
    hide(table, spy(at))
    for to in targets:
        try:
            table.execute({"kind": "move", "combatant": "mia", "to": to}, ANNA, fair)
        except RuleError:
            continue
    addressed = [r for r in table.records if r.audience is not None]
    assert addressed or (at, targets) != ("c1", ["d1"])
    assert all(r.audience == ["anna"] and r.command is None for r in addressed)
    kept = [r for r in table.records if r.audience is None]
    twin = Table(
        table.system,
        table.options,
        [r.model_copy(update={"seq": n}) for n, r in enumerate(kept, start=1)],
    )
    for viewer in (Viewer(Role.PLAYER, "petra"), Viewer(Role.SPECTATOR, "sue")):
        assert table.view(viewer) == twin.view(viewer)
        assert token(table.view(viewer), "spy") is None
    assert (token(seen(table), "spy") is not None) == bool(addressed)
    again = Table(table.system, table.options, table.records)
    assert again.private_folds == table.private_folds
    assert replay_log(table.system, table.options, table.records).ok
    consistent(table)


def test_a_discovery_shown_to_one_player_survives_loading_from_the_store(tmp_path: Any) -> None:
    """The player's own fold is in the snapshot beside the GM's and the shared fold: loading
    reads no record before it, and the folds are those of the whole log."""
    url = f"sqlite:///{tmp_path / 'own-fold.sqlite3'}"
    store = EventStore(url, snapshot_every=1)
    try:
        created = store.create_table("free-dice", options={"discovery": "player"})
        gm = store.authenticate(created.table, created.token)
        anna = store.join(created.table, created.invites["player"], "Anna").participant
        petra = store.join(created.table, created.invites["player"], "Petra").participant
        store.execute(created.table, gm, {"kind": "set_map", "width": 8, "height": 6})
        store.execute(
            created.table, anna, {"kind": "add_character", "id": "mia", "name": "Mia", "at": "a1"}
        )
        store.execute(created.table, gm, spy("c1"), hidden=True)
        move = {"kind": "move", "combatant": "mia", "to": "d1", "path": ["b1", "c1", "d1"]}
        records = store.execute(created.table, anna, move).records
        assert [r.audience for r in records] == [None, [anna.id]]
        store.execute(created.table, gm, {"kind": "roll", "expression": "1d6"})
    finally:
        store.close()
    again = EventStore(url)
    try:
        table = again.table(created.table)
        assert isinstance(table.records, LazyLog) and table.records.unread == table.seq
        whole = Table(table.system, table.options, list(table.records))
        assert table.private_folds == whole.private_folds and anna.id in table.private_folds
        assert token(table.view(table.viewer(anna.actor)), "spy") is not None
        assert token(table.view(table.viewer(petra.actor)), "spy") is None
        assert token(table.view(table.viewer(gm.actor)), "spy") is not None
    finally:
        again.close()
