"""A real server and Debian's Chromium for the browser tests.

The server is uvicorn on 127.0.0.1, in a thread, over a temporary SQLite file, one for the
whole run of a test process (an xdist worker). Its socket is bound here to port 0 (the kernel
picks a free port) and handed to uvicorn, so no other process can take the port between
choosing and listening (tests may run in parallel).
Chromium is Debian's headless shell, ``/usr/bin/chromium-headless-shell`` (the same engine as
the ``chromium`` package without the desktop browser around it: a page costs it about half the
CPU); Playwright never downloads a browser. Without that binary the browser tests are skipped
with the reason.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CSP_VIOLATIONS, new_context, watch_errors

CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


def build_app(db_path: Path) -> Any:
    """The real application over a fresh SQLite file, with the pages, without rate limits:
    one server takes every table a test process opens, all from one address. Its process pool
    is the one ``spieltisch serve`` starts (the other tests run without one, see
    ``tests/conftest.py``)."""
    from spieltisch.web.app import Settings, create_app
    from spieltisch.web.limits import RateLimits
    from spieltisch.web.workers import PoolSettings

    off = RateLimits(**{f.name: "" for f in fields(RateLimits)})
    settings = replace(Settings.from_env(), rates=off, pool=PoolSettings())
    return create_app(db_path=str(db_path), settings=settings)


@dataclass
class Server:
    """A running server: its base URL and a way to stop it."""

    url: str
    thread: threading.Thread
    server: Any
    sock: socket.socket

    def stop(self) -> None:
        """Stop the server, wait for its thread and close its socket."""
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()
        assert not self.thread.is_alive(), "the test server did not stop"


def start_server(db_path: Path) -> Server:
    """Start uvicorn on 127.0.0.1 at a free port and return once it listens."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    config = uvicorn.Config(
        build_app(db_path), host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio"
    )
    server = uvicorn.Server(config)
    started = threading.Event()

    def run() -> None:
        try:
            server.run(sockets=[sock])
        finally:
            started.set()  # also when it failed to start: the caller sees the thread gone

    thread = threading.Thread(target=run, daemon=True, name=f"test-server-{port}")
    thread.start()
    # uvicorn tells it started by ``server.started``; it sets no event, so wait on the thread's
    # end or on that flag, checking the flag each time the thread has had a chance to run.
    while not server.started:
        if started.wait(0.05):
            raise RuntimeError("the test server did not start")
    return Server(f"http://127.0.0.1:{port}", thread, server, sock)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module, on its own database: what one module leaves behind in a
    server (its connections, its process pool) never reaches the next one's tests."""
    running = start_server(tmp_path_factory.mktemp("db") / "tables.sqlite")
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (skipped when the binary is absent)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (scripts/test-services.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def gm_page(browser: Any) -> Iterator[Any]:
    """A page of its own browser context (1280 × 900) that fails the test on a script error."""
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = watch_errors(page)
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def screenshots(tmp_path: Path) -> Iterator[Path]:
    """Where the browser tests write the screenshots of the docs.

    ``make screenshots`` (``SPIELTISCH_SCREENSHOTS=1``) writes them into ``docs/screenshots``;
    an ordinary run takes them all the same, into a temporary folder, and checks each is a PNG.
    """
    folder = SCREENSHOTS if os.environ.get("SPIELTISCH_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    yield folder
    for shot in folder.glob("*.png"):
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", shot.name


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """Fail the test when a page reported a Content-Security-Policy violation."""
    CSP_VIOLATIONS.clear()
    yield
    found, CSP_VIOLATIONS[:] = list(CSP_VIOLATIONS), []
    if found:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(found))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test in this folder drives the browser: marked so, whether or not its module says
    it (``make unit`` runs the others on two workers first, these after them).

    The modules run longest first, each one whole, so that neither worker is left alone with a
    long module at the end (``make unit`` hands them out in this order, see the Makefile). A
    module's length is the measure of its time: its tests are scenarios played step by step in
    the browser, and the longer the scenario the longer its text. The number of its tests is
    not (the order xdist would choose): a module of one test playing a whole fight took longer
    than all but one and ran last, its worker alone for half a minute.
    """
    here = Path(__file__).parent
    slots = [i for i, item in enumerate(items) if here in item.path.parents]
    for i in slots:
        items[i].add_marker(pytest.mark.browser)
    length = {items[i].path: items[i].path.stat().st_size for i in slots}
    ordered = sorted((items[i] for i in slots), key=lambda item: -length[item.path])
    for i, item in zip(slots, ordered, strict=True):
        items[i] = item
