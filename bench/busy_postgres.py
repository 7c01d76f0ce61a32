"""Contention on one table across workers: commands per second and ``table.busy`` refusals.

Starts a throw-away PostgreSQL 15 server (fsync on, 127.0.0.1 only, as the tests do with
``tests/pg.py``) and several real ``spieltisch serve`` processes on it, each on its own port;
then concurrent senders post roll commands to one ``free-dice`` table, spread over the servers
round-robin. Prints commands per second, ack p50/p99 and how many commands were refused as
``table.busy`` (target: 0), and checks that the table's log holds every acknowledged command
exactly once, without gaps. Bounded in count and in time.

    .venv/bin/python bench/busy_postgres.py                        # 4 servers, 8 senders
    .venv/bin/python bench/busy_postgres.py --servers 2 --senders 16 --commands 800
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_load import serve  # the same server start-up as the load benchmark

ROOT = Path(__file__).resolve().parents[1]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def run(bases: list[str], senders: int, commands: int, limit: float) -> None:
    """Post ``commands`` commands from ``senders`` senders to one table; print the figures."""
    limits = httpx.Limits(max_connections=4 * senders)
    clients = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    try:
        created = (await clients[0].post("/api/tables", json={"system": "free-dice"})).json()
        table = created["table"]
        headers = {"Authorization": f"Bearer {created['token']}"}
        outcomes: Counter[str] = Counter()
        acked: dict[str, int] = {}
        times: list[float] = []

        async def sender(index: int) -> None:
            for n in range(index, commands, senders):
                label = f"c{n}"
                client = clients[n % len(clients)]
                body = {"command": {"kind": "roll", "expression": "1d6", "label": label}}
                start = time.perf_counter()
                response = await client.post(
                    f"/api/tables/{table}/commands", json=body, headers=headers
                )
                times.append(time.perf_counter() - start)
                if response.status_code == 200:
                    outcomes["ok"] += 1
                    acked[label] = response.json()["records"][0]["seq"]
                else:
                    outcomes[response.json().get("error", {}).get("code", "?")] += 1

        start = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*(sender(i) for i in range(senders))), limit)
        elapsed = time.perf_counter() - start
        log = (await clients[-1].get(f"/api/tables/{table}/records", headers=headers)).json()[
            "records"
        ]
    finally:
        for client in clients:
            await client.aclose()

    labels = [r["command"]["label"] for r in log if r.get("command")]
    exact = sorted(labels) == sorted(acked) and {r["seq"]: r["command"]["label"] for r in log} == {
        seq: label for label, seq in acked.items()
    }
    gapless = [r["seq"] for r in log] == list(range(1, len(log) + 1))
    print(
        f"{len(bases)} servers, {senders} senders, {commands} commands on one table: "
        f"{outcomes['ok'] / elapsed:.1f} commands/s, ack p50 {_percentile(times, 0.5) * 1000:.1f}"
        f" ms, p99 {_percentile(times, 0.99) * 1000:.1f} ms"
    )
    print(
        f"table.busy: {outcomes['table.busy']} of {commands} "
        f"({outcomes['table.busy'] / commands:.1%}); other refusals: "
        f"{sum(v for k, v in outcomes.items() if k not in ('ok', 'table.busy'))}"
    )
    print(
        f"log: {len(log)} records, every acknowledged command exactly once: {exact}, "
        f"sequence without gaps: {gapless}"
    )


def contention(servers: int, senders: int, commands: int, limit: float) -> None:
    """Start PostgreSQL and ``servers`` serve processes, run the senders, print the figures."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pg import PostgresServer, postgres_missing

    reason = postgres_missing()
    if reason is not None:
        raise SystemExit(f"PostgreSQL missing: {reason}")
    server = PostgresServer(fsync=True).start()
    try:
        url = server.create_database("bench")
        with ExitStack() as stack:
            bases = [stack.enter_context(serve(url)).base for _ in range(servers)]
            asyncio.run(run(bases, senders, commands, limit))
    finally:
        server.stop()


def main() -> None:
    """Parse the options, start PostgreSQL and the servers, run the senders."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", type=int, default=4, help="serve processes (1..8)")
    parser.add_argument("--senders", type=int, default=8, help="concurrent senders (1..64)")
    parser.add_argument("--commands", type=int, default=400, help="commands in all (1..5000)")
    parser.add_argument("--limit", type=float, default=180.0, help="seconds, at most")
    args = parser.parse_args()
    if not (1 <= args.servers <= 8 and 1 <= args.senders <= 64 and 1 <= args.commands <= 5000):
        parser.error("keep it bounded: 1..8 servers, 1..64 senders, 1..5000 commands")

    contention(args.servers, args.senders, args.commands, args.limit)


if __name__ == "__main__":
    main()
