"""The top-level ``spieltisch`` command: global options and the command groups.

Every help text is declared as a catalog key (``help_text``); the top-level command picks
the invocation's language from ``--lang`` or the environment before anything is parsed and
puts the texts of that language in place, so ``--help`` reads German or English alike.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from spieltisch.cli.context import help_text, language_from_args, localize_help, settings
from spieltisch.i18n import normalize_language

__all__ = ["SpieltischGroup", "app", "main"]


class SpieltischGroup(TyperGroup):
    """The top-level group: chooses the language and localizes all help of one invocation."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        """Set the invocation's language from ``args``, localize the help, then parse."""
        settings.lang = language_from_args(args)
        localize_help(self, settings.lang)
        return super().make_context(info_name, args, parent, **extra)


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
        settings.lang = normalize_language(lang)


# Each module registers its commands on ``app`` when imported; one module per command group.
for _name in ("dice", "verify", "kitties", "kilkenny", "table", "serve", "tour"):
    importlib.import_module(f"spieltisch.cli.{_name}")


def main() -> None:
    """Entry point of the console script."""
    app()
