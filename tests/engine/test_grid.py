"""The square grid: names, footprints, diagonal rules, path costs, distances and reach."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import (
    Diagonal,
    Grid,
    Size,
    Square,
    Step,
    Token,
    distance,
    file_name,
    footprint,
    in_reach,
    parse_square,
    path_cost,
    reach_exits,
    square_name,
)

D = Decimal


def sq(name: str) -> Square:
    return parse_square(name)


def path(*names: str) -> list[Square]:
    return [sq(name) for name in names]


def test_squares_are_named_from_the_bottom_left() -> None:
    assert sq("a1") == Square(x=0, y=0) and sq(" C12 ") == Square(x=2, y=11)
    assert [file_name(x) for x in (0, 25, 26, 27, 51, 701, 702)] == [
        "a", "z", "aa", "ab", "az", "zz", "aaa",
    ]  # fmt: skip
    for x in (0, 25, 26, 700, 701, 702, 999):
        assert parse_square(square_name(Square(x=x, y=4))) == Square(x=x, y=4)
    for bad in ("", "a0", "1a", "a", "a-1", "abcd1"):
        with pytest.raises(RuleError) as error:
            parse_square(bad)
        assert error.value.code == "toolkit.grid.bad_square"
    grid = Grid(width=8, height=8)
    assert grid.square("h8") == Square(x=7, y=7)
    with pytest.raises(RuleError) as off:
        grid.square("i1")
    assert off.value.params == {"value": "i1", "width": 8, "height": 8}


def test_footprints_by_size() -> None:
    assert footprint(sq("b2"), Size.MEDIUM) == (sq("b2"),)
    assert footprint(sq("b2"), Size.TINY) == (sq("b2"),)
    assert set(footprint(sq("b2"), Size.LARGE)) == set(path("b2", "c2", "b3", "c3"))
    assert len(footprint(sq("a1"), Size.HUGE)) == 9
    assert len(footprint(sq("a1"), Size.GARGANTUAN)) == 16


def test_the_alternating_rule_three_diagonals_cost_6_m() -> None:
    grid = Grid(width=8, height=8, diagonal=Diagonal.ALTERNATING)
    cost = path_cost(grid, path("a1", "b2", "c3", "d4"))
    assert cost.steps == (D("1.5"), D(3), D("1.5")) and cost.total == D(6)
    assert cost.diagonals == 3
    later = path_cost(grid, path("a1", "b2", "c3", "d4"), diagonals_before=1)
    assert later.total == D("7.5")
    mixed = path_cost(grid, path("a1", "b2", "b3", "c4"))
    assert mixed.steps == (D("1.5"), D("1.5"), D(3))


def test_the_uniform_rule_counts_every_diagonal_one_square() -> None:
    grid = Grid(width=8, height=8)
    assert path_cost(grid, path("a1", "b2", "c3", "d4")).total == D("4.5")
    assert path_cost(grid, path("a1")).total == 0
    assert path_cost(grid, []).total == 0


def test_terrain_and_the_standard_cost() -> None:
    grid = (
        Grid(width=5, height=5).with_terrain(sq("b1"), "difficult").with_terrain(sq("c1"), "wall")
    )
    assert grid.terrain_at(sq("b1")) == {"difficult"}
    assert path_cost(grid, path("a1", "b1", "b2")).steps == (D(3), D("1.5"))
    with pytest.raises(RuleError) as wall:
        path_cost(grid, path("a1", "b1", "c1"))
    assert wall.value.code == "toolkit.grid.impassable"
    assert wall.value.params == {"step": 2, "frm": "b1", "to": "c1"}
    with pytest.raises(RuleError) as jump:
        path_cost(grid, path("a1", "a3"))
    assert jump.value.code == "toolkit.grid.not_adjacent"
    assert grid.with_terrain(sq("b1")).terrain_at(sq("b1")) == frozenset()
    with pytest.raises(ValidationError):
        Grid(width=2, height=2, terrain={"c1": frozenset({"wall"})})


def test_a_system_cost_function_sees_mode_and_terrain() -> None:
    """D&D-like: swimming without a swim speed costs 1 extra metre per metre."""
    seen: list[Step] = []

    def cost(step: Step) -> Decimal | None:
        seen.append(step)
        if "water" in step.terrain and step.mode != "swim":
            return step.base * 2
        return step.base

    grid = Grid(width=4, height=4).with_terrain(sq("b1"), "water")
    assert path_cost(grid, path("a1", "b1"), cost).total == D(3)
    assert path_cost(grid, path("a1", "b1"), cost, mode="swim").total == D("1.5")
    assert seen[-1].mode == "swim" and seen[-1].index == 0 and not seen[-1].diagonal
    with pytest.raises(RuleError) as bad:
        path_cost(grid, path("a1", "b1"), lambda step: D(-1))
    assert bad.value.code == "toolkit.grid.bad_cost"


def test_a_large_creature_feels_terrain_under_its_whole_footprint() -> None:
    grid = Grid(width=4, height=4).with_terrain(sq("c3"), "difficult")
    # Moving from a1 to b2, the 2×2 creature covers b2, c2, b3 and c3.
    assert path_cost(grid, path("a1", "b2"), size=Size.LARGE).total == D(3)
    assert path_cost(grid, path("a1", "b2")).total == D("1.5")
    with pytest.raises(RuleError) as off:
        path_cost(grid, path("c1", "d1"), size=Size.LARGE)
    assert off.value.code == "toolkit.grid.off_grid" and off.value.params["step"] == 1


def test_distance_and_reach() -> None:
    uniform = Grid(width=10, height=10)
    alternating = Grid(width=10, height=10, diagonal=Diagonal.ALTERNATING)
    m = Size.MEDIUM
    assert distance(uniform, sq("c3"), m, sq("d4"), m) == D("1.5")
    assert distance(uniform, sq("c3"), m, sq("e5"), m) == D(3)
    assert distance(alternating, sq("c3"), m, sq("e5"), m) == D("4.5")
    assert distance(uniform, sq("c3"), m, sq("c3"), m) == 0
    # A large creature at b2 covers b2..c3; d4 touches its corner.
    assert distance(uniform, sq("b2"), Size.LARGE, sq("d4"), m) == D("1.5")
    pike = Token(id="pike", position=sq("c3"), reach_m=D(3))
    assert in_reach(uniform, pike, sq("e5")) and not in_reach(alternating, pike, sq("e5"))


def test_leaving_reach_names_the_creature_and_the_step() -> None:
    grid = Grid(width=10, height=10)
    orc = Token(id="orc", position=sq("c3"))
    pike = Token(id="pike", position=sq("g3"), reach_m=D(3))
    mover = Token(id="elf", position=sq("c2"))
    exits = reach_exits(grid, mover, path("c2", "c1"), [orc, pike, mover])
    assert [(e.creature, e.step, str(e.frm), str(e.to)) for e in exits] == [("orc", 1, "c2", "c1")]
    around = path("b2", "b3", "b4", "b5")
    assert [(e.creature, e.step) for e in reach_exits(grid, mover, around, [orc])] == [("orc", 3)]
    towards = path("e5", "f4", "f3")
    assert reach_exits(grid, mover, towards, [orc, pike]) == ()
    back = path("e3", "d3", "c4", "c5")
    assert [(e.creature, e.step) for e in reach_exits(grid, mover, back, [orc, pike])] == [
        ("pike", 1),
        ("orc", 3),
    ]


# -- property --------------------------------------------------------------------------------

_moves = st.lists(st.sampled_from([(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]))


@settings(max_examples=300, deadline=None)
@given(
    diagonal=st.sampled_from(list(Diagonal)),
    terrain=st.dictionaries(
        st.tuples(st.integers(0, 5), st.integers(0, 5)),
        st.sampled_from(["difficult", "water", "climbable", "wall"]),
        max_size=12,
    ),
    moves=_moves,
    before=st.integers(0, 3),
)
def test_a_paths_cost_is_at_least_its_prefixs(
    diagonal: Diagonal,
    terrain: dict[tuple[int, int], str],
    moves: list[tuple[int, int]],
    before: int,
) -> None:
    grid = Grid(width=6, height=6, diagonal=diagonal)
    for (x, y), kind in terrain.items():
        grid = grid.with_terrain(Square(x=x, y=y), kind)
    squares = [Square(x=2, y=2)]
    for dx, dy in moves:
        x, y = squares[-1].x + dx, squares[-1].y + dy
        if 0 <= x < 6 and 0 <= y < 6:
            squares.append(Square(x=x, y=y))
    previous = D(0)
    for end in range(1, len(squares) + 1):
        try:
            cost = path_cost(grid, squares[:end], diagonals_before=before)
        except RuleError as error:
            assert error.code == "toolkit.grid.impassable"
            break
        assert cost.total >= previous
        assert cost.total == sum(cost.steps, D(0))
        assert cost.total >= grid.square_m * (end - 1)
        previous = cost.total


def test_a_grid_survives_a_json_round_trip() -> None:
    grid = Grid(width=3, height=2, diagonal=Diagonal.ALTERNATING).with_terrain(sq("b2"), "water")
    assert Grid.model_validate_json(grid.model_dump_json()) == grid
