"""The garbage collector of a server: what lives long stays out of its full passes.

A full collection (the oldest generation) traverses every object that survived earlier ones,
with the interpreter lock held, while every request and WebSocket of every table waits. A
server holds many long-lived objects: what start-up built (modules, schemas, routes: some
150,000) and then the tables it keeps in memory, whose records grow with every command. The
collector runs a full pass each time the survivors grew by a quarter, so on a server that
fills its cache the passes came ever longer (up to about 100 ms in ``bench/table_load.py``
with fifty tables), and they made the fan-out's tail.

:class:`Collector` moves what survived a full pass into the collector's permanent generation
(:func:`gc.freeze`), so the next full pass looks only at what was made since: start-up's
objects at once, every later pass's survivors after it. Objects leave the permanent
generation as usual when nothing refers to them any more (reference counting); only garbage
held in reference cycles among them would stay. So every ``thorough`` seconds the next full
pass looks at everything again (:func:`gc.unfreeze` before it), which collects such cycles:
they stay at most that long. Uninstalling puts everything back, so an application started
and stopped in a longer process (tests) leaves nothing pinned.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

__all__ = ["Collector"]

THOROUGH_SECONDS = 600.0
"""How long garbage held in cycles among long-lived objects may stay, at most (seconds)."""


class Collector:
    """Keeps the survivors of each full collection out of the following ones (see the module).

    ``clock`` gives seconds (monotonic); tests pass their own.
    """

    def __init__(
        self, thorough: float = THOROUGH_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.thorough = thorough
        self._clock = clock
        self._last_thorough = clock()
        self._installed = False
        self.passes = 0
        """Full collections seen since :meth:`install`."""
        self.thorough_passes = 0
        """Of them, how many looked at everything."""

    def install(self) -> None:
        """Freeze what exists now (no collection first: that would cost a full pass, and the
        little start-up garbage stays until the first thorough pass) and watch the passes."""
        if self._installed:
            return
        gc.freeze()
        gc.callbacks.append(self._after)
        self._installed = True
        self._last_thorough = self._clock()

    def uninstall(self) -> None:
        """Stop watching and put every frozen object back under the collector."""
        if not self._installed:
            return
        gc.callbacks.remove(self._after)
        gc.unfreeze()
        self._installed = False

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        """After a full pass: freeze its survivors, or, when the thorough time has come,
        unfreeze everything so that the next full pass looks at all of it."""
        if phase != "stop" or info.get("generation") != 2:
            return
        self.passes += 1
        if gc.get_freeze_count() == 0:  # this pass looked at everything
            self.thorough_passes += 1
            self._last_thorough = self._clock()
        if self._clock() - self._last_thorough >= self.thorough:
            gc.unfreeze()
        else:
            gc.freeze()
