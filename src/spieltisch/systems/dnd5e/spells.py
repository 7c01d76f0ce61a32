"""Spells of the SRD 5.1 as small pure rules: slots, casting time, the one-spell rule, damage
by slot and by character level, attack and save odds, and concentration.

The spells themselves are data (``data/spells.json``, made by ``scripts/srd_import.py``);
:func:`spell_info` reads one into a :class:`Spell`. Rules after the SRD 5.1 (CC-BY-4.0):

* **Slots**: a spell of level *n* is cast with a slot of level *n* or higher (at most 9); a
  cantrip takes no slot. The slots a full caster (bard, cleric, druid, sorcerer, wizard) and a
  half caster (paladin, ranger) have by class level are a table (:data:`SLOTS`).
* **Higher levels**: a spell's damage (and healing) at a slot is the data's entry for that slot.
* **Cantrips** scale with the caster's character level: the entry for 1, 5, 11 or 17, the
  highest not above the level.
* **Casting time**: 1 action, 1 bonus action or 1 reaction in combat; longer ones (minutes,
  hours) cannot be cast in a round. **One-spell rule**: a creature that casts a spell as a
  bonus action in its turn can cast no other spell that turn but a cantrip with a casting time
  of 1 action (and the other way round: after a levelled spell or a cantrip of another casting
  time with its action, no bonus-action spell).
* **Attack spells** roll d20 + the spell attack bonus against AC: a natural 20 is a critical
  and doubles the spell's damage dice, a natural 1 misses. **Save spells** have the target
  roll against the caster's spell save DC; the damage is taken in full on a failure and halved
  (rounded down) on a success where the spell says ``half``, else none.
* **Volleys** (``data/spell_volleys.json``): Magic Missile's darts, Scorching Ray's rays and
  Eldritch Blast's beams are missiles the caster splits over the targets. Their number grows
  with the slot (one more per slot level above the spell's) or, for a cantrip, with the
  character level; each missile deals its own dice (a dart 1d4 + 1, rolled per dart) and,
  where the spell says so, rolls its own attack (:func:`missile_count`, :func:`missile_spell`).
* **Concentration**: a caster concentrates on one spell at a time; casting another
  concentration spell ends the first. Taking damage asks a Constitution save against DC
  max(10, half the damage rounded down), once per source of damage.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size, Square
from spieltisch.systems.dnd5e.actions import ActionOdds
from spieltisch.systems.dnd5e.areas import Template, creatures_in
from spieltisch.systems.dnd5e.data import (
    spell,
    spell_conditions,
    spell_targets,
    spell_volleys,
    spells,
)
from spieltisch.systems.dnd5e.later import Later
from spieltisch.systems.dnd5e.odds import (
    AttackOdds,
    DamageDice,
    Pmf,
    attack_damage,
    attack_odds,
    save_damage,
    save_odds,
)
from spieltisch.systems.dnd5e.rules import Mode

__all__ = [
    "CANTRIP_TIERS",
    "SLOTS",
    "CastingTurn",
    "Spell",
    "Spellcasting",
    "area_odds",
    "cantrip_tier",
    "check_cast",
    "check_slot",
    "concentrate",
    "concentration_dc",
    "concentration_odds",
    "imposed_conditions",
    "innate_ability",
    "innate_level",
    "keeps_concentration",
    "missile_count",
    "missile_spell",
    "missiles_damage",
    "parse_innate",
    "parse_spellcasting",
    "proficiency_bonus",
    "spell_damage_dice",
    "spell_heal_dice",
    "spell_id_of",
    "spell_info",
    "spell_odds",
    "target_limit",
    "targets_apart_m",
    "targets_leap_m",
    "with_innate",
]

CANTRIP_TIERS = (1, 5, 11, 17)
"""The character levels at which a cantrip's damage grows."""

_FULL = (
    (2,),
    (3,),
    (4, 2),
    (4, 3),
    (4, 3, 2),
    (4, 3, 3),
    (4, 3, 3, 1),
    (4, 3, 3, 2),
    (4, 3, 3, 3, 1),
    (4, 3, 3, 3, 2),
    (4, 3, 3, 3, 2, 1),
    (4, 3, 3, 3, 2, 1),
    (4, 3, 3, 3, 2, 1, 1),
    (4, 3, 3, 3, 2, 1, 1),
    (4, 3, 3, 3, 2, 1, 1, 1),
    (4, 3, 3, 3, 2, 1, 1, 1),
    (4, 3, 3, 3, 2, 1, 1, 1, 1),
    (4, 3, 3, 3, 3, 1, 1, 1, 1),
    (4, 3, 3, 3, 3, 2, 1, 1, 1),
    (4, 3, 3, 3, 3, 2, 2, 1, 1),
)
_HALF = (
    (),
    (2,),
    (3,),
    (3,),
    (4, 2),
    (4, 2),
    (4, 3),
    (4, 3),
    (4, 3, 2),
    (4, 3, 2),
    (4, 3, 3),
    (4, 3, 3),
    (4, 3, 3, 1),
    (4, 3, 3, 1),
    (4, 3, 3, 2),
    (4, 3, 3, 2),
    (4, 3, 3, 3, 1),
    (4, 3, 3, 3, 1),
    (4, 3, 3, 3, 2),
    (4, 3, 3, 3, 2),
)
SLOTS: dict[str, tuple[tuple[int, ...], ...]] = {"full": _FULL, "half": _HALF}
"""Spell slots of levels 1, 2, … by class level 1–20: ``SLOTS["full"][4]`` is a 5th-level
wizard's (4, 3, 2). Full casters: bard, cleric, druid, sorcerer, wizard; half: paladin, ranger."""

CastingUnit = Literal["action", "bonus_action", "reaction", "minute", "hour"]


@dataclass(frozen=True)
class Spell:
    """A spell's rules as the table uses them."""

    id: str
    name: str
    level: int
    school: str
    casting_amount: int
    casting_unit: str
    range: str
    range_m: float | None
    area: dict[str, Any] | None
    concentration: bool
    attack: str | None
    save_ability: str | None
    save_success: str | None
    damage_type: str | None
    damage_slot: dict[int, str]
    damage_character: dict[int, str]
    heal: dict[int, str]
    conditions: tuple[str, ...]
    text: tuple[str, ...]

    @property
    def in_combat(self) -> bool:
        """Castable within a round (1 action, bonus action or reaction)."""
        return self.casting_amount == 1 and self.casting_unit in (
            "action",
            "bonus_action",
            "reaction",
        )

    @property
    def mechanical(self) -> bool:
        """The table applies something of it (an attack, a save, damage, healing or a
        condition); else it is cast with its text and slot alone."""
        return bool(
            self.attack or self.save_ability or self.damage_slot or self.damage_character
        ) or bool(self.heal)


def spell_info(spell_id: str) -> Spell:
    """The spell of that id; ``dnd5e.spell.unknown`` otherwise."""
    data = spell(spell_id)
    if data is None:
        raise RuleError("dnd5e.spell.unknown", spell=spell_id)
    damage = data.get("damage", {})
    save = data.get("save") or {}
    return Spell(
        id=spell_id,
        name=data["name"],
        level=data["level"],
        school=data["school"],
        casting_amount=data["casting_time"]["amount"],
        casting_unit=data["casting_time"]["unit"],
        range=data["range"],
        range_m=data.get("range_m"),
        area=data.get("area"),
        concentration=data["concentration"],
        attack=data.get("attack"),
        save_ability=save.get("ability"),
        save_success=save.get("success"),
        damage_type=damage.get("type"),
        damage_slot={int(k): v for k, v in damage.get("slot", {}).items()},
        damage_character={int(k): v for k, v in damage.get("character", {}).items()},
        heal={int(k): v for k, v in data.get("heal", {}).items()},
        conditions=tuple(data.get("conditions", ())),
        text=tuple(data["text"]),
    )


def check_slot(info: Spell, slot: int) -> int:
    """The slot level a casting uses (0 for a cantrip); refused below the spell's level,
    above 9, or any slot for a cantrip."""
    if info.level == 0:
        if slot != 0:
            raise RuleError("dnd5e.spell.cantrip_slot", spell=info.id, slot=slot)
        return 0
    if not info.level <= slot <= 9:
        raise RuleError("dnd5e.spell.bad_slot", spell=info.id, level=info.level, slot=slot)
    return slot


def cantrip_tier(character_level: int) -> int:
    """The highest of 1, 5, 11, 17 not above the character level (1 to 20)."""
    if not 1 <= character_level <= 20:
        raise RuleError("dnd5e.spell.bad_character_level", level=character_level)
    return max(t for t in CANTRIP_TIERS if t <= character_level)


_TERM = re.compile(r"(\d+)d(\d+)|(\d+)|MOD")


def _dice(text: str, modifier: int) -> list[DamageDice]:
    dice: list[DamageDice] = []
    flat = 0
    for term in text.split("+"):
        m = _TERM.fullmatch(term)
        if m is None:  # pragma: no cover - the generated data has no other terms
            raise ValueError(text)
        if m.group(1):
            dice.append(DamageDice(int(m.group(1)), int(m.group(2))))
        elif m.group(3):
            flat += int(m.group(3))
        else:
            flat += modifier
    if flat or not dice:
        if dice:
            last = dice[-1]
            dice[-1] = DamageDice(last.count, last.sides, last.modifier + flat)
        else:
            dice.append(DamageDice(0, 1, flat))
    return dice


def spell_damage_dice(
    info: Spell, slot: int, *, character_level: int = 1, modifier: int = 0
) -> list[DamageDice]:
    """The damage dice of a casting (empty if the spell deals no damage): the entry for the
    slot, or for a cantrip the entry for the caster's tier; ``MOD`` is the spellcasting
    ability modifier."""
    slot = check_slot(info, slot)
    if info.damage_character:
        tier = cantrip_tier(character_level)
        key = max(k for k in info.damage_character if k <= tier)
        return _dice(info.damage_character[key], modifier)
    if info.damage_slot:
        key = max((k for k in info.damage_slot if k <= slot), default=min(info.damage_slot))
        return _dice(info.damage_slot[key], modifier)
    return []


def spell_heal_dice(info: Spell, slot: int, *, modifier: int = 0) -> list[DamageDice]:
    """The healing dice of a casting at ``slot`` (empty if the spell heals nothing)."""
    slot = check_slot(info, slot)
    if not info.heal:
        return []
    key = max((k for k in info.heal if k <= slot), default=min(info.heal))
    return _dice(info.heal[key], modifier)


def target_limit(info: Spell, slot: int, *, edition: int) -> int | None:
    """How many creatures the spell may target with a slot of ``slot`` level (Bless: 3, one
    more per slot level above 1st; Fire Bolt: 1); ``None`` for a spell whose targets the table
    does not count in rules edition ``edition`` (``data/spell_targets.json``)."""
    found = spell_targets().get(info.id)
    if found is None or edition < found.get("edition", 4):
        return None
    return int(found["count"] + found["per_slot"] * max(slot - info.level, 0))


def targets_apart_m(info: Spell) -> Decimal | None:
    """How far apart the spell's targets may be at most (Hold Person: 9 m, Acid Splash:
    1.5 m); ``None`` for a spell whose text sets no such bound (``data/spell_targets.json``)."""
    found = spell_targets().get(info.id, {}).get("apart_m")
    return None if found is None else Decimal(str(found))


def targets_leap_m(info: Spell) -> Decimal | None:
    """How far from the first creature named the others may be (Chain Lightning: 9 m; the
    spell strikes the first and leaps from it to the others); ``None`` for a spell that does
    not leap (``data/spell_targets.json``)."""
    found = spell_targets().get(info.id, {}).get("leap_m")
    return None if found is None else Decimal(str(found))


def missile_count(info: Spell, slot: int, *, character_level: int = 1) -> int:
    """How many missiles a volley spell makes at ``slot`` (a cantrip: at the caster's level);
    0 for a spell that is no volley."""
    volley = spell_volleys().get(info.id)
    if volley is None:
        return 0
    slot = check_slot(info, slot)
    if "character" in volley:
        tier = cantrip_tier(character_level)
        return int(max((int(k), n) for k, n in volley["character"].items() if int(k) <= tier)[1])
    return int(volley["slot"]) + int(volley["per_slot"]) * (slot - info.level)


def missile_spell(info: Spell) -> Spell:
    """One missile of a volley spell as a spell of its own: its dice (at every slot) and its
    attack roll (``ranged``) or none; any other spell as it is."""
    volley = spell_volleys().get(info.id)
    if volley is None:
        return info
    damage = volley.get("damage")
    return replace(
        info,
        attack=None if volley["roll"] == "none" else volley["roll"],
        damage_slot={info.level: damage}
        if damage and not info.damage_character
        else info.damage_slot,
    )


def missiles_damage(one: Pmf, count: int) -> Pmf:
    """The damage of ``count`` independent missiles, each dealing ``one`` (exact)."""
    total: Pmf = {0: Fraction(1)}
    for _ in range(count):
        step: Pmf = {}
        for a, p in total.items():
            for b, q in one.items():
                step[a + b] = step.get(a + b, Fraction(0)) + p * q
        total = step
    return total


def spell_odds(
    info: Spell,
    slot: int,
    *,
    missiles: int | None = None,
    character_level: int = 1,
    modifier: int = 0,
    attack_bonus: int = 0,
    ac: int = 10,
    dc: int = 10,
    save_bonus: int = 0,
    mode: Mode = Mode.NORMAL,
    save_mode: Mode = Mode.NORMAL,
) -> ActionOdds:
    """The odds of one target of a casting: an attack spell against ``ac`` with
    ``attack_bonus``; a save spell against the caster's ``dc`` with the target's
    ``save_bonus``; damage dealt (before resistances) as an exact distribution. A volley
    spell's odds are those of ``missiles`` of its missiles on the target (default: all), each
    with its own attack roll where it rolls one (``hit`` is one missile's)."""
    count = missile_count(info, slot, character_level=character_level)
    if count:
        if missiles is None:
            missiles = count
        if not 1 <= missiles <= count:
            raise RuleError("dnd5e.spell.missiles", spell=info.name, count=count, given=missiles)
        one = _spell_odds(
            missile_spell(info),
            slot,
            character_level=character_level,
            modifier=modifier,
            attack_bonus=attack_bonus,
            ac=ac,
            mode=mode,
        )
        return replace(one, damage=missiles_damage(one.damage, missiles))
    return _spell_odds(
        info,
        slot,
        character_level=character_level,
        modifier=modifier,
        attack_bonus=attack_bonus,
        ac=ac,
        dc=dc,
        save_bonus=save_bonus,
        mode=mode,
        save_mode=save_mode,
    )


def _spell_odds(
    info: Spell,
    slot: int,
    *,
    character_level: int = 1,
    modifier: int = 0,
    attack_bonus: int = 0,
    ac: int = 10,
    dc: int = 10,
    save_bonus: int = 0,
    mode: Mode = Mode.NORMAL,
    save_mode: Mode = Mode.NORMAL,
) -> ActionOdds:
    dice = spell_damage_dice(info, slot, character_level=character_level, modifier=modifier)
    if info.attack:
        odds = attack_odds(attack_bonus, ac, mode)
        return ActionOdds(
            kind="attack",
            name=info.name,
            damage=attack_damage(dice, odds),
            hit=odds.hit,
            critical=odds.critical,
            miss=odds.miss,
            conditions=info.conditions,
        )
    if info.save_ability:
        result = save_damage(dice, save_bonus, dc, half=info.save_success == "half", mode=save_mode)
        return ActionOdds(
            kind="save",
            name=info.name,
            damage=result.damage,
            save_success=result.success,
            conditions=info.conditions,
        )
    # no roll decides (magic missile's darts hit): the dice alone, never a critical
    sure = AttackOdds(hit=Fraction(1), critical=Fraction(0), miss=Fraction(0))
    return ActionOdds(
        kind="effect", name=info.name, damage=attack_damage(dice, sure), conditions=info.conditions
    )


@dataclass(frozen=True)
class CastingTurn:
    """What a creature has cast in its current turn (the one-spell rule's memory)."""

    bonus_action_spell: bool = False
    other_spell: bool = False
    """A spell other than a cantrip of 1 action, cast with the action or a reaction."""
    cantrip_action: bool = False


def check_cast(info: Spell, turn: CastingTurn) -> CastingTurn:
    """Whether ``info`` may be cast now under the one-spell rule; the turn after it.

    Refused: any spell after a bonus-action spell but a cantrip of 1 action; a bonus-action
    spell after any other spell this turn but a cantrip of 1 action; a spell that takes
    longer than a reaction, bonus action or action (``dnd5e.spell.too_long``).
    """
    if not info.in_combat:
        raise RuleError("dnd5e.spell.too_long", spell=info.id)
    action_cantrip = info.level == 0 and info.casting_unit == "action"
    if info.casting_unit == "bonus_action":
        if turn.bonus_action_spell or turn.other_spell:
            raise RuleError("dnd5e.spell.one_spell", spell=info.id)
        return CastingTurn(True, turn.other_spell, turn.cantrip_action)
    if turn.bonus_action_spell and not action_cantrip:
        raise RuleError("dnd5e.spell.one_spell", spell=info.id)
    if action_cantrip:
        return CastingTurn(turn.bonus_action_spell, turn.other_spell, True)
    return CastingTurn(turn.bonus_action_spell, True, turn.cantrip_action)


def concentration_dc(damage: int) -> int:
    """The DC of the Constitution save to keep concentrating after ``damage``:
    max(10, half the damage rounded down)."""
    return max(10, damage // 2)


def concentration_odds(con_bonus: int, damage: int, mode: Mode = Mode.NORMAL) -> Fraction:
    """P(keeping concentration) after ``damage`` with ``con_bonus`` on the save."""
    return save_odds(con_bonus, concentration_dc(damage), mode)


def concentrate(current: str | None, info: Spell) -> tuple[str | None, str | None]:
    """Concentration after casting ``info`` while concentrating on ``current`` (a spell id or
    None): the spell concentrated on now and the one that ends (one at a time; a spell
    without concentration changes nothing)."""
    if not info.concentration:
        return current, None
    return info.id, current


def keeps_concentration(con_total: int, damage: int) -> bool:
    """Whether a Constitution save of ``con_total`` keeps concentration after ``damage``."""
    return con_total >= concentration_dc(damage)


def area_odds(
    info: Spell,
    slot: int,
    template: Template,
    creatures: Mapping[str, tuple[Square, Size, int]],
    width: int,
    height: int,
    *,
    dc: int,
    character_level: int = 1,
    modifier: int = 0,
    modes: Mapping[str, Mode] | None = None,
) -> dict[str, ActionOdds]:
    """The odds of every creature inside an area spell's template (by id; each creature is
    ``(square, size, save bonus)``, its save mode from ``modes``, normal by default)."""
    inside = creatures_in(
        template, {k: (sq, size) for k, (sq, size, _) in creatures.items()}, width, height
    )
    return {
        who: spell_odds(
            info,
            slot,
            character_level=character_level,
            modifier=modifier,
            dc=dc,
            save_bonus=creatures[who][2],
            save_mode=(modes or {}).get(who, Mode.NORMAL),
        )
        for who in inside
    }


# ---------------------------------------------------------------- a caster's spellcasting


def _known_spell(spell_id: str) -> str:
    if spell(spell_id) is None:
        raise ValueError(f"unknown spell {spell_id!r}")
    return spell_id


SpellId = Annotated[
    StrictStr, Field(max_length=40, pattern=r"^[a-z0-9-]+$"), AfterValidator(_known_spell)
]
"""A spell of the SRD by id (``fireball``, ``cure-wounds``)."""


class Spellcasting(Later):
    """What a character sheet or a monster's stat block declares about its spellcasting:
    the ability whose modifier a spell's ``MOD`` is, the caster's level (cantrips scale with
    it), the spell save DC and spell attack bonus, the slots per spell level (1st first) and
    the spells it can cast; ``pact``: the slots are a warlock's pact magic (regained on a
    short rest too)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    later: ClassVar[frozenset[str]] = frozenset({"pact", "innate"})

    ability: Literal["int", "wis", "cha"]
    level: StrictInt = Field(default=1, ge=1, le=20)
    save_dc: StrictInt = Field(ge=1, le=40)
    attack_bonus: StrictInt = Field(ge=-10, le=30)
    slots: tuple[Annotated[StrictInt, Field(ge=0, le=9)], ...] = Field(default=(), max_length=9)
    spells: tuple[SpellId, ...] = Field(default=(), max_length=120)
    pact: StrictBool = False
    innate: dict[SpellId, Annotated[StrictInt, Field(ge=0, le=9)]] = Field(
        default_factory=dict, max_length=60
    )
    """Spells cast innately, without a slot, at their own level: uses per day by spell (0:
    at will); castable whether or not ``spells`` lists them too."""


def spell_id_of(name: str) -> str | None:
    """The id of a spell by its English name, any case (None for none)."""
    return _spell_names().get(name.strip().casefold())


@cache
def _spell_names() -> dict[str, str]:
    return {str(data["name"]).casefold(): key for key, data in spells().items()}


_ABILITY_NAMES = {"intelligence": "int", "wisdom": "wis", "charisma": "cha"}
_CASTER = re.compile(
    r"is an? (\d+)(?:st|nd|rd|th)-level spellcaster\. Its spellcasting ability is "
    r"(\w+) \(spell save DC (\d+), ([+-]\d+) to hit with spell attacks\)"
)
_LIST = re.compile(r"^- (?:Cantrips[^:]*|(\d)(?:st|nd|rd|th) level \((\d+) slots?\)):\s*(.+)$")


@cache
def parse_spellcasting(text: str) -> Spellcasting | None:
    """The spellcasting a stat block's *Spellcasting* trait declares (its level, ability, DC,
    attack bonus, slots and spells); None when the text does not read as one."""
    head = _CASTER.search(text)
    if head is None or head.group(2).lower() not in _ABILITY_NAMES:
        return None
    slots: dict[int, int] = {}
    known: list[str] = []
    for line in text.splitlines():
        found = _LIST.match(line.strip())
        if found is None:
            continue
        if found.group(1):
            slots[int(found.group(1))] = int(found.group(2))
        for name in found.group(3).split(","):
            key = spell_id_of(name.strip().rstrip("*").strip())
            if key is not None:
                known.append(key)
    top = max(slots, default=0)
    return Spellcasting(
        ability=_ABILITY_NAMES[head.group(2).lower()],
        level=int(head.group(1)),
        save_dc=int(head.group(3)),
        attack_bonus=int(head.group(4)),
        slots=tuple(slots.get(n, 0) for n in range(1, top + 1)),
        spells=tuple(dict.fromkeys(known)),
    )


_INNATE_HEAD = re.compile(
    r"spell ?casting ability is (\w+)(?: \(spell save DC (\d+)(?:, ([+-]\d+) to hit with spell "
    r"attacks)?\))?"
)
_INNATE_LINE = re.compile(r"^(?:At will|(\d+)/day(?: each)?):\s*(.+)$")
_INNATE_ONE = re.compile(r"can innately cast ([a-z' -]+?)(?: \(spell save DC (\d+)\))?, requiring")
"""A trait that names one spell in its sentence (the mephits': once a day, the SRD's
*Innate Spellcasting (1/Day)*)."""


@cache
def parse_innate(text: str, derived: tuple[int, int] | None = None) -> Spellcasting | None:
    """The spellcasting a stat block's *Innate Spellcasting* trait declares: its ability, DC
    and attack bonus, and each spell it names with its uses per day (0: at will); None when
    the text does not read as one. ``derived`` is the creature's proficiency bonus and the
    modifier of the trait's ability (rules edition 5): a DC the text does not state is then
    8 + both, an attack bonus it does not state both added, and a trait naming one spell in
    its sentence (the mephits') casts it once a day. Without it (tables of edition 4 and
    before) an unstated DC is 10, an unstated attack bonus +0, and the sentence is not read."""
    head = _INNATE_HEAD.search(text)
    if head is None or head.group(1).lower() not in _ABILITY_NAMES:
        return None
    innate: dict[str, int] = {}
    for line in text.splitlines():
        found = _INNATE_LINE.match(line.strip())
        if found is None:
            continue
        uses = int(found.group(1) or 0)
        for name in found.group(2).split(","):
            key = spell_id_of(re.sub(r"\(.*?\)", "", name).strip().rstrip("*").strip())
            if key is not None:
                innate.setdefault(key, uses)
    stated_dc = head.group(2)
    one = _INNATE_ONE.search(text) if derived is not None and not innate else None
    if one is not None and (key := spell_id_of(one.group(1))) is not None:
        innate[key] = 1
        stated_dc = stated_dc or one.group(2)
    if derived is None:
        dc, attack = int(stated_dc or 10), int(head.group(3) or 0)
    else:
        proficiency, modifier = derived
        dc = int(stated_dc) if stated_dc else 8 + proficiency + modifier
        attack = int(head.group(3)) if head.group(3) else proficiency + modifier
    return Spellcasting(
        ability=_ABILITY_NAMES[head.group(1).lower()],
        save_dc=dc,
        attack_bonus=attack,
        spells=tuple(innate),
        innate=innate,
    )


def innate_ability(text: str) -> str | None:
    """The ability (``int``, ``wis``, ``cha``) an *Innate Spellcasting* trait names."""
    head = _INNATE_HEAD.search(text)
    return _ABILITY_NAMES.get(head.group(1).lower()) if head is not None else None


def proficiency_bonus(challenge: str) -> int:
    """The proficiency bonus of a monster by its challenge rating (SRD: +2 up to CR 4, then
    one more every four ratings, +9 at CR 29 and 30)."""
    return 2 + max(_whole_rating(challenge) - 1, 0) // 4


def _whole_rating(challenge: str) -> int:
    """A challenge rating as a whole number (the fractions 1/8 to 1/2: 0)."""
    return 0 if "/" in challenge else int(challenge)


def innate_level(challenge: str) -> int:
    """The caster level of an innate caster whose stat block states none (no *Spellcasting*
    trait): its challenge rating, rounded down, from 1 to 20 (a CR 1/2 mephit: 1; a CR 11
    djinni: 11, so its cantrips deal three dice; a CR 21 solar: 20). Our reading: the SRD
    gives innate cantrips no level, and a challenge rating stands for a character level."""
    return min(max(_whole_rating(challenge), 1), 20)


def with_innate(found: Spellcasting | None, innate: Spellcasting | None) -> Spellcasting | None:
    """A stat block's spellcasting with its innate spells added (the *Spellcasting* trait's
    DC and bonus where it has both)."""
    if found is None or innate is None:
        return found or innate
    spells = tuple(dict.fromkeys((*found.spells, *innate.spells)))
    return found.model_copy(update={"spells": spells, "innate": {**innate.innate}})


def imposed_conditions(info: Spell) -> tuple[str, ...]:
    """The conditions a failed save against the spell imposes: none for a spell without a
    save or with a save of another kind; else the data's, unless the table of readings
    (``data/spell_conditions.json``) says otherwise (conditions a spell's text only mentions,
    ends or lets the caster choose from are not imposed)."""
    if info.save_success not in ("half", "none"):
        return ()
    return tuple(spell_conditions().get(info.id, info.conditions))
