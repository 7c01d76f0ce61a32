"""Heavy work off the event loop: odds previews and AI moves in a bounded process pool.

A preview of exact odds or an AI seat's move can take a core for a while. Run in the server's
threads it would hold the interpreter lock and stall every other table's requests, so both run
in a :class:`pebble.ProcessPool` of ``size`` processes, each task with a time limit: past it
the process is killed (and replaced) and the request gets ``api.too_slow`` (503). The pool's
processes are forked from a small server process that imported the game systems once
(``forkserver``), so starting or replacing one is fast and never copies the web server's
threads.

Only data crosses into the pool: the game system object (a few bytes: its class is pickled by
reference, so a system registered at run time works too), the state and the command.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import pickle
import threading
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

from pebble import ProcessExpired, ProcessPool
from pydantic import TypeAdapter

from spieltisch.dice import cost
from spieltisch.engine.system import GameSystem, Odds
from spieltisch.errors import SpieltischError
from spieltisch.systems.registry import BUILT_IN

__all__ = ["PoolSettings", "TooSlow", "Workers", "automatic_in_pool", "odds_in_pool"]

System = GameSystem[Any, Any, Any]


class TooSlow(SpieltischError):
    """A task of the pool ran past its time limit (or its process died)."""


def _default_size() -> int:
    # Leave one core to the web server itself.
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class PoolSettings:
    """How heavy work runs. ``size`` 0 computes in the request's thread (no pool)."""

    size: int = _default_size()
    """Processes in the pool (default: the cores less one, at least 1)."""
    timeout: float = 10.0
    """Seconds one odds preview or AI move may take."""
    odds_budget: int = cost.ODDS_BUDGET
    """Cost budget of one exact-odds computation (see :mod:`spieltisch.dice.cost`)."""


def _start(budget: int) -> None:
    cost.set_default_budget(budget)


def _odds(system: System, options: dict[str, Any], state: Any, command: Any) -> bytes:
    return _ODDS_JSON.dump_json(system.odds(state, command))


_ODDS_JSON: TypeAdapter[Odds | None] = TypeAdapter(Odds | None)


def _automatic(system: System, state: Any) -> Any:
    return system.automatic(state)


PRELOAD = ("spieltisch.web.workers", *(module for module, _ in BUILT_IN.values()))
"""What the pool's fork server imports once, before it forks a process: every game's rules
(the registry imports a game only when it is first asked for)."""


class Workers:
    """The process pool of one application (``size`` 0: run tasks in the caller's thread).

    Starting the pool starts the fork server, which imports every game system: seconds on a
    busy machine. That happens in a background thread (``warming``), so the server answers at
    once; a task that needs the pool before it is up waits for it.
    """

    def __init__(self, settings: PoolSettings, preload: tuple[str, ...] = PRELOAD) -> None:
        self.settings = settings
        cost.set_default_budget(settings.odds_budget)
        self._pool: ProcessPool | None = None
        self._starting = threading.Lock()
        """Held while the pool starts (pebble starts it on the first task, unguarded)."""
        self.warming: threading.Thread | None = None
        """The thread that starts the pool and a first process, or None without a pool."""
        if settings.size > 0:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(list(preload))
            self._pool = ProcessPool(
                max_workers=settings.size,
                initializer=_start,
                initargs=(settings.odds_budget,),
                context=context,
            )
            # Start the fork server and a first process now, in the background: the first
            # preview or AI move should not wait for the game systems to be imported, and
            # nothing else should wait at all.
            self.warming = threading.Thread(target=self._warm, name="spieltisch-warm", daemon=True)
            self.warming.start()
            # The pool's processes are not daemons: at exit, multiprocessing joins them. A pool
            # nobody closed (an application whose shutdown never ran) is stopped first, so the
            # exit never waits on its processes (exit hooks run last-in, first-out, and
            # multiprocessing registered its own when the pool was made).
            atexit.register(self.close)

    def _warm(self) -> None:
        with self._starting:
            pool = self._pool
            if pool is not None:
                pool.schedule(_start, args=(self.settings.odds_budget,))

    @property
    def pooled(self) -> bool:
        """Whether tasks run in worker processes."""
        return self._pool is not None

    def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in the pool within the time limit (blocks the calling thread)."""
        pool = self._pool
        if pool is None:
            return function(*args)
        with self._starting:
            future = pool.schedule(function, args=args, timeout=self.settings.timeout)
        try:
            return future.result()
        except (FutureTimeout, ProcessExpired):
            raise TooSlow("api.too_slow", seconds=f"{self.settings.timeout:g}") from None
        except pickle.PicklingError:
            # A system or state whose class a worker cannot import (one defined at run time
            # where pickle cannot find it) is computed here, as without a pool.
            return function(*args)

    def close(self) -> None:
        """Stop the pool: running tasks are ended, the processes joined."""
        if self._pool is not None:
            atexit.unregister(self.close)
            with self._starting:  # after a start under way: pebble stops a started pool
                pool, self._pool = self._pool, None
            pool.stop()  # type: ignore[no-untyped-call]
            pool.join()


def odds_in_pool(
    system: System,
    options: dict[str, Any],
    state: Any,
    command: Any,
    *,
    workers: Workers | None = None,
) -> bytes:
    """The JSON of ``system.odds(state, command)`` (``null``: no dice), computed in the pool
    (in this thread without one).

    ``state`` is the state the caller may see; pickled into a worker process. The answer
    comes back as JSON, ready to send: a distribution can have a million outcomes, and
    rebuilding them as objects in the server would hold its interpreter lock again.

    ``options`` are the table's options, sent along for systems whose odds depend on them
    (the built-in ones read them from the state).
    """
    if workers is None:
        return _odds(system, options, state, command)
    result: bytes = workers.run(_odds, system, options, state, command)
    return result


def automatic_in_pool(workers: Workers, system: System) -> Callable[[Any], Any]:
    """A replacement of ``system.automatic`` for :meth:`Table.execute` that runs in the pool
    when the answer takes work.

    A system tells by ``automatic_is_heavy(state)`` (optional; without it every call goes to
    the pool): an AI's search is heavy, "nobody acts by itself" is not. Only heavy calls cross
    into the pool: a round trip pickles the whole state, wakes the pool's threads and waits
    for a process, and it happens inside the write turn of every command (see
    ``docs/architecture.md``, "The store").
    """
    heavy: Callable[[Any], bool] | None = getattr(system, "automatic_is_heavy", None)

    def automatic(state: Any) -> Any:
        if heavy is not None and not heavy(state):
            return system.automatic(state)
        return workers.run(_automatic, system, state)

    return automatic
