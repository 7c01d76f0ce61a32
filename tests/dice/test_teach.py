"""Refusals that teach: forms of other dice tools answered with the spelling that works here."""

from __future__ import annotations

import pytest

from spieltisch.dice.errors import NotationError
from spieltisch.dice.notation import parse
from spieltisch.i18n import LANGUAGES, catalog, error_message

TAUGHT = [
    ("/r 1d20+5", "dice.teach.command", "1d20+5"),
    ("!roll 4d6kh3", "dice.teach.command", "4d6kh3"),
    ("[[1d20+5]]", "dice.teach.inline", "1d20+5"),
    ("output 3d6", "dice.teach.anydice", "3d6"),
    ("[highest 3 of 4d6]", "dice.teach.anydice", "4d6kh3"),
    ("[lowest 1 of 2d20]", "dice.teach.anydice", "2d20kl1"),
    ("1d6×2", "dice.teach.symbol", "1d6*2"),
    ("3d6 – 1", "dice.teach.symbol", "3d6 - 1"),
    ("1d20+5≥15", "dice.teach.symbol", "1d20+5>=15"),
    ("1d20+5 adv", "dice.teach.advantage", "2d20kh1+5"),
    ("2d20 adv", "dice.teach.advantage", "2d20kh1"),
    ("1W20+3 Nachteil", "dice.teach.advantage", "2W20kl1+3"),
    ("1d20+5 vs 15", "dice.teach.versus", "1d20+5>=15"),
    ("1W20+5 gegen 15", "dice.teach.versus", "1W20+5>=15"),
    ("3 W 6", "dice.teach.spaced_die", "3W6"),
    ("3d 6", "dice.teach.spaced_die", "3d6"),
    ("3d6e6", "dice.teach.explode_e", "3d6xo>=6"),
    ("3d6 e", "dice.teach.explode_e", "3d6xo"),
    ("4d6 ir2", "dice.teach.reroll_ir", "4d6rr<=2"),
    ("4d6p1", "dice.teach.drop_p", "4d6dl1"),
    ("4d6ph1", "dice.teach.drop_p", "4d6dh1"),
    ("4d6s", "dice.teach.sort", "4d6"),
    ("4d6sd+2", "dice.teach.sort", "4d6+2"),
    ("1d6*1.5", "dice.teach.decimal", "1d6*3/2"),
    ("1d20+5 Angriff", "dice.teach.comment", "1d20+5 # Angriff"),
    ("3d6>=10", "dice.unreachable_target", "(3d6)>=10"),
    ("3W6>=10", "dice.unreachable_target", "(3W6)>=10"),
]


@pytest.mark.parametrize(("text", "code", "suggestion"), TAUGHT, ids=[t for t, _, _ in TAUGHT])
def test_forms_of_other_tools_are_refused_with_the_spelling_that_works(
    text: str, code: str, suggestion: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    error = caught.value
    assert error.code == code
    assert error.params["suggestion"] == suggestion
    assert 0 <= error.position <= len(text)
    assert error.params["column"] == error.position + 1
    parse(suggestion)  # what is suggested is read
    for lang in LANGUAGES:
        message = error_message(error, lang)
        assert repr(suggestion) in message
        assert code in catalog(lang)


def test_character_values_say_that_a_number_goes_there() -> None:
    for text in ("1d20+@{str_mod}", "1d20 + @abilities.str.mod", "1d20+?{Bonus|0}"):
        with pytest.raises(NotationError) as caught:
            parse(text)
        assert caught.value.code == "dice.teach.attribute"
        assert caught.value.found.startswith(("@", "?"))
        assert "suggestion" not in caught.value.params


def test_plain_errors_stay_the_grammars() -> None:
    with pytest.raises(NotationError) as caught:
        parse("3x6")
    assert caught.value.code == "dice.notation.unexpected"
    assert caught.value.position == 1


def test_every_teaching_code_has_texts_in_both_languages() -> None:
    codes = {code for _, code, _ in TAUGHT} | {"dice.teach.attribute"}
    for lang in LANGUAGES:
        assert codes <= set(catalog(lang))
