"""``spieltisch tour``: a short, reproducible demonstration of the dice and the odds.

A few rolls from a fixed seed, shown die by die, then exact odds tables with bar charts,
all in the chosen language.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.rule import Rule

from spieltisch.cli.app import app
from spieltisch.cli.context import help_text, settings, t
from spieltisch.cli.dice import render_odds, render_roll
from spieltisch.dice.dice import roll
from spieltisch.dice.fair import SeededSource
from spieltisch.dice.odds import distribution

__all__ = ["ODDS", "ROLLS", "tour"]

ROLLS: tuple[tuple[str, str], ...] = (
    ("3W6", "sum"),
    ("4W6kh3", "keep"),
    ("1W10!", "explode"),
    ("5W6>=4", "success"),
    ("10H+2J", "hunter"),
    ("8M - 5H", "versus"),
)
"""The rolls of the tour: notation and the catalog suffix of its caption."""

ODDS: tuple[tuple[str, str], ...] = (("3W6", "odds_sum"), ("10M-3J", "odds_malus"))
"""The odds tables of the tour."""

DEFAULT_SEED = 1733


@app.command("tour", help=help_text("cli.help.tour"))
def tour(
    seed: Annotated[
        int, typer.Option("--seed", help=help_text("cli.help.dice.opt.seed"))
    ] = DEFAULT_SEED,
) -> None:
    """Show a few seeded rolls die by die and exact odds tables."""
    console = settings.console
    console.print(Rule(escape(t("dice.tour.title"))))
    console.print(escape(t("dice.tour.intro", seed=seed)), highlight=False)
    source = SeededSource(seed)
    for expression, about in ROLLS:
        console.print()
        caption = t("dice.tour.roll", expression=expression, about=t(f"dice.tour.about.{about}"))
        console.print(f"[bold]{escape(caption)}[/]", highlight=False)
        render_roll(roll(expression, source))
    for expression, about in ODDS:
        console.print()
        caption = t("dice.tour.odds", expression=expression, about=t(f"dice.tour.about.{about}"))
        render_odds(distribution(expression), title=caption)
    console.print()
    console.print(escape(t("dice.tour.next")), highlight=False)
