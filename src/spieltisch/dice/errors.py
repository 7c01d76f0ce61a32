"""Errors of the dice layer: bad notation and expressions past the resource limits.

Every error has a stable code (the key of its localized message in the ``dice`` catalogs)
and names the offending values in its params.
"""

from __future__ import annotations

from typing import Any

from spieltisch.errors import InputError, SpieltischError

__all__ = ["DiceError", "LimitError", "NotationError"]


class DiceError(SpieltischError):
    """Root of the dice layer's errors."""


class NotationError(DiceError, InputError, ValueError):
    """Dice notation that cannot be read or makes no sense.

    Params always include ``position`` (0-based character index), ``found`` (the text found
    there, empty at the end), ``column`` (``position + 1``, for people) and ``expected`` (a
    language-neutral hint of what would fit, such as ``0-9 | d6 / W6``), plus ``value`` (the
    whole expression).
    """

    def __init__(
        self,
        code: str,
        /,
        *,
        value: str,
        position: int,
        found: str,
        expected: str,
        **params: Any,
    ) -> None:
        super().__init__(
            code,
            value=value,
            position=position,
            column=position + 1,
            found=found,
            expected=expected,
            **params,
        )

    @property
    def position(self) -> int:
        """0-based index of the offending character."""
        return int(self.params["position"])

    @property
    def found(self) -> str:
        """The text found at :attr:`position` (empty at the end of the input)."""
        return str(self.params["found"])

    @property
    def expected(self) -> str:
        """What would have fitted at :attr:`position`."""
        return str(self.params["expected"])


class LimitError(DiceError, InputError, ValueError):
    """An expression or roll past a resource limit (too many dice, explosions, outcomes)."""
