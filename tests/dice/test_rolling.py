"""Rolling: hand-computed results from scripted dice, every face kept, JSON, limits."""

from __future__ import annotations

from typing import Any

import pytest
from dice_helpers import Scripted

from spieltisch.dice.dice import roll
from spieltisch.dice.errors import LimitError
from spieltisch.dice.fair import RecordingSource, SeededSource
from spieltisch.dice.notation import Limits, parse

CASES: list[tuple[str, list[int], Any, list[bool]]] = [
    # expression, die values drawn, result, kept flag per die
    ("3d6", [1, 2, 3], 6, [True] * 3),
    ("3W6+2", [6, 6, 6], 20, [True] * 3),
    ("4d6kh3", [6, 1, 4, 4], 14, [True, False, True, True]),
    ("4d6dl1", [6, 1, 4, 4], 14, [True, False, True, True]),
    ("4d6kh3", [3, 3, 3, 3], 9, [True, True, True, False]),
    ("4d6kl1", [3, 3, 3, 3], 3, [True, False, False, False]),
    ("4d6dh1", [6, 1, 4, 4], 9, [False, True, True, True]),
    ("2d20kh1", [5, 17], 17, [False, True]),
    ("2d20kl1", [5, 17], 5, [True, False]),
    ("5d6>=4", [1, 4, 6, 3, 5], 3, [True] * 5),
    ("5W6>4", [1, 4, 6, 3, 5], 2, [True] * 5),
    ("5d6<=3", [1, 4, 6, 3, 5], 2, [True] * 5),
    ("5d6<3", [1, 4, 6, 3, 5], 1, [True] * 5),
    ("5d6=6", [6, 4, 6, 3, 5], 2, [True] * 5),
    ("3d6kh2>=5", [5, 6, 6], 2, [False, True, True]),
    ("(1d6+2)*3", [4], 18, [True]),
    ("-1d4", [3], -3, [True]),
    ("1d6*1d6 - 2", [3, 4], 10, [True, True]),
    ("d%", [73], 73, [True]),
    ("1E", [6], 3, [True]),
    ("2E+1", [1, 5], 7, [True, True]),
    # H: star on 1, success on 5 and 6
    ("6H", [1, 2, 3, 4, 5, 6], {"successes": 2, "stars": 1}, [True] * 6),
    # M: every symbol a success
    ("6M", [1, 2, 3, 4, 5, 6], {"successes": 3}, [True] * 6),
    # J as bonus: 4-6 show Janus
    ("2H+3J", [5, 1, 4, 1, 6], {"successes": 3, "stars": 1}, [True] * 5),
    # J as malus, clamped at 0
    ("3M-3J", [2, 3, 5, 4, 5, 6], {"successes": 0}, [True] * 6),
    ("3M-2J", [1, 5, 6, 1, 4], {"successes": 2}, [True] * 5),
    # comparative: successes of each side, stars of the hunter do not count
    ("4M - 3H", [1, 5, 6, 2, 5, 1, 1], {"successes": 2}, [True] * 7),
    ("1M - 3H", [2, 5, 6, 1], {"successes": -2}, [True] * 4),
    ("2B", [6, 4], {"drops": 5}, [True, True]),
    ("3S", [1, 6, 5], {"successes": 3, "stars": 1}, [True] * 3),
    ("0H+2J", [4, 4], {"successes": 2, "stars": 0}, [True, True]),
]


@pytest.mark.parametrize(("text", "values", "result", "kept"), CASES)
def test_hand_computed_rolls(text: str, values: list[int], result: Any, kept: list[bool]) -> None:
    source = Scripted(values)
    rolled = roll(text, source)
    assert rolled.value == result
    assert [die.kept for die in rolled.dice] == kept
    assert source.values == []  # every value drawn, none left over


def test_exploding_die_keeps_every_throw() -> None:
    rolled = roll("1d10!+1d10!", Scripted([10, 10, 3, 7], sides=10))
    assert rolled.value == 30
    assert [(die.face, die.exploded) for die in rolled.dice] == [
        (10, True),
        (10, True),
        (3, False),
        (7, False),
    ]


def test_keep_uses_exploded_totals() -> None:
    rolled = roll("2d6!kh1", Scripted([6, 1, 5]))
    assert rolled.value == 7
    assert [(die.face, die.kept, die.exploded) for die in rolled.dice] == [
        (6, True, True),
        (1, True, False),
        (5, False, False),
    ]


def test_symbol_faces_are_their_keys() -> None:
    rolled = roll("1H+1J+1B+1S", Scripted([1, 4, 6, 6]))
    assert [(die.die, dict(die.face)) for die in rolled.dice] == [
        ("H", {"stars": 1}),
        ("J", {"janus": 1}),
        ("B", {"drops": 3}),
        ("S", {"successes": 2}),
    ]


def test_json_has_the_documented_shape() -> None:
    data = roll("10M-3J", SeededSource(5)).to_json()
    assert set(data) == {"expression", "result", "dice"}
    assert data["expression"] == "10M - 3J"
    assert set(data["result"]) == {"successes"}
    assert len(data["dice"]) == 13
    for die in data["dice"]:
        assert set(die) == {"die", "face", "kept", "exploded"}
        assert isinstance(die["face"], dict)
    numeric = roll("3W6", Scripted([1, 2, 3])).to_json()
    assert numeric == {
        "expression": "3d6",
        "result": 6,
        "dice": [
            {"die": "d6", "face": 1, "kept": True, "exploded": False},
            {"die": "d6", "face": 2, "kept": True, "exploded": False},
            {"die": "d6", "face": 3, "kept": True, "exploded": False},
        ],
    }


def test_every_draw_is_one_die_of_the_result() -> None:
    for text in ("4d6kh3 + 1d10! + 1d% + 2E", "10H + 2J - 3B"):
        _check_draws(text)


def _check_draws(text: str) -> None:
    source = RecordingSource(SeededSource(11))
    rolled = roll(text, source)
    assert len(source.draws) == len(rolled.dice)
    for draw, die in zip(source.draws, rolled.dice, strict=True):
        expected_sides = 6 if die.die in "HMJBES" else int(die.die[1:])
        assert draw.sides == expected_sides
        if isinstance(die.face, int):
            assert die.face == draw.value


def test_same_seed_same_roll() -> None:
    first = roll("10H+3J - 0J", SeededSource("abc"))
    again = roll(parse("10H+3J - 0J"), SeededSource("abc"))
    assert first == again


def test_explosions_are_capped() -> None:
    with pytest.raises(LimitError) as caught:
        roll("2d6!", Scripted([6, 6, 6, 1, 1]), Limits(max_explosions=2))
    assert caught.value.code == "dice.too_many_explosions"
    assert caught.value.params["limit"] == 2
    assert roll("2d6!", Scripted([6, 6, 1, 1]), Limits(max_explosions=2)).value == 14


def test_roll_parses_with_the_given_limits() -> None:
    from spieltisch.dice.errors import NotationError

    with pytest.raises(NotationError):
        roll("5d6", SeededSource(1), Limits(max_dice=4))


# -- the new forms: every die shown --------------------------------------------------------


def test_rerolled_throws_are_shown_and_not_kept() -> None:
    result = roll("2d6r1", Scripted([1, 4, 5]))
    assert result.value == 9
    assert [(d.face, d.kept, d.rerolled) for d in result.dice] == [
        (1, False, True),
        (4, True, False),
        (5, True, False),
    ]
    assert result.to_json()["dice"][0] == {
        "die": "d6",
        "face": 1,
        "kept": False,
        "exploded": False,
        "rerolled": True,
    }
    # once: the second throw stands even when it meets the rule again
    assert roll("1d6r1", Scripted([1, 1])).value == 1
    # again and again: until it no longer holds
    assert roll("1d6rr<3", Scripted([1, 2, 1, 6])).value == 6


def test_bounded_and_penetrating_throws_show_what_they_count() -> None:
    result = roll("2d6min3", Scripted([1, 5]))
    assert result.value == 8
    assert [d.to_json().get("value") for d in result.dice] == [3, None]
    penetrating = roll("1d6!p", Scripted([6, 6, 2]))
    assert penetrating.value == 6 + 5 + 1
    assert [d.value for d in penetrating.dice] == [None, 5, 1]
    assert roll("1d6xo", Scripted([6, 6])).value == 12


def test_threshold_explosions_and_counting() -> None:
    assert roll("1d6!>=5", Scripted([5, 6, 2])).value == 13
    assert roll("5d10t8f1", Scripted([8, 9, 1, 1, 3])).value == 0
    assert roll("5d10cf<=1", Scripted([8, 9, 1, 1, 3])).value == 2


def test_a_compared_total_shows_the_total() -> None:
    result = roll("1d20+5>=15", Scripted([12]))
    assert (result.value, result.total) == (1, 17)
    assert result.to_json()["total"] == 17
    assert roll("1d20+5>=15", Scripted([3])).value == 0


def test_labels_and_group_members_are_kept_in_the_result() -> None:
    result = roll("2d6[fire] + 1d8[cold] + 3", Scripted([2, 5, 7]))
    assert result.value == 17
    assert [(p.label, p.value) for p in result.parts] == [("fire", 7), ("cold", 7)]
    assert [d.label for d in result.dice] == ["fire", "fire", "cold"]
    group = roll("{1d20, 1d20}kh1", Scripted([7, 13]))
    assert group.value == 13
    assert [(p.term, p.value, p.kept) for p in group.parts] == [
        ("1d20", 7, False),
        ("1d20", 13, True),
    ]
    assert [d.kept for d in group.dice] == [False, True]
    counted = roll("{3d6, 3d6}>=12", Scripted([6, 6, 1, 1, 1, 1]))
    assert counted.value == 1


def test_comments_and_hints() -> None:
    result = roll("1d20+5 [Angriff]", Scripted([3]))
    assert (result.value, result.comment) == (8, "Angriff")
    assert result.to_json()["comment"] == "Angriff"
    assert roll("5d6>4", Scripted([1] * 5)).to_json()["hints"] == ["strict"]


def test_fate_dice() -> None:
    result = roll("4dF", Scripted([1, 3, 5, 6]))
    assert result.value == -1 + 0 + 1 + 1
    assert [d.die for d in result.dice] == ["dF"] * 4


def test_old_forms_keep_the_json_of_their_dice() -> None:
    # Logged rolls replay to exactly what they logged: nothing new appears in their dice.
    for text in ("3d6", "4d6kh3", "1d10!", "5d6>=4", "10H+3J", "2d6+1", "3d10!kh2>=8"):
        data = roll(text, SeededSource(text)).to_json()
        assert set(data) == {"expression", "result", "dice"}
        assert all(set(d) == {"die", "face", "kept", "exploded"} for d in data["dice"])
