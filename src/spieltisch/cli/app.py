"""The top-level ``spieltisch`` command: global options and the command groups.

Every help text is declared as a catalog key (``help_text``); the top-level command picks
the invocation's language from ``--lang`` or the environment before anything is parsed and
puts the texts of that language in place, so ``--help`` reads German or English alike.

The command modules are imported on demand: ``spieltisch odds 3d6`` imports the dice
commands alone, not the store or the game systems (:data:`COMMANDS` says which module
registers which command; a listing such as ``--help`` imports them all).
"""

from __future__ import annotations

import importlib
import sys
from typing import Annotated, Any, NoReturn

import typer
import typer.main
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

__all__ = ["COMMANDS", "SpieltischGroup", "app", "load_commands", "main"]


COMMANDS: dict[str, str] = {
    "roll": "dice",
    "odds": "dice",
    "verify": "verify",
    "kitties": "kitties",
    "kilkenny": "kilkenny",
    "hexxen": "hexxen",
    "kreiswanderer": "kreiswanderer",
    "dnd5e": "dnd5e",
    "table": "table",
    "serve": "serve",
    "tour": "tour",
}
"""Each top-level command and the module of :mod:`spieltisch.cli` that registers it."""


def load_commands() -> None:
    """Import every command module, so that :data:`app` holds every command (for walking the
    whole command tree; an invocation imports what it needs by itself)."""
    for module in dict.fromkeys(COMMANDS.values()):
        _load(module)


def _load(module: str) -> bool:
    """Import the command module ``module`` (it registers its commands on :data:`app`);
    whether it was new."""
    name = f"spieltisch.cli.{module}"
    if name in sys.modules:
        return False
    importlib.import_module(name)
    return True


class SpieltischGroup(TyperGroup):
    """The top-level group: chooses the language, localizes all help of one invocation and
    imports each command's module when the command is first asked for."""

    def list_commands(self, ctx: Any) -> list[str]:
        """Every command, in the order of :data:`COMMANDS` (imports them all)."""
        self._catch_up(list(dict.fromkeys(COMMANDS.values())))
        return [name for name in COMMANDS if name in self.commands]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name``, its module imported first if need be."""
        module = COMMANDS.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            self._catch_up([module])
        return super().get_command(ctx, cmd_name)

    def _catch_up(self, modules: list[str]) -> None:
        """Import ``modules`` and add the commands they registered, localized like the rest."""
        if not any([_load(module) for module in modules]) and all(
            name in self.commands for name, module in COMMANDS.items() if module in modules
        ):
            return
        built = typer.main.get_group(app)
        for name, command in built.commands.items():
            if name not in self.commands:
                self.add_command(command, name)
        localize_help(self, settings.lang)
        localize_words(self, settings.lang)

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


def main() -> None:
    """Entry point of the console script."""
    app()
