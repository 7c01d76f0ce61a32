"""Both catalogs are complete: the same keys, non-empty texts, the same placeholders."""

from __future__ import annotations

import re
import string

import pytest

from spieltisch.i18n import (
    LANGUAGES,
    catalog,
    normalize_language,
    plurals,
    translate,
    translate_plural,
)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalogs_have_the_same_keys() -> None:
    de, en = catalog("de"), catalog("en")
    assert set(de) == set(en), {"only de": set(de) - set(en), "only en": set(en) - set(de)}
    assert len(de) > 0


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_text_is_filled_and_formats(lang: str) -> None:
    for key, text in catalog(lang).items():
        assert text.strip(), f"{lang}: {key} is empty"
        assert _fields(text) == _fields(catalog("en")[key]), key


def test_translate_fills_values_and_falls_back() -> None:
    assert "'x'" in translate("rule.unknown_system", "de", system="x", known="a")
    assert translate("no.such.key", "en") == "no.such.key"
    assert normalize_language("de_DE.UTF-8") == "de"
    assert normalize_language("fr") == "en"


# Nouns whose form follows a number: after a number placeholder they need plural forms.
COUNTED = {
    "de": (
        "Erfolg",
        "Erfolge",
        "Handlung",
        "Handlungen",
        "Angriff",
        "Angriffe",
        "Runde",
        "Runden",
        "Feld",
        "Felder",
    ),
    "en": ("success", "successes", "round", "rounds", "square", "squares", "action", "actions"),
}
# "{width} × {height} Felder" counts an area, not the number before the noun.
_COUNTED_AFTER = re.compile(r"(?<![×x])(?<![×x]\s)(?<!mal\s)(?<!by\s)\{(\w+)\}\s+(\w+)\b")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_number_before_a_counted_noun_is_a_plural_entry_of_count(lang: str) -> None:
    forms = plurals(lang)
    wrong = []
    for key, text in catalog(lang).items():
        counted = [name for name, noun in _COUNTED_AFTER.findall(text) if noun in COUNTED[lang]]
        if counted and (key not in forms or counted != ["count"]):
            wrong.append(f"{key}: {text}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_entry_with_a_count_has_its_plural_forms(lang: str) -> None:
    forms = plurals(lang)
    for key, text in catalog(lang).items():
        if "{count}" in text and key in plurals("en"):
            assert key in forms and len(forms[key]) == 2, key
            assert all("{count}" in form for form in forms[key]), key
            assert translate(key, lang, count=1) != translate(key, lang, count=2), key
    assert set(plurals("de")) == set(plurals("en"))
    assert translate_plural(
        "web.kitties.ev.check_rolled",
        1,
        "de",
        tier="Erfolg",
        name="Mia",
        attribute="Süß",
        difficulty=4,
    ).endswith("1 Erfolg.")
