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

from spieltisch.cli.context import (
    fail,
    help_text,
    language_from_args,
    lift_lang,
    localize_help,
    settings,
)
from spieltisch.cli.words import localize_words, usage_error
from spieltisch.errors import InputError
from spieltisch.i18n import LANGUAGES, normalize_language

__all__ = ["SpieltischGroup", "app", "main"]


class SpieltischGroup(TyperGroup):
    """The top-level group: chooses the language and localizes all help of one invocation."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        """Set the invocation's language from ``args``, localize the help, then parse."""
        args = lift_lang(args)
        settings.lang = language_from_args(args)
        localize_help(self, settings.lang)
        localize_words(self, settings.lang)
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


def _usage_failure(error: click.UsageError, args: list[str]) -> NoReturn:
    """Report a command line the parser refused as one localized line (JSON with --json)."""
    if isinstance(error, click.NoArgsIsHelpError):
        raise error  # a bare group shows its help, as asked for with no_args_is_help
    fail(usage_error(error, args), as_json="--json" in args)


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
