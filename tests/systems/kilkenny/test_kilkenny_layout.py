"""Layouts are data: the built-in ones load, wrong ones are refused with a code."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.systems.kilkenny import Position, get_layout
from spieltisch.systems.kilkenny.layout import Layout, builtin_layouts, parse_square


def spec(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "size": 14,
        "seating": {"2": ["S", "N"]},
        "seats": {
            "S": {"start": ["a1", "b1"], "holes": [[6, 14], [7, 14]]},
            "N": {"start": ["a14", "b14"], "holes": [[6, -1], [7, -1]]},
        },
    }
    data.update(changes)
    return data


def test_builtin_layouts() -> None:
    assert set(builtin_layouts()) >= {"default", "edges"}
    default = get_layout("default")
    assert default.size == 14
    assert default.seats_for(3) == ("S", "W", "N")
    assert all(len(seat.start) == 8 for seat in default.seats.values())


def test_the_edges_layout_plays() -> None:
    position = Position.start(4, get_layout("edges"))
    assert position.to_text().startswith("S:d1,e1,f1,g1,h1,i1,j1,k1 W:a4,")
    assert len(position.legal_moves(1)) > 0


def test_a_layout_from_data() -> None:
    layout = Layout.from_dict("mini", spec())
    position = Position.start(2, layout)
    assert position.to_text() == "S:a1,b1 N:a14,b14 S - 0"


@pytest.mark.parametrize(
    "changes",
    [
        {"size": 40},
        {"seating": {"2": ["S", "X"]}},
        {"seating": {"3": ["S", "N"]}},
        {
            "seats": {
                "S": {"start": ["a1", "b1"], "holes": [[6, 14], [7, 14]]},
                "N": {"start": ["a1", "b14"], "holes": [[6, -1], [7, -1]]},
            }
        },
        {
            "seats": {
                "S": {"start": ["a1", "b1"], "holes": [[6, 13], [7, 14]]},
                "N": {"start": ["a14", "b14"], "holes": [[6, -1], [7, -1]]},
            }
        },
        {
            "seats": {
                "S": {"start": ["a1", "q1"], "holes": [[6, 14], [7, 14]]},
                "N": {"start": ["a14", "b14"], "holes": [[6, -1], [7, -1]]},
            }
        },
    ],
)
def test_wrong_layouts_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as caught:
        Layout.from_dict("broken", spec(**changes))
    assert caught.value.code == "kilkenny.bad_layout"
    assert caught.value.params["value"] == "broken"


def test_unknown_layout_and_player_count() -> None:
    with pytest.raises(RuleError) as caught:
        get_layout("spiral")
    assert caught.value.code == "kilkenny.unknown_layout"
    with pytest.raises(RuleError) as players:
        get_layout("default").seats_for(5)
    assert players.value.code == "kilkenny.bad_players"
    assert players.value.params["value"] == 5


@pytest.mark.parametrize("text", ["a0", "o1", "a15", "", "4f", "aa1"])
def test_bad_square_names(text: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_square(text, 14)
    assert caught.value.params["value"] == text


def test_square_names() -> None:
    assert parse_square("a1", 14) == (0, 0)
    assert parse_square("N14", 14) == (13, 13)
