"""Property tests: strings that follow the grammar evaluate; any other string is refused
with a ``NotationError`` and nothing else."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.dice import notation
from spieltisch.dice.dice import roll
from spieltisch.dice.errors import LimitError, NotationError
from spieltisch.dice.fair import SeededSource
from spieltisch.dice.notation import Expression, Kind, Limits, parse
from spieltisch.dice.odds import distribution

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_space = st.sampled_from(["", "", " "])


@st.composite
def numeric_dice(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 5))
    sides = draw(st.sampled_from(["2", "4", "6", "8", "10", "12", "%", "06"]))
    text = draw(st.sampled_from(["", str(count)])) + draw(st.sampled_from("dDwW")) + sides
    if sides != "%" and draw(st.booleans()) and draw(st.booleans()):
        text += "!"
    dice = count if text[0].isdigit() else 1
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "dh", "dl"]))
        if mode in ("kh", "kl"):
            text += f"{mode}{draw(st.integers(1, dice))}"
        elif dice > 1:
            text += f"{mode}{draw(st.integers(1, dice - 1))}"
    if draw(st.booleans()):
        text += draw(st.sampled_from([">=", ">", "<=", "<", "="])) + str(draw(st.integers(0, 13)))
    return text


def _numeric_atom() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(0, 30).map(str),
        numeric_dice(),
        st.tuples(st.sampled_from(["", "1", "2", "3"]), st.just("E")).map("".join),
    )


def _numeric(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(children, _space, st.sampled_from("+-*"), _space, children).map("".join),
        children.map(lambda c: f"({c})"),
        children.map(lambda c: f"-{c}" if not c.startswith("-") else f"-({c})"),
    )


NUMERIC = st.recursive(_numeric_atom(), _numeric, max_leaves=4)

SYMBOL_ATOM = st.tuples(
    st.sampled_from(["", "0", "1", "2", "3", "4"]), st.sampled_from("HMJBS")
).map("".join)


def _symbols(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(children, _space, st.sampled_from("+-"), _space, children).map("".join),
        children.map(lambda c: f"({c})"),
    )


SYMBOLS = st.recursive(SYMBOL_ATOM, _symbols, max_leaves=4)

ALPHABET = "0123456789dDwWHMJBES%!khl<>=+-*() x\t"


@SETTINGS
@given(text=NUMERIC, seed=st.integers(0, 2**32))
def test_numeric_grammar_strings_evaluate(text: str, seed: int) -> None:
    node = parse(text)
    assert node.kind is Kind.NUMBER
    assert parse(str(node)) == node
    result = roll(node, SeededSource(seed))
    assert isinstance(result.value, int)
    try:
        dist = distribution(node)
    except LimitError as error:  # products of several pools can span too many values
        assert error.code in ("dice.too_complex", "dice.odds_too_costly")
        return
    assert dist.probability(result.value) > 0


@SETTINGS
@given(text=SYMBOLS, seed=st.integers(0, 2**32))
def test_symbol_grammar_strings_evaluate(text: str, seed: int) -> None:
    node = parse(text)
    assert node.kind in (Kind.SYMBOLS, Kind.JANUS)
    assert parse(str(node)) == node
    result = roll(node, SeededSource(seed))
    assert isinstance(result.value, dict)
    assert tuple(result.value) == node.keys
    dist = distribution(node)
    assert dist.keys == node.keys
    assert dist.probability(result.value) > 0


def _evaluates_or_refuses(text: str) -> None:
    try:
        node = parse(text)
    except NotationError as error:
        assert 0 <= error.position <= len(text)
        assert error.params["value"] == text
        return
    try:
        roll(node, SeededSource(text))
    except LimitError as error:
        assert error.code == "dice.too_many_explosions"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_evaluates_or_raises_notation_error(text: str) -> None:
    _evaluates_or_refuses(text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=24))
def test_notation_like_text_evaluates_or_raises_notation_error(text: str) -> None:
    _evaluates_or_refuses(text)


def _grammar_reading(text: str) -> Expression | str:
    """What the grammar alone makes of ``text``: the tree, or the error code."""
    try:
        return notation._grammar_parse(text, Limits())
    except NotationError as error:
        return error.code


def _fast_agrees(text: str) -> None:
    fast = notation._fast(text, Limits())
    grammar = _grammar_reading(text)
    if fast is not None:
        # Whatever the fast path reads, the grammar reads the same (the same tree).
        assert fast == grammar, (text, fast, grammar)
        assert str(fast) == str(grammar)


@SETTINGS
@given(text=st.one_of(NUMERIC, SYMBOLS))
def test_fast_path_reads_grammar_strings_as_the_grammar_does(text: str) -> None:
    _fast_agrees(text)
    # Every string the generators make is valid, and the fast path takes all plain ones.
    assert notation._fast(text, Limits()) is not None or isinstance(_grammar_reading(text), str)


@SETTINGS
@given(text=st.text(alphabet=ALPHABET, max_size=25))
def test_fast_path_never_reads_text_differently(text: str) -> None:
    _fast_agrees(text)


@pytest.mark.parametrize(
    "text",
    [
        "3d6",
        "4W6kh3",
        "10M-3J",
        "8M - 5H",
        "2d20kh1+5",
        "1d10!+3",
        "(1d6+2)*3",
        "--3",
        "3--3",
        "2*-3",
        "d%",
        "W%",
        "0J+2M",
        "12W6>=4",
        "3d10!kh2>=8",
        "007d6",
        "4 d6 kh 3",
        "5d6 >= 4",
    ],
)
def test_fast_path_takes_the_common_forms(text: str) -> None:
    fast = notation._fast(text, Limits())
    assert fast is not None
    assert fast == _grammar_reading(text)


@pytest.mark.parametrize(
    "text",
    [
        "3d 6",
        "3x6",
        "4W6kh5",
        "3d6+2H",
        "0d6",
        "1d101",
        "1d6\n",
        "2H*2",
        "-2H",
        "3d6>= 4x",
        "> =",
        "1d6>=",
        "()",
        "1001d6",
        "600d6+600d6",
        "1234567890",
        "d6!!",
        "101d6kh1",
    ],
)
def test_fast_path_leaves_everything_else_to_the_grammar(text: str) -> None:
    assert notation._fast(text, Limits()) is None


@pytest.mark.parametrize("text", ["٣d6", "3d٦", "²", "1d6²", "３d6"])
def test_other_digits_are_the_grammars_to_refuse(text: str) -> None:
    assert notation._fast(text, Limits()) is None
    assert isinstance(_grammar_reading(text), str)
