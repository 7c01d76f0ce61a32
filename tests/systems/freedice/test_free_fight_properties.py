"""Properties of the free table's movement and effects, against brute force."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.engine.grid import Diagonal, Grid, Size, Square, square_name
from spieltisch.systems.freedice.rules import TERRAIN_COST, cheapest_path, move_cost

SIDE = 5

terrain = st.dictionaries(
    st.tuples(st.integers(0, SIDE - 1), st.integers(0, SIDE - 1)),
    st.sampled_from(sorted(TERRAIN_COST)),
    max_size=12,
)


def brute_force(grid: Grid, start: Square, goal: Square) -> Decimal | None:
    """Cheapest cost by relaxing every square until nothing changes (uniform diagonals)."""
    inf = Decimal("Infinity")
    best = {(x, y): inf for x in range(grid.width) for y in range(grid.height)}
    best[(start.x, start.y)] = Decimal(0)
    changed = True
    while changed:
        changed = False
        for (x, y), spent in list(best.items()):
            if spent == inf:
                continue
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    to = (x + dx, y + dy)
                    if (dx, dy) == (0, 0) or to not in best:
                        continue
                    kinds = grid.terrain_at(Square(x=to[0], y=to[1]))
                    prices = [TERRAIN_COST.get(k, 1) for k in kinds]
                    if None in prices:
                        continue
                    price = max([1, *(p for p in prices if p is not None)])
                    if spent + price < best[to]:
                        best[to] = spent + price
                        changed = True
    found = best[(goal.x, goal.y)]
    return None if found == inf else found


@settings(max_examples=60, deadline=None)
@given(
    terrain,
    st.tuples(st.integers(0, SIDE - 1), st.integers(0, SIDE - 1)),
    st.tuples(st.integers(0, SIDE - 1), st.integers(0, SIDE - 1)),
)
def test_the_cheapest_path_costs_what_brute_force_finds(
    kinds: dict[tuple[int, int], str], a: tuple[int, int], b: tuple[int, int]
) -> None:
    start, goal = Square(x=a[0], y=a[1]), Square(x=b[0], y=b[1])
    kinds.pop(a, None)
    kinds.pop(b, None)
    grid = Grid(
        width=SIDE,
        height=SIDE,
        square_m=Decimal(1),
        terrain={square_name(Square(x=x, y=y)): frozenset({k}) for (x, y), k in kinds.items()},
    )
    path = cheapest_path(grid, start, goal, Size.MEDIUM)
    expected = brute_force(grid, start, goal)
    if path is None:
        assert expected is None
        return
    assert (path[0], path[-1]) == (start, goal)
    cost, _ = move_cost(grid, path, Size.MEDIUM)
    assert cost == expected
    assert cost >= max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 7), st.integers(0, 7), st.integers(0, 3))
def test_alternating_diagonals_on_open_ground_cost_the_rule(dx: int, dy: int, before: int) -> None:
    grid = Grid(width=8, height=8, diagonal=Diagonal.ALTERNATING)
    path = cheapest_path(grid, Square(x=0, y=0), Square(x=dx, y=dy), Size.MEDIUM, before)
    assert path is not None
    cost, diagonals = move_cost(grid, path, Size.MEDIUM, before)
    diagonal, straight = min(dx, dy), abs(dx - dy)
    # Every second diagonal of the turn (counting those before) costs two.
    doubled = (before + diagonal) // 2 - before // 2
    assert cost == straight + diagonal + doubled
    assert diagonals == before + diagonal
