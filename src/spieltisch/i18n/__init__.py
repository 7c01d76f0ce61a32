"""German and English texts for everything a user sees.

Catalogs are gettext ``.po`` files under ``i18n/<lang>/``, one file per area (``core.po``,
``kitties.po`` …), read by :func:`read_catalog` (a small reader for the subset of the format
the catalogs use: it costs a few milliseconds where a general reader costs a quarter of a
second, which every command line would pay). A message id is a stable key (for errors: the
error code); a message text may use ``str.format`` fields such as ``{value!r}``. An entry
with ``msgid_plural`` holds one text per plural form (:func:`translate_plural`).
Only the edges (``cli``, ``web``) import this package.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from spieltisch.errors import SpieltischError

__all__ = [
    "LANGUAGES",
    "area_catalog",
    "area_plurals",
    "areas",
    "catalog",
    "default_language",
    "error_message",
    "normalize_language",
    "plural_index",
    "plurals",
    "read_catalog",
    "translate",
    "translate_plural",
]

LANGUAGES: tuple[str, ...] = ("de", "en")
"""The languages every user-facing text exists in."""

_ROOT = Path(__file__).parent


_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r"}


def _unquote(line: str, path: Path, number: int) -> str:
    """The text of one quoted PO string (``"…"``) with its escapes resolved."""
    if len(line) < 2 or line[0] != '"' or line[-1] != '"':
        raise ValueError(f"{path.name}:{number}: expected a quoted string, got {line!r}")
    body = line[1:-1]
    if "\\" not in body:
        return body
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m[1], m[0]), body)


def read_catalog(path: Path) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """The messages of one ``.po`` file: key → text, and key → texts of each plural form.

    The header (empty ``msgid``) and untranslated entries are left out. Raises
    :class:`ValueError` naming the file and line of anything it does not understand.
    """
    singles: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    entry: dict[str, str] = {}
    field: str | None = None

    def close() -> None:
        key = entry.get("msgid")
        if key:
            forms = [entry[f] for f in sorted(entry) if f.startswith("msgstr[")]
            if "msgid_plural" in entry and all(forms):
                plurals[key] = tuple(forms)
                singles[key] = forms[0]
            elif entry.get("msgstr"):
                singles[key] = entry["msgstr"]
        entry.clear()

    text = path.read_text(encoding="utf-8")
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            if field is None:
                raise ValueError(f"{path.name}:{number}: a string outside an entry")
            entry[field] += _unquote(line, path, number)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid":
            close()
        elif keyword not in ("msgstr", "msgid_plural", "msgctxt") and not (
            keyword.startswith("msgstr[") and keyword.endswith("]")
        ):
            raise ValueError(f"{path.name}:{number}: unknown keyword {keyword!r}")
        field = keyword
        entry[field] = _unquote(rest.strip(), path, number)
    close()
    return singles, plurals


@cache
def _files(lang: str) -> dict[str, tuple[dict[str, str], dict[str, tuple[str, ...]]]]:
    """Each catalog file of ``lang`` by its area (the file's name without ``.po``)."""
    return {path.stem: read_catalog(path) for path in sorted((_ROOT / lang).glob("*.po"))}


@cache
def _messages(lang: str) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    singles: dict[str, str] = {}
    forms: dict[str, tuple[str, ...]] = {}
    for one, many in _files(lang).values():
        singles.update(one)
        forms.update(many)
    return singles, forms


def areas() -> tuple[str, ...]:
    """The catalog areas (one ``.po`` file each in every language: ``core``, ``web`` …)."""
    return tuple(_files("en"))


def area_catalog(lang: str, area: str) -> Mapping[str, str]:
    """The messages of one area of ``lang`` (:func:`areas`): key → text."""
    return _files(lang)[area][0]


def area_plurals(lang: str, area: str) -> Mapping[str, tuple[str, ...]]:
    """The plural entries of one area of ``lang``: key → one text per plural form."""
    return _files(lang)[area][1]


def catalog(lang: str) -> Mapping[str, str]:
    """All messages of one language: key → text (every ``.po`` file of that language; for a
    plural entry, its first form)."""
    return _messages(lang)[0]


def plurals(lang: str) -> Mapping[str, tuple[str, ...]]:
    """The plural entries of one language: key → one text per plural form."""
    return _messages(lang)[1]


def plural_index(lang: str, count: int | Decimal) -> int:
    """Which plural form ``count`` takes in ``lang`` (German and English: one, other)."""
    return 0 if abs(count) == 1 else 1


def normalize_language(lang: str | None) -> str:
    """Map a locale name such as ``de_DE.UTF-8`` or ``EN`` to ``de`` or ``en``."""
    if lang:
        short = lang.strip().lower()[:2]
        if short in LANGUAGES:
            return short
    return "en"


def default_language() -> str:
    """The language from the environment: SPIELTISCH_LANG, then the POSIX locale variables."""
    for name in ("SPIELTISCH_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return normalize_language(value)
    return "en"


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def translate(key: str, lang: str, /, **params: Any) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in; the key itself if unknown.

    A plural entry takes the form its ``count`` parameter asks for (an error raised with
    ``count=…`` is worded in the right number, see :func:`translate_plural`)."""
    lang = normalize_language(lang)
    forms = plurals(lang).get(key) or plurals("en").get(key)
    count = params.get("count")
    if forms and isinstance(count, int | Decimal) and not isinstance(count, bool):
        text = forms[min(plural_index(lang, count), len(forms) - 1)]
    else:
        text = catalog(lang).get(key) or catalog("en").get(key) or key
    try:
        return text.format_map(_Missing(params))
    except (ValueError, KeyError, IndexError, AttributeError):
        return text


def translate_plural(key: str, count: int, lang: str, /, **params: Any) -> str:
    """The text of ``key`` in the plural form ``count`` takes in ``lang`` (``count`` is also
    filled in as ``{count}``); a key without plural forms is translated as usual."""
    return translate(key, lang, **params, count=count)


def error_message(error: SpieltischError, lang: str) -> str:
    """A localized one-line message for a deliberate error, naming the offending values.

    A parameter that is itself an error (the reason an undo is refused) is put in as its own
    localized message.
    """
    params = {
        key: error_message(value, lang) if isinstance(value, SpieltischError) else value
        for key, value in error.params.items()
    }
    return translate(error.code, lang, **params)
