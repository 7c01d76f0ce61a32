"""A server killed with SIGKILL during a burst of writes loses no acknowledged record.

The real ``spieltisch serve`` runs as a child process on 127.0.0.1; several clients post
commands as fast as they can; the process is killed mid-burst; a new server on the same
database must still hold every record whose response had arrived, unchanged, in a log
without gaps. On SQLite (WAL, synchronous=FULL) and on PostgreSQL.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from spieltisch.store.db import DATABASE_URL_VARIABLE
from spieltisch.systems.freedice.view import ROLLS_SHOWN

_START = "from spieltisch.cli.app import main; main()"


LOADED = 300
"""Seconds a wait on the server's state may last before the test fails: far more than it
takes, since a machine loaded by a second run stretched a server's start past a minute."""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(database_url: str, log: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """A server answering on a free port. The port is free when chosen, but a parallel test
    may bind it before the server does: then the server exits and another port is tried."""
    env = {**os.environ, DATABASE_URL_VARIABLE: database_url, "SPIELTISCH_LANG": "en"}
    # One client polls (a client per request would load the CA certificates each time).
    with httpx.Client(timeout=2) as http:
        for _attempt in range(5):
            port = _free_port()
            start = log.stat().st_size if log.exists() else 0
            serve = ["serve", "--host", "127.0.0.1", "--port", str(port)]
            with log.open("ab") as out:
                process = subprocess.Popen(
                    [sys.executable, "-c", _START, *serve],
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + LOADED  # returns as soon as the server answers
            while True:
                try:
                    if http.get(f"{base}/api/systems").status_code == 200:
                        return base, process
                except httpx.TransportError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    if process.poll() is None:
                        process.kill()
                    process.wait(timeout=30)
                    said = log.read_bytes()[start:].decode(errors="replace")
                    if "address already in use" in said.lower():
                        break  # try another port
                    raise AssertionError(f"server did not start: {said[-2000:]}")
                time.sleep(0.1)
    raise AssertionError("no free port found for the server")


@contextmanager
def _server(database_url: str, log: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    base, process = _start(database_url, log)
    try:
        yield base, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def test_sigkill_during_a_burst_loses_no_acknowledged_record(
    database_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    acknowledged: dict[int, dict[str, Any]] = {}
    lock = threading.Lock()
    with _server(database_url, log) as (base, process):
        created = httpx.post(f"{base}/api/tables", json={"system": "free-dice"}).json()
        table, token = created["table"], created["token"]
        headers = {"Authorization": f"Bearer {token}"}
        stop = threading.Event()

        def burst(worker: int) -> None:
            with httpx.Client(base_url=base, headers=headers, timeout=10) as client:
                n = 0
                while not stop.is_set():
                    command = {"kind": "roll", "expression": "3d6", "label": f"w{worker}-{n}"}
                    try:
                        response = client.post(
                            f"/api/tables/{table}/commands", json={"command": command}
                        )
                    except httpx.TransportError:
                        return  # the server is gone; this request was never acknowledged
                    assert response.status_code == 200, response.text
                    with lock:
                        for record in response.json()["records"]:
                            acknowledged[record["seq"]] = record
                    n += 1

        threads = [threading.Thread(target=burst, args=(w,)) for w in range(6)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + LOADED  # ends as soon as 60 are acknowledged
        while len(acknowledged) < 60 and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(signal.SIGKILL)  # in the middle of the burst
        process.wait(timeout=30)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    assert len(acknowledged) >= 60

    with _server(database_url, log) as (base, _):
        response = httpx.get(f"{base}/api/tables/{table}/records", headers=headers)
        assert response.status_code == 200, response.text
        records = response.json()["records"]
        view = httpx.get(f"{base}/api/tables/{table}", headers=headers).json()
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    stored = {r["seq"]: r for r in records}
    missing = sorted(set(acknowledged) - set(stored))
    assert not missing, f"acknowledged but lost: {missing}"
    for seq, record in acknowledged.items():
        assert stored[seq] == record
    assert len(records) == view["seq"]  # every roll is a record; the view shows the latest
    assert len(view["state"]["rolls"]) == min(len(records), ROLLS_SHOWN)
