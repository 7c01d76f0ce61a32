"""Kilkenny Cats: the chances of each legal move, by hand and against brute-force enumeration."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from spieltisch.systems.kilkenny import Position
from spieltisch.systems.kilkenny.chances import brute_force, chances_json, move_chances
from spieltisch.systems.kilkenny.layout import get_layout

SIZE = 14
FILES = "abcdefghijklmn"


def _chances(text: str) -> dict[str, tuple[Fraction | None, Fraction | None]]:
    position = Position.from_text(text)
    return {
        position.notation(found.move): (found.captured, found.enter)
        for found in move_chances(position)
    }


def test_a_cat_in_line_with_an_enemy_three_squares_away_risks_one_roll_in_six() -> None:
    # S moves e5-e7 with a 2; N's cat on e10 is three squares north, e8 and e9 free.
    found = _chances("S:a1,e5 N:e10,n14 S 2 0")
    assert found["e5-e7"][0] == Fraction(1, 6)
    # e5-c7 (north-west) is on no line with e10 or n14 within six squares
    assert found["e5-c7"][0] == 0


def test_two_enemies_on_lines_through_the_cat_add_their_rolls() -> None:
    # After e5-e7: e10 is 3 away (north), h10 is 3 away (north-east): both need a 3 — one
    # roll; k7 is 6 away east: a second roll.
    found = _chances("S:a1,e5 N:e10,h10,k7 S 2 0")
    assert found["e5-e7"][0] == Fraction(2, 6)


def test_a_cat_that_enters_a_hole_is_safe() -> None:
    # S's holes lie beyond g14 and h14; g12 enters S1 with a 3 (g13, g14 free).
    found = _chances("S:g12,a1 N:g9,n1 S 3 0")
    assert found["g12-S1"][0] == 0


def test_the_entry_chance_counts_the_rolls_that_reach_a_free_hole() -> None:
    # After g11-g12 the cat needs a 3 to reach S1; N (far away) cannot block it.
    found = _chances("S:g11,a1 N:n1,m1 S 1 0")
    assert found["g11-g12"][1] == Fraction(1, 6)


def test_the_player_before_may_block_the_way_into_the_hole() -> None:
    # As above, but N's cat on j13 blocks g13 with a 3 (and only then): 5/6 of 1/6.
    found = _chances("S:g11,a1 N:j13,m1 S 1 0")
    assert found["g11-g12"][1] == Fraction(5, 36)


def test_a_move_that_wins_has_no_chances() -> None:
    position = Position.from_text("S:g12,a1,S2 N:g9,n1 S 3 0")
    [winning] = [f for f in move_chances(position) if position.notation(f.move) == "g12-S1"]
    assert (winning.captured, winning.enter) == (None, None)
    [data] = [m for m in chances_json(position) if (m["from"], m["to"]) == ("g12", "S1")]
    assert data == {"from": "g12", "to": "S1", "captured": None, "enter": None}
    other = next(m for m in chances_json(position) if m["to"] != "S1")
    assert set(other["captured"]) == {"probability", "exact"}


def _random_position(players: int, seed: int) -> str:
    """A small position: two or three cats per seat on random squares, a random roll."""
    rng = random.Random(seed)
    layout = get_layout("default")
    seats = layout.seats_for(players)
    squares = [f"{FILES[x]}{y + 1}" for x in range(SIZE) for y in range(SIZE)]
    rng.shuffle(squares)
    fields = []
    for seat in seats:
        cats = [squares.pop() for _ in range(rng.randint(2, 3))]
        fields.append(f"{seat}:{','.join(cats)}")
    return f"{' '.join(fields)} {seats[0]} {rng.randint(1, 6)} 0"


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_the_search_agrees_with_brute_force_enumeration(players: int, seed: int) -> None:
    position = Position.from_text(_random_position(players, seed))
    fast = [(f.move, f.captured, f.enter) for f in move_chances(position)]
    plain = [(f.move, f.captured, f.enter) for f in brute_force(position)]
    assert fast == plain
    for _, captured, enter in fast:
        assert captured is None or 0 <= captured <= 1
        assert enter is None or 0 <= enter <= 1


@pytest.mark.parametrize("players", [2, 4])
def test_the_start_positions_agree_with_brute_force(players: int) -> None:
    position = Position.from_text(Position.start(players).to_text().replace(" - 0", " 3 0"))
    assert [(f.captured, f.enter) for f in move_chances(position)] == [
        (f.captured, f.enter) for f in brute_force(position)
    ]


def test_no_roll_no_chances() -> None:
    assert move_chances(Position.start(2)) == ()
