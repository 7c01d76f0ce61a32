"""The kilkenny game system through the contract: decide, evolve, odds, access, automatic."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spieltisch.dice.fair import SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import parse_command
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.text import Label
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.kilkenny.system import KilkennyState, KilkennySystem
from spieltisch.systems.registry import get_system


class Faces:
    """A dice source that returns the given faces in order (a loaded die for set-ups)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, sides: int) -> int:
        """The next face."""
        return self.faces.pop(0)


def system() -> KilkennySystem:
    found = get_system("kilkenny")
    assert isinstance(found, KilkennySystem)
    return found


def run(
    state: KilkennyState, command: dict[str, Any], dice: Any
) -> tuple[KilkennyState, list[Any]]:
    sys_ = system()
    events = sys_.decide(state, parse_command(sys_, command), dice)
    for event in events:
        state = sys_.evolve(state, event)
    return state, events


def kinds(events: list[Any]) -> list[str]:
    return [event.kind for event in events]


def test_the_die_is_a_chance_node_with_six_equal_faces() -> None:
    sys_ = system()
    state = sys_.new_state({})
    assert sys_.chance_outcomes(state) == [(face, 1 / 6) for face in range(1, 7)]
    odds = sys_.odds(state, parse_command(sys_, {"kind": "roll"}))
    assert odds is not None
    assert [o.value for o in odds.outcomes] == [1, 2, 3, 4, 5, 6]
    assert sum(Fraction(o.exact or "0") for o in odds.outcomes) == 1
    assert odds.mean == 3.5
    assert sys_.odds(state, parse_command(sys_, {"kind": "move", "from": "f4", "to": "f1"})) is None


def test_roll_odds_agree_with_icepool() -> None:
    icepool = pytest.importorskip("icepool")
    sys_ = system()
    odds = sys_.odds(sys_.new_state({}), parse_command(sys_, {"kind": "roll"}))
    assert odds is not None
    die = icepool.d6
    assert {o.value: Fraction(o.exact or "0") for o in odds.outcomes} == {
        face: die.probability(face) for face in die.outcomes()
    }
    assert odds.mean == pytest.approx(float(die.mean()))


def test_roll_then_move() -> None:
    state = system().new_state({})
    state, events = run(state, {"kind": "roll"}, Faces(3))
    assert kinds(events) == ["rolled"]
    assert state.position.roll == 3
    assert system().chance_outcomes(state) == []
    state, events = run(state, {"kind": "move", "from": "f5", "to": "f8"}, Faces())
    assert kinds(events) == ["moved"]
    assert state.position.to_text().split()[-3:] == ["N", "-", "1"]


def test_capture_events_come_before_the_move() -> None:
    state = system().new_state({"position": "S:a1,d4 N:d6,a14,b14 S 2 0"})
    state, events = run(state, {"kind": "move", "from": "d4", "to": "d6"}, Faces())
    assert kinds(events) == ["captured", "moved"]
    assert events[0].seat == "N" and events[0].square == "d6" and events[0].by == "S"
    assert state.position.to_text() == "S:a1,d6 N:a14,b14 N - 1"


def test_forced_pass_follows_the_roll() -> None:
    state = system().new_state({"players": 4})
    state, events = run(state, {"kind": "roll"}, Faces(6))
    assert kinds(events) == ["rolled", "passed"]
    assert state.position.seat == "W"
    assert state.position.roll is None


def test_entering_the_second_hole_ends_the_game() -> None:
    state = system().new_state({"position": "S:h11,S1 N:a1,b1 S 4 9"})
    state, events = run(state, {"kind": "move", "from": "h11", "to": "S2"}, Faces())
    assert kinds(events) == ["entered_hole", "game_over"]
    assert state.outcome is not None and state.outcome.winner == 0
    assert system().view(state, GM_VIEWER)["outcome"] == {
        "result": "win",
        "reason": "home",
        "winner": "S",
    }
    with pytest.raises(RuleError) as caught:
        run(state, {"kind": "roll"}, Faces(1))
    assert caught.value.code == "kilkenny.game_over"


def test_last_standing_and_the_draw_through_the_system() -> None:
    won, events = run(
        system().new_state({"position": "S:d4,d5 N:d7 S 2 5"}),
        {"kind": "move", "from": "d5", "to": "d7"},
        Faces(),
    )
    assert kinds(events) == ["captured", "moved", "game_over"]
    assert events[-1].reason == "last_standing" and events[-1].winner == "S"
    assert won.outcome is not None and won.outcome.winner == 0
    drawn, events = run(
        system().new_state({"position": "S:d5 N:d7,N1 S 2 5"}),
        {"kind": "move", "from": "d5", "to": "d7"},
        Faces(),
    )
    assert events[-1].result == "draw" and events[-1].winner is None
    assert drawn.outcome is not None


def test_ply_cap_ends_the_game_as_capped() -> None:
    state = system().new_state({"max_plies": 2})
    state, _ = run(state, {"kind": "roll"}, Faces(1))
    state, _ = run(state, {"kind": "move", "from": "f4", "to": "f3"}, Faces())
    assert state.outcome is None
    state, _ = run(state, {"kind": "roll"}, Faces(1))
    state, events = run(state, {"kind": "move", "from": "f10", "to": "f9"}, Faces())
    assert kinds(events) == ["moved", "game_over"]
    assert events[-1].result == "capped"


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"kind": "move", "from": "f4", "to": "f3"}, "kilkenny.no_roll"),
        ({"kind": "sit", "seat": "X"}, "kilkenny.unknown_seat"),
    ],
)
def test_bad_commands_change_nothing(command: dict[str, Any], code: str) -> None:
    state = system().new_state({})
    with pytest.raises(RuleError) as caught:
        run(state, command, Faces())
    assert caught.value.code == code


def test_illegal_move_and_second_roll_are_refused() -> None:
    state, _ = run(system().new_state({}), {"kind": "roll"}, Faces(2))
    with pytest.raises(RuleError) as caught:
        run(state, {"kind": "move", "from": "f4", "to": "f7"}, Faces())
    assert caught.value.code == "kilkenny.illegal_move"
    assert caught.value.params == {"value": "f4-f7", "roll": 2, "seat": Label("kilkenny.seat.S")}
    with pytest.raises(RuleError) as again:
        run(state, {"kind": "roll"}, Faces(5))
    assert again.value.code == "kilkenny.already_rolled"
    with pytest.raises(RuleError) as square:
        run(state, {"kind": "move", "from": "z99", "to": "f7"}, Faces())
    assert square.value.code == "kilkenny.bad_square"
    assert square.value.params["value"] == "z99"


def test_evolve_refuses_events_that_do_not_fit() -> None:
    sys_ = system()
    state = sys_.new_state({})
    moved = sys_.events.validate_python({"kind": "moved", "seat": "S", "from": "f4", "to": "f3"})
    with pytest.raises(RuleError):
        sys_.evolve(state, moved)  # no roll pending
    rolled = sys_.events.validate_python({"kind": "rolled", "seat": "N", "value": 1})
    with pytest.raises(RuleError) as caught:
        sys_.evolve(state, rolled)  # out of turn
    assert caught.value.code == "kilkenny.out_of_turn"
    state = sys_.evolve(
        state, sys_.events.validate_python({"kind": "rolled", "seat": "S", "value": 1})
    )
    empty = sys_.events.validate_python({"kind": "moved", "seat": "S", "from": "a1", "to": "a2"})
    with pytest.raises(RuleError):
        sys_.evolve(state, empty)  # from an empty square
    passed = sys_.events.validate_python({"kind": "passed", "seat": "S", "roll": 1})
    with pytest.raises(RuleError) as refused:
        sys_.evolve(state, passed)  # a move exists
    assert refused.value.code == "kilkenny.cannot_pass"


def test_options_are_checked() -> None:
    with pytest.raises(RuleError) as players:
        system().new_state({"players": 5})
    assert players.value.code == "kilkenny.bad_players"
    with pytest.raises(RuleError) as ai:
        system().new_state({"seats": [{"player": "deep-blue"}]})
    assert ai.value.code == "kilkenny.unknown_ai"
    with pytest.raises(RuleError) as unknown:
        system().new_state({"colour": "red"})
    assert unknown.value.code == "kilkenny.bad_options"


def test_seats_are_claimed_and_moves_are_owned() -> None:
    sys_ = system()
    table = Table(sys_, {})
    alice, bob = Actor(id="alice", role=Role.PLAYER), Actor(id="bob", role=Role.PLAYER)
    source = SeededSource(1)
    table.execute({"kind": "sit", "seat": "S"}, alice, lambda _: source)
    table.execute({"kind": "sit", "seat": "N"}, bob, lambda _: source)
    assert table.owners() == {"seat:S": "alice", "seat:N": "bob"}
    with pytest.raises(RuleError):
        table.execute({"kind": "roll"}, bob, lambda _: source)
    with pytest.raises(RuleError):
        table.execute({"kind": "sit", "seat": "S"}, bob, lambda _: source)
    with pytest.raises(RuleError) as taken:
        run(table.state, {"kind": "sit", "seat": "S"}, Faces())
    assert taken.value.code == "kilkenny.seat_taken"
    table.execute({"kind": "roll"}, alice, lambda _: source)
    assert table.state.position.roll is not None


def test_ai_seats_play_by_themselves_and_the_table_replays() -> None:
    sys_ = system()
    options = {"seats": [{"player": "greedy"}, {"player": "expectimax"}]}
    table = Table(sys_, options)
    gm = Actor(id="gm", role=Role.GM)
    source = SeededSource(42)
    table.execute({"kind": "roll"}, gm, lambda _: source)
    assert table.state.outcome is not None
    again = Table(sys_, options, table.records)
    assert again.state == table.state
    assert sys_.automatic(table.state) is None


def test_ai_choices_are_deterministic() -> None:
    sys_ = system()
    options = {"seats": [{"player": "random"}, {"player": "strongest", "budget": 2}]}
    logs = []
    for _ in range(2):
        table = Table(sys_, options)
        source = SeededSource(7)
        table.execute({"kind": "roll"}, Actor(id="gm", role=Role.GM), lambda _, s=source: s)
        logs.append([record.events for record in table.records])
    assert logs[0] == logs[1]


def test_human_seats_wait_for_their_player() -> None:
    sys_ = system()
    state = sys_.new_state({"seats": [{"player": "human"}, {"player": "greedy"}]})
    assert sys_.automatic(state) is None
    state, _ = run(state, {"kind": "roll"}, Faces(1))
    assert sys_.automatic(state) is None
    state, _ = run(state, {"kind": "move", "from": "f4", "to": "f3"}, Faces())
    assert sys_.automatic(state) == parse_command(sys_, {"kind": "roll"})


def test_undo_of_a_roll_that_a_move_builds_on_is_refused() -> None:
    sys_ = system()
    table = Table(sys_, {})
    gm = Actor(id="gm", role=Role.GM)
    table.execute({"kind": "roll"}, gm, lambda _: Faces(1))
    table.execute({"kind": "move", "from": "f4", "to": "f3"}, gm, lambda _: Faces())
    with pytest.raises(RuleError) as caught:
        table.undo(1, gm)
    assert caught.value.code == "table.undo_dependent"
    table.undo(2, gm)
    assert table.state.position.roll == 1
    assert table.state.position.to_text() == sys_.new_state({}).position.to_text().replace(
        "S - 0", "S 1 0"
    )


def test_public_state_lists_cats_holes_and_moves() -> None:
    sys_ = system()
    state, _ = run(sys_.new_state({}), {"kind": "roll"}, Faces(6))
    public = sys_.view(state, GM_VIEWER)
    assert public["turn"] == "S" and public["roll"] == 6
    assert len(public["moves"]) == 6
    assert public["seats"][0]["cats"][:2] == ["f4", "g4"]
    assert public["seats"][0]["hole_cells"] == [[6, 14], [7, 14]]


def test_the_view_gives_each_legal_move_its_chances_while_a_roll_is_pending() -> None:
    from spieltisch.systems.kilkenny.chances import chances_json

    sys_ = system()
    before = sys_.view(sys_.new_state({}), GM_VIEWER)
    assert before["moves"] == [] and before["chances"] == []
    state, _ = run(sys_.new_state({}), {"kind": "roll"}, Faces(6))
    public = sys_.view(state, GM_VIEWER)
    assert public["chances"] == chances_json(state.position)
    # the moves stay as they were (clients send them back as commands), the chances beside
    assert [{"from": c["from"], "to": c["to"]} for c in public["chances"]] == public["moves"]
    for move in public["chances"]:
        assert set(move) == {"from", "to", "captured", "enter"}
        assert 0 <= move["captured"]["probability"] <= 1
