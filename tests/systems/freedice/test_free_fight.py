"""The free table's fight through the real table: hand-computed initiative, turns, effects,
tracks and movement; undo, replay and who may do what."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from spieltisch.dice.fair import DiceSource, Draw, FairDice, ReplaySource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.visibility import GM_VIEWER, Viewer
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
BEN = Actor(id="ben", role=Role.PLAYER)
DICE = FairDice(b"free fight test seed".ljust(32, b"!"), "tisch-kampf")


def fair(index: int) -> DiceSource:
    return DICE.source_at(index)


def draws(*values: tuple[int, int]) -> Callable[[int], DiceSource]:
    """A source that gives exactly these (sides, value) draws."""

    def at(index: int) -> DiceSource:
        return ReplaySource([Draw(index + i, s, v) for i, (s, v) in enumerate(values)])

    return at


def fighter(cid: str, initiative: str = "10", **more: Any) -> dict[str, Any]:
    return {
        "kind": "add_combatant",
        "id": cid,
        "name": cid.title(),
        "initiative": initiative,
        **more,
    }


def do(table: Table, command: dict[str, Any], actor: Actor = GM, source: Any = fair) -> Any:
    return table.execute(command, actor, source)


def gm_view(table: Table) -> dict[str, Any]:
    return table.system.view(table.state, GM_VIEWER)


def combatant(table: Table, cid: str) -> dict[str, Any]:
    found = [x for x in gm_view(table)["combatants"] if x["id"] == cid]
    assert found, cid
    return found[0]


def started(*fighters: dict[str, Any]) -> Table:
    table = Table(get_system("free-dice"))
    for command in fighters:
        do(table, command)
    do(table, {"kind": "roll_initiative"})
    do(table, {"kind": "start_fight"})
    return table


# -- initiative ---------------------------------------------------------------------------


def test_initiative_rolls_the_notation_with_recorded_draws() -> None:
    table = Table(get_system("free-dice"))
    do(table, fighter("ork", "1W20+2"))
    do(table, fighter("elf", "2d6"))
    (record,) = do(table, {"kind": "roll_initiative"}, source=draws((20, 13), (6, 4), (6, 5)))
    (event,) = record.events
    assert [(r["combatant"], r["expression"], r["result"]) for r in event["rolls"]] == [
        ("ork", "1d20 + 2", 15),
        ("elf", "2d6", 9),
    ]
    assert [(d.sides, d.value) for d in record.draws] == [(20, 13), (6, 4), (6, 5)]
    do(table, {"kind": "start_fight"})
    assert gm_view(table)["fight"] == {
        "round": 1,
        "current": "ork",
        "order": ["ork", "elf"],
        "done": [],
        "delayed": [],
    }


def test_ties_go_to_the_higher_tiebreak_then_to_the_order_of_entry() -> None:
    table = started(
        fighter("a", "12"),
        fighter("b", "12", tiebreak=3),
        fighter("c", "15"),
        fighter("d", "12", tiebreak=3),
        fighter("e", "12"),
    )
    # 15 first; among the 12s tie-break 3 (b, d in entry order), then no tie-break (a, e).
    assert gm_view(table)["fight"]["order"] == ["c", "b", "d", "a", "e"]


def test_initiative_needs_a_number_notation() -> None:
    table = Table(get_system("free-dice"))
    with pytest.raises(RuleError) as caught:
        do(table, fighter("x", "3H"))
    assert caught.value.code == "freedice.bad_initiative"
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "start_fight"})
    assert caught.value.code == "freedice.nobody_has_initiative"


def test_rolling_in_a_running_fight_lets_newcomers_join() -> None:
    table = started(fighter("a", "20"), fighter("b", "5"))
    do(table, fighter("c", "10"))
    do(table, {"kind": "roll_initiative", "combatants": ["c"]})
    # a acts now; c (10) comes after a (20) and before b (5), this very round.
    assert gm_view(table)["fight"]["order"] == ["a", "c", "b"]
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "roll_initiative", "combatants": ["c"]})
    assert caught.value.code == "freedice.in_fight"


# -- turns and rounds ---------------------------------------------------------------------


def test_turns_rounds_delay_and_leaving() -> None:
    table = started(fighter("a", "20"), fighter("b", "15"), fighter("c", "10"))
    do(table, {"kind": "next_turn"})
    assert gm_view(table)["fight"]["current"] == "b"
    do(table, {"kind": "delay", "combatant": "b"})
    fight = gm_view(table)["fight"]
    assert (fight["current"], fight["order"], fight["delayed"]) == ("c", ["a", "c", "b"], ["b"])
    (record,) = do(table, {"kind": "next_round"})
    assert record.events[0]["round"] == 2 and record.events[0]["current"] == "a"
    assert gm_view(table)["fight"]["order"] == ["a", "b", "c"]
    do(table, {"kind": "leave_fight", "combatant": "a"})
    assert gm_view(table)["fight"]["current"] == "b"
    assert [x["id"] for x in gm_view(table)["combatants"]] == ["a", "b", "c"]


def test_a_player_ends_the_turn_of_their_own_combatant_only_in_its_turn() -> None:
    table = Table(get_system("free-dice"))
    do(table, {"kind": "add_character", "id": "mia", "name": "Mia", "initiative": "8"}, ANNA)
    do(table, fighter("rat", "12"))
    do(table, {"kind": "roll_initiative"})
    do(table, {"kind": "start_fight"})
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "end_turn", "combatant": "mia"}, ANNA)
    assert caught.value.code == "freedice.not_their_turn"
    assert caught.value.params == {"combatant": "Mia", "current": "Rat"}
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "end_turn", "combatant": "rat"}, ANNA)
    assert caught.value.code == "rule.forbidden"
    with pytest.raises(RuleError):
        do(table, {"kind": "next_turn"}, ANNA)
    do(table, {"kind": "next_turn"})
    do(table, {"kind": "end_turn", "combatant": "mia"}, ANNA)
    assert gm_view(table)["fight"] | {"order": None} == {
        "round": 2,
        "current": "rat",
        "order": None,
        "done": [],
        "delayed": [],
    }


# -- effects ------------------------------------------------------------------------------


def effects(table: Table, cid: str) -> list[tuple[str, int]]:
    return [(x["name"], x["remaining"]) for x in combatant(table, cid)["effects"]]


def test_durations_expire_exactly_on_their_phase() -> None:
    table = started(fighter("a", "20"), fighter("b", "10"))
    # Round 1, a's turn.
    for name, duration in [
        ("two rounds", {"until": "rounds", "rounds": 2}),
        ("till b starts", {"until": "turn_start", "who": "b"}),
        ("till a ends", {"until": "turn_end"}),
        ("forever", {"until": "removed"}),
    ]:
        do(table, {"kind": "apply_effect", "target": "a", "name": name, "duration": duration})
    (record,) = do(table, {"kind": "next_turn"})  # a ends (not its *next* turn), b starts
    assert [x["name"] for x in record.events[0]["expired"]] == ["till b starts"]
    assert effects(table, "a") == [("two rounds", 2), ("till a ends", 1), ("forever", 1)]
    (record,) = do(table, {"kind": "next_turn"})  # round 1 ends, a starts round 2
    assert record.events[0]["expired"] == []
    assert effects(table, "a") == [("two rounds", 1), ("till a ends", 1), ("forever", 1)]
    (record,) = do(table, {"kind": "next_turn"})  # a's next turn ends
    assert [x["name"] for x in record.events[0]["expired"]] == ["till a ends"]
    (record,) = do(table, {"kind": "next_turn"})  # round 2 ends
    assert [x["name"] for x in record.events[0]["expired"]] == ["two rounds"]
    assert effects(table, "a") == [("forever", 1)]
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "remove_effect", "target": "b", "name": "forever"})
    assert caught.value.code == "freedice.no_effect"
    do(table, {"kind": "remove_effect", "target": "a", "name": "forever"})
    assert effects(table, "a") == []


def test_effect_levels_show_only_where_given_and_end_with_the_fight() -> None:
    table = started(fighter("a", "20"))
    do(table, {"kind": "apply_effect", "target": "a", "name": "Gift", "level": 3})
    do(
        table,
        {
            "kind": "apply_effect",
            "target": "a",
            "name": "Segen",
            "duration": {"until": "rounds", "rounds": 5},
        },
    )
    shown = [(x["name"], x["level"]) for x in combatant(table, "a")["effects"]]
    assert shown == [("Gift", 3), ("Segen", None)]
    (record,) = do(table, {"kind": "end_fight"})
    assert [x["name"] for x in record.events[0]["expired"]] == ["Segen"]
    assert gm_view(table)["fight"] is None
    assert [x["name"] for x in combatant(table, "a")["effects"]] == ["Gift"]


# -- tracks -------------------------------------------------------------------------------


def test_tracks_take_damage_and_healing_within_floor_and_maximum() -> None:
    table = Table(get_system("free-dice"))
    tracks = [{"name": "LeP", "maximum": 30}, {"name": "AsP", "maximum": 20, "current": 12}]
    do(table, {"kind": "add_character", "id": "mia", "name": "Mia", "tracks": tracks}, ANNA)
    change = {"kind": "change_track", "combatant": "mia", "track": "LeP"}
    do(table, {**change, "change": "damage", "amount": 12}, ANNA)
    do(table, {**change, "change": "heal", "amount": 50}, ANNA)
    assert combatant(table, "mia")["tracks"][0] == {
        "name": "LeP",
        "current": 30,
        "maximum": 30,
        "floor": 0,
    }
    do(table, {**change, "change": "damage", "amount": 45})
    assert combatant(table, "mia")["tracks"][0]["current"] == 0
    with pytest.raises(RuleError) as caught:
        do(table, {**change, "change": "set", "amount": 31}, ANNA)
    assert caught.value.code == "toolkit.creatures.out_of_range"
    with pytest.raises(RuleError) as caught:
        do(table, {**change, "change": "set", "amount": 5, "maximum": 40}, ANNA)
    assert caught.value.code == "rule.forbidden_field"
    do(table, {**change, "change": "set", "amount": 35, "maximum": 40})
    assert combatant(table, "mia")["tracks"][0]["maximum"] == 40
    with pytest.raises(RuleError) as caught:
        do(table, {**change, "amount": 1}, BEN)
    assert caught.value.code == "rule.forbidden"
    with pytest.raises(RuleError) as caught:
        do(table, {**change, "track": "KaP", "amount": 1})
    assert caught.value.code == "toolkit.creatures.unknown_track"


# -- movement -----------------------------------------------------------------------------


def test_moves_cost_a_square_each_difficult_two_and_walls_block() -> None:
    table = Table(get_system("free-dice"))
    do(table, {"kind": "set_map", "width": 6, "height": 4})
    do(table, {"kind": "paint", "squares": ["b1", "b2"], "terrain": "difficult"})
    do(table, {"kind": "paint", "squares": ["c1", "c2", "c3"], "terrain": "wall"})
    do(table, fighter("ork", "20", at="a1", speed=6))
    do(table, fighter("elf", "5", at="f4"))
    do(table, {"kind": "roll_initiative"})
    do(table, {"kind": "start_fight"})
    move = {"kind": "move", "combatant": "ork"}
    with pytest.raises(RuleError) as caught:
        do(table, {**move, "to": "c1"})
    assert caught.value.code == "freedice.blocked"
    with pytest.raises(RuleError) as caught:
        do(table, {**move, "to": "d1", "path": ["b1", "c1", "d1"]})
    assert (caught.value.code, caught.value.params["step"]) == ("toolkit.grid.impassable", 2)
    (record,) = do(table, {**move, "to": "b2", "path": ["b2"]})  # diagonal into difficult
    assert record.events[0]["cost"] == "2"
    # b2 → c4 around the wall: b3 (1), c4 (1) = 2; left 4 of 6.
    (record,) = do(table, {**move, "to": "c4"})
    assert record.events[0]["path"] == ["b2", "b3", "c4"]
    assert combatant(table, "ork")["move_left"] == "2"
    with pytest.raises(RuleError) as caught:
        do(table, {**move, "to": "f1"})  # d3, e2, f1: 3 squares, 2 left
    assert caught.value.code == "freedice.too_far"
    assert caught.value.params == {"to": "f1", "count": Decimal(3), "left": Decimal(2)}
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "move", "combatant": "elf", "to": "f3"})
    assert caught.value.code == "freedice.not_their_turn"
    do(table, {"kind": "move", "combatant": "elf", "to": "a4", "free": True})
    assert combatant(table, "elf")["position"] == "a4"
    do(table, {"kind": "next_round"})
    assert combatant(table, "ork")["move_left"] == "6"


def test_the_alternating_rule_makes_every_second_diagonal_cost_two() -> None:
    table = Table(get_system("free-dice"))
    do(table, {"kind": "set_map", "width": 8, "height": 8, "diagonal": "alternating"})
    do(table, fighter("a", "20", at="a1", speed=10))
    do(table, {"kind": "roll_initiative"})
    do(table, {"kind": "start_fight"})
    (record,) = do(table, {"kind": "move", "combatant": "a", "to": "b2"})
    assert record.events[0]["cost"] == "1"
    # The second diagonal of the turn costs 2, the third 1 again: c3, d4 = 3.
    (record,) = do(table, {"kind": "move", "combatant": "a", "to": "d4"})
    assert (record.events[0]["path"], record.events[0]["cost"]) == (["b2", "c3", "d4"], "3")


def test_out_of_a_fight_moves_need_no_budget_but_a_way() -> None:
    table = Table(get_system("free-dice"))
    do(table, {"kind": "set_map", "width": 3, "height": 3})
    do(table, {"kind": "paint", "squares": ["b1", "b2", "b3"], "terrain": "wall"})
    do(table, {"kind": "add_character", "id": "mia", "name": "Mia", "at": "a1"}, ANNA)
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "move", "combatant": "mia", "to": "c3"}, ANNA)
    assert caught.value.code == "freedice.no_path"
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "move", "combatant": "mia", "to": "c3", "free": True}, ANNA)
    assert caught.value.code == "rule.forbidden_field"
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "move", "combatant": "mia", "to": "d1"}, ANNA)
    assert caught.value.code == "toolkit.grid.off_grid"
    do(table, {"kind": "paint", "squares": ["b2"]})
    do(table, {"kind": "move", "combatant": "mia", "to": "c3"}, ANNA)
    assert combatant(table, "mia")["position"] == "c3"


def test_a_large_token_needs_room_for_its_footprint() -> None:
    table = Table(get_system("free-dice"))
    do(table, {"kind": "set_map", "width": 4, "height": 4})
    with pytest.raises(RuleError) as caught:
        do(table, fighter("troll", at="d4", size="large"))
    assert caught.value.code == "freedice.blocked"
    do(table, fighter("troll", at="c3", size="large"))
    do(table, {"kind": "set_map", "width": 3, "height": 3})
    assert combatant(table, "troll")["position"] is None  # no longer fits: off the map


# -- ownership, secrecy, undo and replay ------------------------------------------------


def test_claiming_a_claimable_combatant_makes_it_the_players() -> None:
    table = Table(get_system("free-dice"))
    do(table, fighter("hero", claimable=True))
    do(table, fighter("rat"))
    with pytest.raises(RuleError) as caught:
        do(table, {"kind": "claim", "combatant": "rat"}, ANNA)
    assert caught.value.code == "freedice.not_claimable"
    do(table, {"kind": "claim", "combatant": "hero"}, ANNA)
    assert table.owners() == {"hero": "anna"}
    with pytest.raises(RuleError):
        do(table, {"kind": "claim", "combatant": "hero"}, BEN)
    seen = table.view(table.viewer(ANNA))["combatants"]
    assert [(x["id"], x["mine"]) for x in seen] == [("hero", True), ("rat", False)]


def test_secret_combatants_are_the_gms_alone() -> None:
    table = started(fighter("a", "20"))
    table.execute(fighter("spy", "15", secret=True, at="b2"), GM, fair, hidden=True)
    table.execute({"kind": "roll_initiative", "combatants": ["spy"]}, GM, fair, hidden=True)
    assert gm_view(table)["fight"]["order"] == ["a", "spy"]
    player = table.view(table.viewer(ANNA))
    assert [x["id"] for x in player["combatants"]] == ["a"]
    assert player["fight"]["order"] == ["a"]
    # Even in a fold that holds it, the secret combatant shows only to the GM and its owner.
    system = table.system
    spectator = system.view(table.state, Viewer(Role.SPECTATOR, "s"))
    assert [x["id"] for x in spectator["combatants"]] == ["a"]


def test_undo_and_replay_give_the_same_fight() -> None:
    system = get_system("free-dice")
    table = Table(system)
    do(table, {"kind": "set_map", "width": 10, "height": 10})
    do(table, fighter("a", "1W20+2", at="a1", tracks=[{"name": "LeP", "maximum": 30}]))
    do(table, fighter("b", "1d20", at="j10"))
    do(table, {"kind": "roll_initiative"})
    do(table, {"kind": "start_fight"})
    current = gm_view(table)["fight"]["current"]
    do(
        table,
        {
            "kind": "apply_effect",
            "target": current,
            "name": "Brennt",
            "duration": {"until": "rounds", "rounds": 1},
        },
    )
    do(table, {"kind": "move", "combatant": current, "to": "e5"})
    do(table, {"kind": "change_track", "combatant": "a", "track": "LeP", "amount": 7})
    do(table, {"kind": "next_round"})
    before = gm_view(table)
    refolded = Table(system, records=[r.model_copy() for r in table.records])
    assert gm_view(refolded) == before
    redecided = Table(system)
    for record in table.records:
        assert redecided.replay(record, GM) == record
    assert gm_view(redecided) == before
    table.undo(len(table.records), GM)
    assert gm_view(table)["fight"]["round"] == 1
    assert [x["name"] for x in combatant(table, current)["effects"]] == ["Brennt"]
