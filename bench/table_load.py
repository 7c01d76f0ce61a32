"""Load on the live table: N WebSocket clients, commands per second and fan-out latency.

Starts a real ``spieltisch serve`` on 127.0.0.1 (SQLite in a temporary file, and/or a
throw-away PostgreSQL 15 server as in the tests), opens tables of ``free-dice``, connects
WebSocket clients (the GM and players) and posts roll commands from several senders at once.
For every command it measures

* ack: from sending the HTTP request to its response, and
* fan-out: from sending until *every* client of that table has received the record,

and the CPU time the server process spent per command (``cpu/cmd``: every thread, from
``/proc``; it moves much less with the machine's other load than the latencies do).

Scenarios: one table with all clients, and many tables sharing the clients. Everything is
bounded (count and time: senders still sending at ``--limit`` are stopped, and only the
commands answered count); clients and server share this machine's CPUs, so the figures are a
floor for a dedicated server.

    .venv/bin/python bench/table_load.py                 # both databases, default sizes
    .venv/bin/python bench/table_load.py --db sqlite --clients 50 --commands 400
    .venv/bin/python bench/table_load.py --cold-load 1000 20000 --repeat 3 --anchor ../main
                                                         # loading, every system, side by side
    .venv/bin/python bench/table_load.py --db sqlite --scenario many --repeat 3
    .venv/bin/python bench/table_load.py --db sqlite --scenario one --clients 5 --commands 60 \
        --log 100 5000 --anchor ../main    # CPU per command by log length, side by side

``--log N`` gives every table N rolls before the timed commands; ``msg B`` is the median size
of a message announcing one roll; ``gen cpu`` is the share of one core this process (the load
generator: every client and sender) used while timing, to tell when it, not the server, is
the limit (near 100%: it is).

To compare with other code side by side, give ``--anchor`` that checkout: every scenario runs
on a fresh database and server, once on each code, alternating, and the ratios are printed.

``--rate R`` offers R commands per second in all (latencies from each command's due time);
without it each sender sends when its last command is answered. ``--workers 1 2 --route``
(PostgreSQL) runs two servers of one worker each and puts every table with its clients on one
of them, as a proxy routing by table id would (``docs/architecture.md``, "Routing a table to
one worker").

    .venv/bin/python bench/table_load.py --db postgres --scenario many --tables 10 \
        --clients 20 --commands 2000 --workers 1 2 --route
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import re
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager, suppress
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import httpx
import websockets

from spieltisch.web.limits import RateLimits

ROOT = Path(__file__).resolve().parents[1]
_START = "from spieltisch.cli.app import main; main()"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A running ``spieltisch serve``: its base URL and process id."""

    base: str
    pid: int

    def cpu_seconds(self) -> float:
        """CPU time (user + system, every thread) the server used so far (Linux): its process
        and every process below it (the workers of ``--workers``, the AI pool)."""
        stats: dict[int, list[str]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    text = (entry / "stat").read_text()
                except OSError:
                    continue
                stats[int(entry.name)] = text.rsplit(")", 1)[1].split()
        if self.pid not in stats:
            return float("nan")
        tree, grown = {self.pid}, True
        while grown:
            below = {pid for pid, f in stats.items() if int(f[1]) in tree} - tree
            grown = bool(below)
            tree |= below
        ticks = sum(int(stats[pid][11]) + int(stats[pid][12]) for pid in tree)
        return ticks / os.sysconf("SC_CLK_TCK")


@contextmanager
def serve(database_url: str, workers: int = 1, source: Path | None = None) -> Iterator[Server]:
    """A ``spieltisch serve`` child process on a free port (``workers`` processes: PostgreSQL
    only, the commands of a table meeting in the database and fanned out by NOTIFY), running
    the code in ``source`` (a ``src`` folder; default: whatever this process imports)."""
    port = _free_port()
    # A load test is not abuse: the per-token and per-address rate limits are switched off.
    limits = {f"SPIELTISCH_RATE_{f.name.upper()}": "" for f in fields(RateLimits)}
    env = {**os.environ, **limits, "SPIELTISCH_DATABASE_URL": database_url}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    process = subprocess.Popen(
        [
            *[sys.executable, "-c", _START, "serve", "--host", "127.0.0.1", "--port", str(port)],
            *["--workers", str(workers)],
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300  # a loaded machine: an older server warms first
        while True:
            with suppress(httpx.TransportError):
                if httpx.get(f"{base}/api/systems", timeout=2).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        _warm_up(base)
        yield Server(base, process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _warm_up(base: str) -> None:
    """Wait until the server's worker pool is up (an odds preview runs in it): the pool starts
    in the background, and its imports are no part of what a command costs."""
    created = httpx.post(f"{base}/api/tables", json={"system": "free-dice"}, timeout=300).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    command = {"command": {"kind": "roll", "expression": "3d6"}}
    url = f"{base}/api/tables/{created['table']}/odds"
    answer = httpx.post(url, json=command, headers=headers, timeout=300)
    if answer.status_code != 200:
        raise SystemExit(f"the server's pool did not answer: {answer.text}")


@contextmanager
def postgres() -> Iterator[str | None]:
    """A throw-away PostgreSQL server (fsync on), or ``None`` if the binaries are missing."""
    sys.path.insert(0, str(ROOT / "tests"))
    from pg import PostgresServer, postgres_missing

    reason = postgres_missing()
    if reason is not None:
        print(f"PostgreSQL skipped: {reason}")
        yield None
        return
    server = PostgresServer(fsync=True).start()
    try:
        yield server.create_database("bench")
    finally:
        server.stop()


@dataclass
class Table:
    """One table of a scenario: its id, tokens of its clients, sends and receipts."""

    id: str
    tokens: list[str]
    sent: dict[str, float] = field(default_factory=dict)
    acked: dict[str, float] = field(default_factory=dict)
    received: dict[str, list[float]] = field(default_factory=dict)
    sizes: list[int] = field(default_factory=list)
    """The length of each message that announced exactly one labelled roll (bytes)."""


async def open_table(http: httpx.AsyncClient, clients: int) -> Table:
    """A free-dice table with a GM and ``clients - 1`` players."""
    created = (await http.post("/api/tables", json={"system": "free-dice"})).json()
    tokens = [created["token"]]
    for n in range(clients - 1):
        joined = await http.post(
            f"/api/tables/{created['table']}/join",
            json={"invite": created["invites"]["player"], "name": f"p{n}"},
        )
        tokens.append(joined.json()["token"])
    return Table(created["table"], tokens)


async def follow(ws_base: str, table: Table, token: str, ready: asyncio.Event, done: Any) -> None:
    """One WebSocket client: note when each labelled record arrives."""
    url = f"{ws_base}/api/tables/{table.id}/ws"
    # No keepalive pings: a greeting of thousands of records to fifty clients at once keeps
    # both ends busy for longer than a ping may wait, and this bench counts what arrives.
    async with websockets.connect(url, max_size=None, ping_interval=None) as socket_:
        await socket_.send(json.dumps({"type": "auth", "token": token}))
        await socket_.recv()  # the greeting
        ready.set()
        while not done():
            try:
                raw = await asyncio.wait_for(socket_.recv(), timeout=0.5)
            except TimeoutError:
                continue
            now = time.perf_counter()
            labels = _labels(raw)
            for label in labels:
                table.received.setdefault(label, []).append(now)
            if len(labels) == 1:
                table.sizes.append(len(raw if isinstance(raw, bytes) else raw.encode()))


_LABEL = re.compile(r'"label":"(t\d+-c\d+)"')


def _labels(raw: str | bytes) -> set[str]:
    """Labels of the records in a message, without parsing the (large) state.

    The server writes ``records`` before ``seq`` and the view (``state`` or ``patch``), which
    may repeat earlier rolls, so only the part before ``],"seq":`` is searched; parsing whole
    messages in 20 clients would make this process, not the server, the bottleneck.
    """
    text = raw if isinstance(raw, str) else raw.decode()
    return set(_LABEL.findall(text.split('],"seq":', 1)[0]))


def prepare(database_url: str, tables: int, clients: int, log: int) -> list[Table]:
    """``tables`` free-dice tables of ``clients`` people (a GM, the others players), each with
    a log of ``log`` rolls, written straight into the database before the server starts."""
    sys.path.insert(0, str(ROOT / "src"))
    from spieltisch.store import EventStore

    store = EventStore(database_url)
    try:
        prepared = []
        for _ in range(tables):
            created = store.create_table("free-dice")
            tokens = [created.token]
            for n in range(clients - 1):
                tokens.append(store.join(created.table, created.invites["player"], f"p{n}").token)
            gm = store.authenticate(created.table, created.token)
            for n in range(log):
                command = {"kind": "roll", "expression": f"{n % 5 + 1}d6", "label": "log"}
                store.execute(created.table, gm, command)
            prepared.append(Table(created.table, tokens))
        return prepared
    finally:
        store.close()


def sender_client(base: str, tls: ssl.SSLContext) -> httpx.AsyncClient:
    """The HTTP client of one sender (one connection), made before the timing starts.

    Each sender has its own client: one client shared by fifty senders spent most of this
    process's time in its connection pool, scanning every connection for each request, and
    the bench then measured itself instead of the server. They share one TLS context (unused
    on ``http://``): making one per client took this process about a second for fifty."""
    return httpx.AsyncClient(
        base_url=base, timeout=30, limits=httpx.Limits(max_connections=1), verify=tls
    )


async def send(
    http: httpx.AsyncClient,
    table: Table,
    token: str,
    labels: list[str],
    due: list[float] | None = None,
) -> None:
    """Post roll commands one after another (one sender, on a connection of its own).

    With ``due`` (``--rate``: a ``perf_counter`` time per label) each command waits for its
    time and its latencies count from that time, not from when it went out: a command held
    up behind a slow answer counts the wait (no coordinated omission)."""
    headers = {"Authorization": f"Bearer {token}"}
    for n, label in enumerate(labels):
        body = {"command": {"kind": "roll", "expression": "3d6", "label": label}}
        if due is not None:
            await asyncio.sleep(max(0.0, due[n] - time.perf_counter()))
            table.sent[label] = due[n]
        else:
            table.sent[label] = time.perf_counter()
        url = f"/api/tables/{table.id}/commands"
        response = await http.post(url, json=body, headers=headers)
        if response.status_code != 200:
            raise SystemExit(f"command refused: {response.text}")
        table.acked[label] = time.perf_counter()


def _runs(
    results: list[tuple[str, str, str, dict[str, Any]]],
    database: str,
    code: str,
    name: str,
    log: int,
) -> list[dict[str, Any]]:
    """The results of one database, code, scenario and log length."""
    return [r for d, c, n, r in results if (d, c, n, r["log"]) == (database, code, name, log)]


def _mean(results: list[dict[str, Any]], key: str) -> float:
    """The mean of ``key`` over repeated runs (nan when a run has none)."""
    return statistics.fmean(r[key] for r in results) or float("nan")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def scenario(
    servers: list[Server],
    tables: int,
    clients: int,
    commands: int,
    senders: int,
    limit: float,
    prepared: list[Table] | None = None,
    rate: float = 0.0,
) -> dict[str, Any]:
    """Run one scenario; ``clients`` and ``commands`` are totals over all tables (or the
    ``prepared`` ones, made before the server started). With a ``rate`` the commands are
    offered at that many per second in all, evenly spread (an open loop); without, each
    sender sends its next command when the last is answered (as fast as the server goes).

    Table ``t`` and all its clients go to ``servers[t % len(servers)]`` (``--route``: what a
    proxy routing by table does; one server: all of them)."""

    def base_of(t: int) -> str:
        return servers[t % len(servers)].base

    limits = httpx.Limits(max_connections=200)
    async with AsyncExitStack() as stack:
        https = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=server.base, timeout=30, limits=limits)
            )
            for server in servers
        ]
        per_table = max(2, clients // tables)
        opened = prepared or [
            await open_table(https[t % len(https)], per_table) for t in range(tables)
        ]
        finished = False
        followers = []
        for t, table in enumerate(opened):
            ws_base = base_of(t).replace("http://", "ws://")
            for token in table.tokens:
                ready = asyncio.Event()
                task = asyncio.create_task(follow(ws_base, table, token, ready, lambda: finished))
                followers.append((task, ready))
        await asyncio.wait_for(asyncio.gather(*(ready.wait() for _, ready in followers)), limit)
        tls = ssl.create_default_context()
        posting = [
            sender_client(base_of(t), tls) for t in range(len(opened)) for _ in range(senders)
        ]
        # This process's own garbage collections would stop every sender and client at once
        # (up to 100 ms as the arrivals pile up) and count as the server's latency: none
        # while timing (a bounded run: what it allocates meanwhile is small).
        gc.collect()
        gc.freeze()
        gc.disable()
        start, cpu_start = time.perf_counter(), sum(server.cpu_seconds() for server in servers)
        load_start = time.process_time()
        jobs = []
        per_table_commands = max(1, commands // tables)
        for t, table in enumerate(opened):
            labels = [f"t{t}-c{n}" for n in range(per_table_commands)]
            for s in range(senders):
                token = table.tokens[s % len(table.tokens)]
                mine = labels[s::senders]
                # Sender j of all sends its k-th command at start + (j + k * everyone) / rate.
                j = t * senders + s
                due = (
                    [start + (j + k * len(posting)) / rate for k in range(len(mine))]
                    if rate
                    else None
                )
                jobs.append(send(posting[j], table, token, mine, due))
        sending = [asyncio.ensure_future(job) for job in jobs]
        done, late = await asyncio.wait(sending, timeout=limit)
        for task in late:  # past the limit: stop, and count only the commands answered
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        for task in done:
            task.result()  # a refused command ends the run
        for table in opened:
            for label in set(table.sent) - set(table.acked):
                del table.sent[label]
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline:
            if all(
                len(table.received.get(label, [])) >= len(table.tokens)
                for table in opened
                for label in table.sent
            ):
                break
            await asyncio.sleep(0.01)
        end, cpu_end = time.perf_counter(), sum(server.cpu_seconds() for server in servers)
        load_cpu = time.process_time() - load_start
        gc.enable()
        gc.unfreeze()
        finished = True
        await asyncio.gather(*(task for task, _ in followers), return_exceptions=True)
        await asyncio.gather(*(client.aclose() for client in posting))
    fanout, ack, lost = [], [], 0
    for table in opened:
        for label, sent in table.sent.items():
            arrivals = table.received.get(label, [])
            ack.append(table.acked[label] - sent)
            if len(arrivals) < len(table.tokens):
                lost += 1
                continue
            fanout.append(max(arrivals) - sent)
    total = sum(len(table.sent) for table in opened)
    return {
        "rate": rate,
        "tables": tables,
        "clients": sum(len(table.tokens) for table in opened),
        "commands": total,
        "per_second": total / (end - start),
        "ack_p50": _percentile(ack, 0.5) * 1000,
        "ack_p99": _percentile(ack, 0.99) * 1000,
        "fanout_p50": _percentile(fanout, 0.5) * 1000 if fanout else float("nan"),
        "fanout_p99": _percentile(fanout, 0.99) * 1000 if fanout else float("nan"),
        "fanout_mean": statistics.fmean(fanout) * 1000 if fanout else float("nan"),
        "undelivered": lost,
        "cut": len(late),
        "cpu_ms": (cpu_end - cpu_start) / total * 1000,
        "load_share": load_cpu / (end - start),
        "message_bytes": _percentile(sizes, 0.5)
        if (sizes := [n for t in opened for n in t.sizes])
        else 0,
    }


_KITTY = {
    "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
    "talents": ["Climbing"],
    "powers": [{"name": "Teleport"}],
}
_KW_SHEET = {
    "attributes": {
        **{"staerke": 3, "konstitution": 3, "agilitaet": 2, "geschick": 3},
        **{"intelligenz": 2, "wahrnehmung": 2, "willenskraft": 2, "charisma": 1},
    },
    "skills": {"schwerter": {"depth": 2, "value": 4}},
    "hp": 20,
    "weapons": [{"name": "Schwert", "skill": "schwerter"}],
}
_PLAY: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
    # system: (the set-up, the commands played over and over; one the game refuses in the
    # state it is in, e.g. a failure to accept after a success, is skipped)
    "free-dice": (
        [],
        [
            {"kind": "roll", "expression": "3d6", "label": "Angriff"},
            {"kind": "roll", "expression": "1d20+2"},
            {"kind": "say", "text": "weiter"},
        ],
    ),
    "magical-kitties": (
        [
            {"kind": "create_kitty", "id": "tom", "name": "Tom", "flaw": "Lazy", **_KITTY},
            {"kind": "create_foe", "id": "rat", "name": "Rat"},
            {"kind": "start_episode"},
            {"kind": "start_scene"},
        ],
        [
            {"kind": "check", "kitty": "tom", "attribute": "cute"},
            {"kind": "accept_failure"},
            {"kind": "check", "kitty": "tom", "attribute": "fierce", "foe": "rat"},
            {"kind": "accept_failure"},
            {"kind": "say", "text": "Miau"},
        ],
    ),
    "hexxen": (
        [
            {
                "kind": "create_hunter",
                "id": "ada",
                "name": "Ada",
                "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 2, "WIS": 1, "WIL": 2},
                "skills": {"Nahkampf": 2},
            },
            {"kind": "create_npc", "id": "wolf", "name": "Wolf", "statblock": "KKR 3, WIL 4"},
        ],
        [
            {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf"},
            {"kind": "npc_check", "npc": "wolf", "attribute": "WIL"},
            {"kind": "apply_effect", "target": "ada", "effect": "malus", "level": 1},
            {"kind": "remove_effect", "target": "ada", "effect": "malus"},
            {"kind": "say", "text": "weiter"},
        ],
    ),
    "kreiswanderer": (
        [
            {"kind": "create_being", "id": "ada", "sheet": {"name": "Ada", **_KW_SHEET}},
            {
                "kind": "create_being",
                "id": "gob",
                "sheet": {"name": "Goblin", "side": "foes", **_KW_SHEET},
            },
        ],
        [
            {"kind": "check", "being": "ada", "attribute": "geschick", "skill": "schwerter"},
            {"kind": "check", "being": "gob", "attribute": "staerke"},
            {"kind": "say", "text": "weiter"},
        ],
    ),
    "dnd5e": (
        [
            {
                "kind": "add_character",
                "id": "ada",
                "name": "Ada",
                "ac": 16,
                "hp": 12,
                "abilities": {"str": 16, "dex": 14},
                "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
                "position": "a1",
            },
            {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "b2"},
            {"kind": "start_combat"},
        ],
        [
            {"kind": "check", "creature": "ada", "skill": "athletics", "dc": 12},
            {"kind": "damage", "target": "ada", "amount": 1, "type": "slashing"},
            {"kind": "heal", "target": "ada", "amount": 1},
            {"kind": "end_turn"},
        ],
    ),
}


def _fill(store: Any, system: str, records: int) -> str:
    """A table of ``system`` with about ``records`` records of the game's own commands, each
    decided by the game; returns its id.

    Kilkenny Cats plays game after game against a random AI (a new table for each game) until
    one game reaches the size; the other systems play :data:`_PLAY`'s set-up, then its cycle."""
    from spieltisch.errors import SpieltischError

    if system != "kilkenny":
        setup, cycle = _PLAY[system]
        created = store.create_table(system)
        gm = store.authenticate(created.table, created.token)
        for command in setup:
            store.execute(created.table, gm, command)
        seq, refused = 0, 0
        for n in itertools.count():
            if seq >= records:
                break
            try:
                seq = store.execute(created.table, gm, cycle[n % len(cycle)]).table.seq
                refused = 0
            except SpieltischError:
                refused += 1
                if refused >= len(cycle):  # the game took none of them: the cycle is stuck
                    raise
        return str(created.table)
    from spieltisch.engine.visibility import Role, Viewer

    # Kilkenny Cats, a human seat (played by the GM) against a random AI, game after game.
    options = {"players": 2, "seats": [{"player": "human"}, {"player": "random"}]}
    while True:
        created = store.create_table("kilkenny", options=options)
        gm = store.authenticate(created.table, created.token)
        store.execute(created.table, gm, {"kind": "sit", "seat": "S"})
        table = store.table(created.table)
        while table.state.outcome is None and table.seq < records:
            # The AI's turns follow by themselves; the human seat rolls, then moves as long as
            # the roll it holds has a move (a roll may leave the turn with the same seat).
            state = table.view(Viewer(Role.GM))
            if state["turn"] != "S":
                # The AI stopped after the table's guard of automatic records in a row (the
                # human seat has no cat on the board left and passes by itself): next game.
                break
            if state["roll"] is None:
                command: dict[str, Any] = {"kind": "roll"}
            elif state["moves"]:
                command = {"kind": "move", **state["moves"][0]}
            else:
                raise RuntimeError(f"a roll without a move stays with the seat: {state!r}")
            table = store.execute(created.table, gm, command).table
        if table.seq >= records * 0.9:
            return str(created.table)


COLD_SYSTEMS = ("free-dice", "kilkenny", "dnd5e", "hexxen", "kreiswanderer", "magical-kitties")


def cold_step(step: str, url: str, system: str, records: int) -> None:
    """One step of :func:`cold_load`, in a process of its own on the code it was started with:
    ``fill`` prints the id of a new table of about ``records`` records, ``load`` (``records``:
    the table id's position is taken by the id, see :func:`cold_load`) prints the CPU seconds
    of loading the table and rendering the GM's view in this fresh process."""
    from spieltisch.engine.visibility import GM_VIEWER
    from spieltisch.store import EventStore

    store = EventStore(url)
    try:
        if step == "fill":
            print(_fill(store, system, records))
            return
        start = time.process_time()
        table = store.table(system)  # here ``system`` is the table id
        table.view(GM_VIEWER)
        print(f"{time.process_time() - start:.6f} {table.seq}")
    finally:
        store.close()


def cold_load(
    sizes: list[int],
    codes: list[tuple[str, Path | None]],
    repeat: int,
    systems: list[str],
) -> None:
    """CPU time of loading a table of each size into a fresh process, on every system, for
    each code (``--anchor``: alternating with it); prints the times and the ratio of the
    largest size to the smallest, per code, and this code / the anchor.

    Each table is filled once, by this code (with snapshots every 50 records, the default),
    and every code loads the same file, alternating: the anchor loads what this code wrote."""
    results: dict[tuple[str, str, int], list[float]] = {}
    seqs: dict[tuple[str, str, int], int] = {}

    def run(source: Path | None, *step: str) -> str:
        env = {**os.environ}
        if source is not None:
            env["PYTHONPATH"] = str(source)
        done = subprocess.run(
            [sys.executable, __file__, "--cold-step", *step],
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:  # say why: the step's own error, not only its exit status
            raise RuntimeError(f"cold step {' '.join(step)} failed:\n{done.stderr}")
        return done.stdout.strip().splitlines()[-1]

    with tempfile.TemporaryDirectory() as tmp:
        for system in systems:
            for size in sizes:
                # Filled once, by the last code given (this one), and loaded by every code.
                url = f"sqlite:///{Path(tmp) / f'{system}-{size}.sqlite3'}"
                table_id = run(codes[-1][1], "fill", url, system, str(size))
                for _ in range(repeat):
                    for code, source in codes:
                        seconds, seq = run(source, "load", url, table_id, "0").split()
                        results.setdefault((system, code, size), []).append(float(seconds))
                        seqs[(system, code, size)] = int(seq)
            for code, _ in codes:  # as each system is done: a long run shows its progress
                times = " ".join(f"{min(results[(system, code, n)]) * 1000:.1f}" for n in sizes)
                print(f"{system} {code}: {times} ms", flush=True)
    small, large = min(sizes), max(sizes)
    print(f"{'system':16} {'code':6} " + " ".join(f"{n:>10}" for n in sizes) + "  (ms CPU, best)")
    best = {key: min(values) for key, values in results.items()}
    for system in systems:
        for code, _ in codes:
            cells = " ".join(f"{best[(system, code, n)] * 1000:>10.1f}" for n in sizes)
            ratio = best[(system, code, large)] / best[(system, code, small)]
            records = seqs[(system, code, large)]
            print(f"{system:16} {code:6} {cells}  {large}/{small}: {ratio:.2f} ({records} rec)")
    if len(codes) > 1:
        for system in systems:
            ratios = ", ".join(
                f"{n}: {best[(system, 'this', n)] / best[(system, 'anchor', n)]:.2f}" for n in sizes
            )
            print(f"this / anchor, cold load, {system}: {ratios}")


def main() -> None:
    """Parse the options, run the scenarios, print a table and ratios."""
    if sys.argv[1:2] == ["--cold-step"]:  # read by hand: a table id may begin with "-"
        step, where, system, records = sys.argv[2:6]
        cold_step(step, where, system, int(records))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--clients", type=int, default=20, help="WebSocket clients in total")
    parser.add_argument("--tables", type=int, default=10, help="tables in the many-tables run")
    parser.add_argument("--commands", type=int, default=200, help="commands per scenario")
    parser.add_argument("--senders", type=int, default=4, help="concurrent senders per table")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per phase, at most")
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        metavar="R",
        help="offer R commands per second in all, evenly spread (latencies count from each "
        "command's due time); 0, the default: each sender sends when its last is answered",
    )
    parser.add_argument(
        "--scenario", choices=["one", "many", "both"], default="both", help="which scenarios"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs of each scenario (1..10)")
    parser.add_argument(
        "--cold-load",
        type=int,
        nargs="*",
        metavar="N",
        help="only time loading tables of these sizes on every system (default 1000 20000)",
    )
    parser.add_argument(
        "--systems",
        nargs="+",
        choices=COLD_SYSTEMS,
        default=list(COLD_SYSTEMS),
        help="the systems --cold-load loads (default: every one)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[1],
        help="server processes (PostgreSQL): one run per count given, e.g. --workers 1 2",
    )
    parser.add_argument(
        "--route",
        action="store_true",
        help="with --workers N: N servers of one worker each, every table and its clients on "
        "one of them (as a proxy routing by table id would), instead of N workers sharing a "
        "port",
    )
    parser.add_argument(
        "--log",
        type=int,
        nargs="+",
        default=[0],
        metavar="N",
        help="give every table N rolls before timing; several: one run each, and the ratio "
        "of the CPU per command at the longest log to that at the shortest",
    )
    parser.add_argument(
        "--anchor",
        type=Path,
        metavar="PATH",
        help="another checkout (or its src): run each scenario on it and on this code, "
        "alternating, and print the ratios this / anchor",
    )
    args = parser.parse_args()
    if not all(0 <= n <= 20000 for n in args.log):
        parser.error("keep it bounded: 0..20000 records of log")
    codes: list[tuple[str, Path | None]] = [("this", ROOT / "src")]
    if args.anchor is not None:
        anchor = (
            args.anchor / "src" if (args.anchor / "src" / "spieltisch").is_dir() else args.anchor
        )
        if not (anchor / "spieltisch").is_dir():
            parser.error(f"no spieltisch package in {args.anchor}")
        codes = [("anchor", anchor), *codes]
    if args.cold_load is not None:
        sizes = sorted(set(args.cold_load or [1000, 20000]))
        if len(sizes) < 2 or not all(1 <= n <= 20000 for n in sizes):
            parser.error("keep it bounded: two or more sizes of 1..20000 records")
        cold_load(sizes, codes, max(1, min(args.repeat, 10)), args.systems)
        return
    if not (2 <= args.clients <= 500 and 1 <= args.commands <= 5000 and args.tables >= 1):
        parser.error("keep it bounded: 2..500 clients, 1..5000 commands")
    if not 0 <= args.rate <= 5000:
        parser.error("keep it bounded: a rate of 0..5000 commands per second")
    if not 1 <= args.repeat <= 10:
        parser.error("keep it bounded: 1..10 repeats")
    if not all(1 <= n <= 8 for n in args.workers):
        parser.error("keep it bounded: 1..8 workers")
    if args.workers != [1] and args.db != "postgres":
        parser.error("several workers share a PostgreSQL database: use --db postgres")
    chosen = [
        (name, tables, senders)
        for key, name, tables, senders in [
            ("one", "one table", 1, args.senders),
            ("many", f"{args.tables} tables", args.tables, 1),
        ]
        if args.scenario in (key, "both")
    ]

    results: list[tuple[str, str, str, dict[str, Any]]] = []
    databases = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    runs = [
        (database, workers)
        for database in databases
        for workers in (args.workers if database == "postgres" else [1])
    ]
    for database, workers in runs:
        label = database if workers == 1 else f"{database}×{workers}"
        # Side by side: each scenario on a fresh database and server, the codes alternating.
        for name, tables, senders, log in [
            (*scenario, log) for scenario in chosen * args.repeat for log in args.log
        ]:
            for code, source in codes:
                with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
                    if database == "sqlite":
                        url: str | None = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
                    else:
                        url = stack.enter_context(postgres())
                    if url is None:
                        continue
                    per_table = max(2, args.clients // tables)
                    prepared = prepare(url, tables, per_table, log) if log else None
                    # Routed: a server of one worker each, every table's clients on one of
                    # them; else one server of ``workers`` processes sharing a port.
                    if args.route:
                        servers = [
                            stack.enter_context(serve(url, 1, source)) for _ in range(workers)
                        ]
                    else:
                        servers = [stack.enter_context(serve(url, workers, source))]
                    result = asyncio.run(
                        scenario(
                            servers,
                            *(tables, args.clients, args.commands, senders, args.limit),
                            prepared=prepared,
                            rate=args.rate,
                        )
                    )
                    results.append((label, code, name, {**result, "log": log}))

    if args.rate:
        print(f"offered: {args.rate:g} commands/s in all (latencies from each command's due time)")
    if args.route and args.workers != [1]:
        print("routed: each table and its clients on one worker (postgres×N: N servers)")
    print(
        f"{'database':9} {'code':6} {'scenario':10} {'tables':>6} {'clients':>7} {'log':>5} "
        f"{'cmds':>5} {'cmd/s':>7} {'ack p50':>8} {'ack p99':>8} {'fan p50':>8} {'fan p99':>8} "
        f"{'lost':>4} {'cpu/cmd':>7}   (ms) {'msg B':>6} {'gen cpu':>7}"
    )
    for database, code, name, r in results:
        print(
            f"{database:9} {code:6} {name:10} {r['tables']:>6} {r['clients']:>7} {r['log']:>5} "
            f"{r['commands']:>5} {r['per_second']:>7.1f} {r['ack_p50']:>8.1f} {r['ack_p99']:>8.1f} "
            f"{r['fanout_p50']:>8.1f} {r['fanout_p99']:>8.1f} {r['undelivered']:>4} "
            f"{r['cpu_ms']:>7.2f}        {r['message_bytes']:>6} {r['load_share']:>7.0%}"
        )
        if r["cut"]:
            print(f"  {r['cut']} senders stopped at --limit: cmds counts the commands answered")
    if args.anchor is not None:
        for database in dict.fromkeys(d for d, _, _, _ in results):
            for (name, _, _), log in [(c, n) for c in chosen for n in args.log]:
                mine = _runs(results, database, "this", name, log)
                theirs = _runs(results, database, "anchor", name, log)
                if not (mine and theirs):
                    continue
                ratios = ", ".join(
                    f"{key} {_mean(mine, key) / _mean(theirs, key):.2f}"
                    for key in ("per_second", "cpu_ms", "fanout_p99", "message_bytes")
                )
                print(f"this / anchor, {database}, {name}, log {log}: {ratios}")
    if len(args.log) > 1:  # what a longer log costs each code, side by side
        short, long = min(args.log), max(args.log)
        for database in dict.fromkeys(d for d, _, _, _ in results):
            for (name, _, _), (code, _) in [(c, k) for c in chosen for k in codes]:
                first = _runs(results, database, code, name, short)
                last = _runs(results, database, code, name, long)
                if first and last:
                    ratio = _mean(last, "cpu_ms") / _mean(first, "cpu_ms")
                    print(
                        f"cpu/cmd log {long} / log {short}, {database}, {name}, {code}: {ratio:.2f}"
                    )
    results_by_code = [(d, n, r) for d, c, n, r in results if c == "this"]
    by = {(d, n): r for d, n, r in results_by_code}
    for workers in args.workers[1:] if args.db == "postgres" else []:
        for name in ("one table", f"{args.tables} tables"):
            single = _runs(results, "postgres", "this", name, args.log[0])
            several = _runs(results, f"postgres×{workers}", "this", name, args.log[0])
            if single and several:  # the means of the repeats
                ratio = _mean(several, "per_second") / _mean(single, "per_second")
                print(f"throughput {workers} workers / 1 worker, {name}: {ratio:.2f}")
    for name in ("one table", f"{args.tables} tables"):
        if ("sqlite", name) in by and ("postgres", name) in by:
            ratio = by[("postgres", name)]["per_second"] / by[("sqlite", name)]["per_second"]
            print(f"throughput PostgreSQL / SQLite, {name}: {ratio:.2f}")
    for database in databases:
        one, many = by.get((database, "one table")), by.get((database, f"{args.tables} tables"))
        if one and many:
            print(
                f"{database}: fan-out p99 / p50, one table: "
                f"{one['fanout_p99'] / one['fanout_p50']:.1f}; many tables: "
                f"{many['fanout_p99'] / many['fanout_p50']:.1f}"
            )


if __name__ == "__main__":
    main()
