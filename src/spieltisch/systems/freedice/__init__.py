"""The ``free-dice`` system: any dice notation at a table, and a generic fight on a battle map.

Rolls (``roll``, open to every player, with exact odds) are where it began; the fight is the
combat toolkit's demonstrator: combatants with initiative, tracks and effects, rounds and
turns, and tokens on a grid with terrain (see ``docs/combat-toolkit.md``).
"""

from spieltisch.systems.freedice.commands import COMMANDS, Roll
from spieltisch.systems.freedice.events import EVENTS, DieFace, Rolled
from spieltisch.systems.freedice.rules import FreeDiceState
from spieltisch.systems.freedice.system import META, SYSTEM_ID, FreeDice

__all__ = [
    "COMMANDS",
    "EVENTS",
    "META",
    "SYSTEM_ID",
    "DieFace",
    "FreeDice",
    "FreeDiceState",
    "Roll",
    "Rolled",
]
