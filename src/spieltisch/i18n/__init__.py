"""German and English texts for everything a user sees.

Catalogs are gettext ``.po`` files under ``i18n/<lang>/``, one file per area (``core.po``,
``kitties.po`` …), read with Babel. A message id is a stable key (for errors: the error
code); a message text may use ``str.format`` fields such as ``{value!r}``.
Only the edges (``cli``, ``web``) import this package.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from spieltisch.errors import SpieltischError

__all__ = [
    "LANGUAGES",
    "catalog",
    "default_language",
    "error_message",
    "normalize_language",
    "translate",
]

LANGUAGES: tuple[str, ...] = ("de", "en")
"""The languages every user-facing text exists in."""

_ROOT = Path(__file__).parent


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """All messages of one language: key → text (every ``.po`` file of that language)."""
    messages: dict[str, str] = {}
    for path in sorted((_ROOT / lang).glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if message.id and isinstance(message.id, str) and isinstance(message.string, str):
                    messages[message.id] = message.string
    return messages


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
    """The text of ``key`` in ``lang`` with ``params`` filled in; the key itself if unknown."""
    text = catalog(normalize_language(lang)).get(key) or catalog("en").get(key) or key
    try:
        return text.format_map(_Missing(params))
    except (ValueError, KeyError, IndexError, AttributeError):
        return text


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
