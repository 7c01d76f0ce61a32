"""Stat-line parsing: a demo grammar ``Name: key value, key value`` built with the helper."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token, Transformer

from spieltisch.engine.statblock import Limits, StatLineError, fail, make_parser
from spieltisch.i18n import LANGUAGES, catalog, error_message

GRAMMAR = r"""
start: name ":" pair ("," pair)*
name: WORD+
pair: KEY VALUE
WORD: /[A-Za-zÄÖÜäöüß]+/
KEY: /[a-z]+/
VALUE: /[0-9]+/
%ignore /[ \t\n]+/
"""


class Demo(Transformer[Token, dict[str, Any]]):
    """Name and stats; a key given twice or a value over 999 is refused at its token."""

    def start(self, children: list[Any]) -> dict[str, Any]:
        name, *pairs = children
        stats: dict[str, int] = {}
        for key, value in pairs:
            if str(key) in stats:
                raise fail("demo.duplicate_key", key, key=str(key))
            stats[str(key)] = value
        return {"name": name, "stats": stats}

    def name(self, words: list[Token]) -> str:
        return " ".join(str(word) for word in words)

    def pair(self, children: list[Token]) -> tuple[Token, int]:
        key, value = children
        if len(value) > 3:
            raise fail("demo.too_big", value, limit=999)
        return key, int(value)


PARSER = make_parser(GRAMMAR, Demo, names={"VALUE": "number"}, limits=Limits(max_length=200))


def test_a_line_becomes_data() -> None:
    assert PARSER.parse("Wilder Ork: angriff 10, schaden 3") == {
        "name": "Wilder Ork",
        "stats": {"angriff": 10, "schaden": 3},
    }
    assert PARSER.parse("Ork:\n  angriff 1,\n  schaden 2")["stats"] == {"angriff": 1, "schaden": 2}


def test_a_missing_colon_is_named_with_position_and_expectations() -> None:
    with pytest.raises(StatLineError) as error:
        PARSER.parse("Ork angriff 10")
    params = error.value.params
    assert error.value.code == "toolkit.statblock.unexpected"
    assert (params["position"], params["column"], params["found"]) == (12, 13, "10")
    assert error.value.expected_tokens == ("':'", "WORD")
    assert params["expected"] == "':' | WORD"


def test_the_end_of_the_text_comes_too_soon() -> None:
    with pytest.raises(StatLineError) as error:
        PARSER.parse("Ork: angriff")
    assert error.value.code == "toolkit.statblock.end"
    assert error.value.params["position"] == 12 and error.value.params["found"] == ""
    assert error.value.expected_tokens == ("number",)


def test_an_unknown_character_on_a_later_line() -> None:
    with pytest.raises(StatLineError) as error:
        PARSER.parse("Ork:\n angriff 10;\n")
    params = error.value.params
    assert error.value.code == "toolkit.statblock.unexpected"
    assert (params["position"], params["line"], params["column"], params["found"]) == (
        16,
        2,
        12,
        ";",
    )


def test_the_transformer_refuses_values_at_their_place() -> None:
    with pytest.raises(StatLineError) as twice:
        PARSER.parse("Ork: angriff 1, angriff 2")
    assert twice.value.code == "demo.duplicate_key"
    assert (twice.value.position, twice.value.params["found"]) == (16, "angriff")
    assert twice.value.params["key"] == "angriff"
    with pytest.raises(StatLineError) as big:
        PARSER.parse("Ork: angriff 1000")
    assert (big.value.code, big.value.params["limit"], big.value.position) == (
        "demo.too_big",
        999,
        13,
    )


def test_limits_and_blank_text_are_refused_before_parsing() -> None:
    for blank in ("", "   \n "):
        with pytest.raises(StatLineError) as empty:
            PARSER.parse(blank)
        assert empty.value.code == "toolkit.statblock.empty"
    with pytest.raises(StatLineError) as long:
        PARSER.parse("Ork: " + ", ".join(f"k {i}" for i in range(100)))
    assert long.value.code == "toolkit.statblock.too_long"
    assert long.value.params["limit"] == 200
    with pytest.raises(StatLineError) as lines:
        make_parser(GRAMMAR, Demo, limits=Limits(max_lines=2)).parse("Ork:\na 1,\nb 2")
    assert lines.value.code == "toolkit.statblock.too_long"


def test_a_bug_in_a_transformer_is_not_hidden() -> None:
    class Broken(Demo):
        def name(self, words: list[Token]) -> str:
            raise KeyError("bug")

    with pytest.raises(Exception) as error:
        make_parser(GRAMMAR, Broken).parse("Ork: a 1")
    assert not isinstance(error.value, StatLineError)


# -- properties ------------------------------------------------------------------------------

_alphabet = st.sampled_from(list("Orkangifsch0123456789:, \n;ÄßX-"))


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.text(max_size=60), st.text(_alphabet, max_size=60)))
def test_every_text_parses_or_raises_the_helpers_error(text: str) -> None:
    try:
        result = PARSER.parse(text)
    except StatLineError as error:
        assert 0 <= error.position <= len(text)
        assert error.params["column"] >= 1 and error.params["line"] >= 1
    else:
        assert set(result) == {"name", "stats"}


_word = st.text(st.sampled_from("abcdefghXYZäö"), min_size=1, max_size=8)
_key = st.text(st.sampled_from("abcdefgh"), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_word, min_size=1, max_size=3),
    st.dictionaries(_key, st.integers(0, 999), min_size=1, max_size=5),
)
def test_lines_written_by_the_grammar_give_back_their_values(
    words: list[str], stats: dict[str, int]
) -> None:
    text = " ".join(words) + ": " + ", ".join(f"{key} {value}" for key, value in stats.items())
    assert PARSER.parse(text) == {"name": " ".join(words), "stats": stats}


def test_every_toolkit_error_code_has_texts_in_both_languages() -> None:
    engine = Path(__file__).parents[2] / "src" / "spieltisch" / "engine"
    modules = ("encounter", "economy", "effects", "creatures", "grid", "statblock")
    codes = {
        code
        for module in modules
        for code in re.findall(r'"(toolkit\.[a-z_.]+)"', (engine / f"{module}.py").read_text())
    }
    assert len(codes) > 25
    for lang in LANGUAGES:
        assert codes <= set(catalog(lang)), codes - set(catalog(lang))
    with pytest.raises(StatLineError) as error:
        PARSER.parse("Ork angriff 10")
    assert error_message(error.value, "de") == (
        "Unerwartet: '10' in Zeile 1, Spalte 13; erwartet: ':' | WORD."
    )


HEXXEN_GRAMMAR = r"""
start: "(" KIND ")" name "Angriff" NUMBER "," "Schaden" NUMBER
name: WORD+
KIND: "N" | "F"
WORD: /[A-ZÄÖÜ][a-zäöüß]+/
NUMBER: /[0-9]{1,2}/
%ignore " "
"""


class HexxenAttack(Transformer[Token, dict[str, Any]]):
    """The attack line of a HeXXen NSC, as the combat-toolkit docs show it."""

    def start(self, children: list[Any]) -> dict[str, Any]:
        kind, name, attack, damage = children
        return {"kind": str(kind), "name": name, "attack": int(attack), "damage": int(damage)}

    def name(self, words: list[Token]) -> str:
        return " ".join(words)


def test_the_hexxen_attack_line_of_the_docs() -> None:
    parser = make_parser(HEXXEN_GRAMMAR, HexxenAttack, names={"NUMBER": "0-99"})
    assert parser.parse("(N) Klauenhieb Angriff 10, Schaden 3") == {
        "kind": "N",
        "name": "Klauenhieb",
        "attack": 10,
        "damage": 3,
    }
    with pytest.raises(StatLineError) as word:
        parser.parse("(N) Klauenhieb Angriff zehn, Schaden 3")
    assert (word.value.position, word.value.params["expected"]) == (23, "0-99")
    with pytest.raises(StatLineError) as short:
        parser.parse("(N) Klauenhieb Angriff 10")
    assert short.value.code == "toolkit.statblock.end"
    assert short.value.expected_tokens == ("','",)
    for tail in ("x", "Foo", "7"):
        with pytest.raises(StatLineError) as trailing:
            parser.parse("(N) Klauenhieb Angriff 10, Schaden 3 " + tail)
        assert trailing.value.code == "toolkit.statblock.trailing"
        assert (trailing.value.position, trailing.value.params["found"]) == (37, tail)
        assert trailing.value.expected_tokens == ()
