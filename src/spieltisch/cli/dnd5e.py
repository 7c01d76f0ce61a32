"""``spieltisch dnd5e``: exact odds, the SRD monsters and spells, jump distances and move
checks of D&D 5e combat.

Stable JSON with ``--json``:

* ``odds --bonus B --ac AC [--advantage] [--disadvantage]`` → ``{"hit": p, "critical": p,
  "miss": p}`` (the critical is part of the hit; both flags given cancel: a normal roll);
* ``odds --monster ID --attack NAME [--ac AC] [--save-bonus S]`` and ``odds --spell ID
  [--slot N] [--darts K] [--bonus B --ac AC | --dc DC --save-bonus S] [--level L] [--modifier
  M]`` (``--darts``: how many of a volley spell's darts, rays or beams strike the target;
  default all) →
  ``{"kind": "attack" | "save" | "effect", "name", "hit", "critical", "miss",
  "save_success", "mean_damage", "max_damage", "conditions"}`` (``null`` where the action has
  no such roll; ``save_success`` is the target's; damage before resistances);
* ``monsters`` → ``[{"id", "name", "size", "type", "cr", "ac", "hp", "speeds",
  "attacks", "save_actions"}]`` (speeds in metres; attacks and save actions by name);
* ``monster ID`` → the monster's data (as in the bestiary) plus ``"id"`` and ``"lines"``: every
  attack and save action parsed (see :func:`_line_json`);
* ``spells [--level N]`` → ``[{"id", "name", "level", "school", "casting_time", "range",
  "range_m", "area", "concentration", "attack", "save", "damage"}]`` (``damage``: its type and
  the dice at the spell's own level or a cantrip's first tier);
* ``jump --strength S [--standing]`` → ``{"long_m": x, "high_m": y}``;
* ``move --scenario FILE`` → ``{"legal", "cost_m", "remaining_m", "opportunity_attacks",
  "error"}`` (see :mod:`spieltisch.systems.dnd5e.scenario`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from spieltisch.cli.app import app
from spieltisch.cli.context import emit_json, fail, help_text, settings, t
from spieltisch.errors import InputError, SpieltischError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.actions import action_odds, monster_action, monster_lines, odds_json
from spieltisch.systems.dnd5e.data import bestiary, monster, spells
from spieltisch.systems.dnd5e.odds import attack_odds
from spieltisch.systems.dnd5e.rules import Mode, high_jump_m, long_jump_m, resolve_mode
from spieltisch.systems.dnd5e.scenario import MAX_SCENARIO_BYTES, run_scenario
from spieltisch.systems.dnd5e.spells import (
    missile_count,
    missile_spell,
    spell_damage_dice,
    spell_info,
    spell_odds,
)
from spieltisch.systems.dnd5e.statblock import (
    ABILITIES_DE,
    CONDITIONS_DE,
    DAMAGE_TYPES_DE,
    ActionLine,
    AttackLine,
    format_action,
)

__all__ = [
    "dnd5e_app",
    "jump_command",
    "monster_command",
    "monsters_command",
    "move_command",
    "odds_command",
    "spells_command",
]

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


Opt = typer.Option


@dnd5e_app.command("odds", help=help_text("cli.help.dnd5e.odds"))
def odds_command(
    bonus: Annotated[int | None, Opt("--bonus", help=help_text("cli.help.dnd5e.opt.bonus"))] = None,
    ac: Annotated[int | None, Opt("--ac", help=help_text("cli.help.dnd5e.opt.ac"))] = None,
    advantage: Annotated[
        bool, Opt("--advantage", help=help_text("cli.help.dnd5e.opt.advantage"))
    ] = False,
    disadvantage: Annotated[
        bool, Opt("--disadvantage", help=help_text("cli.help.dnd5e.opt.disadvantage"))
    ] = False,
    monster_id: Annotated[
        str | None, Opt("--monster", help=help_text("cli.help.dnd5e.opt.monster"))
    ] = None,
    attack: Annotated[
        str | None, Opt("--attack", help=help_text("cli.help.dnd5e.opt.attack"))
    ] = None,
    spell_id: Annotated[
        str | None, Opt("--spell", help=help_text("cli.help.dnd5e.opt.spell"))
    ] = None,
    slot: Annotated[int | None, Opt("--slot", help=help_text("cli.help.dnd5e.opt.slot"))] = None,
    darts: Annotated[int | None, Opt("--darts", help=help_text("cli.help.dnd5e.opt.darts"))] = None,
    dc: Annotated[int | None, Opt("--dc", help=help_text("cli.help.dnd5e.opt.dc"))] = None,
    save_bonus: Annotated[
        int, Opt("--save-bonus", help=help_text("cli.help.dnd5e.opt.save_bonus"))
    ] = 0,
    level: Annotated[int, Opt("--level", help=help_text("cli.help.dnd5e.opt.level"))] = 1,
    modifier: Annotated[int, Opt("--modifier", help=help_text("cli.help.dnd5e.opt.modifier"))] = 0,
    as_json: JsonOption = False,
) -> None:
    """P(hit), P(critical) and P(miss) of an attack roll; or the odds of a monster's action or
    of a spell against one target."""
    try:
        if bonus is not None and not -30 <= bonus <= 30:
            raise InputError("dnd5e.cli.bad_bonus", value=bonus)
        if ac is not None and not 0 <= ac <= 40:
            raise InputError("dnd5e.cli.bad_ac", value=ac)
        if not -20 <= save_bonus <= 30:
            raise InputError("dnd5e.cli.bad_bonus", value=save_bonus)
        if dc is not None and not 1 <= dc <= 40:
            raise InputError("dnd5e.cli.bad_dc", value=dc)
        mode = resolve_mode(int(advantage), int(disadvantage))  # both given: they cancel
        if monster_id is not None and spell_id is not None:
            raise InputError("dnd5e.cli.monster_or_spell")
        if monster_id is not None or spell_id is not None:
            if spell_id is not None:
                result = _spell_odds(
                    spell_id, slot, darts, bonus, ac, dc, save_bonus, level, modifier, mode
                )
            else:
                result = _action_odds(monster_id or "", attack, ac, save_bonus, mode)
        elif bonus is None or ac is None:
            raise InputError("dnd5e.cli.odds_what")
    except SpieltischError as error:
        fail(error, as_json=as_json)
    if monster_id is not None or spell_id is not None:
        _print_action_odds(result, as_json)
        return
    assert bonus is not None and ac is not None
    odds = attack_odds(bonus, ac, mode)
    plain = {"hit": float(odds.hit), "critical": float(odds.critical), "miss": float(odds.miss)}
    if as_json:
        emit_json(plain)
        return
    settings.console.print(
        t(
            "dnd5e.cli.odds",
            bonus=bonus,
            ac=ac,
            mode=t(f"dnd5e.mode.{mode.value}"),
            hit=_percent(plain["hit"]),
            critical=_percent(plain["critical"]),
            miss=_percent(plain["miss"]),
        )
    )


def _action_odds(
    monster_id: str, attack: str | None, ac: int | None, save_bonus: int, mode: Mode
) -> dict[str, Any]:
    """The odds of a monster's action against one target."""
    if monster(monster_id) is None:
        raise InputError("dnd5e.unknown_monster", monster=monster_id)
    if attack is None:
        raise InputError("dnd5e.cli.attack_missing", monster=monster_id)
    line = monster_action(monster_id, attack)
    if line is None:
        names = ", ".join(x.name for x in monster_lines(monster_id)) or "—"
        raise InputError("dnd5e.cli.unknown_action", monster=monster_id, attack=attack, names=names)
    if isinstance(line, AttackLine) and ac is None:
        raise InputError("dnd5e.cli.ac_missing", attack=line.name)
    odds = action_odds(line, ac=ac or 10, save_bonus=save_bonus, mode=mode, save_mode=mode)
    return odds_json(odds)


def _spell_odds(
    spell_id: str,
    slot: int | None,
    darts: int | None,
    bonus: int | None,
    ac: int | None,
    dc: int | None,
    save_bonus: int,
    level: int,
    modifier: int,
    mode: Mode,
) -> dict[str, Any]:
    """The odds of a spell against one target; a volley's with ``darts`` of its missiles on
    it (default: all)."""
    try:
        info = spell_info(spell_id)
    except SpieltischError as error:
        raise InputError(error.code, **error.params) from None
    chosen = info.level if slot is None else slot
    if missile_spell(info).attack and (bonus is None or ac is None):
        raise InputError("dnd5e.cli.spell_attack_missing", spell=info.id)
    try:
        count = missile_count(info, chosen, character_level=level)
    except SpieltischError as error:
        raise InputError(error.code, **error.params) from None
    if darts is not None and not count:
        raise InputError("dnd5e.cli.no_darts", spell=info.name)
    if darts is not None and not 1 <= darts <= count:
        raise InputError("dnd5e.cli.bad_darts", spell=info.name, count=count, value=darts)
    if info.save_ability and dc is None:
        raise InputError("dnd5e.cli.spell_dc_missing", spell=info.id)
    try:
        odds = spell_odds(
            info,
            chosen,
            missiles=darts,
            character_level=level,
            modifier=modifier,
            attack_bonus=bonus or 0,
            ac=ac or 10,
            dc=dc or 10,
            save_bonus=save_bonus,
            mode=mode,
            save_mode=mode,
        )
    except SpieltischError as error:
        raise InputError(error.code, **error.params) from None
    missiles = {"darts": darts or count} if count else {}
    return odds_json(odds) | {"slot": chosen} | missiles


def _print_action_odds(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(result)
        return
    parts = []
    if result["hit"] is not None:
        parts.append(
            t(
                "dnd5e.cli.odds_hit",
                hit=_percent(result["hit"]),
                critical=_percent(result["critical"]),
            )
        )
    if result["save_success"] is not None:
        parts.append(t("dnd5e.cli.odds_save", save=_percent(result["save_success"])))
    mean = f"{result['mean_damage']:.2f}"
    parts.append(
        t(
            "dnd5e.cli.odds_damage",
            mean=mean.replace(".", ",") if settings.lang == "de" else mean,
            max=result["max_damage"],
        )
    )
    if result["conditions"]:
        parts.append(", ".join(_condition_name(c) for c in result["conditions"]))
    settings.console.print(f"{result['name']}: " + "; ".join(parts), highlight=False)


def _condition_name(name: str) -> str:
    return CONDITIONS_DE.get(name, name) if settings.lang == "de" else name


def _ability(name: str) -> str:
    return ABILITIES_DE.get(name, name) if settings.lang == "de" else name


def _type_name(name: str) -> str:
    return DAMAGE_TYPES_DE.get(name, name) if settings.lang == "de" else name


def _speeds_text(speeds: dict[str, float]) -> str:
    return ", ".join(f"{t(f'dnd5e.cli.speed.{k}')} {_metres(v)}" for k, v in speeds.items())


def _line_json(line: ActionLine, text: str) -> dict[str, Any]:
    """One parsed action: ``{"kind": "attack", "name", "line", "bonus", "damage": [{"dice",
    "type"}], "reach_m", "range_m", "melee", "conditions", "save", "recharge"}`` or ``{"kind":
    "save", "name", "line", "save": {"dc", "ability", "damage", "half", "conditions"}, "area":
    {"shape", "size_m", "width_m"} | null, "recharge"}``; metres as strings."""

    def damage(parts: Any) -> list[dict[str, str]]:
        return [{"dice": str(p.dice), "type": p.type} for p in parts]

    def save(effect: Any) -> dict[str, Any] | None:
        if effect is None:
            return None
        return {
            "dc": effect.dc,
            "ability": effect.ability,
            "damage": damage(effect.damage),
            "half": effect.half,
            "conditions": list(effect.conditions),
        }

    if isinstance(line, AttackLine):
        return {
            "kind": "attack",
            "name": line.name,
            "line": text,
            "bonus": line.bonus,
            "damage": damage(line.damage),
            "reach_m": line.reach_m if line.melee else None,
            "range_m": list(line.range_m) if line.range_m else None,
            "melee": line.melee,
            "conditions": list(line.conditions),
            "save": save(line.rider),
            "recharge": line.recharge,
        }
    return {
        "kind": "save",
        "name": line.name,
        "line": text,
        "save": save(line.save),
        "area": None if line.area is None else line.area.model_dump(),
        "recharge": line.recharge,
    }


@dnd5e_app.command("monsters", help=help_text("cli.help.dnd5e.monsters"))
def monsters_command(as_json: JsonOption = False) -> None:
    """Every SRD monster: size, challenge, AC, HP, speeds and actions."""
    rows = [
        {
            "id": key,
            "name": m["name"],
            "size": m["size"],
            "type": m["type"],
            "cr": m["cr"],
            "ac": m["ac"],
            "hp": m["hp"],
            "speeds": m["speeds"],
            "attacks": [x.split(":", 1)[0] for x in m["attacks"]],
            "save_actions": [x.split(":", 1)[0] for x in m.get("save_actions", ())],
        }
        for key, m in bestiary().items()
    ]
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        settings.console.print(
            t(
                "dnd5e.cli.monster_row",
                id=row["id"],
                name=row["name"],
                size=t(f"web.dnd5e.size.{row['size']}"),
                cr=row["cr"],
                ac=row["ac"],
                hp=row["hp"],
                speeds=_speeds_text(row["speeds"]),
            ),
            highlight=False,
        )


@dnd5e_app.command("monster", help=help_text("cli.help.dnd5e.monster"))
def monster_command(
    monster_id: Annotated[str, typer.Argument(help=help_text("cli.help.dnd5e.arg.monster"))],
    as_json: JsonOption = False,
) -> None:
    """One SRD monster's statistics and its actions as stat lines."""
    stats = monster(monster_id)
    if stats is None:
        fail(InputError("dnd5e.unknown_monster", monster=monster_id), as_json=as_json)
    lines = monster_lines(monster_id)
    texts = list(stats["attacks"]) + list(stats.get("save_actions", ()))
    if as_json:
        emit_json(
            {
                "id": monster_id,
                **stats,
                "lines": [_line_json(x, s) for x, s in zip(lines, texts, strict=True)],
            }
        )
        return
    out = settings.console
    out.print(
        t(
            "dnd5e.cli.monster_head",
            name=stats["name"],
            size=t(f"web.dnd5e.size.{stats['size']}"),
            type=stats["type"],
            cr=stats["cr"],
        ),
        highlight=False,
    )
    out.print(
        t(
            "dnd5e.cli.monster_stats",
            ac=stats["ac"],
            hp=stats["hp"],
            dice=stats["hit_dice"],
            speeds=_speeds_text(stats["speeds"]),
        ),
        highlight=False,
    )
    abilities = "  ".join(f"{_ability(k).upper()} {v}" for k, v in stats["abilities"].items())
    out.print(abilities, highlight=False)
    for key in ("resistances", "immunities", "vulnerabilities"):
        if stats.get(key):
            out.print(
                t(f"dnd5e.cli.{key}", types=", ".join(_type_name(x) for x in stats[key])),
                highlight=False,
            )
    if stats.get("multiattack_text"):
        out.print(t("dnd5e.cli.multiattack", text=stats["multiattack_text"]), highlight=False)
    for line in lines:
        out.print("  " + format_action(line, settings.lang), highlight=False)
    for legendary in stats.get("legendary_actions", ()):
        out.print(
            t("dnd5e.cli.legendary", name=legendary["name"], cost=legendary["cost"]),
            highlight=False,
        )


@dnd5e_app.command("spells", help=help_text("cli.help.dnd5e.spells"))
def spells_command(
    level: Annotated[
        int | None, Opt("--level", help=help_text("cli.help.dnd5e.opt.spell_level"))
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Every SRD spell (or those of one level): school, casting time, range, area, save and
    damage."""
    if level is not None and not 0 <= level <= 9:
        fail(InputError("dnd5e.cli.bad_spell_level", value=level), as_json=as_json)
    rows = []
    for key, s in spells().items():
        if level is not None and s["level"] != level:
            continue
        info = spell_info(key)
        dice = spell_damage_dice(info, info.level)
        rows.append(
            {
                "id": key,
                "name": s["name"],
                "level": s["level"],
                "school": s["school"],
                "casting_time": s["casting_time"],
                "range": s["range"],
                "range_m": s.get("range_m"),
                "area": s.get("area"),
                "concentration": s["concentration"],
                "attack": s.get("attack"),
                "save": s.get("save"),
                "damage": None
                if not dice
                else {"type": info.damage_type, "dice": "+".join(str(d) for d in dice)},
            }
        )
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        cast = row["casting_time"]
        extra = []
        if row["save"]:
            extra.append(t("dnd5e.cli.spell_save", ability=_ability(row["save"]["ability"])))
        if row["attack"]:
            extra.append(t(f"dnd5e.cli.spell_attack.{row['attack']}"))
        if row["damage"]:
            kind = _type_name(row["damage"]["type"] or "")
            dice = row["damage"]["dice"]
            extra.append(
                f"{dice.replace('d', 'W') if settings.lang == 'de' else dice} {kind}".strip()
            )
        if row["area"]:
            extra.append(
                f"{t('dnd5e.cli.area.' + row['area']['shape'])} {_metres(row['area']['size_m'])}"
            )
        distance = (
            _metres(row["range_m"])
            if row["range_m"] is not None
            else t(f"dnd5e.cli.range.{row['range']}")
        )
        settings.console.print(
            t(
                "dnd5e.cli.spell_row",
                id=row["id"],
                name=row["name"],
                level=row["level"],
                school=t(f"dnd5e.cli.school.{row['school']}"),
                cast=t(f"dnd5e.cli.cast.{cast['unit']}", amount=cast["amount"]),
                range=distance,
                extra="".join(f"; {x}" for x in extra),
                concentration=t("dnd5e.cli.concentration") if row["concentration"] else "",
            ),
            highlight=False,
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
