"""What a viewer sees of a free-dice table: the recent rolls, the map, the roster and the fight.

A view lists only the last :data:`ROLLS_SHOWN` rolls: a campaign's log grows for years, and
every older roll is in the records, which the page reads page by page
(``GET /api/tables/{id}/records?before=…``).

The state handed in is already the fold the viewer may see; on top of that a combatant the
GM marked secret is shown only to the GM and its owner (the toolkit's
:func:`~spieltisch.engine.creatures.visible_to`), and with it its place in the order, its
effects and effects whose duration names it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from spieltisch.dice.errors import DiceError
from spieltisch.dice.notation import hints, parse
from spieltisch.engine.creatures import visible_to
from spieltisch.engine.effects import Effect
from spieltisch.engine.grid import square_name
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.freedice.events import EVENTS
from spieltisch.systems.freedice.rules import (
    MOVE,
    ROLLS_KEPT,
    TERRAIN_COST,
    Fighter,
    FreeDiceState,
)

__all__ = ["ROLLS_SHOWN", "view"]

ROLLS_SHOWN = ROLLS_KEPT
"""How many of the latest rolls a view lists (``rolls``, oldest first): all the state keeps."""


@lru_cache(maxsize=1024)
def _hints(expression: str) -> list[str]:
    """The hint codes of a logged expression (``dice.hint.<code>``), derived from its text."""
    try:
        return list(hints(parse(expression)))
    except DiceError:  # pragma: no cover - logged expressions were read when rolled
        return []


_ROLLS_DUMPED: dict[int, tuple[Any, dict[str, Any]]] = {}
"""Each listed roll's JSON data by the event's ``id``, kept with the event itself (an ``id``
reused by another object is not mistaken for it); at most :data:`_ROLLS_DUMPED_MAX`."""

_ROLLS_DUMPED_MAX = 4096


def _roll(event: Any) -> dict[str, Any]:
    """The JSON data of a roll event, dumped once per event: every view lists the same recent
    rolls after each command, and events are frozen, so the views of every table version and
    viewer share each roll's data (read-only, as every view is) instead of dumping it again;
    a patch between two views then finds the rolls they share by identity."""
    known = _ROLLS_DUMPED.get(id(event))
    if known is not None and known[0] is event:
        return known[1]
    data: dict[str, Any] = EVENTS.dump_python(event, mode="json")
    data["hints"] = _hints(event.expression)
    if len(_ROLLS_DUMPED) >= _ROLLS_DUMPED_MAX:
        _ROLLS_DUMPED.clear()
    _ROLLS_DUMPED[id(event)] = (event, data)
    return data


def _until(effect: Effect) -> str:
    phase = effect.duration.phase
    if phase is None:
        return "removed"
    if phase == "round_end":
        return "rounds"
    return str(phase)


def _effect(effect: Effect, state: FreeDiceState, shown: set[str]) -> dict[str, Any]:
    who = effect.duration.who
    return {
        "id": effect.id,
        "name": effect.kind,
        "level": effect.level if effect.id in state.leveled else None,
        "until": _until(effect),
        "remaining": effect.remaining,
        "who": who if who in shown else None,
        "armed": effect.armed,
    }


def _fighter(
    fighter: Fighter, state: FreeDiceState, viewer: Viewer, shown: set[str]
) -> dict[str, Any]:
    creature = fighter.creature
    fighting = state.in_fight(fighter.id)
    return {
        "id": fighter.id,
        "name": creature.name,
        "side": creature.side,
        "colour": fighter.colour,
        "size": creature.size.value,
        "squares": creature.size.squares,
        "secret": creature.secret,
        "claimable": fighter.claimable,
        "mine": fighter.id in viewer.pieces,
        "initiative": fighter.initiative,
        "tiebreak": fighter.tiebreak,
        "roll": fighter.roll,
        "speed": fighter.speed,
        "move_left": str(fighter.budgets.left.get(MOVE, 0)) if fighting else None,
        "position": None if fighter.position is None else square_name(fighter.position),
        "tracks": [
            {"name": name, "current": t.current, "maximum": t.maximum, "floor": t.floor}
            for name, t in creature.tracks.items()
        ],
        "effects": [_effect(x, state, shown) for x in state.effects.on(fighter.id)],
    }


def view(state: FreeDiceState, viewer: Viewer) -> dict[str, Any]:
    """The JSON for ``viewer``: ``rolls`` (the last :data:`ROLLS_SHOWN`), ``map``,
    ``combatants`` and ``fight``."""
    fighters = [f for f in state.fighters if visible_to(f.creature, viewer)]
    shown = {f.id for f in fighters}
    grid = state.grid
    fight = None
    if state.encounter is not None:
        encounter = state.encounter
        current = encounter.current
        fight = {
            "round": encounter.round,
            "current": current if current in shown else None,
            "order": [who for who in encounter.order if who in shown],
            "done": [who for who in encounter.order[: encounter.index] if who in shown],
            "delayed": sorted(who for who in encounter.delayed if who in shown),
        }
    return {
        "rolls": [_roll(event) for event in state.rolls[-ROLLS_SHOWN:]],
        "map": {
            "width": grid.width,
            "height": grid.height,
            "square_m": str(grid.square_m),
            "diagonal": grid.diagonal.value,
            "terrain": {name: sorted(kinds)[0] for name, kinds in sorted(grid.terrain.items())},
            "image": state.image,
            "terrain_kinds": sorted(TERRAIN_COST),
        },
        "combatants": [_fighter(f, state, viewer, shown) for f in fighters],
        "fight": fight,
    }
