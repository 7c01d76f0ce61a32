"""``spieltisch roll`` and ``spieltisch odds``: dice notation at the terminal.

``roll EXPR [--seed S] [--json]`` shows every die (symbols as symbols) and the result;
``odds EXPR [--exact] [--json]`` shows the exact distribution as a table with a bar chart.
The JSON formats are documented in ``docs/notation.md``.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Mapping
from dataclasses import replace
from typing import Annotated

import typer
from babel.numbers import format_decimal, get_decimal_symbol
from rich.markup import escape
from rich.table import Table

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.dice.dice import DieRoll, RollResult, Value, roll
from spieltisch.dice.errors import DiceError
from spieltisch.dice.faces import SYMBOL_KEYS
from spieltisch.dice.fair import SeededSource
from spieltisch.dice.notation import Comment, Test, hints, parse
from spieltisch.dice.odds import Distribution, distribution

__all__ = [
    "format_face",
    "format_value",
    "odds",
    "percent",
    "render_odds",
    "render_roll",
    "roll_command",
]

_BAR_WIDTH = 16
_FRACTION_WIDTH = 20
_SHOW_ALL = 40
_HIDE_BELOW = 1e-6


def format_face(face: int | Mapping[str, int]) -> str:
    """A die face for people: the number, or its symbols as glyphs (blank: a dot)."""
    if isinstance(face, int):
        return str(face)
    glyphs = "".join(t(f"dice.glyph.{key}") * face[key] for key in SYMBOL_KEYS if key in face)
    return glyphs or t("dice.glyph.blank")


def format_value(value: Value | Mapping[str, int]) -> str:
    """A result for people: the number, or each symbol count with its localized name."""
    if isinstance(value, int):
        return str(value)
    return " · ".join(
        f"{t(f'dice.glyph.{key}')} {t(f'dice.symbol.{key}')} {count}"
        for key, count in value.items()
    )


def _status(die: DieRoll) -> str:
    if die.rerolled:
        return f"[dim]{escape(t('dice.cli.rerolled'))}[/]"
    counts = f" · {t('dice.cli.counts', value=die.value)}" if die.value is not None else ""
    if not die.kept:
        return f"[dim]{escape(t('dice.cli.dropped') + counts)}[/]"
    if die.exploded:
        return f"[bold yellow]{escape(t('dice.cli.exploded') + counts)}[/]"
    return escape(t("dice.cli.kept") + counts)


def _legend(result: RollResult) -> str | None:
    keys = {key for die in result.dice if not isinstance(die.face, int) for key in die.face}
    if not keys:
        return None
    parts = [
        f"{t(f'dice.glyph.{key}')} {t(f'dice.symbol.{key}')}" for key in SYMBOL_KEYS if key in keys
    ]
    parts.append(f"{t('dice.glyph.blank')} {t('dice.symbol.blank')}")
    return t("dice.cli.legend", legend=" · ".join(parts))


def render_roll(result: RollResult, title: str | None = None) -> None:
    """Print a roll die by die, then its result (in the invocation's language)."""
    console = settings.console
    table = Table(title=escape(title) if title else None, title_justify="left")
    table.add_column(t("dice.cli.number"), justify="right")
    table.add_column(t("dice.cli.die"))
    table.add_column(t("dice.cli.face"), justify="center")
    table.add_column(t("dice.cli.status"))
    for number, die in enumerate(result.dice, start=1):
        face = escape(format_face(die.face))
        if not die.kept:
            face = f"[dim]{face}[/]"
        name = die.die if die.label is None else f"{die.die} [{die.label}]"
        table.add_row(str(number), escape(name), face, _status(die))
    if result.dice:
        console.print(table)
    legend = _legend(result)
    if legend:
        console.print(escape(legend), highlight=False)
    for part in result.parts:
        key = "dice.cli.part" if part.label is not None else "dice.cli.member"
        if not part.kept:
            key = "dice.cli.member_dropped"
        line = t(key, label=part.label, term=part.term, value=format_value(part.value))
        console.print(escape(line), highlight=False)
    if result.total is not None:
        node = parse(result.expression)
        test = node.operand if isinstance(node, Comment) else node
        assert isinstance(test, Test)
        verdict = t("dice.cli.met" if result.value else "dice.cli.not_met")
        compare = f"{test.compare.op} {test.compare.target}"
        line = t("dice.cli.total", total=result.total, compare=compare, verdict=verdict)
        console.print(escape(line), highlight=False)
    if result.comment is not None:
        console.print(escape(t("dice.cli.comment", comment=result.comment)), highlight=False)
    shown = result.written or result.expression
    text = t("dice.cli.result", expression=shown, result=format_value(result.value))
    console.print(f"[bold]{escape(text)}[/]", highlight=False)
    _hints(result.hints)


def _hints(codes: tuple[str, ...]) -> None:
    for code in codes:
        line = t("dice.cli.hint", hint=t(f"dice.hint.{code}"))
        settings.console.print(f"[dim]{escape(line)}[/]", highlight=False)


def percent(p: float) -> str:
    """A probability as a percentage in the invocation's locale (tiny ones in E-notation)."""
    if p == 0:
        return "0 %"
    if p >= 0.001:
        return f"{format_decimal(p * 100, format='0.00', locale=settings.lang)} %"
    return f"{_scientific(p * 100)} %"


def _scientific(x: float) -> str:
    return f"{x:.2e}".replace(".", get_decimal_symbol(settings.lang))


def _number(x: float) -> str:
    return str(format_decimal(x, format="0.####", locale=settings.lang))


def render_odds(
    dist: Distribution, exact: bool = False, title: str | None = None, written: str | None = None
) -> None:
    """Print the outcome table with a bar chart, mean and truncated mass (headed by the
    notation as ``written``, when given)."""
    console = settings.console
    heading = title or t("dice.cli.odds_title", expression=written or dist.expression)
    table = Table(title=escape(heading), title_justify="left")
    table.add_column(t("dice.cli.value"), justify="right", no_wrap=True)
    table.add_column(t("dice.cli.probability"), justify="right", no_wrap=True)
    numeric = dist.numeric or (dist.keys is not None and len(dist.keys) == 1)
    if numeric:
        table.add_column(t("dice.cli.at_least"), justify="right", no_wrap=True)
    rows = dist.outcomes()
    fractions: list[str] = []
    if exact:
        exact_of = {repr(v): f for v, f in dist.exact()}
        for value, _ in rows:
            fraction = exact_of.get(repr(value))
            fractions.append(f"{fraction.numerator}/{fraction.denominator}" if fraction else "–")
    # Long fractions go below the table so that the table stays readable.
    inline = exact and max(map(len, fractions), default=0) <= _FRACTION_WIDTH
    if inline:
        table.add_column(t("dice.cli.exact"), justify="right", no_wrap=True)
    table.add_column(t("dice.cli.chart"), no_wrap=True, overflow="crop")
    suffix = list(itertools.accumulate(reversed([p for _, p in rows])))[::-1]
    top = max((p for _, p in rows), default=1.0) or 1.0
    hidden = 0
    shown: list[int] = []
    for index, (value, p) in enumerate(rows):
        if len(rows) > _SHOW_ALL and p < _HIDE_BELOW:
            hidden += 1
            continue
        shown.append(index)
        cells = [escape(format_value(value)), percent(p)]
        if numeric:
            cells.append(percent(suffix[index]))
        if inline:
            cells.append(fractions[index])
        cells.append(f"[cyan]{'█' * max(1 if p > 0 else 0, round(p / top * _BAR_WIDTH))}[/]")
        table.add_row(*cells)
    console.print(table)
    if exact and not inline:
        console.print(f"{escape(t('dice.cli.exact'))}:", highlight=False)
        for index in shown:
            shown_value = escape(format_value(rows[index][0]))
            console.print(f"  {shown_value}: {fractions[index]}", highlight=False, soft_wrap=True)
    if hidden:
        console.print(escape(t("dice.cli.hidden", count=hidden, threshold=percent(_HIDE_BELOW))))
    if dist.numeric:
        console.print(
            escape(
                t("dice.cli.mean", mean=_number(dist.mean or 0.0), std=_number(dist.std or 0.0))
            ),
            highlight=False,
        )
    else:
        assert dist.keys is not None
        for name in dist.keys:
            text = t(
                "dice.cli.mean_of",
                name=t(f"dice.symbol.{name}"),
                mean=_number(dist.mean_of(name)),
                std=_number(dist.std_of(name)),
            )
            console.print(escape(text), highlight=False)
    if dist.truncated:
        mass = _scientific(dist.truncated)
        console.print(escape(t("dice.cli.truncated", mass=mass)))
    _hints(hints(dist.node))


@app.command("roll", help=help_text("cli.help.roll"))
def roll_command(
    expression: Annotated[
        str, typer.Argument(metavar="EXPR", help=help_text("cli.help.dice.opt.expression"))
    ],
    seed: Annotated[
        str | None, typer.Option("--seed", help=help_text("cli.help.dice.opt.seed"))
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help=help_text("cli.help.dice.opt.json"))
    ] = False,
) -> None:
    """Roll dice notation and show every die."""
    source = SeededSource(seed if seed is not None else secrets.randbits(64))
    try:
        result = replace(roll(parse(expression), source), written=expression.strip())
    except DiceError as error:
        fail(error, as_json=as_json)
    if as_json:
        emit_json(result.to_json())
        return
    render_roll(result)
    if seed is not None:
        settings.console.print(escape(t("dice.cli.seed", seed=seed)), style="dim")


@app.command("odds", help=help_text("cli.help.odds"))
def odds(
    expression: Annotated[
        str, typer.Argument(metavar="EXPR", help=help_text("cli.help.dice.opt.expression"))
    ],
    exact: Annotated[
        bool, typer.Option("--exact", help=help_text("cli.help.dice.opt.exact"))
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help=help_text("cli.help.dice.opt.json"))
    ] = False,
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, help=help_text("cli.help.dice.opt.budget")),
    ] = None,
) -> None:
    """Show the exact odds of dice notation."""
    try:
        dist = distribution(parse(expression), budget=budget)
        data = dist.to_json(exact=exact, budget=budget) if as_json else None
        if exact and not as_json:
            dist.exact(budget)
    except DiceError as error:
        fail(error, as_json=as_json)
    if data is not None:
        data["written"] = expression.strip()
        codes = hints(dist.node)
        if codes:
            data["hints"] = list(codes)
        emit_json(data)
        return
    render_odds(dist, exact=exact, written=expression.strip())
