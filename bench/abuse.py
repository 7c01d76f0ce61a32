"""Abuse: heavy odds previews at one table must not stall another table's reads.

Starts a real server (uvicorn on 127.0.0.1, an SQLite file in a temporary folder) in a child
process, opens two tables, and fires ``--clients`` concurrent odds previews at table A — the
dearest ones the cost budget still allows and ones it refuses — while reading table B every
50 ms. Prints table B's read latency (p50, p99) against the target (p99 ≤ 100 ms), once with
the process pool (the default settings) and once without (``SPIELTISCH_POOL_SIZE=0``: every
preview computes in the server's own threads, as before the pool).

The ``postgres`` scenario (``bench/busy_postgres.py``) starts a throw-away PostgreSQL and 4
``spieltisch serve`` workers on it, and 8 concurrent senders post ``--commands`` commands to
one table: commands per second and the ``table.busy`` count (target 0).

Run: ``python bench/abuse.py`` (both scenarios; ``--scenario sqlite`` or ``--scenario
postgres`` for one; ``--mode pool`` or ``--mode no-pool`` for one half of the SQLite one).
Bounded: ``--clients`` × ``--rounds`` previews, at most ``--seconds`` of reading,
``--commands`` ≤ 5000. Prints figures only; asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

TARGET_P99 = 0.100
"""Table B's p99 read latency under the load, in seconds."""

ALLOWED = ["10d100! * 10d100!", "12d10!kl6", "1000H", "100d100kh30"]
"""The dearest previews the default budget still computes (estimates 2e8 to 4e8 units)."""
REFUSED = ["10d100! * 10d100! + 10d99! * 10d99!", "50d100!"]
"""Past the budget (the second only for its exact fractions: its floats are answered)."""

_RATES_OFF = {
    f"SPIELTISCH_RATE_{name}": ""
    for name in (
        "COMMANDS",
        "COMMANDS_ADDRESS",
        "ODDS",
        "ODDS_ADDRESS",
        "CREATE",
        "JOIN",
        "IMPORTS",
    )
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(database_url: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """A uvicorn child process on 127.0.0.1 serving the app; returns it and its base URL."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "spieltisch.web.app:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env={**os.environ, **_RATES_OFF, "SPIELTISCH_DATABASE_URL": database_url, **env},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/systems", timeout=2).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def _table(client: httpx.Client) -> tuple[str, dict[str, str]]:
    created = client.post("/api/tables", json={"system": "free-dice", "language": "en"}).json()
    return created["table"], {"Authorization": f"Bearer {created['token']}"}


def measure(base: str, clients: int, rounds: int, seconds: float) -> dict[str, Any]:
    """Fire the previews at table A while reading table B; latencies and answer counts."""
    with httpx.Client(base_url=base, timeout=120) as client:
        table_a, gm_a = _table(client)
        table_b, gm_b = _table(client)
        client.post(  # one warm-up preview (the pool starts its processes)
            f"/api/tables/{table_a}/odds",
            headers=gm_a,
            json={"command": {"kind": "roll", "expression": "2d6"}},
        )
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    expressions = [*ALLOWED, *REFUSED]

    def fire(index: int) -> None:
        with httpx.Client(base_url=base, timeout=120) as client:
            for round_ in range(rounds):
                expression = expressions[(index + round_) % len(expressions)]
                response = client.post(
                    f"/api/tables/{table_a}/odds",
                    headers=gm_a,
                    json={"command": {"kind": "roll", "expression": expression}},
                )
                with lock:
                    statuses[response.status_code] = statuses.get(response.status_code, 0) + 1

    firing = [threading.Thread(target=fire, args=(i,)) for i in range(clients)]
    latencies: list[float] = []
    started = time.monotonic()
    for thread in firing:
        thread.start()
    with httpx.Client(base_url=base, timeout=120) as reader:
        while time.monotonic() - started < seconds and any(t.is_alive() for t in firing):
            begin = time.perf_counter()
            response = reader.get(f"/api/tables/{table_b}", headers=gm_b)
            latencies.append(time.perf_counter() - begin)
            assert response.status_code == 200, response.text
            time.sleep(max(0.0, 0.05 - (time.perf_counter() - begin)))
    for thread in firing:
        thread.join()
    return {"latencies": latencies, "statuses": statuses, "wall": time.monotonic() - started}


def _report(label: str, result: dict[str, Any]) -> None:
    latencies = sorted(result["latencies"])
    if not latencies:
        print(f"{label}: no reads")
        return
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, round(0.99 * (len(latencies) - 1)))]
    answers = ", ".join(f"{n}× {status}" for status, n in sorted(result["statuses"].items()))
    print(
        f"{label:<8} table B: {len(latencies)} reads in {result['wall']:.1f} s, "
        f"p50 {p50 * 1e3:.1f} ms, p99 {p99 * 1e3:.1f} ms "
        f"(target ≤ {TARGET_P99 * 1e3:.0f} ms: {p99 / TARGET_P99:.2f}× the target); "
        f"previews at A: {answers}"
    )


def sqlite(args: argparse.Namespace) -> None:
    """The scenario on an SQLite file: with the pool, and without it."""
    modes = {"pool": {}, "no-pool": {"SPIELTISCH_POOL_SIZE": "0"}}
    for mode, env in modes.items():
        if args.mode not in (mode, "both"):
            continue
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'abuse.sqlite3'}"
            process, base = start_server(url, env)
            try:
                result = measure(base, args.clients, args.rounds, args.seconds)
            finally:
                process.terminate()
                process.wait(timeout=30)
            _report(mode, result)


def postgres(args: argparse.Namespace) -> None:
    """PostgreSQL with 4 workers and 8 concurrent senders on one table (``bench/busy_postgres.py``):
    commands per second and ``table.busy`` refusals (target 0)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from busy_postgres import contention

    contention(servers=4, senders=8, commands=args.commands, limit=180.0)


SCENARIOS: dict[str, Callable[[argparse.Namespace], None]] = {
    "sqlite": sqlite,
    "postgres": postgres,
}


def main(argv: list[str] | None = None) -> int:
    """Run the chosen scenario(s) and print the figures."""
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--scenario", choices=sorted(SCENARIOS), action="append")
    options.add_argument("--mode", choices=["pool", "no-pool", "both"], default="both")
    options.add_argument("--clients", type=int, default=16, help="concurrent previewers")
    options.add_argument("--rounds", type=int, default=2, help="previews per previewer")
    options.add_argument("--seconds", type=float, default=90.0, help="longest reading time")
    options.add_argument("--commands", type=int, default=400, help="postgres: commands (≤ 5000)")
    args = options.parse_args(argv)
    print(
        f"{args.clients} clients × {args.rounds} previews at table A "
        f"(allowed: {ALLOWED}; refused: {REFUSED}); table B read every 50 ms"
    )
    if not 1 <= args.commands <= 5000:
        options.error("keep it bounded: 1..5000 commands")
    for name in args.scenario or ["sqlite", "postgres"]:
        SCENARIOS[name](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
