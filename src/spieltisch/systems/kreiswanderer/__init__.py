"""Kreiswanderer: the base rules as the game system ``kreiswanderer``.

The parts: :mod:`.sheet`, :mod:`.rules`, :mod:`.commands`, :mod:`.events`, :mod:`.decide`,
:mod:`.evolve`, :mod:`.view`, :mod:`.odds` and :mod:`.system`; the effect catalog is
``data/markings.json``.
"""

from __future__ import annotations

from spieltisch.systems.kreiswanderer.system import SYSTEM_ID, Kreiswanderer

__all__ = ["SYSTEM_ID", "Kreiswanderer"]
