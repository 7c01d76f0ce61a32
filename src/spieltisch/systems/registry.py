"""The registry of game systems: every built-in system by its stable id.

The engine knows only the contract (:mod:`spieltisch.engine.system`); this module is where the
store, the web and the CLI find a system by the id a table was created with.

A system's code is imported when the system is first asked for, not with the registry: the
store imports the registry, and a process that lists tables or opens one table of one game
(most command-line calls) need not import every game's rules (about half of such a call's
start). The web application asks for every system as it builds its schemas.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import GameSystem

__all__ = ["BUILT_IN", "REGISTRY", "get_system", "system_ids"]

BUILT_IN: dict[str, tuple[str, str]] = {
    "dnd5e": ("spieltisch.systems.dnd5e.system", "Dnd5e"),
    "free-dice": ("spieltisch.systems.freedice.system", "FreeDice"),
    "hexxen": ("spieltisch.systems.hexxen.system", "Hexxen"),
    "kilkenny": ("spieltisch.systems.kilkenny.system", "KilkennySystem"),
    "kreiswanderer": ("spieltisch.systems.kreiswanderer.system", "Kreiswanderer"),
    "magical-kitties": ("spieltisch.systems.magical_kitties.system", "MagicalKitties"),
}
"""Each built-in system's id and where its class lives (module, class name; the class's ``id``
is the key, which the tests check)."""


def _imported(module: str, name: str) -> Callable[[], GameSystem[Any, Any, Any]]:
    """A factory of the class ``name`` of ``module``, imported at its first call."""

    def factory() -> GameSystem[Any, Any, Any]:
        system: Callable[[], GameSystem[Any, Any, Any]] = getattr(
            importlib.import_module(module), name
        )
        return system()

    return factory


REGISTRY: dict[str, Callable[[], GameSystem[Any, Any, Any]]] = {
    system_id: _imported(*where) for system_id, where in BUILT_IN.items()
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
