"""``spieltisch hexxen``: exact odds, stat-line parsing and single checks of HeXXen 1733.

``odds --npc N --hunter H`` prints the chance that the NSC (N M-dice) comes out ahead of the
hunter (H HeXXen dice) and the Differenzerfolge (``--json``: ``{"npc_dice", "hunter_dice",
"npc_succeeds", "margins": {"1": p, …}}``; with ``--blood B`` / ``--elixir E`` also the chance
of each number that many Blut or Elixier dice show on a hit). ``parse TEXT`` prints a stat
line as data.
``check --dice N`` rolls a check with a seeded source.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, cast

import typer

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.dice.fair import SeededSource
from spieltisch.engine.statblock import StatLineError
from spieltisch.errors import InputError, SpieltischError
from spieltisch.i18n import error_message
from spieltisch.systems.hexxen import odds as hexxen_odds
from spieltisch.systems.hexxen import rules
from spieltisch.systems.hexxen.decide import roll_check
from spieltisch.systems.hexxen.sheet import HexxenOptions, HexxenState
from spieltisch.systems.hexxen.statblock import parse_line

__all__ = ["check_command", "hexxen_app", "odds_command", "parse_command"]

MAX_DICE = 60
"""Largest pool the command line accepts."""

MAX_SIDE = 30
"""Largest sum of bonus (or malus) sources the command line accepts (capped at 5 after)."""

MAX_SPECIAL = 10
"""Most Blut or Elixier dice the command line accepts."""

hexxen_app = typer.Typer(
    name="hexxen", help=help_text("cli.help.hexxen"), no_args_is_help=True, add_completion=False
)
"""The ``hexxen`` command group."""

app.add_typer(hexxen_app, name="hexxen")

JsonOption = Annotated[bool, typer.Option("--json", help=help_text("cli.help.hexxen.opt.json"))]


def _dice(field: str, value: int) -> int:
    if not 0 <= value <= MAX_DICE:
        raise InputError("hexxen.cli.bad_dice", field=field, value=value, max=MAX_DICE)
    return value


def _mod(field: str, value: int) -> int:
    if not -rules.MAX_MODIFIER <= value <= rules.MAX_MODIFIER:
        raise InputError("hexxen.cli.bad_mod", field=field, value=value)
    return value


def _percent(value: float) -> str:
    text = f"{value * 100:.2f} %"
    return text.replace(".", ",") if settings.lang == "de" else text


def _side(field: str, value: int) -> int:
    if not 0 <= value <= MAX_SIDE:
        raise InputError("hexxen.cli.bad_side", field=field, value=value, max=MAX_SIDE)
    return value


Side = Annotated[int, typer.Option(help=help_text("cli.help.hexxen.opt.side"))]


@hexxen_app.command("odds", help=help_text("cli.help.hexxen.odds"))
def odds_command(
    hunter: Annotated[int, typer.Option("--hunter", help=help_text("cli.help.hexxen.opt.hunter"))],
    npc: Annotated[
        int | None, typer.Option("--npc", help=help_text("cli.help.hexxen.opt.npc"))
    ] = None,
    npc_attribute: Annotated[
        int | None,
        typer.Option("--npc-attribute", help=help_text("cli.help.hexxen.opt.npc_attribute")),
    ] = None,
    npc_mod: Annotated[
        int, typer.Option("--npc-mod", help=help_text("cli.help.hexxen.opt.npc_mod"))
    ] = 0,
    hunter_mod: Annotated[
        int, typer.Option("--hunter-mod", help=help_text("cli.help.hexxen.opt.hunter_mod"))
    ] = 0,
    npc_bonus: Side = 0,
    npc_malus: Side = 0,
    hunter_bonus: Side = 0,
    hunter_malus: Side = 0,
    cap: Annotated[
        str, typer.Option("--cap", help=help_text("cli.help.hexxen.opt.cap"))
    ] = "each_side",
    blood: Annotated[int, typer.Option("--blood", help=help_text("cli.help.hexxen.opt.blood"))] = 0,
    elixir: Annotated[
        int, typer.Option("--elixir", help=help_text("cli.help.hexxen.opt.elixir"))
    ] = 0,
    as_json: JsonOption = False,
) -> None:
    """P(the NSC succeeds) and the distribution of Differenzerfolge. The NSC rolls ``--npc``
    dice (an attack, a power) or its attribute (``--npc-attribute``); each side's bonus and
    malus are the sums of every source, capped per side at 5 and then netted (``--cap net``:
    netted first, the reading of tables made before)."""
    try:
        if (npc is None) == (npc_attribute is None):
            raise InputError("hexxen.cli.npc_or_attribute")
        dice = npc if npc is not None else npc_attribute
        assert dice is not None
        _dice("--npc" if npc is not None else "--npc-attribute", dice)
        _dice("--hunter", hunter)
        _mod("--npc-mod", npc_mod)
        _mod("--hunter-mod", hunter_mod)
        for field, given in (
            ("--npc-bonus", npc_bonus),
            ("--npc-malus", npc_malus),
            ("--hunter-bonus", hunter_bonus),
            ("--hunter-malus", hunter_malus),
        ):
            _side(field, given)
        for field, count in (("--blood", blood), ("--elixir", elixir)):
            if not 0 <= count <= MAX_SPECIAL:
                raise InputError("hexxen.cli.bad_dice", field=field, value=count, max=MAX_SPECIAL)
        if cap not in ("each_side", "net"):
            raise InputError("hexxen.cli.bad_cap", value=cap)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    options = HexxenOptions(modifier_cap=cast(Any, cap))
    npc_net = rules.net_modifier(npc_bonus + max(0, npc_mod), npc_malus + max(0, -npc_mod), options)
    hunter_net = rules.net_modifier(
        hunter_bonus + max(0, hunter_mod), hunter_malus + max(0, -hunter_mod), options
    )
    active = hexxen_odds.pool(dice, npc_net, gm=True)
    defence = hexxen_odds.pool(hunter, hunter_net)
    contest = hexxen_odds.contest(active, defence)
    margins = {str(k): float(v) for k, v in contest.ahead().items()} if dice else {}
    succeeds = float(contest.succeeds())
    special = {
        name: {str(k): float(p) for k, p in enumerate(hexxen_odds.special(letter, count)) if p}
        for name, letter, count in (("blood", "B", blood), ("elixir", "E", elixir))
        if count
    }
    if as_json:
        emit_json(
            {
                "npc_dice": dice,
                "hunter_dice": hunter,
                "npc_net": npc_net,
                "hunter_net": hunter_net,
                "npc_succeeds": succeeds,
                "margins": margins,
                **special,
            }
        )
        return
    console = settings.console
    console.print(t("hexxen.cli.odds", npc=dice, hunter=hunter, chance=_percent(succeeds)))
    for key, value in margins.items():
        console.print(t("hexxen.cli.margin", margin=key, chance=_percent(value)))
    for name, chances in special.items():
        count = blood if name == "blood" else elixir
        console.print(t(f"hexxen.cli.{name}", count=count))
        for key, value in chances.items():
            console.print(t("hexxen.cli.number", number=key, chance=_percent(value)))


@hexxen_app.command("parse", help=help_text("cli.help.hexxen.parse"))
def parse_command(
    text: Annotated[str, typer.Argument(help=help_text("cli.help.hexxen.arg.text"))],
    as_json: JsonOption = False,
) -> None:
    """Parse a stat line (or a whole Wertekasten) into data."""
    try:
        parsed = parse_line(text)
    except StatLineError as error:
        if as_json:
            message = error_message(error, settings.lang)
            emit_json(
                {"error": {"code": error.code, "message": message, "position": error.position}}
            )
            raise typer.Exit(2) from None
        fail(error)
    if as_json:
        emit_json(parsed)
        return
    settings.console.print_json(data=parsed)


@hexxen_app.command("check", help=help_text("cli.help.hexxen.check"))
def check_command(
    dice: Annotated[int, typer.Option("--dice", help=help_text("cli.help.hexxen.opt.dice"))],
    mod: Annotated[int, typer.Option("--mod", help=help_text("cli.help.hexxen.opt.mod"))] = 0,
    gm: Annotated[bool, typer.Option("--gm", help=help_text("cli.help.hexxen.opt.gm"))] = False,
    seed: Annotated[
        str | None, typer.Option("--seed", help=help_text("cli.help.hexxen.opt.seed"))
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Roll a check: HeXXen dice (``--gm``: every symbol counts) and netted Janus dice."""
    try:
        _dice("--dice", dice)
        _mod("--mod", mod)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    used_seed = seed if seed is not None else str(secrets.randbits(48))
    state = HexxenState()
    bonus, malus = (mod, 0) if mod > 0 else (0, -mod)
    roll = roll_check(SeededSource(used_seed), dice, bonus, malus, gm=gm, state=state)
    odds = hexxen_odds.pool(dice, roll.net, gm=gm)
    data: dict[str, Any] = {
        "seed": used_seed,
        "die": roll.die,
        "dice": list(roll.dice),
        "janus": list(roll.janus),
        "net": roll.net,
        "successes": roll.successes,
        "stars": roll.stars,
        "janus_symbols": roll.janus_symbols,
        "result": roll.total,
        "odds": {str(k): float(v) for k, v in enumerate(odds)},
    }
    if as_json:
        emit_json(data)
        return
    console = settings.console
    console.print(t("hexxen.cli.seed", seed=used_seed))
    console.print(t("hexxen.cli.dice", dice=" ".join(map(str, roll.dice)) or "–"))
    console.print(t("hexxen.cli.janus", dice=" ".join(map(str, roll.janus)) or "–", net=roll.net))
    console.print(t("hexxen.cli.result", result=roll.total, count=roll.successes, stars=roll.stars))
