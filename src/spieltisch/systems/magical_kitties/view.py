"""What a viewer sees of a Magical Kitties table.

The rules keep nothing of the table from the players: sheets, foes (with their difficulty and
Aua-Limit), the humans' and the hometown's problems and the last check are all open. What the
GM keeps to himself he enters as hidden records, and those never reach the state a player
gets (:meth:`spieltisch.engine.table.Table.state_for`). So every viewer sees all of the state
handed to it: the GM's fold for the GM, the shared fold for everyone else.
"""

from __future__ import annotations

from typing import Any

from spieltisch.engine.visibility import Viewer
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.magical_kitties.data import level_lists, menu_for_tier
from spieltisch.systems.magical_kitties.decide import SYSTEM_ID
from spieltisch.systems.magical_kitties.effects import check_tier, last_check_successes
from spieltisch.systems.magical_kitties.sheet import (
    KittiesOptions,
    KittiesState,
    Kitty,
    LastCheck,
    Tier,
)

__all__ = ["public_state", "view"]


def view(state: KittiesState, viewer: Viewer) -> dict[str, Any]:
    """What ``viewer`` sees of ``state`` (the fold it may see): all of it, the same for every
    viewer of that fold (the rules make nothing on the table private)."""
    return public_state(state)


def _kitty_public(kitty: Kitty, options: KittiesOptions) -> dict[str, Any]:
    data = kitty.model_dump(mode="json")
    needed = rules.xp_needed(kitty.level, options)
    data["incapacitated"] = kitty.incapacitated
    data["highest_attribute"] = kitty.attributes.highest
    data["xp_needed"] = needed
    data["can_level_up"] = needed is not None and kitty.xp >= needed
    data["level_lists"] = [
        {
            "id": level_list.id,
            "entries": [
                entry.id
                for entry in level_list.entries
                if not any(p.list == level_list.id and p.entry == entry.id for p in kitty.picks)
            ],
        }
        for level_list in level_lists()
        if level_list.min_level <= kitty.level + 1
    ]
    return data


def _check_public(state: KittiesState, check: LastCheck) -> dict[str, Any]:
    data = check.model_dump(mode="json")
    tier = check_tier(check)
    menu = menu_for_tier(int(tier))
    settled = check.accepted or check.outcome is not None
    kitty = state.kitties.get(check.kitty)
    data["pool"] = check.parts.total
    data["successes"] = last_check_successes(check)
    data["hits"] = [die >= check.difficulty for die in check.dice]
    data["tier"] = int(tier)
    data["menu"] = None
    if menu is not None:
        data["menu"] = {
            "id": menu.id,
            "chooser": menu.chooser.value,
            "open": check.outcome is None,
            "entries": [{"id": e.id, "target": e.target.value} for e in menu.entries],
        }
    data["can_reroll"] = (
        not settled and kitty is not None and (kitty.treats > 0 or kitty.free_treats > 0)
    )
    data["can_accept"] = tier is Tier.FAILURE and not check.accepted
    return data


def public_state(state: KittiesState) -> dict[str, Any]:
    """``state`` as JSON-ready data; see the "Public state" section of the game's docs."""
    options = state.options
    return {
        "system": SYSTEM_ID,
        "options": options.model_dump(mode="json"),
        "episode": {"number": state.episode, "running": state.in_episode},
        "scene": {"number": state.scene, "running": state.in_scene},
        "kitties": [_kitty_public(k, options) for k in state.kitties.values()],
        "foes": [
            {**foe.model_dump(mode="json"), "defeated": foe.defeated} for foe in state.foes.values()
        ],
        "hometown": [p.model_dump(mode="json") for p in state.hometown],
        "checks": state.checks,
        "last_check": (
            None if state.last_check is None else _check_public(state, state.last_check)
        ),
    }
