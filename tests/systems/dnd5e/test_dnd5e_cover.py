"""Cover from walls and creatures on the map: lines from a corner of the attacker's square to
the four corners of the target's square (see ``cover.py``).

Squares by name: a1 is (0, 0), its corners (0, 0), (1, 0), (0, 1), (1, 1).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Square, parse_square
from spieltisch.engine.permissions import check_fields, gm_only_fields
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.cover import along_edge, cover_between, line_blocked
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, command, foe, fresh, pc, play


def cover(
    attacker: str, target: str, walls: tuple[str, ...] = (), bodies: tuple[str, ...] = ()
) -> str:
    return cover_between(
        [parse_square(attacker)],
        [parse_square(target)],
        [parse_square(w) for w in walls],
        [parse_square(b) for b in bodies],
    )


def test_a_line_through_a_square_is_blocked_one_along_its_edge_is_not() -> None:
    wall = Square(x=1, y=0)
    assert line_blocked((0, 0), (2, 1), wall)  # through (1.5, 0.75)
    assert not line_blocked((0, 0), (3, 0), wall)  # along its lower edge
    assert not line_blocked((0, 0), (1, 1), wall)  # ends at its corner
    assert not line_blocked((0, 1), (3, 4), wall)  # passes beside it
    assert along_edge((0, 1), (2, 1), ((1, 1), (2, 1)))
    assert not along_edge((0, 1), (1, 1), ((1, 1), (2, 1)))  # meets it at a point only


def test_no_obstacle_no_cover() -> None:
    assert cover("a1", "c1") == "none"
    assert cover("a1", "c3", walls=("a3",)) == "none"


def test_one_wall_square_in_line_gives_half_cover() -> None:
    # a1 → c1 past a wall at b1: from corner (1, 0) the lines to (2, 0) and (3, 0) run
    # along the wall's lower edge, those to (2, 1) and (3, 1) cross it: two blocked.
    assert cover("a1", "c1", walls=("b1",)) == "half"


def test_a_diagonal_wall_gives_three_quarters_cover() -> None:
    # a1 → c3 past a wall at b2: from (1, 0) the line to (3, 2) passes its corner (2, 1),
    # the lines to (2, 2), (2, 3), (3, 3) cross it: three blocked; (0, 1) likewise; from
    # (1, 1) all four cross it and (0, 0) all four too.
    assert cover("a1", "c3", walls=("b2",)) == "three_quarters"


def test_a_wall_of_three_squares_gives_total_cover() -> None:
    # a2 → c2 behind b1, b2, b3: every line crosses a wall square or runs along the seam
    # between two of them.
    assert cover("a2", "c2", walls=("b1", "b2", "b3")) == "total"
    assert cover("a2", "c2", walls=("b2", "b3")) == "half"  # a line along the lower edge


def test_creatures_give_half_cover_at_most() -> None:
    assert cover("a1", "c1", bodies=("b1",)) == "half"
    assert cover("a2", "c2", bodies=("b1", "b2", "b3")) == "half"


@given(
    st.tuples(st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.integers(0, 5), st.integers(0, 5)),
    st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=6),
)
def test_more_walls_never_less_cover_and_symmetric_in_swapping_nothing(
    a: tuple[int, int], t: tuple[int, int], walls: set[tuple[int, int]]
) -> None:
    attacker, target = Square(x=a[0], y=a[1]), Square(x=t[0], y=t[1])
    squares = [Square(x=x, y=y) for x, y in walls if (x, y) not in (a, t)]
    order = ("none", "half", "three_quarters", "total")
    fewer = cover_between([attacker], [target], squares[:-1], [])
    more = cover_between([attacker], [target], squares, [])
    assert order.index(more) >= order.index(fewer)
    # a wall counted as a creature never gives more than half cover
    assert cover_between([attacker], [target], [], squares) in ("none", "half")


# ---------------------------------------------------------------- at the table

BOW = {"kind": "attack", "creature": "ada", "target": "orc", "attack": "Longbow"}


def table(*extra: dict[str, Any]) -> DndState:
    """Ada (Longbow +5, 1d8+2) at a1, the orc (AC 13) at c1, Bo (an ally) at b1 between."""
    state = play(fresh(), pc("ada", "a1"))
    state = play(state, pc("bo", "b1"))
    state = play(state, foe("orc", "c1"))
    for data in extra:
        state = play(state, data)
    return play(state, {"kind": "start_combat", "rolls": {"ada": 20, "bo": 15, "orc": 10}})


def test_half_cover_from_an_ally_turns_a_hit_into_a_miss() -> None:
    # d20 9 + 5 = 14: hits AC 13, misses AC 13 + 2 for half cover.
    state = play(table(), BOW, 9)
    assert state.last_attack is not None and state.last_attack.outcome == "miss"
    # the GM rules there is no cover: the same roll hits, 1d8 4 + 2 = 6
    state = play(table(), {**BOW, "cover": "none"}, 9, 4)
    assert state.last_attack is not None and state.last_attack.outcome == "hit"
    assert state.fighters["orc"].hp == 24


def test_total_cover_cannot_be_targeted() -> None:
    # the orc at c2 behind walls b1–b3 (Bo at b1 replaced by the wall: Bo stands at a3)
    state = play(fresh(), pc("ada", "a2"))
    state = play(state, foe("orc", "c2"))
    state = play(state, {"kind": "terrain", "squares": ["b1", "b2", "b3"], "terrain": "wall"})
    state = play(state, {"kind": "start_combat", "rolls": {"ada": 20, "orc": 10}})
    with pytest.raises(RuleError) as error:
        play(state, BOW)
    assert error.value.code == "dnd5e.cover.total"
    view = SYSTEM.view(state, GM_VIEWER)
    bow = next(o for o in view["attack_options"] if o["attack"] == "Longbow")
    assert (bow["cover"], bow["in_reach"]) == ("total", False)
    # the GM may rule otherwise (an arrow slit): half cover, d20 20 is a critical
    state = play(state, {**BOW, "cover": "half"}, 20, 1, 1)
    assert state.last_attack is not None and state.last_attack.outcome == "critical"


def test_cover_in_the_attack_odds() -> None:
    state = table()
    view = SYSTEM.view(state, GM_VIEWER)
    bow = next(
        o for o in view["attack_options"] if o["target"] == "orc" and o["attack"] == "Longbow"
    )
    assert bow["cover"] == "half"
    # P(hit) against AC 15 with +5: d20 ≥ 10, 11/20 (a 20 among them)
    assert bow["hit"]["exact"] == "11/20"
    odds = SYSTEM.odds(state, command(BOW))
    assert odds is not None
    miss = next(Fraction(o.exact) for o in odds.outcomes if o.value == 0)
    assert miss == Fraction(9, 20)
    ruled = SYSTEM.odds(state, command({**BOW, "cover": "three_quarters"}))
    assert ruled is not None
    # against AC 18: d20 ≥ 13, 8/20 hit
    assert next(Fraction(o.exact) for o in ruled.outcomes if o.value == 0) == Fraction(12, 20)


def test_only_the_gm_rules_on_cover() -> None:
    with pytest.raises(RuleError) as error:
        check_fields(command({**BOW, "cover": "none"}))
    assert error.value.code == "rule.forbidden_field"
    assert gm_only_fields(SYSTEM.commands)["attack"]["cover"] == "dnd5e.field.cover"
