"""The shortcuts of the odds engine against the general path and icepool, for random pools.

The small-integer path keeps or drops dice by the value of the last kept die (all but one
die as differences of powers, dice of alike likely faces in closed form), rerolls and
bounds a die in closed form, counts successes and compares totals by the run of values a
comparison meets; each must give the very fractions of the array engine and of icepool.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.dice import notation
from spieltisch.dice.arrays import cells_of
from spieltisch.dice.errors import NotationError
from spieltisch.dice.evaluate import evaluate
from spieltisch.dice.exploding import depths_of
from spieltisch.dice.notation import (
    BinaryOp,
    Compare,
    Constant,
    Dice,
    DieSpec,
    Explode,
    Expression,
    Group,
    Keep,
    Limits,
    Reroll,
    Test,
    parse,
)
from spieltisch.dice.odds import distribution
from spieltisch.dice.small import small_root

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OPS = st.sampled_from([">=", ">", "<=", "<", "="])


def _ours(node: Expression) -> dict[int, Fraction]:
    """The exact odds the engine gives (the small path wherever it runs)."""
    out: dict[int, Fraction] = {}
    for value, fraction in distribution(node).exact():
        assert isinstance(value, int)
        out[value] = fraction
    return out


def _general(node: Expression) -> dict[int, Fraction]:
    """The exact odds of the array engine alone."""
    pmf = evaluate(node, depths_of(node), True, None)
    cells = cells_of(pmf)
    return {
        o if isinstance(o, int) else o[0]: Fraction(int(w), pmf.denominator) for o, w in cells if w
    }


def _icepool(die: Any) -> dict[int, Fraction]:
    total = die.denominator()
    pairs = zip(die.outcomes(), die.quantities(), strict=True)
    return {int(o): Fraction(q, total) for o, q in pairs if q}


def _d(sides: int) -> Any:
    return icepool.Die(range(1, sides + 1))


@st.composite
def keeps(draw: st.DrawFn) -> tuple[int, int, Keep]:
    count = draw(st.integers(1, 7))
    sides = draw(st.integers(2, 20))
    mode = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
    most = count if mode in ("kh", "kl") else count - 1
    if most < 1:
        mode, most = "kh", count
    return count, sides, Keep(mode, draw(st.integers(1, most)))  # type: ignore[arg-type]


def _kept(count: int, sides: int, rule: Keep) -> Any:
    highest, kept = rule.kept(count)
    pool = _d(sides).pool(count)
    return (pool.highest(kept) if highest else pool.lowest(kept)).sum()


@SETTINGS
@given(keeps())
def test_keep_and_drop_agree_with_icepool_and_the_array_engine(
    case: tuple[int, int, Keep],
) -> None:
    count, sides, rule = case
    node = Dice(count, sides, keep=rule)
    assert small_root(node) is not None  # the shortcut runs
    ours = _ours(node)
    assert ours == _icepool(_kept(count, sides, rule))
    assert ours == _general(node)


@SETTINGS
@given(keeps(), st.integers(1, 3))
def test_keeping_dice_of_unequal_faces_agrees_with_icepool(
    case: tuple[int, int, Keep], low: int
) -> None:
    # rerolled once, a die's faces are no longer alike likely: the general programme
    count, sides, rule = case
    low = min(low, sides - 1)
    node = Dice(count, sides, keep=rule, reroll=Reroll("once", Compare("<=", low)))
    highest, kept = rule.kept(count)
    pool = _d(sides).reroll(list(range(1, low + 1)), depth=1).pool(count)
    theirs = (pool.highest(kept) if highest else pool.lowest(kept)).sum()
    assert small_root(node) is not None
    assert _ours(node) == _icepool(theirs)


@SETTINGS
@given(keeps(), OPS, st.integers(1, 20))
def test_kept_dice_counting_successes_agree_with_the_array_engine(
    case: tuple[int, int, Keep], op: str, target: int
) -> None:
    count, sides, rule = case
    on = Compare(op, target)  # type: ignore[arg-type]
    if not on.hits(sides):
        return  # refused when typed; no die can count
    node = Dice(count, sides, keep=rule, compare=on)
    assert _ours(node) == _general(node)


@SETTINGS
@given(
    st.integers(1, 5),
    st.integers(2, 20),
    st.sampled_from(["once", "always"]),
    OPS,
    st.integers(0, 21),
)
def test_rerolls_agree_with_icepool(
    count: int, sides: int, mode: str, op: str, target: int
) -> None:
    on = Compare(op, target)  # type: ignore[arg-type]
    faces = [face for face in range(1, sides + 1) if on.test(face)]
    if mode == "always" and len(faces) == sides:
        return  # refused: no face would stay
    node = Dice(count, sides, reroll=Reroll(mode, on))  # type: ignore[arg-type]
    die = _d(sides)  # no face rerolled, or every face once: the throw that stands is fair
    if 0 < len(faces) < sides:
        die = die.reroll(faces, depth=1 if mode == "once" else "inf")
    assert _ours(node) == _icepool(count @ die)
    assert _ours(node) == _general(node)


@SETTINGS
@given(
    st.integers(2, 12),
    st.sampled_from([None, "once", "always"]),
    OPS,
    st.integers(1, 12),
    st.integers(1, 12),
    st.integers(1, 12),
)
def test_a_bounded_die_is_its_faces_piled_onto_the_bounds(
    sides: int, mode: str | None, op: str, target: int, low: int, high: int
) -> None:
    rule = None if mode is None else Reroll(mode, Compare(op, target))  # type: ignore[arg-type]
    spec = DieSpec(sides, rule, min(low, sides), min(high, sides))
    if rule is not None and mode == "always" and rule.on.hits(sides) == sides:
        return
    found = spec.bounded()
    if spec.minimum is not None and spec.maximum is not None and spec.minimum > spec.maximum:
        assert found is None
        return
    assert found is not None
    start, weights = found
    expected: dict[int, int] = {}
    for face, weight in spec.faces():
        if weight:
            expected[spec.value(face)] = expected.get(spec.value(face), 0) + weight
    assert {start + i: w for i, w in enumerate(weights) if w} == expected


@SETTINGS
@given(OPS, st.integers(-30, 30), st.integers(-10, 10), st.integers(0, 20))
def test_a_comparison_meets_one_run_of_values(op: str, target: int, low: int, width: int) -> None:
    compare = Compare(op, target)  # type: ignore[arg-type]
    first, last = compare.span(low, low + width)
    assert [v for v in range(low, low + width + 1) if compare.test(v)] == list(
        range(first, last + 1)
    )
    if low == 1:
        assert compare.hits(width + 1) == max(0, last - first + 1)


@SETTINGS
@given(st.integers(1, 4), st.integers(2, 20), st.integers(-5, 10), OPS, st.integers(-5, 40))
def test_a_compared_total_agrees_with_icepool(
    count: int, sides: int, bonus: int, op: str, target: int
) -> None:
    total: Expression = Dice(count, sides)
    if bonus:
        total = BinaryOp("+", total, Constant(bonus))
    node = Test(total, Compare(op, target))  # type: ignore[arg-type]
    theirs = {
        ">=": lambda d: d >= target,
        ">": lambda d: d > target,
        "<=": lambda d: d <= target,
        "<": lambda d: d < target,
        "=": lambda d: d == target,
    }[op](count @ _d(sides) + bonus)
    assert _ours(node) == _icepool(theirs)
    assert _ours(node) == _general(node)


@SETTINGS
@given(
    st.integers(1, 3),
    st.integers(2, 8),
    st.integers(1, 4),
    OPS,
    st.integers(1, 20),
    st.booleans(),
)
def test_equal_group_members_summed_or_counted_agree_with_the_array_engine(
    count: int, sides: int, members: int, op: str, target: int, counting: bool
) -> None:
    compare = Compare(op, target) if counting else None  # type: ignore[arg-type]
    node = Group((Dice(count, sides),) * members, compare=compare)
    assert _ours(node) == _general(node)


@SETTINGS
@given(
    st.lists(
        st.tuples(st.integers(1, 3), st.integers(2, 12), st.integers(-3, 6)), min_size=2, max_size=4
    ),
    st.sampled_from(["kh", "kl", "dl", "dh"]),
)
def test_the_highest_or_lowest_of_unequal_members_agrees_with_icepool(
    members: list[tuple[int, int, int]], mode: str
) -> None:
    # a group of unequal members keeping one: products of the members' cumulative weights
    terms = [BinaryOp("+", Dice(count, sides), Constant(bonus)) for count, sides, bonus in members]
    rule = Keep(mode, 1 if mode[0] == "k" else len(members) - 1)  # type: ignore[arg-type]
    node = Group(tuple(terms), rule)
    assert small_root(node) is not None  # the shortcut runs
    pool = icepool.Pool([count @ _d(sides) + bonus for count, sides, bonus in members])
    highest, kept = rule.kept(len(members))
    assert kept == 1
    assert _ours(node) == _icepool((pool.highest(1) if highest else pool.lowest(1)).sum())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the larger of a d2 and a d3: of the six pairs one gives 1, three give 2, two give 3
        ("{1d2, 1d3}kh1", {1: Fraction(1, 6), 2: Fraction(3, 6), 3: Fraction(2, 6)}),
        # the smaller: four pairs give 1, two give 2
        ("{1d2, 1d3}kl1", {1: Fraction(4, 6), 2: Fraction(2, 6)}),
        # members apart: the d2 + 5 is always the larger, the d3 always the smaller
        ("{1d2+5, 1d3}kh1", {6: Fraction(1, 2), 7: Fraction(1, 2)}),
        ("{1d2+5, 1d3}dh1", {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}),
    ],
)
def test_the_highest_or_lowest_of_unequal_members_by_hand(
    text: str, expected: dict[int, Fraction]
) -> None:
    assert _ours(parse(text)) == expected


@SETTINGS
@given(keeps(), st.integers(2, 3))
def test_groups_of_kept_dice_agree_with_the_array_engine(
    case: tuple[int, int, Keep], members: int
) -> None:
    count, sides, rule = case
    node = parse(str(Group((Dice(count, sides, keep=rule),) * members, Keep("kh", 1))))
    assert _ours(node) == _general(node)


@SETTINGS
@given(
    st.integers(2, 11),
    st.integers(2, 20),
    st.sampled_from(["dl", "dh"]),
    st.integers(0, 3),
)
def test_all_but_one_die_agrees_with_icepool(count: int, sides: int, mode: str, low: int) -> None:
    # all but the lowest (or highest) die of alike likely faces: in closed form up to eight
    # dice, by differences of powers past them; rerolling the lowest faces again and again
    # leaves alike likely faces that start above 1
    low = min(low, sides - 2)
    reroll = Reroll("always", Compare("<=", low)) if low else None
    node = Dice(count, sides, keep=Keep(mode, 1), reroll=reroll)  # type: ignore[arg-type]
    die = _d(sides).reroll(list(range(1, low + 1)), depth="inf") if low else _d(sides)
    pool = die.pool(count)
    theirs = (pool.highest(count - 1) if mode == "dl" else pool.lowest(count - 1)).sum()
    assert small_root(node) is not None
    assert _ours(node) == _icepool(theirs)


@SETTINGS
@given(st.integers(2, 6), st.integers(2, 6), st.sampled_from(["kh", "kl", "dh", "dl"]))
def test_kept_dice_of_unlike_faces_are_never_taken_for_alike_ones(
    count: int, sides: int, mode: str
) -> None:
    # a die exploding once on its highest face shows as many values as its denominator
    # (``1d2xo``: 1 of 2, 3 and 4 of 4 each), yet its faces are not alike likely
    rule = Keep(mode, 1)  # type: ignore[arg-type]
    node = Dice(count, sides, keep=rule, explode=Explode("once"))
    die = _d(sides).explode(depth=1)
    highest, kept = rule.kept(count)
    pool = die.pool(count)
    theirs = (pool.highest(kept) if highest else pool.lowest(kept)).sum()
    assert _ours(node) == _icepool(theirs)
    assert _ours(node) == _general(node)


_MEMBERS = ["1d20", "1d20+5", "4d6kh3", "2d6", "1d12", "3d6", "2W10r1", "1d8 - 1", "2d6>=5", "7"]


@SETTINGS
@given(
    st.lists(st.sampled_from(_MEMBERS), min_size=1, max_size=4),
    st.sampled_from(["", "kh", "kl1", "k2", "dl1", "dh", "d2"]),
    st.sampled_from(["", ">=12", "<3", "cs>=10", "=7"]),
    st.sampled_from(["", " "]),
)
def test_a_group_of_simple_members_is_read_as_the_grammar_reads_it(
    members: list[str], keep: str, compare: str, space: str
) -> None:
    # the group's fast path reads a member written again once; a keep alone in one step
    text = "{" + f",{space}".join(members) + "}" + space + keep + compare
    fast = notation._fast(text, Limits())
    try:
        grammar: Expression | str = notation._grammar_parse(text, Limits())
    except NotationError as error:
        grammar = error.code
    if fast is None:
        assert isinstance(grammar, str)  # only what the grammar refuses is left to it
        return
    assert fast[0] == grammar
    assert str(fast[0]) == str(grammar)
    if not isinstance(fast[0], Group) or fast[0].compare is None:
        assert _ours(fast[0]) == _general(fast[0])


@pytest.mark.parametrize(
    "text",
    ["4d6kh3", "2d20kl", "4d6k3", "4d6d", "4d6 dh 1", "4d6r1", "2d6ro<3", "2d10rr<=2", "1d20R"],
)
def test_a_lone_keep_or_reroll_is_read_as_the_grammar_reads_it(text: str) -> None:
    fast = notation._fast(text, Limits())
    assert fast is not None
    assert fast[0] == notation._grammar_parse(text, Limits())


@pytest.mark.parametrize("text", ["4d6kh5", "4d6dl4", "1d6d", "4d6kh0", "2d6rr<=6", "101d6kh1"])
def test_a_lone_keep_or_reroll_the_grammar_refuses_is_left_to_it(text: str) -> None:
    assert notation._fast(text, Limits()) is None
    with pytest.raises(NotationError):
        parse(text)


@SETTINGS
@given(
    st.sampled_from(["", "0", "1", "5", "007", "999", "1000", "1001"]),
    st.sampled_from("dDwW"),
    st.sampled_from(["0", "1", "2", "6", "06", "20", "100", "101", "666"]),
    st.sampled_from(["", ">=", ">", "<=", "<", "=", "kh", "kl", "dh", "dl"]),
    st.integers(0, 120),
    st.sampled_from(["", "+5", "-2", "+0", "-007", "+9999", "+"]),
    st.sampled_from(["", ">=15", "<3", "=0", ">007", "<=9999", ">=", ">=-1"]),
    st.sampled_from(["", " ", "  ", "\t"]),
)
def test_bare_dice_are_read_as_the_grammar_reads_them(
    count: str, letter: str, sides: str, op: str, target: int, bonus: str, total: str, space: str
) -> None:
    # the commonest text (``3d6``, ``5W6>=4``, ``2d20kh1+5``, ``1d20+5>=15``) in one match; a
    # pool too large or a die without faces is the grammar's to refuse, a target no face
    # meets is named for the check after reading
    # (as written, or spaced as the canonical form is: ``1d20 + 5 >= 15``)
    if bonus:
        bonus = f"{space}{bonus[0]}{space}{bonus[1:]}"
    if bonus and total:
        total = f"{space}{total[:2].rstrip('0123456789-')}{space}{total.lstrip('<>=')}"
    text = f"{count}{letter}{sides}{op}{target if op else ''}{bonus}{total if bonus else ''}"
    fast = notation._fast(text, Limits())
    try:
        grammar: Expression | str = notation._grammar_parse(text, Limits())
    except NotationError as error:
        grammar = error.code
    if fast is None:
        assert isinstance(grammar, str)
        return
    tree, counted = fast
    assert tree == grammar
    bonus, total = bonus.replace(space, "") if space else bonus, total.replace(space, "")
    if bonus and total and bonus != "+":
        assert isinstance(tree, Test)
        assert str(tree.compare) == total.replace("007", "7")
        tree = tree.operand
    if bonus:
        assert isinstance(tree, BinaryOp)
        assert tree.op == bonus[0]
        assert tree.right == Constant(int(bonus[1:]))
        tree = tree.left
    assert isinstance(tree, Dice)
    assert counted == ([] if tree.compare is None or tree.compare.hits(tree.sides) else [tree])
    if tree.count <= 5:
        assert _ours(tree) == _general(tree)
