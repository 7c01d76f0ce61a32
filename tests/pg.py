"""A real PostgreSQL 15 server for the tests and benchmarks, started and stopped on demand.

``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` user (via
``runuser``) in a temporary directory that user owns. It listens on 127.0.0.1 only, on a free
port, with its socket in the data directory. Another process (a parallel test worker) may take
that port before the server binds it: then the start is tried again on another port. Without
the binaries the caller skips.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

__all__ = ["PG_BIN", "PostgresServer", "postgres_missing"]

PG_BIN = Path(os.environ.get("SPIELTISCH_PG_BIN", "/usr/lib/postgresql/15/bin"))


def postgres_missing() -> str | None:
    """Why no server can be started here, or ``None`` when it can."""
    for name in ("initdb", "pg_ctl", "postgres"):
        if not (PG_BIN / name).exists():
            return f"PostgreSQL 15 binaries not found in {PG_BIN} (scripts/test-services.sh)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root but runuser is missing"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


_START_ATTEMPTS = 5
"""Starts tried, each on a new free port, while the port was taken."""


class PostgresServer:
    """One throw-away cluster; ``url(db)`` gives SQLAlchemy URLs for fresh databases."""

    def __init__(self, *, fsync: bool = False) -> None:
        self.port = _free_port()
        self.root = Path(tempfile.mkdtemp(prefix="spieltisch-pg-"))
        self.data = self.root / "data"
        self.fsync = fsync
        self._as_postgres = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        command = list(args)
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> PostgresServer:
        """initdb + pg_ctl start; returns when the server accepts connections."""
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        os.chmod(self.root, 0o700)
        self._run(
            str(PG_BIN / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-locale",
        )
        for attempt in range(_START_ATTEMPTS):
            if attempt:
                self.port = _free_port()
            try:
                self._pg_ctl_start()
                return self
            except subprocess.CalledProcessError:
                log = self.root / "log"
                text = log.read_text(errors="replace") if log.exists() else ""
                if "could not bind" not in text or attempt == _START_ATTEMPTS - 1:
                    raise
                log.unlink()
        raise AssertionError("unreachable")

    def _pg_ctl_start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} "
            f"-c max_connections=200 -c fsync={'on' if self.fsync else 'off'}"
        )
        self._run(
            str(PG_BIN / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        """Stop the server and remove its files."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def admin_url(self) -> str:
        """URL of the maintenance database."""
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def create_database(self, name: str | None = None) -> str:
        """A new empty database; returns its URL."""
        import psycopg

        name = name or f"t_{uuid.uuid4().hex[:12]}"
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(
                    f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                    autocommit=True,
                ) as conn:
                    conn.execute(f'CREATE DATABASE "{name}"')
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"
