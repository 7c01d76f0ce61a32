"""The HeXXen stat-line parser: the seed's lines, generalisations, errors, and hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.engine.statblock import StatLineError
from spieltisch.systems.hexxen.sheet import property_catalog, trait_of
from spieltisch.systems.hexxen.statblock import parse_block, parse_line


def test_the_seed_attack_line() -> None:
    assert parse_line("(N) Klauenhieb Angriff 10, Schaden 3") == {
        "kind": "attack",
        "name": "Klauenhieb",
        "range": ["N"],
        "attack": 10,
        "damage": 3,
    }


def test_the_seed_power_line() -> None:
    line = (
        "Terrorwelle (N|F: 8 gegen Geistesstärke, 1 Malusstufe pro Differenzerfolg [Furcht],"
        " 1 Hex pro Ziel (Gruppe))"
    )
    assert parse_line(line) == {
        "kind": "power",
        "name": "Terrorwelle",
        "range": ["N", "F"],
        "dice": 8,
        "against": "Geistesstärke",
        "per_difference": {"amount": 1, "effect": "Malusstufe", "tag": "Furcht"},
        "hex": 1,
        "hex_per_target": True,
        "note": "Gruppe",
    }


def test_the_grammar_generalises() -> None:
    power = parse_line(
        "• Würgender Griff (N: 5 gegen Körperbeherrschung,"
        " 2 äußerer Schaden pro Differenzerfolg, 2 Hex)"
    )
    assert power["name"] == "Würgender Griff"
    assert power["per_difference"] == {"amount": 2, "effect": "äußerer Schaden", "tag": None}
    assert (power["hex"], power["hex_per_target"], power["note"]) == (2, False, None)
    ranged = parse_line("(F) Säurespucke Angriff 6, Schaden 2, 1 Blutwürfel")
    assert ranged["range"] == ["F"] and ranged["blood"] == 1
    assert parse_line("(F|N) Biss Angriff 1, Schaden 0")["range"] == ["N", "F"]


def test_a_whole_wertekasten() -> None:
    block = "Hex 4\nLeP 30\nINI 6\n(N) Biss Angriff 8, Schaden 2\n\nWidernatürlich\n"
    kinds = [entry["kind"] for entry in parse_block(block)]
    assert kinds == ["stat", "stat", "stat", "attack", "flag"]


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("(N) Klauenhieb Angriff zehn, Schaden 3", "toolkit.statblock.unexpected", 23),
        ("(N) Klauenhieb Angriff 10", "toolkit.statblock.end", 25),
        ("(X) Biss Angriff 1, Schaden 1", "toolkit.statblock.unexpected", 1),
        ("Hex 400", "hexxen.statblock.too_big", 4),
        ("LeP 3\n(N) Biss Angriff 1 Schaden 1", "toolkit.statblock.unexpected", 25),
        ("   ", "toolkit.statblock.empty", 0),
    ],
)
def test_bad_lines_are_positioned(text: str, code: str, position: int) -> None:
    with pytest.raises(StatLineError) as error:
        parse_block(text)
    assert error.value.code == code
    assert error.value.position == position


_ALPHABET = st.sampled_from(list("(N|F): ,[]\nAngriffSchadenHexprogegenZiel0123456789äöüß•-"))


@settings(max_examples=300, deadline=None)
@given(st.text(_ALPHABET, max_size=80) | st.text(max_size=60))
def test_every_text_parses_or_raises_the_parser_error(text: str) -> None:
    try:
        result = parse_block(text)
    except StatLineError:
        return
    assert isinstance(result, list) and result


def test_blut_and_elixier_dice_with_what_they_give() -> None:
    line = "(N|F) Giftbiss Angriff 5, Schaden 1, 1 Blutwürfel innere Schadensstufen [Gift]"
    assert parse_line(line)["dice"] == [
        {"die": "blood", "count": 1, "effect": "innere Schadensstufen", "tag": "Gift"}
    ]
    power = parse_line("Fluch (N|F: 4 gegen Willenskraft, 2 Blutwürfel Lähmungsstufen, 1 Hex)")
    assert power["per_difference"] == {
        "amount": 2,
        "effect": "Lähmungsstufen",
        "tag": None,
        "die": "blood",
    }
    assert parse_line("Eigenschaften: Furchtlos, Regeneration 3 (Elixier)")["items"] == [
        "Furchtlos",
        "Regeneration 3 (Elixier)",
    ]


_EFFECT_WORDS = st.sampled_from(
    ["Schaden", "Malusstufen", "Lähmungsstufe", "innerer Schaden", "äußere Schadensstufen"]
)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 99),
    st.integers(0, 99),
    st.integers(1, 99),
    st.sampled_from(["Blutwürfel", "Elixierwürfel"]),
    _EFFECT_WORDS,
    st.none() | st.sampled_from(["Gift", "Fluch", "Atemnot"]),
)
def test_every_dice_line_reads_back(
    attack: int, damage: int, count: int, die: str, effect: str, tag: str | None
) -> None:
    text = f"(N) Biss Angriff {attack}, Schaden {damage}, {count} {die} {effect}"
    text += f" [{tag}]" if tag else ""
    parsed = parse_line(text)
    kind = "blood" if die == "Blutwürfel" else "elixir"
    assert (parsed["attack"], parsed["damage"]) == (attack, damage)
    assert parsed["dice"] == [{"die": kind, "count": count, "effect": effect, "tag": tag}]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(property_catalog())), st.integers(1, 99), st.booleans())
def test_a_catalogued_property_reads_its_number_in_any_case(
    name: str, count: int, lower: bool
) -> None:
    text = f"{name.lower() if lower else name} {count}"
    (item,) = parse_line(f"Eigenschaften: {text}")["items"]
    trait = trait_of(item)
    assert (trait.name, trait.count, trait.does) == (name, count, property_catalog()[name]["does"])
