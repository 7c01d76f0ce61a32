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
from spieltisch.dice.notation import Dice, Expression, Kind, Limits, parse
from spieltisch.dice.odds import distribution

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_space = st.sampled_from(["", "", " "])
_CMP = st.sampled_from([">=", ">", "<=", "<", "="])

# The refusals of meaning: a string that follows the grammar is read, or refused with one of
# these (never with a syntax error).
MEANING = {
    "dice.unreachable_target",
    "dice.explodes_always",
    "dice.reroll_every_face",
    "dice.bad_bound",
    "dice.bad_keep",
    "dice.duplicate_modifier",
    "dice.bad_divisor",
    "dice.round_inside",
}


@st.composite
def condition(draw: st.DrawFn, required: bool = False) -> str:
    """What follows r, !, cs, t, f …: a comparison, a bare number, or (if allowed) nothing."""
    choice = draw(st.integers(0 if not required else 1, 2))
    if choice == 0:
        return ""
    target = str(draw(st.integers(1, 12)))
    return target if choice == 1 else draw(_CMP) + target


@st.composite
def modifiers(draw: st.DrawFn, dice: int) -> list[str]:
    """Every kind of modifier a dice term takes, each at most once, in any order."""
    found: list[str] = []
    if draw(st.booleans()):
        found.append(draw(st.sampled_from(["r", "ro", "rr", "R"])) + draw(condition()))
    if draw(st.booleans()):
        mark = draw(st.sampled_from(["!", "x", "!!", "!p", "xo", "ra", "ie", "X"]))
        found.append(mark + draw(condition()))
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "k", "dh", "dl", "d", "KH"]))
        keeps = mode.lower() in ("kh", "kl", "k")
        top = dice if keeps else dice - 1
        if top >= 1:
            found.append(mode + draw(st.sampled_from(["", str(draw(st.integers(1, top)))])))
    if draw(st.booleans()):
        found.append(draw(st.sampled_from(["min", "mi"])) + str(draw(st.integers(1, 3))))
    if draw(st.booleans()):
        found.append(draw(st.sampled_from(["max", "ma"])) + str(draw(st.integers(3, 6))))
    if draw(st.booleans()):
        found.append(
            draw(
                st.one_of(
                    st.tuples(_CMP, st.integers(0, 13).map(str)).map("".join),
                    condition(required=True).map(lambda c: "cs" + c),
                    st.integers(1, 8).map(lambda n: f"t{n}"),
                )
            )
        )
    if draw(st.booleans()):
        found.append(
            draw(
                st.one_of(
                    condition(required=True).map(lambda c: "cf" + c),
                    st.integers(1, 3).map(lambda n: f"f{n}"),
                )
            )
        )
    return draw(st.permutations(found))


@st.composite
def numeric_dice(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 5))
    sides = draw(st.sampled_from(["2", "4", "6", "8", "10", "12", "%", "06"]))
    written = draw(st.sampled_from(["", str(count)]))
    text = written + draw(st.sampled_from("dDwW")) + sides
    dice = count if written else 1
    if sides not in ("%", "12") and draw(st.booleans()):
        joiner = draw(st.sampled_from(["", "", " "]))
        text += joiner + joiner.join(draw(modifiers(dice)))
    return text


def _numeric_atom() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(0, 30).map(str),
        numeric_dice(),
        numeric_dice(),
        st.tuples(st.sampled_from(["", "1", "2", "3"]), st.sampled_from("Ee")).map("".join),
        st.tuples(st.sampled_from(["", "1", "4"]), st.sampled_from(["dF", "df", "WF"])).map(
            "".join
        ),
    )


def _labelled(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    # a label follows one term: a labelled term is bracketed before it takes another
    return st.tuples(
        children.map(lambda c: f"({c})" if c.endswith("]") else c),
        st.sampled_from(["[fire]", "[Feuer und Eis]", "[]", " [x]"]),
    ).map("".join)


@st.composite
def _group(draw: st.DrawFn, children: st.SearchStrategy[str]) -> str:
    members = draw(st.lists(children, min_size=1, max_size=3))
    text = "{" + ", ".join(members) + "}"
    if draw(st.booleans()):
        mode = draw(st.sampled_from(["kh", "kl", "k", "dh", "dl", "d"]))
        top = len(members) if mode in ("kh", "kl", "k") else len(members) - 1
        if top >= 1:
            text += mode + str(draw(st.integers(1, top)))
    if draw(st.booleans()):
        text += draw(_CMP) + str(draw(st.integers(0, 20)))
    return text


def _numeric(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(children, _space, st.sampled_from("+-*"), _space, children).map("".join),
        st.tuples(children, _space, st.just("/"), _space, st.integers(1, 4).map(str)).map("".join),
        children.map(lambda c: f"({c})"),
        children.map(lambda c: f"-{c}" if not c.startswith("-") else f"-({c})"),
        st.tuples(st.sampled_from(["floor", "ceil", "round", "abs", "ROUND"]), children).map(
            lambda f: f"{f[0]}({f[1]})"
        ),
        st.tuples(st.sampled_from(["ceil", "round"]), children, st.integers(1, 3)).map(
            lambda f: f"{f[0]}({f[1]} / {f[2]})"
        ),
        _labelled(children),
        _group(children),
        st.tuples(children, _space, _CMP, _space, st.integers(0, 20).map(str)).map(
            lambda t: f"({''.join(t)})"
        ),
        # a negative target follows a total (a dice term's own targets are not negative)
        st.tuples(children, _CMP, st.integers(-3, -1)).map(lambda t: f"(({t[0]}){t[1]}{t[2]})"),
    )


NUMERIC_BODY = st.recursive(_numeric_atom(), _numeric, max_leaves=4)


@st.composite
def numeric_expression(draw: st.DrawFn) -> str:
    """A numeric expression: a total compared with a target, or not; a comment, or not."""
    text = draw(NUMERIC_BODY)
    if draw(st.booleans()):
        text = f"({text}){draw(_CMP)}{draw(st.integers(-2, 30))}"
    elif draw(st.booleans()):
        text = f"{text}{draw(_CMP)}{draw(st.integers(0, 30))}"
    ending = draw(st.sampled_from(["", "", " # Wahrnehmung", "# x", " [Angriff]"]))
    if ending == " [Angriff]" and "[" in text:
        ending = ""
    return text + ending


NUMERIC = numeric_expression()

SYMBOL_ATOM = st.tuples(
    st.sampled_from(["", "0", "1", "2", "3", "4"]), st.sampled_from("HMJBShmjbs")
).map("".join)


def _symbols(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(children, _space, st.sampled_from("+-"), _space, children).map("".join),
        children.map(lambda c: f"({c})"),
        _labelled(children),
    )


SYMBOLS = st.recursive(SYMBOL_ATOM, _symbols, max_leaves=4)

ALPHABET = "0123456789dDwWHMJBESF%!khlrotcfimnaxp<>=+-*/(){},[]# \t"


def _read(text: str) -> Expression | None:
    """The tree of a string that follows the grammar, or ``None`` when it is refused for its
    meaning (never for its syntax)."""
    try:
        return parse(text)
    except NotationError as error:
        assert error.code in MEANING, (text, error.code, error.params)
        assert 0 <= error.position <= len(text)
        return None


@SETTINGS
@given(text=NUMERIC, seed=st.integers(0, 2**32))
def test_numeric_grammar_strings_evaluate(text: str, seed: int) -> None:
    node = _read(text)
    if node is None:
        return
    assert node.kind is Kind.NUMBER
    assert parse(str(node)) == node
    try:
        result = roll(node, SeededSource(seed))
    except LimitError as error:  # dice exploding and rerolled past the limit of one roll
        assert error.code == "dice.too_many_explosions"
        return
    assert isinstance(result.value, int)
    assert all(not (die.rerolled and die.kept) for die in result.dice)
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
    """What the grammar alone makes of ``text`` (without its comment): the tree, or the
    error code."""
    body = notation._split_comment(text)[0]
    try:
        return notation._grammar_parse(body, Limits())
    except NotationError as error:
        return error.code


def _fast_reading(text: str) -> Expression | None:
    found = notation._fast(notation._split_comment(text)[0], Limits())
    if found is None:
        return None
    tree, counted = found
    # the fast path names the dice terms that count successes, in order; it may leave out
    # plain dice whose target a face meets (nothing to check there)
    counting = [n for n in tree.walk() if isinstance(n, Dice) and n.compare is not None]
    named = [id(n) for n in counted]
    assert named == [id(n) for n in counting if id(n) in named]
    for n in counting:
        assert n.compare is not None
        assert id(n) in named or (n.plain and n.compare.hits(n.sides) > 0)
    return tree


def _fast_agrees(text: str) -> None:
    fast = _fast_reading(text)
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
    assert _fast_reading(text) is not None or isinstance(_grammar_reading(text), str)


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
        "8d6kh3",
        "2d20kl1",
        "4d6dl1",
        "3d20dh1",
        "4W6dh3",
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
        "1d20+5>=15",
        "1W10!+7>=10",
        "(3d6+2)>=12",
        "4d6r1",
        "2d6ro<3",
        "4d6rr1",
        "1d6!>=5",
        "1d6!!",
        "1d6!p",
        "1d6xo",
        "2d20kh",
        "4d6k3",
        "4d6d1",
        "2d6min2",
        "1d20mi10",
        "8d6/2",
        "ceil(8d6/2)",
        "abs(1d6-4)",
        "10d10cs>=7cf<=1",
        "5d10 t8 f1",
        "10d10t8ie10",
        "4dF",
        "{1d20, 1d20}kh1",
        "{4d6kh3, 4d6kh3}",
        "2d6[fire] + 1d8[cold] + 3",
        "6h+2j",
    ],
)
def test_fast_path_takes_the_common_forms(text: str) -> None:
    fast = _fast_reading(text)
    assert fast is not None
    assert fast == _grammar_reading(text)


@pytest.mark.parametrize(
    "text",
    [
        "3d 6",
        "3x6",
        "4W6kh5",
        "4d6dl4",
        "4d6dh0",
        "4d6kl0",
        "101d6dl1",
        "3d6+2H",
        "0d6",
        "1d101",
        "1d6\n",
        "2H*2",
        "-2H",
        "3d6>= 4y",
        "> =",
        "1d6>=",
        "()",
        "1001d6",
        "600d6+600d6",
        "1234567890",
        "d6!!!",
        "101d6kh1",
        "4d6kh3kl1",
        "1d6!>=1",
        "8d6/0",
        "round(1d20/3+2)",
        "{1d6, 2H}",
        "4dFkh2",
        "{}",
        "1d6[a][b]",
    ],
)
def test_fast_path_leaves_everything_else_to_the_grammar(text: str) -> None:
    assert notation._fast(text, Limits()) is None


@pytest.mark.parametrize("text", ["٣d6", "3d٦", "²", "1d6²", "３d6"])
def test_other_digits_are_the_grammars_to_refuse(text: str) -> None:
    assert notation._fast(text, Limits()) is None
    assert isinstance(_grammar_reading(text), str)
