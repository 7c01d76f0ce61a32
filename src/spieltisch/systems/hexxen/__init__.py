"""HeXXen 1733, the GM's rules: hunters, NSC, attacks, comparative checks, ongoing effects."""

from spieltisch.systems.hexxen.system import SYSTEM_ID, Hexxen

__all__ = ["SYSTEM_ID", "Hexxen"]
