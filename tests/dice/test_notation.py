"""Dice notation: German and English forms, canonical rendering, meaning checks, errors."""

from __future__ import annotations

import pytest

from spieltisch.dice.errors import NotationError
from spieltisch.dice.notation import (
    Abs,
    BinaryOp,
    Comment,
    Compare,
    Constant,
    Dice,
    Divide,
    Explode,
    Group,
    Keep,
    Kind,
    Label,
    Limits,
    Negate,
    Pool,
    Reroll,
    Test,
    hints,
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
    # comparing a total
    ("1d20+5>=15", Test(BinaryOp("+", Dice(1, 20), Constant(5)), Compare(">=", 15))),
    ("1W10!+7>=10", Test(BinaryOp("+", Dice(1, 10, True), Constant(7)), Compare(">=", 10))),
    ("(3d6+2)>=12", Test(BinaryOp("+", Dice(3, 6), Constant(2)), Compare(">=", 12))),
    ("(3d6)>=10", Test(Dice(3, 6), Compare(">=", 10))),
    ("(4dF) >= -1", Test(Pool(4, "F"), Compare(">=", -1))),
    ("4dF<0", Test(Pool(4, "F"), Compare("<", 0))),
    # rerolls
    ("4d6r1", Dice(4, 6, reroll=Reroll("once", Compare("=", 1)))),
    ("4d6r", Dice(4, 6, reroll=Reroll("once", Compare("=", 1)))),
    ("2d6ro<3", Dice(2, 6, reroll=Reroll("once", Compare("<", 3)))),
    ("1d20ro1", Dice(1, 20, reroll=Reroll("once", Compare("=", 1)))),
    ("4d6rr1", Dice(4, 6, reroll=Reroll("always", Compare("=", 1)))),
    ("2d10rr<=2", Dice(2, 10, reroll=Reroll("always", Compare("<=", 2)))),
    ("1d6ra6", Dice(1, 6, explode=Explode("once"))),
    ("1d6ra>4", Dice(1, 6, explode=Explode("once", Compare(">", 4)))),
    # explosions
    ("1d6!>=5", Dice(1, 6, explode=Explode("add", Compare(">=", 5)))),
    ("1d6!>4", Dice(1, 6, explode=Explode("add", Compare(">", 4)))),
    ("1d6!5", Dice(1, 6, explode=Explode("add", Compare("=", 5)))),
    ("1d6!!", Dice(1, 6, True)),
    ("1d6x", Dice(1, 6, True)),
    ("1d6x>4", Dice(1, 6, explode=Explode("add", Compare(">", 4)))),
    ("1d6!6", Dice(1, 6, True)),
    ("1d6!>=6", Dice(1, 6, True)),
    ("1d6!p", Dice(1, 6, explode=Explode("penetrate"))),
    ("1d6xo", Dice(1, 6, explode=Explode("once"))),
    ("10d10ie8", Dice(10, 10, explode=Explode("add", Compare(">=", 8)))),
    # keep and drop
    ("2d20kh", Dice(2, 20, keep=Keep("kh", 1))),
    ("2d20kl", Dice(2, 20, keep=Keep("kl", 1))),
    ("4d6k3", Dice(4, 6, keep=Keep("kh", 3))),
    ("4d6d1", Dice(4, 6, keep=Keep("dl", 1))),
    ("4d6d", Dice(4, 6, keep=Keep("dl", 1))),
    ("4d6dh1", Dice(4, 6, keep=Keep("dh", 1))),
    # bounds and arithmetic
    ("2d6min2", Dice(2, 6, minimum=2)),
    ("1d20mi10", Dice(1, 20, minimum=10)),
    ("2d6max5", Dice(2, 6, maximum=5)),
    ("1d20ma10", Dice(1, 20, maximum=10)),
    ("8d6/2", Divide(Dice(8, 6), 2)),
    ("floor(8d6/2)", Divide(Dice(8, 6), 2)),
    ("ceil(8d6/2)", Divide(Dice(8, 6), 2, "ceil")),
    ("round(8d6/2)", Divide(Dice(8, 6), 2, "round")),
    ("round(1d6)", Dice(1, 6)),
    ("abs(1d6-4)", Abs(BinaryOp("-", Dice(1, 6), Constant(4)))),
    # success and failure counting
    ("10d10cs>=7", Dice(10, 10, compare=Compare(">=", 7))),
    ("10d10cf<=1", Dice(10, 10, failure=Compare("<=", 1))),
    ("5d10t8f1", Dice(5, 10, compare=Compare(">=", 8), failure=Compare("<=", 1))),
    ("5d10 t8 f1", Dice(5, 10, compare=Compare(">=", 8), failure=Compare("<=", 1))),
    ("10d10t8ie10", Dice(10, 10, True, compare=Compare(">=", 8))),
    ("1d6!cs>=5", Dice(1, 6, True, compare=Compare(">=", 5))),
    # Fate dice, groups, labels and comments
    ("4dF", Pool(4, "F")),
    ("4df+1", BinaryOp("+", Pool(4, "F"), Constant(1))),
    ("{1d20, 1d20}kh1", Group((Dice(1, 20), Dice(1, 20)), Keep("kh", 1))),
    ("{4d6kh3, 4d6kh3}", Group((Dice(4, 6, keep=Keep("kh", 3)),) * 2)),
    ("{3d6, 3d6}>=10", Group((Dice(3, 6), Dice(3, 6)), compare=Compare(">=", 10))),
    (
        "2d6[fire] + 1d8[cold] + 3",
        BinaryOp(
            "+",
            BinaryOp("+", Label(Dice(2, 6), "fire"), Label(Dice(1, 8), "cold")),
            Constant(3),
        ),
    ),
    ("1d20+5 [Angriff]", Comment(BinaryOp("+", Dice(1, 20), Constant(5)), "Angriff")),
    ("1d20+5[Angriff]", BinaryOp("+", Dice(1, 20), Label(Constant(5), "Angriff"))),
    ("1d20 # Wahrnehmung", Comment(Dice(1, 20), "Wahrnehmung")),
    ("6h+2j", BinaryOp("+", Pool(6, "H"), Pool(2, "J"))),
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
        ("1W20+5>=15", "1d20+5>=15"),
        ("4W6r1", "4d6r1"),
        ("1W6!>=5", "1d6!>=5"),
        ("2W20kh", "2d20kh1"),
        ("2W6min2", "2d6min2"),
        ("8W6/2", "8d6/2"),
        ("10W10cs>=7", "10d10>=7"),
        ("4WF", "4dF"),
        ("{W20, W20}kh1", "{1d20, 1d20}kh1"),
        ("2W6[Feuer]", "2d6[Feuer]"),
        ("W%", "1d100"),
        ("2W%", "2d100"),
        ("6H+2J", "6h+2j"),
        ("4D6KH3", "4d6kh3"),
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
        ("4d6!!!", "dice.duplicate_modifier", 5, "!"),
        ("4d6kh3kl1", "dice.duplicate_modifier", 6, "kl"),
        ("4d6r1ro2", "dice.duplicate_modifier", 5, "ro"),
        ("1d6!ra6", "dice.duplicate_modifier", 4, "ra"),
        ("10hx", "dice.notation.unexpected", 3, "x"),
        ("1d6!>=1", "dice.explodes_always", 1, "d6"),
        ("1d6rr<=6", "dice.reroll_every_face", 1, "d6"),
        ("2d6min7", "dice.bad_bound", 1, "d6"),
        ("2d6min4max3", "dice.bad_bound", 1, "d6"),
        ("3d6>=10", "dice.unreachable_target", 3, ">=10"),
        ("8d6/0", "dice.bad_divisor", 3, "/"),
        ("8d6/1d6", "dice.bad_divisor", 3, "/"),
        ("round(1d20/3+2)", "dice.round_inside", 0, "round"),
        ("{1d6, 2H}", "dice.mixed_types", 0, "{"),
        ("2H>=1", "dice.mixed_types", 2, ">="),
        ("{1d6}kh2", "dice.bad_keep", 0, "{"),
        ("4dFkh2", "dice.notation.unexpected", 3, "kh"),
        ("2d6[" + "x" * 101 + "]", "dice.bad_label", 3, "[" + "x" * 101 + "]"),
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


def test_a_target_no_die_reaches_suggests_the_total() -> None:
    for text, suggestion in [
        ("3d6>=10", "(3d6)>=10"),
        ("3W6>=10", "(3W6)>=10"),
        ("1d20+1d4>=15", "(1d20+1d4)>=15"),
        ("2d6=7", "(2d6)=7"),
        ("3d6>=10+2", "((3d6) >= 10) + 2"),
    ]:
        with pytest.raises(NotationError) as caught:
            parse(text)
        assert caught.value.code == "dice.unreachable_target"
        assert caught.value.params["suggestion"] == suggestion
        assert parse(suggestion).kind is Kind.NUMBER
    # exploding dice reach any height: counted, not refused
    assert parse("5d6!>=7") == Dice(5, 6, explode=Explode("add", Compare(">=", 7)))
    assert parse("5d6!cs>=7") == Dice(5, 6, True, compare=Compare(">=", 7))


def test_hints_name_forms_other_tools_read_otherwise() -> None:
    assert hints(parse("1d20+5>15")) == ("strict",)
    assert hints(parse("5d6>4")) == ("strict",)
    assert hints(parse("1d20+5>=15")) == ()
    assert hints(parse("W66")) == ("d66",)
    assert hints(parse("4d6r2")) == ("reroll_equal",)
    assert hints(parse("4d6r1")) == ()


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
