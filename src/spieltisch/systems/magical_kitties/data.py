"""The game's tables as data: the outcome menus and the level-up lists (``data/*.json``).

The texts of the entries live in the catalogs under ``kitties.menu.<entry id>`` and
``kitties.level.<entry id>``; here are only ids, the tiers a menu belongs to, who chooses,
and the mechanical effect of each entry.
"""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict

__all__ = [
    "Chooser",
    "Effect",
    "LevelEntry",
    "LevelList",
    "Menu",
    "MenuEntry",
    "Target",
    "level_lists",
    "menu_entry",
    "menu_for_tier",
    "menus",
]


class Effect(StrEnum):
    """What choosing a menu entry does to the state (``none``: story only)."""

    NONE = "none"
    SELF_AUA = "self_aua"
    SELF_PENALTY_DIE = "self_penalty_die"
    OTHER_BONUS_DIE = "other_bonus_die"
    HEAL_AUA = "heal_aua"
    ALL_BONUS_DIE = "all_bonus_die"
    SELF_HEAL_INJURY = "self_heal_injury"
    ALL_HEAL_AUA = "all_heal_aua"
    FOE_AUA = "foe_aua"
    FREE_TREAT = "free_treat"


class Target(StrEnum):
    """What an entry needs named: nothing, another kitty, any kitty, a foe (or optionally)."""

    NONE = "none"
    KITTY_OTHER = "kitty_other"
    KITTY_ANY = "kitty_any"
    FOE = "foe"
    FOE_OPTIONAL = "foe_optional"


class Chooser(StrEnum):
    """Who picks from a menu: the GM (complications) or the rolling kitty's player."""

    GM = "gm"
    PLAYER = "player"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MenuEntry(_Frozen):
    """One entry of a menu."""

    id: str
    effect: Effect
    target: Target


class Menu(_Frozen):
    """The complication, bonus or super-bonus menu."""

    id: str
    tiers: tuple[int, ...]
    chooser: Chooser
    entries: tuple[MenuEntry, ...]


class LevelEntry(_Frozen):
    """An improvement in a level list; ``max`` caps an attribute raised from this list."""

    id: str
    max: int | None = None


class LevelList(_Frozen):
    """A level-up list, open to kitties reaching ``min_level`` or higher."""

    id: str
    min_level: int
    entries: tuple[LevelEntry, ...]


class _MenuFile(_Frozen):
    menus: tuple[Menu, ...]


class _LevelFile(_Frozen):
    lists: tuple[LevelList, ...]


def _read(name: str) -> str:
    return resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")


@cache
def menus() -> tuple[Menu, ...]:
    """All outcome menus, in the order of the rules."""
    return _MenuFile.model_validate(json.loads(_read("menus.json"))).menus


@cache
def level_lists() -> tuple[LevelList, ...]:
    """The level-up lists, lowest first."""
    return _LevelFile.model_validate(json.loads(_read("levels.json"))).lists


def menu_for_tier(tier: int) -> Menu | None:
    """The menu a check of ``tier`` offers, or ``None`` (a plain success offers none)."""
    for menu in menus():
        if tier in menu.tiers:
            return menu
    return None


def menu_entry(entry_id: str) -> tuple[Menu, MenuEntry] | None:
    """The menu and entry with id ``entry_id``, or ``None``."""
    for menu in menus():
        for entry in menu.entries:
            if entry.id == entry_id:
                return menu, entry
    return None
