"""The top-level ``spieltisch`` command: global options and the command groups."""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from spieltisch.cli.context import settings
from spieltisch.i18n import normalize_language

__all__ = ["app", "main"]

app = typer.Typer(
    name="spieltisch",
    help="Spieltisch — rules-aware game table / regelkundiger Spieltisch.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _options(
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Language of all output: de or en (default: environment)."),
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
