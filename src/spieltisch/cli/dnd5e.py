"""``spieltisch dnd5e``: exact attack odds, jump distances and move checks of D&D 5e combat.

Stable JSON with ``--json``:

* ``odds --bonus B --ac AC [--advantage] [--disadvantage]`` → ``{"hit": p, "critical": p,
  "miss": p}`` (the critical is part of the hit; both flags given cancel: a normal roll);
* ``jump --strength S [--standing]`` → ``{"long_m": x, "high_m": y}``;
* ``move --scenario FILE`` → ``{"legal", "cost_m", "remaining_m", "opportunity_attacks",
  "error"}`` (see :mod:`spieltisch.systems.dnd5e.scenario`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.errors import InputError, SpieltischError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.odds import attack_odds
from spieltisch.systems.dnd5e.rules import high_jump_m, long_jump_m, resolve_mode
from spieltisch.systems.dnd5e.scenario import MAX_SCENARIO_BYTES, run_scenario

__all__ = ["dnd5e_app", "jump_command", "move_command", "odds_command"]

dnd5e_app = typer.Typer(
    name="dnd5e", help=help_text("cli.help.dnd5e"), no_args_is_help=True, add_completion=False
)
"""The ``dnd5e`` command group."""

app.add_typer(dnd5e_app, name="dnd5e")

JsonOption = Annotated[bool, typer.Option("--json", help=help_text("cli.help.dnd5e.opt.json"))]


def _percent(value: float) -> str:
    text = f"{value * 100:.2f} %"
    return text.replace(".", ",") if settings.lang == "de" else text


def _metres(value: float) -> str:
    text = f"{value:g} m"
    return text.replace(".", ",") if settings.lang == "de" else text


@dnd5e_app.command("odds", help=help_text("cli.help.dnd5e.odds"))
def odds_command(
    bonus: Annotated[int, typer.Option("--bonus", help=help_text("cli.help.dnd5e.opt.bonus"))],
    ac: Annotated[int, typer.Option("--ac", help=help_text("cli.help.dnd5e.opt.ac"))],
    advantage: Annotated[
        bool, typer.Option("--advantage", help=help_text("cli.help.dnd5e.opt.advantage"))
    ] = False,
    disadvantage: Annotated[
        bool, typer.Option("--disadvantage", help=help_text("cli.help.dnd5e.opt.disadvantage"))
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """P(hit), P(critical) and P(miss) of an attack roll."""
    try:
        if not -30 <= bonus <= 30:
            raise InputError("dnd5e.cli.bad_bonus", value=bonus)
        if not 0 <= ac <= 40:
            raise InputError("dnd5e.cli.bad_ac", value=ac)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    mode = resolve_mode(int(advantage), int(disadvantage))  # both given: they cancel
    odds = attack_odds(bonus, ac, mode)
    result = {"hit": float(odds.hit), "critical": float(odds.critical), "miss": float(odds.miss)}
    if as_json:
        emit_json(result)
        return
    settings.console.print(
        t(
            "dnd5e.cli.odds",
            bonus=bonus,
            ac=ac,
            mode=t(f"dnd5e.mode.{mode.value}"),
            hit=_percent(result["hit"]),
            critical=_percent(result["critical"]),
            miss=_percent(result["miss"]),
        )
    )


@dnd5e_app.command("jump", help=help_text("cli.help.dnd5e.jump"))
def jump_command(
    strength: Annotated[
        int, typer.Option("--strength", help=help_text("cli.help.dnd5e.opt.strength"))
    ],
    standing: Annotated[
        bool, typer.Option("--standing", help=help_text("cli.help.dnd5e.opt.standing"))
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Long and high jump of a Strength score, with a run-up or from standing."""
    if not 1 <= strength <= 30:
        fail(InputError("dnd5e.cli.bad_strength", value=strength), as_json=as_json)
    long_m = float(long_jump_m(strength, standing=standing))
    high_m = float(high_jump_m(strength, standing=standing))
    if as_json:
        emit_json({"long_m": long_m, "high_m": high_m})
        return
    key = "dnd5e.cli.jump_standing" if standing else "dnd5e.cli.jump"
    settings.console.print(t(key, strength=strength, long=_metres(long_m), high=_metres(high_m)))


@dnd5e_app.command("move", help=help_text("cli.help.dnd5e.move"))
def move_command(
    scenario: Annotated[
        Path, typer.Option("--scenario", help=help_text("cli.help.dnd5e.opt.scenario"))
    ],
    as_json: JsonOption = False,
) -> None:
    """Check one creature's move on a grid (a JSON scenario file)."""
    try:
        try:
            raw = scenario.read_bytes()[: MAX_SCENARIO_BYTES + 1]
        except OSError:
            raise InputError("dnd5e.scenario.unreadable", path=str(scenario)) from None
        if len(raw) > MAX_SCENARIO_BYTES:
            raise InputError("dnd5e.scenario.too_big", max=MAX_SCENARIO_BYTES)
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise InputError("dnd5e.scenario.bad_json", detail=str(error)) from None
        result = run_scenario(data)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    failure = result.error
    output = {
        "legal": result.legal,
        "cost_m": float(result.cost_m),
        "remaining_m": float(result.remaining_m),
        "opportunity_attacks": [who for who, _ in result.opportunity_attacks],
        "error": None
        if failure is None
        else {
            "code": failure.code,
            "step": result.error_step,
            "message": error_message(failure, settings.lang),
        },
    }
    if as_json:
        emit_json(output)
        return
    key = "dnd5e.cli.move_legal" if result.legal else "dnd5e.cli.move_illegal"
    settings.console.print(
        t(
            key,
            cost=_metres(output["cost_m"]),  # type: ignore[arg-type]
            remaining=_metres(output["remaining_m"]),  # type: ignore[arg-type]
            attacks=", ".join(output["opportunity_attacks"]) or "—",  # type: ignore[arg-type]
            step=result.error_step,
            message=output["error"]["message"] if failure is not None else "",  # type: ignore[index]
        )
    )
