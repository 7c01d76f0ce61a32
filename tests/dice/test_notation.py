"""Dice notation: German and English forms, canonical rendering, meaning checks, errors."""

from __future__ import annotations

import pytest

from spieltisch.dice.errors import NotationError
from spieltisch.dice.notation import (
    BinaryOp,
    Compare,
    Constant,
    Dice,
    Keep,
    Kind,
    Limits,
    Negate,
    Pool,
    parse,
)
from spieltisch.errors import InputError

TREES = [
    ("3d6", Dice(3, 6)),
    ("d20", Dice(1, 20)),
    ("d%", Dice(1, 100)),
    ("2d%", Dice(2, 100)),
    ("4d6kh3", Dice(4, 6, keep=Keep("kh", 3))),
    ("4d6dl1", Dice(4, 6, keep=Keep("dl", 1))),
    ("2d20kh1", Dice(2, 20, keep=Keep("kh", 1))),
    ("2d20kl1", Dice(2, 20, keep=Keep("kl", 1))),
    ("1d10!", Dice(1, 10, explode=True)),
    ("5d6>=4", Dice(5, 6, compare=Compare(">=", 4))),
    ("5d6>4", Dice(5, 6, compare=Compare(">", 4))),
    ("5d6<=2", Dice(5, 6, compare=Compare("<=", 2))),
    ("5d6<2", Dice(5, 6, compare=Compare("<", 2))),
    ("5d6=6", Dice(5, 6, compare=Compare("=", 6))),
    ("3d10!kh2>=8", Dice(3, 10, True, Keep("kh", 2), Compare(">=", 8))),
    ("10H", Pool(10, "H")),
    ("8M", Pool(8, "M")),
    ("2B", Pool(2, "B")),
    ("1E", Pool(1, "E")),
    ("3S", Pool(3, "S")),
    ("J", Pool(1, "J")),
    ("0J", Pool(0, "J")),
    ("10H+3J", BinaryOp("+", Pool(10, "H"), Pool(3, "J"))),
    ("10M-3J", BinaryOp("-", Pool(10, "M"), Pool(3, "J"))),
    ("8M - 5H", BinaryOp("-", Pool(8, "M"), Pool(5, "H"))),
    ("7", Constant(7)),
    ("-3", Negate(Constant(3))),
    ("3d6+2", BinaryOp("+", Dice(3, 6), Constant(2))),
    ("1+2*3", BinaryOp("+", Constant(1), BinaryOp("*", Constant(2), Constant(3)))),
    ("(1+2)*3", BinaryOp("*", BinaryOp("+", Constant(1), Constant(2)), Constant(3))),
    ("1-2-3", BinaryOp("-", BinaryOp("-", Constant(1), Constant(2)), Constant(3))),
    ("1-(2-3)", BinaryOp("-", Constant(1), BinaryOp("-", Constant(2), Constant(3)))),
    ("2 - -1d4", BinaryOp("-", Constant(2), Negate(Dice(1, 4)))),
]


@pytest.mark.parametrize(("text", "tree"), TREES)
def test_parses_to_the_expected_tree_and_renders_back(text: str, tree: object) -> None:
    node = parse(text)
    assert node == tree
    assert parse(str(node)) == node


@pytest.mark.parametrize(
    ("german", "english"),
    [
        ("3W6", "3d6"),
        ("W%", "d%"),
        ("W20", "1d20"),
        ("1W10!", "1d10!"),
        ("5W6>=4", "5d6>=4"),
        ("4w6kh3", "4d6kh3"),
        ("2W20kl1 + 3", "2d20kl1+3"),
        ("3D6", "3d6"),
    ],
)
def test_german_and_english_forms_mean_the_same(german: str, english: str) -> None:
    assert parse(german) == parse(english)


@pytest.mark.parametrize(
    ("tree", "text"),
    [
        (BinaryOp("+", Constant(1), BinaryOp("+", Constant(2), Constant(3))), "1 + (2 + 3)"),
        (BinaryOp("*", BinaryOp("-", Dice(1, 6), Constant(1)), Constant(2)), "(1d6 - 1) * 2"),
        (Negate(BinaryOp("+", Dice(1, 6), Constant(1))), "-(1d6 + 1)"),
        (Negate(Negate(Constant(2))), "--2"),
        (Dice(1, 100), "1d100"),
        (BinaryOp("-", Pool(10, "M"), Pool(3, "J")), "10M - 3J"),
    ],
)
def test_canonical_rendering(tree: object, text: str) -> None:
    assert str(tree) == text
    assert parse(text) == tree


@pytest.mark.parametrize(
    ("text", "kind", "keys"),
    [
        ("3d6", Kind.NUMBER, ()),
        ("1E+2", Kind.NUMBER, ()),
        ("10H", Kind.SYMBOLS, ("successes", "stars")),
        ("10M", Kind.SYMBOLS, ("successes",)),
        ("3J", Kind.JANUS, ("successes",)),
        ("2J+1J", Kind.JANUS, ("successes",)),
        ("10H+3J", Kind.SYMBOLS, ("successes", "stars")),
        ("10H-3J", Kind.SYMBOLS, ("successes", "stars")),
        ("8M - 5H", Kind.SYMBOLS, ("successes",)),
        ("2B", Kind.SYMBOLS, ("drops",)),
        ("3B - 2J", Kind.SYMBOLS, ("successes", "drops")),
        ("4H+2B", Kind.SYMBOLS, ("successes", "stars", "drops")),
        ("3S", Kind.SYMBOLS, ("successes", "stars")),
    ],
)
def test_kind_and_symbol_keys(text: str, kind: Kind, keys: tuple[str, ...]) -> None:
    node = parse(text)
    assert node.kind is kind
    assert node.keys == keys


def test_janus_malus_and_comparison_are_told_apart() -> None:
    malus = parse("10M - 3J")
    versus = parse("8M - 5H")
    assert isinstance(malus, BinaryOp) and malus.malus and not malus.comparative
    assert isinstance(versus, BinaryOp) and versus.comparative and not versus.malus
    grouped = parse("10M - (2J + 1J)")
    assert isinstance(grouped, BinaryOp) and grouped.malus


@pytest.mark.parametrize(
    ("text", "code", "position", "found"),
    [
        ("3d6+", "dice.notation.end", 4, ""),
        ("3x6", "dice.notation.unexpected", 1, "x"),
        ("", "dice.notation.empty", 0, ""),
        ("   ", "dice.notation.empty", 3, ""),
        ("(3d6", "dice.notation.end", 4, ""),
        ("3d6)", "dice.notation.unexpected", 3, ")"),
        ("3d6 4", "dice.notation.unexpected", 4, "4"),
        ("4d6!!", "dice.notation.unexpected", 4, "!"),
        ("4d6dl1!", "dice.notation.unexpected", 6, "!"),
        ("10h", "dice.notation.unexpected", 2, "h"),
        ("2000d6", "dice.too_many_dice", 0, "2000"),
        ("600d6+600d8", "dice.too_many_dice", 0, "600d6+600d8"),
        ("0d6", "dice.empty_pool", 0, "0"),
        ("5d1", "dice.bad_sides", 1, "d1"),
        ("1d101", "dice.bad_sides", 1, "d101"),
        ("d0", "dice.bad_sides", 0, "d0"),
        ("4d6kh5", "dice.bad_keep", 1, "d6"),
        ("4d6kh0", "dice.bad_keep", 1, "d6"),
        ("4d6dl4", "dice.bad_keep", 1, "d6"),
        ("101d6kh1", "dice.keep_pool_too_large", 3, "d6"),
        ("3d6+2H", "dice.mixed_types", 3, "+"),
        ("2H*3", "dice.mixed_types", 2, "*"),
        ("2H*3H", "dice.mixed_types", 2, "*"),
        ("-2H", "dice.mixed_types", 0, "-"),
        ("1E+1H", "dice.mixed_types", 2, "+"),
        ("1234567890d6", "dice.number_too_large", 0, "1234567890"),
        ("1d6+99999999999", "dice.number_too_large", 4, "99999999999"),
        ("1+" * 101 + "1", "dice.notation.too_long", 0, "1+1+1+1+1+"),
        ("(" * 101 + "1" + ")" * 101, "dice.notation.too_long", 0, "(" * 10),
        ("1" * 6000, "dice.notation.too_long", 0, "1" * 10),
    ],
)
def test_bad_notation_names_position_found_and_expected(
    text: str, code: str, position: int, found: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    error = caught.value
    assert (error.code, error.position, error.found) == (code, position, found)
    assert error.params["value"] == text
    assert error.params["column"] == position + 1
    assert error.expected
    assert isinstance(error, ValueError)
    assert isinstance(error, InputError)


def test_unexpected_lists_what_would_fit() -> None:
    with pytest.raises(NotationError) as caught:
        parse("3d6+")
    assert "0-9" in caught.value.expected
    assert "H M J B E S" in caught.value.expected


def test_limits_are_configurable() -> None:
    with pytest.raises(NotationError) as caught:
        parse("11d6", Limits(max_dice=10))
    assert caught.value.code == "dice.too_many_dice"
    assert parse("10d6", Limits(max_dice=10)) == Dice(10, 6)
    with pytest.raises(NotationError):
        parse("1d20", Limits(max_sides=12))


def test_dice_count_counts_every_pool() -> None:
    assert parse("3d6 + 2d8 - 1").dice_count == 5
    assert parse("10H + 3J").dice_count == 13


def test_the_deepest_allowed_expressions_still_work() -> None:
    from spieltisch.dice.dice import roll
    from spieltisch.dice.fair import SeededSource
    from spieltisch.dice.odds import distribution

    for text in (
        "1+" * 100 + "1",
        "(" * 100 + "1" + ")" * 100,
        "-" * 100 + "1",
        "1d2+" * 50 + "2*" * 50 + "1",
    ):
        node = parse(text)
        assert parse(str(node)) == node
        roll(node, SeededSource(1))
        distribution(node)
