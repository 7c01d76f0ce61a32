"""``spieltisch kreiswanderer``: exact odds and single Talentproben of Kreiswanderer.

``odds --value TW --target Z --json`` prints ``{"value", "target", "pass", "critical_success",
"critical_failure", "outcomes": [{"quality", "passed", "probability"}, …], "truncated"}``.
``--mode`` asks for other checks (every answer stable JSON, see docs/games/kreiswanderer.md):
``comparative`` (``--value`` and ``--opponent``, ``--tie``), ``combined`` (``--value`` once per
skill: the lowest counts), ``accumulated`` (``--rolls N``: the outcome after N rolls; or
``--quality Q`` with ``--rolls N``: the chance to reach Q within 1…N rolls; ``--reading``)
and ``attack`` (``--bonus``, ``--resistance``, ``--protection``, ``--extra``: hit and the
hit points lost).
``check --attribute A --depth D --skill S [--mod M] [--target Z] --seed N --json`` rolls one
check with a seeded source and prints ``{"talent_value", "rolls", "result", "passed",
"quality", "critical"}``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

import typer

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.dice.fair import SeededSource
from spieltisch.errors import InputError, SpieltischError
from spieltisch.systems.kreiswanderer import odds as kodds
from spieltisch.systems.kreiswanderer import rules
from spieltisch.systems.kreiswanderer.odds import check_odds

__all__ = ["check_command", "kreiswanderer_app", "odds_command"]

MAX_EXPLOSIONS = 100
"""At most this many dice in one roll of the CLI."""

kreiswanderer_app = typer.Typer(
    name="kreiswanderer",
    help=help_text("cli.help.kreiswanderer"),
    no_args_is_help=True,
    add_completion=False,
)
"""The ``kreiswanderer`` command group."""

app.add_typer(kreiswanderer_app, name="kreiswanderer")

JsonOption = Annotated[
    bool, typer.Option("--json", help=help_text("cli.help.kreiswanderer.opt.json"))
]
TargetOption = Annotated[
    int, typer.Option("--target", help=help_text("cli.help.kreiswanderer.opt.target"))
]


def _percent(chance: float) -> str:
    text = f"{chance * 100:.4f} %"
    return text.replace(".", ",") if settings.lang == "de" else text


MODES = ("check", "comparative", "combined", "accumulated", "attack")
"""The kinds of check ``odds --mode`` answers."""
MAX_ROLLS = 50
"""Most rolls of an accumulated check the command line computes."""


def _option(name: str, key: str) -> Any:
    return typer.Option(name, help=help_text(f"cli.help.kreiswanderer.opt.{key}"))


def _floats(found: dict[str, Any]) -> dict[str, Any]:
    return {k: float(v) if isinstance(v, Fraction) else v for k, v in found.items()}


def _single(value: int, target: int) -> dict[str, Any]:
    found = check_odds(value, target)
    return {
        "value": value,
        "target": target,
        "pass": float(found["pass"]),
        "critical_success": float(found["critical_success"]),
        "critical_failure": float(found["critical_failure"]),
        "outcomes": [
            {"quality": o["quality"], "passed": o["passed"], "probability": float(o["probability"])}
            for o in found["outcomes"]
        ],
        "truncated": float(found["truncated"]),
    }


def _refuse(mode: str, need: str) -> InputError:
    return InputError("kreiswanderer.cli.bad_odds", mode=mode, need=need)


def odds_data(
    mode: str,
    values: list[int],
    target: int,
    *,
    opponent: int | None = None,
    tie: str = "passive",
    rolls: int | None = None,
    quality: int | None = None,
    reading: str = "dice",
    bonus: int = 0,
    resistance: int = 0,
    protection: int = 0,
    extra: int = 0,
) -> dict[str, Any]:
    """The JSON ``odds`` prints for ``mode`` (``kreiswanderer.cli.bad_odds`` for options
    that do not fit it)."""
    if mode not in MODES:
        raise InputError("kreiswanderer.cli.bad_mode", value=mode, known=", ".join(MODES))
    if len(values) != 1 and mode != "combined":
        raise _refuse(mode, "--value")
    if mode == "check":
        return _single(values[0], target)
    if mode == "combined":
        return {"mode": mode, "values": values, **_single(min(values), target)}
    if mode == "comparative":
        if opponent is None or tie not in ("passive", "active"):
            raise _refuse(mode, "--opponent")
        found = kodds.comparative_odds(values[0], opponent, tie)
        return {
            "mode": mode,
            "value": values[0],
            "opponent": opponent,
            "tie": tie,
            **_floats(found),
        }
    if mode == "attack":
        damage = kodds.attack_odds(values[0], target, bonus, resistance, protection, extra)
        miss = damage.pop("miss", Fraction(0))
        return {
            "mode": mode,
            "value": values[0],
            "target": target,
            "hit": float(1 - miss),
            "damage": [{"damage": int(d), "probability": float(p)} for d, p in damage.items()],
            "truncated": float(kodds.TAIL),
        }
    if rolls is None or not 1 <= rolls <= MAX_ROLLS or reading not in ("dice", "every_roll"):
        raise _refuse(mode, "--rolls")
    head = {"mode": mode, "value": values[0], "target": target, "reading": reading}
    if quality is not None:
        within = kodds.accumulated_within(values[0], target, quality, rolls, reading)
        return {
            **head,
            "quality": quality,
            "within": [{"rolls": n + 1, "probability": float(p)} for n, p in enumerate(within)],
        }
    after = kodds.accumulated_outcomes(values[0], target, rolls, reading)
    return {
        **head,
        "rolls": rolls,
        **_floats({k: v for k, v in after.items() if k != "outcomes"}),
        "outcomes": [{**o, "probability": float(o["probability"])} for o in after["outcomes"]],
    }


@kreiswanderer_app.command("odds", help=help_text("cli.help.kreiswanderer.odds"))
def odds_command(
    value: Annotated[list[int], _option("--value", "value")],
    target: TargetOption = 10,
    mode: Annotated[str, _option("--mode", "mode")] = "check",
    opponent: Annotated[int | None, _option("--opponent", "opponent")] = None,
    tie: Annotated[str, _option("--tie", "tie")] = "passive",
    rolls: Annotated[int | None, _option("--rolls", "rolls")] = None,
    quality: Annotated[int | None, _option("--quality", "quality")] = None,
    reading: Annotated[str, _option("--reading", "reading")] = "dice",
    bonus: Annotated[int, _option("--bonus", "bonus")] = 0,
    resistance: Annotated[int, _option("--resistance", "resistance")] = 0,
    protection: Annotated[int, _option("--protection", "protection")] = 0,
    extra: Annotated[int, _option("--extra", "extra")] = 0,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of a Talentprobe (or of the check ``mode`` names)."""
    try:
        data = odds_data(
            mode,
            value,
            target,
            opponent=opponent,
            tie=tie,
            rolls=rolls,
            quality=quality,
            reading=reading,
            bonus=bonus,
            resistance=resistance,
            protection=protection,
            extra=extra,
        )
    except SpieltischError as error:
        fail(error, as_json=as_json)
    if as_json:
        emit_json(data)
        return
    console = settings.console
    if mode == "check":
        console.print(t("kreiswanderer.cli.odds", value=value[0], target=target))
        console.print(t("kreiswanderer.cli.pass", chance=_percent(data["pass"])))
        console.print(
            t("kreiswanderer.cli.crit_success", chance=_percent(data["critical_success"]))
        )
        console.print(
            t("kreiswanderer.cli.crit_failure", chance=_percent(data["critical_failure"]))
        )
        return
    console.print(t("kreiswanderer.cli.odds_mode", mode=mode))
    for key, chance in data.items():
        if isinstance(chance, float) and key != "truncated":
            console.print(t("kreiswanderer.cli.chance", what=key, chance=_percent(chance)))
    for row in data.get("within", []):
        console.print(
            t("kreiswanderer.cli.within", rolls=row["rolls"], chance=_percent(row["probability"]))
        )
    for row in data.get("damage", []):
        console.print(
            t("kreiswanderer.cli.damage", damage=row["damage"], chance=_percent(row["probability"]))
        )


@kreiswanderer_app.command("check", help=help_text("cli.help.kreiswanderer.check"))
def check_command(
    attribute: Annotated[
        int, typer.Option("--attribute", help=help_text("cli.help.kreiswanderer.opt.attribute"))
    ],
    depth: Annotated[
        int, typer.Option("--depth", help=help_text("cli.help.kreiswanderer.opt.depth"))
    ],
    skill: Annotated[
        int, typer.Option("--skill", help=help_text("cli.help.kreiswanderer.opt.skill"))
    ],
    seed: Annotated[str, typer.Option("--seed", help=help_text("cli.help.kreiswanderer.opt.seed"))],
    mod: Annotated[
        int, typer.Option("--mod", help=help_text("cli.help.kreiswanderer.opt.mod"))
    ] = 0,
    target: TargetOption = 10,
    as_json: JsonOption = False,
) -> None:
    """Roll one Talentprobe with a seeded source."""
    try:
        value = rules.talent_value(attribute, depth, skill, mod)
    except SpieltischError as error:
        fail(error, as_json=as_json)
    source = SeededSource(seed)
    rolls = rules.roll_exploding(source.roll, MAX_EXPLOSIONS)
    outcome = rules.evaluate(value + sum(rolls), target)
    if as_json:
        emit_json(
            {
                "talent_value": value,
                "rolls": rolls,
                "result": outcome.result,
                "passed": outcome.passed,
                "quality": outcome.quality,
                "critical": outcome.critical,
            }
        )
        return
    key = "kreiswanderer.cli.passed" if outcome.passed else "kreiswanderer.cli.failed"
    settings.console.print(
        t(
            key,
            value=value,
            rolls=" + ".join(str(r) for r in rolls),
            result=outcome.result,
            target=target,
            quality=outcome.quality,
        )
    )
    if outcome.critical is not None:
        settings.console.print(t(f"kreiswanderer.cli.critical_{outcome.critical}"))
