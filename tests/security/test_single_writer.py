"""One writing process per SQLite file.

Two processes writing one SQLite file would each fan out only their own commits, so the
clients of one would silently stop seeing the other's moves. A second ``spieltisch serve`` (or
any second process opening an event store) on the same file is therefore refused with a
localized message naming the file; stores of one process share the lock; the lock goes with
the process, however it ends.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from spieltisch.errors import SpieltischError
from spieltisch.i18n import error_message
from spieltisch.store import EventStore
from spieltisch.store.db import lock_path

_CLI = "from spieltisch.cli.app import main; main()"
_OPEN = (
    "import sys; from spieltisch.store import EventStore; "
    "s = EventStore(sys.argv[1]); t = s.create_table('free-dice'); print(t.table); s.close()"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "SPIELTISCH_DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-c", *args], capture_output=True, text=True, timeout=120, env=env
    )


_PORTS: dict[int, int] = {}


def first_port(process: subprocess.Popen[bytes]) -> int:
    """The port the server ``process`` of :func:`_serve` listens on."""
    return _PORTS[process.pid]


def _start(db: Path) -> subprocess.Popen[bytes]:
    """A real ``spieltisch serve`` on ``db`` answering on a free port. A parallel test may bind
    the port between choosing and listening: then the server exits and another is tried."""
    # One client polls (a client per request would load the CA certificates each time).
    with httpx.Client(timeout=2) as http:
        for _attempt in range(5):
            port = _free_port()
            process = subprocess.Popen(
                [sys.executable, "-c", _CLI, "serve", "--db", str(db), "--port", str(port)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            _PORTS[process.pid] = port
            deadline = time.monotonic() + 300  # returns as soon as it answers; a loaded machine
            while True:  # stretched a start past a minute
                try:
                    if http.get(f"http://127.0.0.1:{port}/api/systems").is_success:
                        return process
                except httpx.TransportError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    if process.poll() is None:
                        process.terminate()
                    said = process.communicate(timeout=30)[1]
                    if b"address already in use" in said.lower():
                        break  # try another port
                    raise AssertionError(f"server did not start: {said!r}")
                time.sleep(0.1)
    raise AssertionError("no free port found for the server")


@contextmanager
def _serve(db: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A real ``spieltisch serve`` on ``db``, listening on a free port of 127.0.0.1."""
    process = _start(db)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
        process.communicate(timeout=30)


def test_a_second_server_on_the_same_file_is_refused_with_the_file_named(
    tmp_path: Path,
) -> None:
    db = (tmp_path / "one.sqlite3").resolve()
    with _serve(db) as first:
        port = str(_free_port())
        for lang, words in (("en", "already in use"), ("de", "schon von einem anderen")):
            second = _run(_CLI, "--lang", lang, "serve", "--db", str(db), "--port", port)
            assert second.returncode == 2
            assert words in second.stderr
            assert str(db) in second.stderr.replace("\n", "")
            assert str(first.pid) in second.stderr
        with pytest.raises(SpieltischError) as refused:
            EventStore(f"sqlite:///{db}")  # this process too
        assert refused.value.code == "store.in_use"
        assert refused.value.params == {"path": str(db), "pid": str(first.pid)}
        assert str(db) in error_message(refused.value, "en")
        # The administrator's commands are refused the same way, and change nothing.
        refused_new = _run(_CLI, "--lang", "en", "table", "new", "free-dice", "--db", str(db))
        assert refused_new.returncode == 2 and "already in use" in refused_new.stderr
        # Reading commands work beside the server: they take no writer lock.
        created = httpx.post(
            f"http://127.0.0.1:{first_port(first)}/api/tables",
            json={"system": "free-dice", "title": "Beside the server"},
        ).json()
        listed = _run(_CLI, "table", "list", "--json", "--db", str(db))
        assert listed.returncode == 0, listed.stderr
        assert [t["table"] for t in json.loads(listed.stdout)] == [created["table"]]
        exported = _run(_CLI, "table", "export", created["table"], "--db", str(db))
        assert exported.returncode == 0, exported.stderr
        assert json.loads(exported.stdout)["title"] == "Beside the server"
        reader = EventStore(f"sqlite:///{db}", read_only=True)
        try:
            assert [info.id for info in reader.list_tables()] == [created["table"]]
            with pytest.raises(SpieltischError) as read_only:
                reader.create_table("free-dice")
            assert read_only.value.code == "store.read_only"
        finally:
            reader.close()
        assert len(json.loads(_run(_CLI, "table", "list", "--json", "--db", str(db)).stdout)) == 1
    with _serve(db):  # once the first one has stopped, a new one starts
        pass
    opened = _run(_OPEN, f"sqlite:///{db}")
    assert opened.returncode == 0, opened.stderr


def test_the_lock_goes_with_a_killed_process(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite3"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from spieltisch.store import EventStore; "
            "s = EventStore(sys.argv[1]); print('open', flush=True); sys.stdin.read()",
            f"sqlite:///{db}",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"open\n"
        refused = _run(_OPEN, f"sqlite:///{db}")
        assert refused.returncode != 0 and "store.in_use" in refused.stderr
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.communicate(timeout=30)
    assert lock_path(db).exists()  # the file stays; only the lock on it is gone
    opened = _run(_OPEN, f"sqlite:///{db}")
    assert opened.returncode == 0, opened.stderr


def test_stores_of_one_process_share_the_lock_until_the_last_closes(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    first, second = EventStore(url), EventStore(url)
    created = first.create_table("free-dice")
    gm = second.authenticate(created.table, created.token)
    second.execute(created.table, gm, {"kind": "roll", "expression": "1d6"})
    assert first.table(created.table).seq == 1
    first.close()
    assert _run(_OPEN, url).returncode != 0  # the second store still holds it
    second.close()
    second.close()  # closing twice releases once
    opened = _run(_OPEN, url)
    assert opened.returncode == 0, opened.stderr
    third = EventStore(url)  # and this process can take it again
    try:
        assert {info.id for info in third.list_tables()} >= {created.table}
    finally:
        third.close()


def test_postgres_and_memory_databases_take_no_file_lock(tmp_path: Path) -> None:
    from spieltisch.store.db import lock_writer

    assert lock_writer("sqlite://") is None
    assert lock_writer("sqlite:///:memory:") is None
    assert lock_writer("postgresql+psycopg://postgres@127.0.0.1:1/none") is None
    held = lock_writer(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert held is not None and held.path == tmp_path / "x.sqlite3.lock"
    held.release()
