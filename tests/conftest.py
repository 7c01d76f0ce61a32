"""Shared fixtures: seeded dice, a small game system for table tests, databases.

``database_url`` runs a test against SQLite and against a real PostgreSQL 15 server that the
session starts itself (see ``tests/pg.py``); the PostgreSQL half is skipped, with the reason,
only where the server binaries are absent.
"""

from __future__ import annotations

import faulthandler
import functools
import gc
import json
import os
import shutil
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
import typer
import typer.main
import typer.testing
from hypothesis import settings
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from pg import PostgresServer, postgres_missing
from spieltisch import jsonpatch
from spieltisch.dice.fair import DiceSource, SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import Access, Odds, OddsOutcome
from spieltisch.engine.visibility import Viewer
from spieltisch.systems import registry as registry_module

# No property test has a per-example deadline: timings on a shared 2-core machine are noise,
# and a test that fails by chance under load is a defect. CI runs every property test on a
# fixed sequence of examples; local runs keep exploring at random.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("local", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "local")


# -- the garbage collector -----------------------------------------------------------------

# A test process keeps what a whole run builds (hypothesis's and icepool's caches, the
# validators of every model): with the default thresholds the collector walked it all some 30
# times per worker, about a tenth of a worker's CPU (23 s of the first phase's 240). Rarer young
# and full collections take about a third of that; garbage is still found, later. Only the test
# processes are concerned: the servers and CLI processes the tests start keep the defaults.
gc.set_threshold(10_000, 10, 100)


# -- the process pool ----------------------------------------------------------------------

# An application starts its process pool as it starts (odds previews and AI moves run there,
# see ``web/workers.py``): a worker forked for every application a test opens, hundreds over
# the suite, each a few tenths of a CPU second, for tests that mostly never preview odds. So
# the tests run their applications with ``SPIELTISCH_POOL_SIZE=0``, the documented setting that
# computes in the request's thread; the pool's own tests (``tests/web/test_pool_*.py``,
# ``tests/security/test_budgets.py``) set a pool, and the browser tests' server runs with the
# default pool, as ``spieltisch serve`` does. Export the variable to run everything pooled.
os.environ.setdefault("SPIELTISCH_POOL_SIZE", "0")


# -- the command line's tree, built once ---------------------------------------------------

# The click command of an app, built on its first invocation in this process. Typer's test
# runner builds the whole command tree from the command functions' signatures on every
# invocation (0.05 to 0.15 CPU s with every command loaded, some 400 times over the suite); the
# console script builds it once per process. The tests invoke one tree per process too: the
# top-level group adds each command module's commands as it is first asked for and localizes
# the help at every invocation (``spieltisch.cli.app``), so an invocation finds the tree as a
# fresh process would.
typer.testing._get_command = functools.cache(typer.main.get_command)  # type: ignore[attr-defined]


# -- nothing outlives the run ---------------------------------------------------------------


def _own_helpers() -> set[int]:
    """The processes multiprocessing keeps for the whole run and stops at exit by itself (the
    fork server the process pools fork from, the resource tracker)."""
    from multiprocessing import forkserver, resource_tracker

    pids = {
        getattr(forkserver._forkserver, "_forkserver_pid", None),
        getattr(resource_tracker._resource_tracker, "_pid", None),
    }
    return {pid for pid in pids if pid is not None}


def child_processes() -> list[str]:
    """This process's living children (pid and command line), multiprocessing's own aside,
    and the processes multiprocessing started for it (a process pool's, forked by the fork
    server, are the fork server's children but joined by this process at exit)."""
    import multiprocessing

    found = [f"{p.pid}: {p.name} (multiprocessing)" for p in multiprocessing.active_children()]
    me, helpers = str(os.getpid()), _own_helpers()
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            fields = (folder / "stat").read_text().rsplit(")", 1)[1].split()
            command = (folder / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except (OSError, IndexError):
            continue  # ended meanwhile
        if fields[1] == me and fields[0] != "Z" and int(folder.name) not in helpers:
            found.append(f"{folder.name}: {command[:200]}")
    return found


def lingering_threads(grace: float = 10.0) -> list[threading.Thread]:
    """The threads but the main one that do not end within ``grace`` seconds each and would
    keep the process from exiting (not daemons)."""
    main = threading.main_thread()
    left = []
    for thread in threading.enumerate():
        if thread is main or thread.daemon:
            continue
        thread.join(grace)
        if thread.is_alive():
            left.append(thread)
    return left


@pytest.fixture(scope="session", autouse=True)
def nothing_outlives_the_session() -> Iterator[None]:
    """Fail the run (an error at the last test's teardown) when a thread that is not a daemon,
    or a child process, is still alive once every other fixture is torn down: the test
    process would print its results and then never exit. Set up first, torn down last."""
    yield
    threads = lingering_threads()
    children = [] if sys.platform != "linux" else child_processes()
    if threads or children:
        frames = sys._current_frames()
        stacks = [
            f"thread {t.name}:\n" + "".join(traceback.format_stack(frames[t.ident]))
            for t in threads
            if t.ident in frames
        ]
        pytest.fail(
            "left running after the tests:\n"
            + "\n".join([*stacks, *(f"child process {c}" for c in children)])
        )


EXIT_GRACE = 60
"""Seconds the process may take to exit once pytest is done (its exit hooks, joins)."""


def pytest_unconfigure(config: pytest.Config) -> None:
    """Arm a watchdog: a test process that has not exited :data:`EXIT_GRACE` seconds after
    pytest is done prints every thread's stack and ends with status 1, instead of keeping the
    run from ever finishing.

    Not in an xdist worker: a worker that is done waits for the controller to let it go, which
    happens once the slowest worker is done too (a minute later is common), and the controller
    then ends any worker that has not exited within ten seconds (execnet's terminate timeout);
    the controller's own watchdog guards the run."""
    if hasattr(config, "workerinput"):
        return
    faulthandler.dump_traceback_later(EXIT_GRACE, exit=True)


# -- what each test file costs ---------------------------------------------------------------

COST_FILE = os.environ.get("SPIELTISCH_TEST_COST")
"""Where each test process appends one line per test file it ran (path, CPU s, wall s, tests),
when set; ``scripts/test_cost.py`` adds the processes' lines up."""

_costs: dict[str, list[float]] = {}


def tree_cpu(descendants: bool = True) -> float:
    """CPU seconds of this process and, with ``descendants``, of the children it reaped and of
    every living descendant with its reaped ones (a browser the test process drives, a
    server's process pool)."""
    own = os.times()
    if not descendants:
        return own.user + own.system
    total = own.user + own.system + own.children_user + own.children_system
    if sys.platform != "linux":
        return total
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            fields = (folder / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        pid = int(folder.name)
        parents[pid] = int(fields[1])
        ticks[pid] = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    mine, found = {os.getpid()}, True
    while found:
        found = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                found = True
    mine.discard(os.getpid())
    return total + sum(ticks[pid] for pid in mine) / os.sysconf("SC_CLK_TCK")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With ``SPIELTISCH_TEST_COST`` set, add each test's CPU and wall time (set-up and
    teardown included) to its file's. The last test of a process tears the session down: a
    browser that ends then moves its whole run's time from the living descendants to the
    reaped children, or out of sight, so that test counts this process's own time only."""
    if not COST_FILE:
        yield
        return
    descendants = nextitem is not None
    cpu, wall = tree_cpu(descendants), time.perf_counter()
    yield
    cost = _costs.setdefault(str(item.path.relative_to(item.config.rootpath)), [0.0, 0.0, 0])
    cost[0] += tree_cpu(descendants) - cpu
    cost[1] += time.perf_counter() - wall
    cost[2] += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Append this process's per-file costs to ``SPIELTISCH_TEST_COST``."""
    if COST_FILE and _costs:
        with open(COST_FILE, "a") as out:
            for path, (cpu, wall, count) in _costs.items():
                out.write(f"{path}\t{cpu:.2f}\t{wall:.2f}\t{count:.0f}\n")


@pytest.fixture
def seeded() -> SeededSource:
    """A reproducible dice source."""
    return SeededSource(1733)


# -- a small game for table tests ----------------------------------------------------------


class Join(BaseModel):
    kind: Literal["join"] = "join"
    piece: str


class Roll(BaseModel):
    kind: Literal["roll"] = "roll"
    piece: str
    sides: int = Field(default=6, ge=1, le=100)


class Damage(BaseModel):
    kind: Literal["damage"] = "damage"
    piece: str
    amount: int


class Count(BaseModel):
    kind: Literal["count"] = "count"


class Note(BaseModel):
    kind: Literal["note"] = "note"
    text: str


ToyCommand = Annotated[Join | Roll | Damage | Count | Note, Field(discriminator="kind")]


class Joined(BaseModel):
    kind: Literal["joined"] = "joined"
    piece: str


class Rolled(BaseModel):
    kind: Literal["rolled"] = "rolled"
    piece: str
    value: int


class Damaged(BaseModel):
    kind: Literal["damaged"] = "damaged"
    piece: str
    amount: int


class Counted(BaseModel):
    kind: Literal["counted"] = "counted"


class Noted(BaseModel):
    kind: Literal["noted"] = "noted"
    text: str


ToyEvent = Annotated[Joined | Rolled | Damaged | Counted | Noted, Field(discriminator="kind")]


class ToyState(BaseModel):
    """Pieces with a score each, and a counter."""

    model_config = ConfigDict(frozen=True)

    pieces: dict[str, int] = Field(default_factory=dict)
    counted: int = 0
    notes: tuple[str, ...] = ()


class ToySystem:
    """A tiny game: join with a piece, roll for it, the GM deals damage or writes notes."""

    id = "toy"
    commands: TypeAdapter[Any] = TypeAdapter(ToyCommand)
    events: TypeAdapter[Any] = TypeAdapter(ToyEvent)
    options: TypeAdapter[Any] = TypeAdapter(dict[str, int])

    def new_state(self, options: Mapping[str, Any]) -> ToyState:
        start = options.get("counted", 0)
        if not isinstance(start, int):
            raise ValueError(f"counted must be an integer, got {start!r}")
        return ToyState(counted=start)

    def decide(self, state: ToyState, command: Any, dice: DiceSource) -> list[Any]:
        if isinstance(command, Join):
            if command.piece in state.pieces:
                raise RuleError("toy.taken", piece=command.piece)
            return [Joined(piece=command.piece)]
        if isinstance(command, Count):
            return [Counted()]
        if isinstance(command, Note):
            return [Noted(text=command.text)]
        if command.piece not in state.pieces:
            raise RuleError("toy.no_piece", piece=command.piece)
        if isinstance(command, Roll):
            return [Rolled(piece=command.piece, value=dice.roll(command.sides))]
        return [Damaged(piece=command.piece, amount=command.amount)]

    def evolve(self, state: ToyState, event: Any) -> ToyState:
        if isinstance(event, Joined):
            return state.model_copy(update={"pieces": {**state.pieces, event.piece: 0}})
        if isinstance(event, Counted):
            return state.model_copy(update={"counted": state.counted + 1})
        if isinstance(event, Noted):
            return state.model_copy(update={"notes": (*state.notes, event.text)})
        if event.piece not in state.pieces:
            raise RuleError("toy.no_piece", piece=event.piece)
        delta = event.value if isinstance(event, Rolled) else -event.amount
        pieces = {**state.pieces, event.piece: state.pieces[event.piece] + delta}
        return state.model_copy(update={"pieces": pieces})

    def odds(self, state: ToyState, command: Any) -> Odds | None:
        if not isinstance(command, Roll):
            return None
        chance = 1 / command.sides
        return Odds(
            outcomes=[
                OddsOutcome(value=v, probability=chance, exact=f"1/{command.sides}")
                for v in range(1, command.sides + 1)
            ],
            mean=(command.sides + 1) / 2,
        )

    def access(self, state: ToyState, command: Any) -> Access:
        if isinstance(command, Damage | Note):
            return Access(gm_only=True)
        if isinstance(command, Join):
            return Access(piece=command.piece, claims=True)
        if isinstance(command, Roll):
            return Access(piece=command.piece)
        return Access()

    def automatic(self, state: ToyState) -> Any:
        return None

    def view(self, state: ToyState, viewer: Viewer) -> dict[str, Any]:
        return state.model_dump(mode="json")


@pytest.fixture
def toy() -> Iterator[ToySystem]:
    """The toy system, registered as ``"toy"`` for the duration of a test."""
    registry = registry_module.REGISTRY
    registry["toy"] = ToySystem
    try:
        yield ToySystem()
    finally:
        registry.pop("toy", None)


# -- databases -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL 15 server for the whole session (skipped only without binaries)."""
    reason = postgres_missing()
    if reason is not None:
        pytest.skip(reason)
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A fresh, empty database: an SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database()


# -- the web application -------------------------------------------------------------------


class Live:
    """A table's WebSocket as a page follows it: every message it returns carries the whole
    view as ``state``, the snapshot it came with or the last one patched as the message says
    (the ``base`` of every patch must be the version held). ``last`` is the message as sent."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: Any = None
        self.version = -1
        self.last: dict[str, Any] = {}

    def receive_json(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.last = dict(message)
        if "state" in message:
            self.state, self.version = message["state"], message["seq"]
        elif "patch" in message:
            if message["seq"] != self.version:
                assert message["base"] == self.version, (message["base"], self.version)
                self.state = jsonpatch.apply(self.state, message["patch"])
                self.version = message["seq"]
            message["state"] = self.state
        return message

    def receive_text(self) -> str:
        return json.dumps(self.receive_json())

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ws, name)


class Party:
    """A table opened through the HTTP API, with a GM, a player and a spectator."""

    def __init__(self, client: Any, system: str = "toy", **settings: Any) -> None:
        self.client = client
        body = {"system": system, "language": "en", "title": "Test", **settings}
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        created = response.json()
        self.created = created
        self.id: str = created["table"]
        self.gm = {"Authorization": f"Bearer {created['token']}"}
        self.gm_token: str = created["token"]
        self.player_token = self.join("player", "Paul")
        self.player = {"Authorization": f"Bearer {self.player_token}"}
        self.spectator = {"Authorization": f"Bearer {self.join('spectator', 'Sue')}"}

    def join(self, role: str, name: str) -> str:
        invite = self.created["invites"][role]
        response = self.client.post(
            f"/api/tables/{self.id}/join", json={"invite": invite, "name": name}
        )
        assert response.status_code == 201, response.text
        assert response.json()["role"] == role
        token: str = response.json()["token"]
        return token

    def do(self, who: dict[str, str], command: dict[str, Any], **body: Any) -> Any:
        return self.client.post(
            f"/api/tables/{self.id}/commands", headers=who, json={"command": command, **body}
        )

    @contextmanager
    def socket(self, token: str, since: int | None = None, client: Any = None) -> Iterator[Any]:
        """The table's WebSocket, authenticated by its first message (``client``: another app)."""
        message: dict[str, Any] = {"type": "auth", "token": token}
        if since is not None:
            message["since"] = since
        with (client or self.client).websocket_connect(f"/api/tables/{self.id}/ws") as ws:
            ws.send_json(message)
            yield Live(ws)

    def view(self, who: dict[str, str] | None = None) -> dict[str, Any]:
        response = self.client.get(f"/api/tables/{self.id}", headers=who or self.gm)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def records(self, who: dict[str, str] | None = None, since: int = 0) -> list[dict[str, Any]]:
        response = self.client.get(
            f"/api/tables/{self.id}/records", headers=who or self.gm, params={"since": since}
        )
        assert response.status_code == 200, response.text
        records: list[dict[str, Any]] = response.json()["records"]
        return records


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An empty SQLite file the migrations brought to the newest revision, once per test
    process; a test copies it instead of migrating a file of its own (most of a store's
    start). The migrations themselves are tested from an empty file in
    ``tests/store/test_migrations.py``."""
    from spieltisch.store import EventStore

    path = tmp_path_factory.mktemp("migrated") / "store.sqlite3"
    EventStore(f"sqlite:///{path}").close()
    assert not path.with_name(path.name + "-wal").exists()  # closed: all in the one file
    return path


@pytest.fixture
def web_store(tmp_path: Any, migrated_sqlite: Path) -> Iterator[Any]:
    """An event store on a fresh SQLite file for the web app (a copy of the migrated one)."""
    from spieltisch.store import EventStore

    database = tmp_path / "web.sqlite3"
    shutil.copyfile(migrated_sqlite, database)
    store = EventStore(f"sqlite:///{database}")
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def client(web_store: Any) -> Iterator[Any]:
    """The real application (FastAPI TestClient, lifespan running) on ``web_store``."""
    from asgi_client import TestClient
    from spieltisch.web.app import create_app

    with TestClient(create_app(web_store)) as test_client:
        yield test_client


@pytest.fixture
def make_party() -> type[Party]:
    """``make_party(client, system="toy", **settings)`` opens a table with GM, player, spectator.

    (A fixture rather than an import: several test folders have a ``conftest`` module.)
    """
    return Party
