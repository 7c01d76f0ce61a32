"""The broker's shared reads: one database read per change made in another worker, never one
that started before the change it is meant to show."""

from __future__ import annotations

import asyncio

from spieltisch.web.live import Broker


def test_connections_woken_together_share_one_read_and_a_later_change_reads_again() -> None:
    async def scenario() -> tuple[list[int], int]:
        broker = Broker()
        broker.bind(asyncio.get_running_loop())
        one, two = broker.subscribe("t"), broker.subscribe("t")
        other_table = broker.subscribe("u")
        reads = 0
        gate = asyncio.Event()

        async def read() -> int:
            nonlocal reads
            reads += 1
            started = reads
            await gate.wait()
            return started

        broker.publish("t", 5, local=False)
        await one.wait()
        await two.wait()
        first = asyncio.ensure_future(broker.shared(one, read))
        second = asyncio.ensure_future(broker.shared(two, read))
        await asyncio.sleep(0)  # both are waiting on the one read
        broker.publish("t", 6, local=False)  # a change after that read started
        await one.wait()
        third = asyncio.ensure_future(broker.shared(one, read))
        fourth = asyncio.ensure_future(broker.shared(other_table, read))
        await asyncio.sleep(0)
        gate.set()
        results = list(await asyncio.gather(first, second, third, fourth))
        return results, reads

    results, reads = asyncio.run(scenario())
    assert results[:2] == [1, 1]  # one read for both
    assert results[2] == 2  # the later change is not served by the earlier read
    assert results[3] == 3 and reads == 3  # another table reads for itself


def test_a_failed_read_reaches_every_waiter_and_the_next_one_reads_anew() -> None:
    async def scenario() -> tuple[list[BaseException | int], int]:
        broker = Broker()
        broker.bind(asyncio.get_running_loop())
        one, two = broker.subscribe("t"), broker.subscribe("t")
        calls = 0

        async def failing() -> int:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0)
            raise OSError("the database went away")

        broker.publish("t", 1, local=False)
        outcomes: list[BaseException | int] = list(
            await asyncio.gather(
                broker.shared(one, failing), broker.shared(two, failing), return_exceptions=True
            )
        )

        async def working() -> int:
            return 7

        outcomes.append(await broker.shared(one, working))
        return outcomes, calls

    outcomes, calls = asyncio.run(scenario())
    assert [type(o) for o in outcomes[:2]] == [OSError, OSError] and calls == 1
    assert outcomes[2] == 7


def test_changes_to_tables_nobody_here_follows_leave_nothing_behind() -> None:
    """Another worker's commits to tables without a connection in this worker cost no read and
    keep no count (the counts would otherwise grow with every table changed anywhere)."""

    async def scenario() -> tuple[dict[str, int], int, int]:
        broker = Broker()
        broker.bind(asyncio.get_running_loop())
        for n in range(100):
            broker.publish(f"elsewhere-{n}", n, local=False)
        kept = dict(broker._remote)
        late = broker.subscribe("elsewhere-7")  # a connection that comes later still reads
        reads = 0

        async def read() -> int:
            nonlocal reads
            reads += 1
            return reads

        broker.publish("elsewhere-7", 8, local=False)
        woke = await late.wait()
        first = await broker.shared(late, read)
        return kept, first, 0 if woke is None else woke[0]

    kept, first, seq = asyncio.run(scenario())
    assert kept == {}
    assert first == 1 and seq == 8
