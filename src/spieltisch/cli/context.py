"""What every command shares: the chosen language, a console and the one way to fail."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn
from weakref import WeakKeyDictionary

import typer
from rich.console import Console

from spieltisch.errors import SpieltischError, located
from spieltisch.i18n import (
    LANGUAGES,
    catalog,
    default_language,
    error_message,
    normalize_language,
    translate,
)

__all__ = [
    "HELP_PREFIX",
    "Settings",
    "emit_json",
    "error_json",
    "fail",
    "help_text",
    "language_from_args",
    "lift_lang",
    "localize_help",
    "settings",
    "t",
]


@dataclass
class Settings:
    """Global options of one invocation."""

    lang: str = field(default_factory=default_language)
    console: Console = field(default_factory=lambda: Console(highlight=False))


settings = Settings()
"""The options of the running invocation (set by the top-level callback)."""


def t(key: str, /, **params: Any) -> str:
    """Translate ``key`` into the invocation's language."""
    return translate(key, settings.lang, **params)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON on standard output (stable, documented formats)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def error_json(error: SpieltischError, message: str) -> dict[str, Any]:
    """``{"code", "message"}``, and where a text parser names them ``position`` (0-based),
    ``column`` (1-based) and the ``suggestion`` that would be read."""
    return {"code": error.code, "message": message, **located(error)}


def fail(error: SpieltischError, *, as_json: bool = False, exit_code: int = 2) -> NoReturn:
    """Report a deliberate error as one localized line (or JSON) and exit non-zero."""
    message = error_message(error, settings.lang)
    if as_json:
        emit_json({"error": error_json(error, message)})
    else:
        Console(stderr=True, highlight=False).print(
            f"[bold red]{t('cli.error')}:[/] {message}", markup=True, soft_wrap=True
        )
    raise typer.Exit(exit_code)


HELP_PREFIX = "cli.help."
"""Every help text of the command line has a catalog key starting with this prefix."""

_LANG_OPTION = "--lang"

_PANELS = ("arguments", "options", "commands")
"""The panels of a help page; their titles are ``cli.help.panel.<name>``."""

_help_keys: WeakKeyDictionary[Any, str] = WeakKeyDictionary()
"""The catalog key of each command or parameter whose help was localized already."""


def help_text(key: str) -> str:
    """The help of a command or parameter, as its catalog key (``help=help_text(...)``).

    Help is declared when the modules are imported, before the language of an invocation is
    known; so the key itself is stored, and :func:`localize_help` puts the catalog text in its
    place at the start of every invocation. An unknown key fails at import.
    """
    if not key.startswith(HELP_PREFIX) or any(key not in catalog(lang) for lang in LANGUAGES):
        raise KeyError(f"no help text {key!r} in the catalogs")
    return key


def lift_lang(args: Sequence[str]) -> list[str]:
    """``args`` with every ``--lang X`` (or ``--lang=X``) moved to the front.

    ``--lang`` is a top-level option, yet a user may give it anywhere on the command line
    (``spieltisch roll 3d6 --lang de``); moved before the command's name, the top-level
    command reads it as its own. Nothing after ``--`` moves (there it is a value). The last
    one given wins, as with any option.
    """
    lifted: list[str] = []
    rest: list[str] = []
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            rest += [token, *tokens]
            break
        if token == _LANG_OPTION:
            value = next(tokens, None)
            lifted += [token] if value is None else [token, value]
        elif token.startswith(_LANG_OPTION + "="):
            lifted.append(token)
        else:
            rest.append(token)
    return [*lifted, *rest]


def language_from_args(args: Sequence[str]) -> str:
    """The language of an invocation: the last ``--lang X`` anywhere before ``--``, else the
    environment (:func:`~spieltisch.i18n.default_language`)."""
    found: str | None = None
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            break
        if token == _LANG_OPTION:
            value = next(tokens, None)
            found = normalize_language(value) if value else None
        elif token.startswith(_LANG_OPTION + "="):
            found = normalize_language(token.partition("=")[2])
    return found or default_language()


def _tree(command: Any) -> Iterator[Any]:
    """``command`` and, for a group, every command below it."""
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from _tree(sub)


def _key_of(item: Any) -> str | None:
    key = _help_keys.get(item)
    if key is None and isinstance(item.help, str) and item.help.startswith(HELP_PREFIX):
        key = _help_keys[item] = item.help
    return key


def _help_option(command: Any) -> Any:
    """The command's ``--help`` option (made here, once; the parser reuses it)."""
    context = type(command).context_class(command, **command.context_settings)
    return command.get_help_option(context)


def localize_help(command: Any, lang: str) -> None:
    """Put the ``lang`` text of every help key below ``command`` in place of the key.

    Also translates each ``--help`` option and the titles of the help's panels. May be
    called again with another language.
    """
    titles = {kind: translate(f"{HELP_PREFIX}panel.{kind}", lang) for kind in _PANELS}
    for sub in _tree(command):
        for item in (sub, *sub.params):
            key = _key_of(item)
            if key is not None:
                item.help = translate(key, lang)
        for param in sub.params:
            param.rich_help_panel = titles[
                "arguments" if param.param_type_name == "argument" else "options"
            ]
        if sub is not command:
            sub.rich_help_panel = titles["commands"]
        option = _help_option(sub)
        if option is not None:
            option.help = translate(f"{HELP_PREFIX}opt.help", lang)
            option.rich_help_panel = titles["options"]
