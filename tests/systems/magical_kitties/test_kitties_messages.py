"""Errors name kitties, seats and fields by their display names, in both languages."""

from __future__ import annotations

from typing import Any

import pytest
from kitties_helpers import MIA, Game

from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import parse_command
from spieltisch.engine.text import Label
from spieltisch.i18n import error_message
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.registry import get_system


def test_an_incapacitated_kitty_is_named_by_its_name(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia", "count": 5})  # 2 Auas, 3 injuries ≥ cute 3
    error = game.fails({"kind": "check", "kitty": "mia", "attribute": "cute"})
    assert error.code == "kitties.incapacitated" and error.params["kitty"] == "Mia"
    german = error_message(error, "de")
    assert german.startswith("Mia ist kampfunfähig (3 Verletzungen")
    assert "'mia'" not in german
    assert error_message(error, "en").startswith("Mia is incapacitated")


def test_an_empty_feature_is_described_in_words() -> None:
    with pytest.raises(RuleError) as caught:
        rules.check_name("  ", "feature")
    error = caught.value
    assert error.code == "kitties.bad_name"
    assert error.params["what"] == Label("kitties.what.feature")
    assert error_message(error, "de") == (
        "Eigenschaft der Magischen Kraft: bitte ausfüllen – nicht leer und höchstens 80 "
        "Zeichen (eingegeben: '  ')."
    )
    assert error_message(error, "en").startswith("Feature of the magical power: please fill in")


def test_a_duplicate_id_and_an_empty_detail_name_the_kind_of_thing(game: Game) -> None:
    error = game.fails(MIA)
    assert error_message(error, "de") == "Kätzchen: die Kennung 'mia' gibt es schon."
    error = game.fails({"kind": "spend_treat", "kitty": "mia", "purpose": "story", "detail": ""})
    assert error_message(error, "de").startswith("Beschreibung: bitte ausfüllen")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("de", "Eigenschaften: zu lang – höchstens 80 Zeichen, nicht 81."),
        ("en", "Features: too long – at most 80 characters, not 81."),
    ],
)
def test_a_text_rule_names_the_field_in_words(lang: str, expected: str) -> None:
    system = get_system("magical-kitties")
    command: dict[str, Any] = {**MIA, "powers": [{"name": "Teleport", "features": ["x" * 81]}]}
    with pytest.raises(RuleError) as caught:
        parse_command(system, command)
    detail = caught.value.params["detail"]
    assert detail.params["field"] == Label("text.field.features")
    assert error_message(detail, lang) == expected
