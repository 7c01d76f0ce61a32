"""``spieltisch kitties``: exact odds and single checks of Magical Kitties Save the Day.

``odds`` prints the chance of 0, 1, 2, 3 and 4+ successes (``--json``:
``{"pool": N, "difficulty": D, "tiers": {"0": p, "1": p, "2": p, "3": p, "4+": p}}``).
``check`` builds a pool from an attribute rating and its modifiers (or takes ``--pool``),
shows the odds, rolls with a seeded source and names the tier with its menu.
"""

from __future__ import annotations

import secrets
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.table import Table as RichTable

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.dice.fair import SeededSource
from spieltisch.errors import InputError, SpieltischError
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.magical_kitties.data import menu_for_tier
from spieltisch.systems.magical_kitties.odds import TIER_KEYS, tier_odds
from spieltisch.systems.magical_kitties.sheet import PoolParts

__all__ = ["check_command", "kitties_app", "odds_command"]

MAX_COUNT = 20
"""Largest count accepted for injuries, bonus and penalty dice."""


kitties_app = typer.Typer(
    name="kitties", help=help_text("cli.help.kitties"), no_args_is_help=True, add_completion=False
)
"""The ``kitties`` command group."""

app.add_typer(kitties_app, name="kitties")


def _percent(chance: Fraction) -> str:
    text = f"{float(chance) * 100:.2f} %"
    return text.replace(".", ",") if settings.lang == "de" else text


def _tier_name(index: int) -> str:
    return t(f"kitties.tier.{index}")


def _odds_table(
    plain: dict[str, Fraction], rerolled: dict[str, Fraction] | None, want: int
) -> RichTable:
    table = RichTable(show_header=True, header_style="bold")
    table.add_column(t("kitties.cli.col_successes"), justify="right")
    table.add_column(t("kitties.cli.col_tier"))
    table.add_column(t("kitties.cli.col_chance"), justify="right")
    if rerolled is not None:
        table.add_column(t("kitties.cli.col_reroll", want=want), justify="right")
    for index, key in enumerate(TIER_KEYS):
        row = [key, _tier_name(index), _percent(plain[key])]
        if rerolled is not None:
            row.append(_percent(rerolled[key]))
        table.add_row(*row)
    return table


def _check_difficulty(difficulty: int) -> None:
    rules.check_difficulty(difficulty)


JsonOption = Annotated[bool, typer.Option("--json", help=help_text("cli.help.kitties.opt.json"))]
DifficultyOption = Annotated[
    int, typer.Option("--difficulty", "-d", help=help_text("cli.help.kitties.opt.difficulty"))
]
WantOption = Annotated[int, typer.Option("--want", help=help_text("cli.help.kitties.opt.want"))]


@kitties_app.command("odds", help=help_text("cli.help.kitties.odds"))
def odds_command(
    pool: Annotated[int, typer.Option("--pool", "-p", help=help_text("cli.help.kitties.opt.pool"))],
    difficulty: DifficultyOption = 4,
    reroll: Annotated[
        bool, typer.Option("--reroll", help=help_text("cli.help.kitties.opt.reroll"))
    ] = False,
    want: WantOption = 2,
    as_json: JsonOption = False,
) -> None:
    """Exact chances of 0, 1, 2, 3 and 4+ successes."""
    try:
        if want < 1:  # refused with or without --reroll, as `check` does
            raise InputError("kitties.bad_want", value=want)
        tiers = tier_odds(pool, difficulty, reroll=reroll, want=want)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    if as_json:
        emit_json(
            {
                "pool": pool,
                "difficulty": difficulty,
                "tiers": {key: float(value) for key, value in tiers.items()},
            }
        )
        return
    label = t(f"kitties.difficulty.{difficulty}")
    title_key = "kitties.cli.odds_reroll_title" if reroll else "kitties.cli.odds_title"
    table = _odds_table(tiers, None, want)
    table.title = t(title_key, pool=pool, difficulty=difficulty, label=label, want=want)
    settings.console.print(table)


def _count(field: str, value: int) -> int:
    if not 0 <= value <= MAX_COUNT:
        raise InputError("kitties.bad_count", field=field, value=value, max=MAX_COUNT)
    return value


def _parts(
    attribute: int | None,
    pool: int | None,
    *,
    talent: bool,
    power: bool,
    injuries: int,
    bonus: int,
    penalty: int,
    modifier: int,
) -> PoolParts:
    if (attribute is None) == (pool is None):
        raise InputError("kitties.pool_or_attribute")
    counts = {"--injuries": injuries, "--bonus": bonus, "--penalty": penalty}
    for field, value in counts.items():
        _count(field, value)
    if not -MAX_COUNT <= modifier <= MAX_COUNT:
        raise InputError("kitties.bad_count", field="--modifier", value=modifier, max=MAX_COUNT)
    if attribute is not None and not 1 <= attribute <= 4:
        raise InputError("kitties.bad_rating", value=attribute)
    rating = attribute if attribute is not None else pool
    assert rating is not None
    return rules.build_pool(
        rating,
        talent=talent,
        power=power,
        injuries=injuries,
        bonus=bonus,
        penalty=penalty,
        modifier=modifier,
        max_pool=60,
    )


def _parts_text(parts: PoolParts) -> str:
    shown = [f"{t('kitties.part.attribute')} {parts.attribute}"]
    for name in ("talent", "power", "injuries", "bonus", "penalty", "modifier"):
        value = int(getattr(parts, name))
        if value:
            shown.append(f"{t(f'kitties.part.{name}')} {value:+d}")
    return ", ".join(shown)


@kitties_app.command("check", help=help_text("cli.help.kitties.check"))
def check_command(
    attribute: Annotated[
        int | None,
        typer.Option("--attribute", "-a", help=help_text("cli.help.kitties.opt.attribute")),
    ] = None,
    pool: Annotated[
        int | None, typer.Option("--pool", "-p", help=help_text("cli.help.kitties.opt.pool"))
    ] = None,
    talent: Annotated[
        bool, typer.Option("--talent", help=help_text("cli.help.kitties.opt.talent"))
    ] = False,
    power: Annotated[
        bool, typer.Option("--power", help=help_text("cli.help.kitties.opt.power"))
    ] = False,
    injuries: Annotated[
        int, typer.Option("--injuries", help=help_text("cli.help.kitties.opt.injuries"))
    ] = 0,
    bonus: Annotated[
        int, typer.Option("--bonus", help=help_text("cli.help.kitties.opt.bonus"))
    ] = 0,
    penalty: Annotated[
        int, typer.Option("--penalty", help=help_text("cli.help.kitties.opt.penalty"))
    ] = 0,
    modifier: Annotated[
        int, typer.Option("--modifier", help=help_text("cli.help.kitties.opt.modifier"))
    ] = 0,
    difficulty: DifficultyOption = 4,
    want: WantOption = 2,
    seed: Annotated[
        str | None, typer.Option("--seed", help=help_text("cli.help.kitties.opt.seed"))
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Show the odds of a check, roll it, and name its tier and menu."""
    try:
        parts = _parts(
            attribute,
            pool,
            talent=talent,
            power=power,
            injuries=injuries,
            bonus=bonus,
            penalty=penalty,
            modifier=modifier,
        )
        _check_difficulty(difficulty)
        plain = tier_odds(parts.total, difficulty)
        rerolled = tier_odds(parts.total, difficulty, reroll=True, want=want)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    used_seed = seed if seed is not None else str(secrets.randbits(48))
    source = SeededSource(used_seed)
    dice = [source.roll(6) for _ in range(parts.total)]
    successes = rules.count_successes(dice, difficulty)
    tier = int(rules.tier_of(successes))
    menu = menu_for_tier(tier)
    if as_json:
        data: dict[str, Any] = {
            "pool": parts.total,
            "difficulty": difficulty,
            "parts": parts.model_dump(),
            "odds": {key: float(value) for key, value in plain.items()},
            "odds_reroll": {key: float(value) for key, value in rerolled.items()},
            "want": want,
            "seed": used_seed,
            "dice": dice,
            "hits": [die >= difficulty for die in dice],
            "successes": successes,
            "tier": tier,
            "menu": None
            if menu is None
            else {"id": menu.id, "entries": [entry.id for entry in menu.entries]},
        }
        emit_json(data)
        return
    console = settings.console
    console.print(t("kitties.cli.pool", total=parts.total, parts=_parts_text(parts)))
    label = t(f"kitties.difficulty.{difficulty}")
    table = _odds_table(plain, rerolled, want)
    table.title = t("kitties.cli.odds_title", pool=parts.total, difficulty=difficulty, label=label)
    console.print(table)
    console.print(t("kitties.cli.seed", seed=used_seed))
    shown = " ".join(f"[bold green]{d}[/]" if d >= difficulty else f"[dim]{d}[/]" for d in dice)
    console.print(t("kitties.cli.dice", dice=shown), markup=True)
    console.print(
        f"[bold]{t('kitties.cli.result', successes=successes, tier=_tier_name(tier))}[/]",
        markup=True,
    )
    console.print(t(f"kitties.tier_text.{tier}"))
    if menu is not None:
        console.print(t("kitties.cli.menu", title=t(f"kitties.menu_title.{menu.id}")))
        for entry in menu.entries:
            console.print(f"  • {t(f'kitties.menu.{entry.id}')}")
