"""What a viewer sees of a D&D 5e table.

Everything of the fold handed in is open, except creatures the GM entered as secret: those are
absent for viewers who do not own them (the toolkit's one rule, :func:`visible_to`). Pending
reactions naming a hidden creature are left out with it.
"""

from __future__ import annotations

from typing import Any

from spieltisch.engine.creatures import Creature, visible_to
from spieltisch.engine.grid import square_name
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.dnd5e.game import kinds_on
from spieltisch.systems.dnd5e.movement import TurnMovement, speed_for
from spieltisch.systems.dnd5e.state import DndState, Fighter

__all__ = ["view"]


def _seen(fighter: Fighter, viewer: Viewer) -> bool:
    creature = Creature(
        id=fighter.id, side=fighter.side, owner=fighter.owner, secret=fighter.secret
    )
    return visible_to(creature, viewer)


def _fighter(state: DndState, fighter: Fighter) -> dict[str, Any]:
    data = fighter.model_dump(mode="json")
    data["position"] = square_name(fighter.position) if fighter.position else None
    data["conditions"] = sorted(kinds_on(state, fighter.id))
    budgets = state.budgets.get(fighter.id)
    data["budgets"] = {k: str(v) for k, v in budgets.left.items()} if budgets else {}
    movement = state.movement.get(fighter.id, TurnMovement())
    data["movement"] = movement.model_dump(mode="json")
    from spieltisch.systems.dnd5e.game import _body  # the body the rules see

    if fighter.position is not None:
        body = _body(state, fighter)
        left = {}
        for mode in fighter.speeds:
            _, speed, _ = speed_for(body, mode)
            left[mode] = str(max(speed * (1 + movement.dashes) - movement.spent, 0))
        data["movement_left"] = left
    return data


def view(state: DndState, viewer: Viewer) -> dict[str, Any]:
    """The table as JSON-ready data for ``viewer``."""
    seen = {f.id for f in state.fighters.values() if _seen(f, viewer)}
    fight = state.encounter
    order = [] if fight is None else [c for c in fight.order if c in seen]
    pending = state.pending
    pending_view = None
    if pending is not None and pending.mover in seen:
        pending_view = {
            "mover": pending.mover,
            "reactors": [r for r in pending.reactors if r in seen],
            "steps": [s.model_dump(mode="json") for s in pending.steps],
        }
    return {
        "system": "dnd5e",
        "options": state.options.model_dump(mode="json"),
        "grid": {
            "width": state.grid.width,
            "height": state.grid.height,
            "square_m": str(state.grid.square_m),
            "diagonal": state.options.diagonal,
        },
        "fighters": [_fighter(state, f) for f in state.fighters.values() if f.id in seen],
        "combat": None
        if fight is None
        else {
            "round": fight.round,
            "order": order,
            "current": fight.current if fight.current in seen else None,
        },
        "pending_reaction": pending_view,
    }
