"""The dice as data: the HeXXen face tables against the counts the rule text gives."""

from __future__ import annotations

from collections import Counter

import pytest

from spieltisch.dice.faces import SYMBOL_DICE, numeric_die, symbol_die


def _faces(letter: str) -> Counter[tuple[tuple[str, int], ...]]:
    return Counter(
        tuple(sorted(face.items()))
        for face in symbol_die(letter).faces
        if not isinstance(face, int)
    )


def test_hexxen_die_two_successes_one_star_three_blanks() -> None:
    assert _faces("H") == Counter({(("successes", 1),): 2, (("stars", 1),): 1, (): 3})


def test_gm_counts_every_symbol_of_the_same_die() -> None:
    hexxen, gm = symbol_die("H").faces, symbol_die("M").faces
    for plain, counted in zip(hexxen, gm, strict=True):
        assert not isinstance(plain, int) and not isinstance(counted, int)
        assert sum(counted.values()) == sum(plain.values())
        assert set(counted) <= {"successes"}


def test_janus_three_symbols_three_blanks() -> None:
    assert _faces("J") == Counter({(("janus", 1),): 3, (): 3})


def test_blood_die_three_two_two_one_one_blank() -> None:
    drops = sorted(dict(face).get("drops", 0) for face in symbol_die("B").faces)  # type: ignore[arg-type]
    assert drops == [0, 1, 1, 2, 2, 3]


def test_elixir_die_is_numeric_with_the_three_twice() -> None:
    elixir = symbol_die("E")
    assert elixir.numeric
    assert sorted(elixir.faces) == [1, 2, 3, 3, 4, 5]  # type: ignore[type-var]


def test_blessing_die() -> None:
    assert _faces("S") == Counter(
        {(("stars", 1),): 2, (): 1, (("successes", 1),): 2, (("successes", 2),): 1}
    )


@pytest.mark.parametrize("letter", sorted(SYMBOL_DICE))
def test_every_symbol_die_has_six_faces(letter: str) -> None:
    die = symbol_die(letter)
    assert die.sides == 6 and die.code == ("dF" if letter == "F" else letter)
    assert die.face(1) == die.faces[0] and die.face(6) == die.faces[5]


def test_fate_die() -> None:
    fate = symbol_die("F")
    assert fate.numeric and Counter(fate.faces) == Counter({-1: 2, 0: 2, 1: 2})


def test_numeric_dice() -> None:
    d20 = numeric_die(20)
    assert d20.code == "d20" and d20.sides == 20 and d20.numeric
    assert d20.faces == tuple(range(1, 21))
    assert symbol_die("H").keys == ("successes", "stars")
