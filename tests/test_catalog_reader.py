"""The catalog reader against Babel's general PO reader (the oracle), plural entries and
malformed files."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po
from hypothesis import given
from hypothesis import strategies as st

import spieltisch.i18n as i18n
from spieltisch.i18n import read_catalog, translate_plural

CATALOGS = sorted(Path(i18n.__file__).parent.glob("*/*.po"))


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_catalog_reads_as_babel_reads_it(path: Path) -> None:
    with path.open("rb") as handle:
        messages = list(read_po(handle, locale=path.parent.name))
    babel = {
        m.id: m.string
        for m in messages
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
    }
    babel_forms = {
        m.id[0]: tuple(m.string)
        for m in messages
        if isinstance(m.id, tuple) and isinstance(m.string, tuple) and all(m.string)
    }
    ours, forms = read_catalog(path)
    assert forms == babel_forms
    # A plural entry also answers as a single text: its first form.
    assert ours == babel | {key: texts[0] for key, texts in babel_forms.items()}


texts = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40)


@given(st.dictionaries(texts, texts, min_size=1, max_size=6))
def test_whatever_babel_writes_reads_back(
    tmp_path_factory: pytest.TempPathFactory, messages: dict[str, str]
) -> None:
    catalog = Catalog(locale="de")
    for key, text in messages.items():
        catalog.add(key, text)
    path = tmp_path_factory.mktemp("po") / "x.po"
    with path.open("wb") as handle:
        write_po(handle, catalog, width=30)  # long texts wrap over several lines
    ours, _forms = read_catalog(path)
    assert ours == messages


def test_plural_forms_are_kept_and_chosen_by_count(tmp_path: Path) -> None:
    path = tmp_path / "p.po"
    path.write_text(
        'msgid "x.successes"\nmsgid_plural "x.successes"\n'
        'msgstr[0] "{count} Erfolg"\nmsgstr[1] "{count} Erfolge"\n',
        encoding="utf-8",
    )
    singles, forms = read_catalog(path)
    assert forms == {"x.successes": ("{count} Erfolg", "{count} Erfolge")}
    assert singles == {"x.successes": "{count} Erfolg"}


def test_translate_plural_picks_the_form_of_the_count() -> None:
    # A key without plural forms is translated as a single text with the count filled in.
    assert translate_plural("no.such.key", 1, "de") == "no.such.key"


@pytest.mark.parametrize(
    ("text", "where"),
    [('msgid "a"\nmsgstr b\n', "x.po:2"), ('"a"\n', "x.po:1"), ('msgfoo "a"\n', "x.po:1")],
)
def test_a_malformed_file_names_file_and_line(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "x.po"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=where):
        read_catalog(path)
