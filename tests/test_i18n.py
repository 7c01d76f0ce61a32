"""Both catalogs are complete: the same keys, non-empty texts, the same placeholders."""

from __future__ import annotations

import string

import pytest

from spieltisch.i18n import LANGUAGES, catalog, normalize_language, translate


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
