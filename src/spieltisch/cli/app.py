"""The top-level ``spieltisch`` command: global options and the command groups.

Every help text is declared as a catalog key (``help_text``); the top-level command picks
the invocation's language from ``--lang`` or the environment before anything is parsed and
puts the texts of that language in place, so ``--help`` reads German or English alike.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any, NoReturn

import typer
from typer._click import exceptions as click
from typer.core import TyperGroup

from spieltisch.cli.context import fail, help_text, language_from_args, localize_help, settings
from spieltisch.errors import InputError
from spieltisch.i18n import LANGUAGES, normalize_language

__all__ = ["SpieltischGroup", "app", "main"]


class SpieltischGroup(TyperGroup):
    """The top-level group: chooses the language and localizes all help of one invocation."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        """Set the invocation's language from ``args``, localize the help, then parse."""
        settings.lang = language_from_args(args)
        localize_help(self, settings.lang)
        self._args = list(args)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as error:
            _usage_failure(error, self._args)

    def invoke(self, ctx: Any) -> Any:
        """Run the command; a command line the parser refuses fails as one localized line."""
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            _usage_failure(error, getattr(self, "_args", []))


def _given_value(param: Any, args: list[str]) -> str | None:
    """The text given on the command line for option ``param`` (``None``: not found)."""
    for index, token in enumerate(args):
        for name in getattr(param, "opts", ()):
            if token == name and index + 1 < len(args):
                return args[index + 1]
            if token.startswith(name + "="):
                return token.partition("=")[2]
    return None


def _usage_failure(error: click.UsageError, args: list[str]) -> NoReturn:
    """Report a command line the parser refused as one localized line (JSON with --json)."""
    if isinstance(error, click.NoArgsIsHelpError):
        raise error  # a bare group shows its help, as asked for with no_args_is_help
    as_json = "--json" in args
    if isinstance(error, click.NoSuchOption):
        fail(InputError("cli.usage.no_such_option", value=error.option_name), as_json=as_json)
    param = getattr(error, "param", None)
    name = (
        getattr(error, "param_hint", None)
        or (param.get_error_hint() if param is not None else None)
        or getattr(param, "name", None)
        or "?"
    )
    if not isinstance(name, str):
        name = " / ".join(name)
    if isinstance(error, click.MissingParameter):
        fail(InputError("cli.usage.missing", name=name), as_json=as_json)
    if isinstance(error, click.BadParameter) and param is not None:
        value = _given_value(param, args)
        if value is not None:
            fail(InputError("cli.usage.bad_value", name=name, value=value), as_json=as_json)
    fail(InputError("cli.usage.other", detail=error.format_message()), as_json=as_json)


app = typer.Typer(
    name="spieltisch",
    cls=SpieltischGroup,
    help=help_text("cli.help.app"),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _options(
    lang: Annotated[
        str | None,
        typer.Option("--lang", help=help_text("cli.help.opt.lang")),
    ] = None,
) -> None:
    if lang is not None:
        if lang.strip().lower()[:2] not in LANGUAGES:
            fail(InputError("cli.usage.bad_value", name="'--lang'", value=lang))
        settings.lang = normalize_language(lang)


# Each module registers its commands on ``app`` when imported; one module per command group.
for _name in (
    "dice",
    "verify",
    "kitties",
    "kilkenny",
    "hexxen",
    "kreiswanderer",
    "dnd5e",
    "table",
    "serve",
    "tour",
):
    importlib.import_module(f"spieltisch.cli.{_name}")


def main() -> None:
    """Entry point of the console script."""
    app()
