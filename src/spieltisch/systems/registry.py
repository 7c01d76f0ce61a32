"""The registry of game systems: every built-in system by its stable id.

The engine knows only the contract (:mod:`spieltisch.engine.system`); this module is where the
store, the web and the CLI find a system by the id a table was created with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import GameSystem
from spieltisch.systems.dnd5e.system import Dnd5e
from spieltisch.systems.freedice.system import FreeDice
from spieltisch.systems.hexxen.system import Hexxen
from spieltisch.systems.kilkenny.system import KilkennySystem
from spieltisch.systems.kreiswanderer.system import Kreiswanderer
from spieltisch.systems.magical_kitties.system import MagicalKitties

__all__ = ["REGISTRY", "get_system", "system_ids"]

REGISTRY: dict[str, Callable[[], GameSystem[Any, Any, Any]]] = {
    Dnd5e.id: Dnd5e,
    FreeDice.id: FreeDice,
    Hexxen.id: Hexxen,
    KilkennySystem.id: KilkennySystem,
    Kreiswanderer.id: Kreiswanderer,
    MagicalKitties.id: MagicalKitties,
}
"""System id → factory. Tests may add a system here for their duration."""


def system_ids() -> list[str]:
    """The ids of all registered systems, sorted."""
    return sorted(REGISTRY)


def get_system(system_id: str) -> GameSystem[Any, Any, Any]:
    """The system registered under ``system_id``; :class:`RuleError` if there is none."""
    factory = REGISTRY.get(system_id)
    if factory is None:
        raise RuleError("rule.unknown_system", system=system_id, known=", ".join(sorted(REGISTRY)))
    return factory()
