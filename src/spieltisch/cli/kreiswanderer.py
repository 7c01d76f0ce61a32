"""``spieltisch kreiswanderer``: exact odds and single Talentproben of Kreiswanderer.

``odds --value TW --target Z --json`` prints ``{"value", "target", "pass", "critical_success",
"critical_failure", "outcomes": [{"quality", "passed", "probability"}, …], "truncated"}``.
``check --attribute A --depth D --skill S [--mod M] [--target Z] --seed N --json`` rolls one
check with a seeded source and prints ``{"talent_value", "rolls", "result", "passed",
"quality", "critical"}``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.dice.fair import SeededSource
from spieltisch.errors import SpieltischError
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


@kreiswanderer_app.command("odds", help=help_text("cli.help.kreiswanderer.odds"))
def odds_command(
    value: Annotated[
        int, typer.Option("--value", help=help_text("cli.help.kreiswanderer.opt.value"))
    ],
    target: TargetOption = 10,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of a Talentprobe with Talentwert ``value`` against ``target``."""
    found = check_odds(value, target)
    data = {
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
    if as_json:
        emit_json(data)
        return
    console = settings.console
    console.print(t("kreiswanderer.cli.odds", value=value, target=target))
    console.print(t("kreiswanderer.cli.pass", chance=_percent(data["pass"])))  # type: ignore[arg-type]
    console.print(t("kreiswanderer.cli.crit_success", chance=_percent(data["critical_success"])))  # type: ignore[arg-type]
    console.print(t("kreiswanderer.cli.crit_failure", chance=_percent(data["critical_failure"])))  # type: ignore[arg-type]


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
