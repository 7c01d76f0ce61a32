"""The rules of Magical Kitties Save the Day as small pure functions.

Each function takes values, returns values, and raises :class:`RuleError` with a stable code
``kitties.<reason>`` naming the offending values. Nothing here knows about commands, events or
tables; :mod:`.system` strings these functions together.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from spieltisch.engine.errors import RuleError
from spieltisch.engine.text import Label
from spieltisch.systems.magical_kitties.data import LevelEntry, LevelList, level_lists
from spieltisch.systems.magical_kitties.sheet import (
    ID_PATTERN,
    Attribute,
    Attributes,
    Foe,
    KittiesOptions,
    Kitty,
    PoolParts,
    Power,
    Tier,
)

__all__ = [
    "DIFFICULTIES",
    "MAX_NAME",
    "PROBLEM_CHANGE",
    "build_pool",
    "change_rank",
    "check_difficulty",
    "check_id",
    "check_name",
    "check_pool",
    "count_successes",
    "damage_foe",
    "episode_xp",
    "failure_xp",
    "find_level_entry",
    "heal_auas",
    "heal_injury",
    "pool_parts",
    "take_auas",
    "tier_of",
    "validate_creation",
    "validate_level_up",
    "xp_needed",
]

DIFFICULTIES = range(3, 7)
"""Allowed difficulties: 3 (easy) to 6 (extreme)."""

PROBLEM_CHANGE = range(-3, 4)
"""A problem's rank changes by −3..+3 at an episode's end."""

MAX_NAME = 80
"""Longest name or text on a sheet."""

_ID = re.compile(ID_PATTERN)


def what_label(what: str) -> Label:
    """The display name of a kind of thing on a sheet (``kitties.what.<what>``) for errors."""
    return Label(f"kitties.what.{what}")


def check_id(value: str, what: str) -> str:
    """``value`` if it is a valid id for ``what`` (kitty, foe, problem), else ``kitties.bad_id``."""
    if not _ID.match(value):
        raise RuleError("kitties.bad_id", what=what_label(what), value=value)
    return value


def check_name(value: str, what: str) -> str:
    """``value`` stripped, if it is a non-empty text of at most :data:`MAX_NAME` characters."""
    text = value.strip()
    if not text or len(text) > MAX_NAME:
        raise RuleError("kitties.bad_name", what=what_label(what), value=value, max=MAX_NAME)
    return text


def check_difficulty(value: int) -> int:
    """``value`` if it is a difficulty of 3..6, else ``kitties.bad_difficulty``."""
    if value not in DIFFICULTIES:
        raise RuleError("kitties.bad_difficulty", value=value)
    return value


def validate_creation(
    attributes: Attributes,
    talents: Sequence[str],
    powers: Sequence[Power],
    flaw: str,
    options: KittiesOptions,
) -> None:
    """A new kitty: ratings are the option's set each once; counts of talents and powers fit."""
    ratings = sorted((attributes.cute, attributes.cunning, attributes.fierce))
    if ratings != sorted(options.creation_attributes):
        raise RuleError(
            "kitties.bad_attributes",
            value=[attributes.cute, attributes.cunning, attributes.fierce],
            expected=sorted(options.creation_attributes),
        )
    if len(talents) != options.creation_talents:
        raise RuleError(
            "kitties.bad_talent_count", value=len(talents), expected=options.creation_talents
        )
    if len(powers) != options.creation_powers:
        raise RuleError(
            "kitties.bad_power_count", value=len(powers), expected=options.creation_powers
        )
    for talent in talents:
        check_name(talent, "talent")
    for power in powers:
        check_name(power.name, "power")
        for feature in power.features:
            check_name(feature, "feature")
    check_name(flaw, "flaw")
    for names, what in (
        ([t.casefold() for t in talents], "talent"),
        ([p.name.casefold() for p in powers], "power"),
    ):
        if len(set(names)) != len(names):
            raise RuleError("kitties.duplicate_name", what=what_label(what), value=names)


def count_successes(dice: Iterable[int], difficulty: int) -> int:
    """The number of dice showing ``difficulty`` or more."""
    return sum(1 for die in dice if die >= difficulty)


def tier_of(successes: int) -> Tier:
    """The tier of a check with ``successes`` (four or more is :attr:`Tier.SUPER`)."""
    if successes < 0:
        raise ValueError(f"successes must be ≥ 0, got {successes!r}")
    return Tier(min(successes, int(Tier.SUPER)))


def pool_parts(
    kitty: Kitty,
    attribute: Attribute,
    talent: str | None,
    power: str | None,
    modifier: int,
    options: KittiesOptions,
) -> PoolParts:
    """Build the pool of a check, part by part, and refuse pools the rules forbid.

    Attribute rating, +1 for a fitting talent the kitty has, +2 for a magical power it has
    (once per scene unless the option says otherwise), −1 per injury, the pending bonus and
    penalty dice, and the GM's other ``modifier``. A pool of 0 or less cannot be rolled.
    """
    talent_dice = 0
    if talent is not None:
        if talent.casefold() not in {t.casefold() for t in kitty.talents}:
            raise RuleError("kitties.unknown_talent", kitty=kitty.name, value=talent)
        talent_dice = 1
    power_dice = 0
    if power is not None:
        if power.casefold() not in {p.name.casefold() for p in kitty.powers}:
            raise RuleError("kitties.unknown_power", kitty=kitty.name, value=power)
        if kitty.power_bonus_used and options.power_bonus_once_per_scene:
            raise RuleError("kitties.power_bonus_used", kitty=kitty.name, value=power)
        power_dice = 2
    parts = PoolParts(
        attribute=kitty.attributes.get(attribute),
        talent=talent_dice,
        power=power_dice,
        injuries=-kitty.injuries,
        bonus=kitty.bonus_dice,
        penalty=-kitty.penalty_dice,
        modifier=modifier,
    )
    return check_pool(parts, options.max_pool, kitty.name)


def build_pool(
    rating: int,
    *,
    talent: bool = False,
    power: bool = False,
    injuries: int = 0,
    bonus: int = 0,
    penalty: int = 0,
    modifier: int = 0,
    max_pool: int = 20,
) -> PoolParts:
    """A pool from plain numbers (no sheet): rating, +1 talent, +2 power, −injuries, …"""
    parts = PoolParts(
        attribute=rating,
        talent=int(talent),
        power=2 * int(power),
        injuries=-injuries,
        bonus=bonus,
        penalty=-penalty,
        modifier=modifier,
    )
    return check_pool(parts, max_pool, None)


def check_pool(parts: PoolParts, max_pool: int, kitty: str | None) -> PoolParts:
    """``parts`` if they make a pool of 1..``max_pool`` dice; ``kitties.pool_empty`` at ≤ 0."""
    if parts.total <= 0:
        if kitty is None:
            raise RuleError("kitties.pool_none", value=parts.total)
        raise RuleError("kitties.pool_empty", kitty=kitty, value=parts.total)
    if parts.total > max_pool:
        raise RuleError("kitties.pool_too_large", value=parts.total, max=max_pool)
    return parts


def take_auas(auas: int, injuries: int, limit: int, count: int) -> tuple[int, int]:
    """Auas and injuries after ``count`` more Auas: past the Aua-Limit each becomes an injury."""
    if count < 0:
        raise ValueError(f"count must be ≥ 0, got {count!r}")
    room = max(limit - auas, 0)
    as_auas = min(room, count)
    return auas + as_auas, injuries + (count - as_auas)


def heal_auas(auas: int, count: int = 1) -> int:
    """Auas after removing ``count`` (never below 0)."""
    return max(auas - count, 0)


def heal_injury(injuries: int) -> int:
    """Injuries after removing one (never below 0)."""
    return max(injuries - 1, 0)


def damage_foe(foe: Foe, count: int) -> tuple[Foe, int]:
    """The foe after ``count`` Auas (it stops at its limit) and how many it really took."""
    taken = max(min(count, foe.aua_limit - foe.auas), 0)
    return foe.model_copy(update={"auas": foe.auas + taken}), taken


def xp_needed(level: int, options: KittiesOptions) -> int | None:
    """XP a kitty of ``level`` needs to reach the next level; ``None`` at the maximum level."""
    if level >= options.max_level:
        return None
    return options.xp_per_level[level - 1]


def failure_xp(failures: int, options: KittiesOptions) -> int:
    """XP for the accepted failures of an episode, under the optional per-episode cap."""
    if options.xp_failure_cap is None:
        return failures
    return min(failures, options.xp_failure_cap)


def episode_xp(
    kitty: Kitty, saved_the_day: bool, fun: bool, lesson: bool, options: KittiesOptions
) -> int:
    """XP from the end-of-episode questions: +1 each yes, +1 per accepted failure (capped)."""
    return int(saved_the_day) + int(fun) + int(lesson) + failure_xp(kitty.failures, options)


def change_rank(rank: int, change: int) -> int:
    """A problem's rank after a change of −3..+3; 0 (or less) means solved and returns 0."""
    if change not in PROBLEM_CHANGE:
        raise RuleError("kitties.bad_rank_change", value=change)
    return max(rank + change, 0)


def find_level_entry(list_id: str, entry_id: str) -> tuple[LevelList, LevelEntry]:
    """The level list and entry named, else ``kitties.unknown_level_entry``."""
    for level_list in level_lists():
        if level_list.id == list_id:
            for entry in level_list.entries:
                if entry.id == entry_id:
                    return level_list, entry
    raise RuleError("kitties.unknown_level_entry", list=list_id, value=entry_id)


def validate_level_up(
    kitty: Kitty,
    list_id: str,
    entry_id: str,
    attribute: Attribute | None,
    power: str | None,
    name: str | None,
    options: KittiesOptions,
) -> None:
    """May ``kitty`` rise a level now, taking ``entry_id`` from ``list_id``?

    Enough XP and below the maximum level; the list is open at the new level; the entry was
    not taken from this list before; an attribute stays within the list's cap; a bonus
    feature names a power the kitty has and a new feature; a new talent or power is named and
    new.
    """
    needed = xp_needed(kitty.level, options)
    if needed is None:
        raise RuleError("kitties.max_level", kitty=kitty.name, value=kitty.level)
    if kitty.xp < needed:
        raise RuleError("kitties.not_enough_xp", kitty=kitty.name, value=kitty.xp, needed=needed)
    level_list, entry = find_level_entry(list_id, entry_id)
    new_level = kitty.level + 1
    if level_list.min_level > new_level:
        raise RuleError("kitties.level_list_closed", list=list_id, value=new_level)
    if any(p.list == list_id and p.entry == entry_id for p in kitty.picks):
        raise RuleError("kitties.level_entry_taken", list=list_id, value=entry_id)
    if entry.id == "attribute":
        if attribute is None:
            raise RuleError("kitties.level_needs_attribute", value=entry_id)
        cap = entry.max if entry.max is not None else options.max_level
        if kitty.attributes.get(attribute) + 1 > cap:
            raise RuleError(
                "kitties.attribute_cap",
                value=attribute.value,
                rating=kitty.attributes.get(attribute),
                max=cap,
            )
    elif entry.id == "bonus_feature":
        if power is None or name is None:
            raise RuleError("kitties.level_needs_feature", value=entry_id)
        owned = {p.name.casefold(): p for p in kitty.powers}
        if power.casefold() not in owned:
            raise RuleError("kitties.unknown_power", kitty=kitty.name, value=power)
        feature = check_name(name, "feature")
        if feature.casefold() in {f.casefold() for f in owned[power.casefold()].features}:
            raise RuleError("kitties.duplicate_name", what=what_label("feature"), value=feature)
    elif entry.id in ("talent", "power"):
        if name is None:
            raise RuleError("kitties.level_needs_name", value=entry_id)
        new = check_name(name, entry.id).casefold()
        known = (
            {t.casefold() for t in kitty.talents}
            if entry.id == "talent"
            else {p.name.casefold() for p in kitty.powers}
        )
        if new in known:
            raise RuleError("kitties.duplicate_name", what=what_label(entry.id), value=name)
