"""Magical Kitties Save the Day: the rules as the game system ``magical-kitties``.

Importing this package registers the system. The parts: :mod:`.sheet` (state models),
:mod:`.rules` (small pure rule functions), :mod:`.commands` and :mod:`.events`,
:mod:`.system` (the :class:`~spieltisch.engine.system.GameSystem`), :mod:`.odds` (exact odds)
and :mod:`.data` (the outcome menus and level lists, read from ``data/*.json``).
"""

from __future__ import annotations

from spieltisch.systems.magical_kitties.system import SYSTEM_ID, MagicalKitties

__all__ = ["SYSTEM_ID", "MagicalKitties"]
