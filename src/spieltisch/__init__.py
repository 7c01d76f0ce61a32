"""Spieltisch: a rules-aware game table for five tabletop games.

Layers, imported top to bottom only: ``cli``/``web`` → ``store`` → ``systems`` → ``engine`` →
``dice``. Everything below the edges is pure: it returns data and never prints.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
