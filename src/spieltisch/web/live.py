"""Fan-out: wake the WebSocket connections of a table when its log or settings change.

Notifications only say *which table changed up to which sequence number*; every connection
then reads what it may see from the store ("notify, then pull"), so a lost or doubled
notification never loses or doubles a record. In one process the store's commit hook feeds
the :class:`Broker`; with PostgreSQL a :class:`PostgresListener` thread turns
``NOTIFY spieltisch`` from other workers into the same wake-ups. A notification with ``seq``
-1 says that the table's participants changed (a join, a removal): the listener first lets
the store forget the table, so that a revoked token stops working in this worker too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from spieltisch.store.db import libpq_url
from spieltisch.store.events import NOTIFY_CHANNEL

__all__ = ["Broker", "PostgresListener", "Subscription"]

_log = logging.getLogger(__name__)

_T = TypeVar("_T")


@dataclass(eq=False)
class Subscription:
    """One connection's interest in one table."""

    table: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    seq: int = -1
    """The highest sequence number notified so far."""
    local: bool = True
    """Whether every notification since the last wait came from this process."""
    joined: bool = False
    """Whether someone joined the table since the last wait (notified with seq -1)."""
    generation: int = 0
    """How many notifications from other workers the broker had for the table at the last
    one this subscription got (see :meth:`Broker.shared`)."""

    notified: bool = False
    """Whether a notification came since the last wait."""
    snapshot: bool = False
    """Whether the client asked for its whole view (set by its connection, see :meth:`poke`)."""
    closed: bool = False
    """Whether the client went away (set by its connection, see :meth:`poke`)."""

    def poke(self) -> None:
        """Wake the waiting connection without a notification (after setting
        :attr:`snapshot` or :attr:`closed`): one event per connection is all it waits on."""
        self.wake.set()

    async def wait(self) -> tuple[int, bool, bool] | None:
        """Wait for a change: the newest notified seq, whether all were local, joins; or
        ``None`` when only :meth:`poke` woke it."""
        await self.wake.wait()
        self.wake.clear()
        if not self.notified:
            return None
        result = (self.seq, self.local, self.joined)
        self.local, self.joined, self.notified = True, False, False
        return result


class Broker:
    """Per-table subscriptions on one event loop; :meth:`publish` may be called from any thread."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._subscriptions: dict[str, set[Subscription]] = {}
        self._remote: dict[str, int] = {}
        """Per table: how many notifications came from other workers (a generation)."""
        self._reads: dict[str, tuple[int, asyncio.Future[Any]]] = {}
        """Per table: the read under way and the generation it started at."""

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver wake-ups on ``loop`` (the server's loop)."""
        self._loop = loop

    def subscribe(self, table: str) -> Subscription:
        """Start receiving wake-ups for ``table`` (call on the loop)."""
        subscription = Subscription(table)
        self._subscriptions.setdefault(table, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """Stop the wake-ups of ``subscription``."""
        subscribers = self._subscriptions.get(subscription.table)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._subscriptions[subscription.table]
                self._remote.pop(subscription.table, None)
                self._reads.pop(subscription.table, None)

    def subscribers(self, table: str) -> int:
        """How many connections follow ``table``."""
        return len(self._subscriptions.get(table, ()))

    def publish(self, table: str, seq: int, local: bool = True) -> None:
        """``table`` changed up to ``seq``; thread-safe."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(table, seq, local)
        else:
            with contextlib.suppress(RuntimeError):  # the loop is shutting down
                loop.call_soon_threadsafe(self._wake, table, seq, local)

    async def shared(self, subscription: Subscription, read: Callable[[], Awaitable[_T]]) -> _T:
        """What ``read()`` returns, read once for every connection of the table that woke
        for the same notifications from other workers.

        A read started after the last notification ``subscription`` got sees what that
        notification announced (it was committed before it was sent), so connections join
        a read under way if it started late enough, and start a new one otherwise: a change
        made in another worker costs this worker one database read, not one per connection.
        """
        table = subscription.table
        under_way = self._reads.get(table)
        if under_way is None or under_way[0] < subscription.generation:
            future: asyncio.Future[Any] = asyncio.ensure_future(read())
            under_way = (self._remote.get(table, 0), future)
            self._reads[table] = under_way

            def done(finished: asyncio.Future[Any]) -> None:
                known = self._reads.get(table)
                if known is not None and known[1] is finished:
                    del self._reads[table]
                if not finished.cancelled():
                    finished.exception()  # retrieved: every waiter sees it raised

            future.add_done_callback(done)
        result: _T = await asyncio.shield(under_way[1])
        return result

    def _wake(self, table: str, seq: int, local: bool) -> None:
        subscriptions = self._subscriptions.get(table)
        if not subscriptions:  # nobody here follows it: nothing to wake, nothing to keep
            return
        if not local:
            self._remote[table] = self._remote.get(table, 0) + 1
        generation = self._remote.get(table, 0)
        for subscription in subscriptions:
            subscription.generation = generation
            if seq < 0:
                subscription.joined = True
            subscription.seq = max(subscription.seq, seq)
            subscription.local = subscription.local and local
            subscription.notified = True
            subscription.wake.set()


class PostgresListener:
    """A thread that LISTENs on PostgreSQL and publishes other workers' commits to a broker."""

    def __init__(
        self,
        url: str,
        broker: Broker,
        worker: str,
        on_people: Callable[[str], None] | None = None,
    ) -> None:
        self._conninfo = libpq_url(url)
        self._broker = broker
        self._worker = worker
        self._on_people = on_people
        """Called with the table when another worker changed who is at it (before the
        wake-up: the store drops the table, so revoked tokens stop working here too)."""
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="spieltisch-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once the LISTEN is in place (or ``timeout`` passed)."""
        self._thread.start()
        self._ready.wait(timeout)

    def stop(self) -> None:
        """Stop the thread (within about a second)."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._ready.set()
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=0.5):
                            self._deliver(notify.payload)
            except psycopg.Error as error:  # the database went away: retry shortly
                _log.warning("LISTEN connection lost: %s", error)
                self._stop.wait(1.0)

    def _deliver(self, payload: str) -> None:
        parts = payload.split(" ")
        if len(parts) != 3 or parts[2] == self._worker:
            return
        try:
            seq = int(parts[1])
        except ValueError:
            return
        if seq < 0 and self._on_people is not None:
            self._on_people(parts[0])
        self._broker.publish(parts[0], seq, local=False)
