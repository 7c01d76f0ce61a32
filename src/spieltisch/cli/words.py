"""The command-line parser's own words in the invocation's language.

Typer ships its own copy of Click, whose texts are plain English: the help page's "Usage:",
"[required]", "[default: …]", the usage line's ``[OPTIONS]`` and ``COMMAND [ARGS]...``, and
the messages of the command lines it refuses. Two things put them into the catalogs
(``cli.words.*`` and ``cli.usage.*``):

- :func:`localize_words` puts the help page's words in place for one invocation: the module
  strings Typer's help renderer reads when it draws, and on every command of the tree a
  context whose formatter writes the usage prefix of the chosen language;
- :func:`usage_error` turns a refused command line into an :class:`InputError` with a stable
  code: by the error's type and attributes where Click keeps the values, else by the English
  template of the message (:data:`TEMPLATES`, data: one pattern per message Click and Typer
  raise as plain text). A message no template matches keeps its English detail inside the
  localized ``cli.usage.other`` sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from typer import rich_utils
from typer._click import Context, HelpFormatter
from typer._click import exceptions as click

from spieltisch.cli.context import settings
from spieltisch.errors import InputError
from spieltisch.i18n import translate

__all__ = ["TEMPLATES", "WORDS", "localize_words", "usage_error"]

WORDS: dict[str, str] = {
    "DEFAULT_STRING": "cli.words.default",
    "ENVVAR_STRING": "cli.words.envvar",
    "REQUIRED_LONG_STRING": "cli.words.required",
    "DEPRECATED_STRING": "cli.words.deprecated",
    "ABORTED_TEXT": "cli.words.aborted",
    "RICH_HELP": "cli.words.try_help",
}
"""Typer's help renderer's module strings → the catalog key of their text."""

TEMPLATES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"No such command '(?P<name>.*)'\. Did you mean (?P<suggestions>.+)\?"),
        "cli.usage.no_such_command_hint",
    ),
    (re.compile(r"No such command '(?P<name>.*)'\."), "cli.usage.no_such_command"),
    (re.compile(r"Missing command\."), "cli.usage.missing_command"),
    (
        re.compile(r"Got unexpected extra argument(?:s|\(s\))? \((?P<values>.*)\)"),
        "cli.usage.extra_arguments",
    ),
    (
        re.compile(r"Option '(?P<name>.*)' requires (?:an argument|\d+ arguments)\."),
        "cli.usage.needs_value",
    ),
    (re.compile(r"Option '(?P<name>.*)' does not take a value\."), "cli.usage.takes_no_value"),
)
"""The English messages Click and Typer raise as plain text → a catalog code; the named
groups become the error's params."""


class _Formatter(HelpFormatter):
    """Click's help formatter with the usage prefix of the invocation's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        """Write the usage line, prefixed "Usage:" in the invocation's language."""
        if prefix is None:
            prefix = translate("cli.words.usage", settings.lang) + " "
        super().write_usage(prog, args, prefix)


class _Context(Context):
    """Click's context with the localized formatter."""

    formatter_class = _Formatter


def _tree(command: Any) -> list[Any]:
    found = [command]
    for sub in getattr(command, "commands", {}).values():
        found += _tree(sub)
    return found


def localize_words(command: Any, lang: str) -> None:
    """Put the help page's parser words of ``lang`` in place for ``command`` and below."""
    for name, key in WORDS.items():
        text = translate(key, lang)
        if name == "RICH_HELP":  # Rich markup around the command, as Typer has it
            text = text.replace("'{command_path}", "[blue]'{command_path}").replace(
                "{help_option}'", "{help_option}'[/]"
            )
        if name == "DEPRECATED_STRING":
            text += " "
        setattr(rich_utils, name, text)
    for sub in _tree(command):
        sub.context_class = _Context
        if sub.options_metavar:
            sub.options_metavar = translate("cli.words.options_metavar", lang)
        if getattr(sub, "subcommand_metavar", None):
            sub.subcommand_metavar = translate("cli.words.command_metavar", lang)


def _param_name(error: click.UsageError) -> str:
    param = getattr(error, "param", None)
    name = (
        getattr(error, "param_hint", None)
        or (param.get_error_hint() if param is not None else None)
        or getattr(param, "name", None)
        or "?"
    )
    return name if isinstance(name, str) else " / ".join(name)


def _given_value(param: Any, args: Sequence[str]) -> str | None:
    """The text given on the command line for option ``param`` (``None``: not found)."""
    for index, token in enumerate(args):
        for name in getattr(param, "opts", ()):
            if token == name and index + 1 < len(args):
                return args[index + 1]
            if token.startswith(name + "="):
                return token.partition("=")[2]
    return None


def _dash_value(error: click.NoSuchOption, args: Sequence[str]) -> str | None:
    """The word of ``args`` the parser took for the unknown option when it looks like a value
    (one dash, then at least three characters, as an id made before ids left out a leading
    dash) rather than an option."""
    name = error.option_name or ""
    for arg in args:
        if arg.startswith(name) and not arg.startswith("--") and len(arg) >= 4:
            return arg
    return None


def usage_error(error: click.UsageError, args: Sequence[str]) -> InputError:
    """The refused command line ``args`` as an error with a stable code and its values."""
    if isinstance(error, click.NoSuchOption):
        if value := _dash_value(error, args):
            return InputError("cli.usage.dash_value", value=value)
        if error.possibilities:
            suggestions = ", ".join(repr(name) for name in sorted(error.possibilities))
            return InputError(
                "cli.usage.no_such_option_hint", value=error.option_name, suggestions=suggestions
            )
        return InputError("cli.usage.no_such_option", value=error.option_name)
    if isinstance(error, click.MissingParameter):
        return InputError("cli.usage.missing", name=_param_name(error))
    param = getattr(error, "param", None)
    if isinstance(error, click.BadParameter) and param is not None:
        value = _given_value(param, args)
        if value is not None:
            return InputError("cli.usage.bad_value", name=_param_name(error), value=value)
    for pattern, code in TEMPLATES:
        match = pattern.fullmatch(error.message)
        if match is not None:
            return InputError(code, **match.groupdict())
    return InputError("cli.usage.other", detail=error.format_message())
