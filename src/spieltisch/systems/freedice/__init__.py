"""The ``free-dice`` system: roll any dice notation at a table, with a log and exact odds.

It is the smallest complete :class:`~spieltisch.engine.system.GameSystem` and proves the
contract end to end: one command (``roll``), one event (``rolled``), odds from the exact
engine, open to every player.
"""

from spieltisch.systems.freedice.system import (
    COMMANDS,
    EVENTS,
    SYSTEM_ID,
    DieFace,
    FreeDice,
    FreeDiceState,
    Roll,
    Rolled,
)

__all__ = [
    "COMMANDS",
    "EVENTS",
    "SYSTEM_ID",
    "DieFace",
    "FreeDice",
    "FreeDiceState",
    "Roll",
    "Rolled",
]
