"""Dice, pools, notation, exact odds and fair random sources. Pure: no I/O, no printing.

The main entry points, importable from here (loaded on first use, so that importing
``spieltisch.dice.fair`` alone stays light):

* :func:`parse` — notation → immutable expression tree (``spieltisch.dice.notation``);
* :func:`roll` — roll an expression with an injected dice source (``spieltisch.dice.dice``);
* :func:`distribution` — exact outcome distribution (``spieltisch.dice.odds``).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "DiceError",
    "Distribution",
    "Expression",
    "LimitError",
    "Limits",
    "NotationError",
    "RollResult",
    "distribution",
    "parse",
    "roll",
]

_WHERE = {
    "DiceError": "errors",
    "LimitError": "errors",
    "NotationError": "errors",
    "Expression": "notation",
    "Limits": "notation",
    "parse": "notation",
    "RollResult": "dice",
    "roll": "dice",
    "Distribution": "odds",
    "distribution": "odds",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'spieltisch.dice' has no attribute {name!r}")
    return getattr(importlib.import_module(f"spieltisch.dice.{module}"), name)
