"""From a click to another browser's update: how long after a roll is clicked in one browser
the log of a second browser at the same table shows it.

Starts two servers side by side (uvicorn child processes on 127.0.0.1, each over its own
SQLite file): one serving the working tree, one serving an anchor commit (``--anchor``,
default ``ea04049``, unpacked with ``git archive`` into a temporary folder). For each, a free
table is made through the API and opened in two Chromium pages (Playwright); the first clicks
"roll" (``1d6``), the second notes the moment its log grows. The rounds alternate between the
two servers, so both see the same load of the machine. Prints the median and the 90th
percentile per server and their ratio; asserts nothing about time.

Run: ``python bench/page_update.py`` (``--rounds 20``, ``--anchor <commit>``).
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Debian's Chromium headless shell (as the browser tests use it; Playwright downloads none)."""

_RATES_OFF = {
    f"SPIELTISCH_RATE_{name}": ""
    for name in ("COMMANDS", "COMMANDS_ADDRESS", "ODDS", "ODDS_ADDRESS", "CREATE", "JOIN")
}

CLICK = """() => {
  const at = Date.now();
  document.querySelector('#fd-roll button[type=submit]').click();
  return at;
}"""

WATCH = """() => {
  window.__grew = null;
  const log = document.getElementById('log');
  const count = log.children.length;
  new MutationObserver((_, observer) => {
    if (log.children.length > count) { window.__grew = Date.now(); observer.disconnect(); }
  }).observe(log, { childList: true });
}"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(src: Path, folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """A server of the package under ``src``; returns its process and base URL."""
    port = _free_port()
    env = {
        **os.environ,
        **_RATES_OFF,
        "PYTHONPATH": str(src),
        "SPIELTISCH_DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite3'}",
    }
    process = subprocess.Popen(
        [
            sys.executable,
            *("-m", "uvicorn", "--factory", "spieltisch.web.app:create_app"),
            *("--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"),
        ],
        env=env,
        cwd=folder,
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


def unpack(anchor: str, folder: Path) -> Path:
    """The anchor commit's ``src`` folder, unpacked into ``folder``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", anchor, "src"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


class Table:
    """A free table at one server, open in two pages (the same GM in two browsers)."""

    def __init__(self, browser: Any, base: str):
        made = httpx.post(f"{base}/api/tables", json={"system": "free-dice", "language": "en"})
        made.raise_for_status()
        data = made.json()
        entry = {"token": data["token"], "participant": data["participant"], "role": "gm"}
        self.pages = []
        for _ in range(2):
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.goto(base + "/")
            page.evaluate(
                "([id, entry]) => localStorage.setItem("
                "'spieltisch.tables', JSON.stringify({[id]: entry}))",
                [data["table"], entry],
            )
            page.goto(f"{base}/t/{data['table']}")
            page.wait_for_selector("#conn[data-state=live]")
            page.fill("#fd-expression", "1d6")
            self.pages.append(page)

    def once(self) -> float:
        """Milliseconds from a click in the first page to the second page's log growing."""
        clicker, watcher = self.pages
        watcher.evaluate(WATCH)
        at = float(clicker.evaluate(CLICK))
        watcher.wait_for_function("() => window.__grew !== null", timeout=30_000)
        return float(watcher.evaluate("window.__grew")) - at


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchor", default="ea04049")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folders = {name: Path(tmp) / name for name in ("anchor", "now")}
        for folder in folders.values():
            folder.mkdir()
        sources = {"anchor": unpack(args.anchor, folders["anchor"]), "now": ROOT / "src"}
        servers = {name: start(sources[name], folders[name]) for name in folders}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                tables = {name: Table(browser, servers[name][1]) for name in servers}
                times: dict[str, list[float]] = {name: [] for name in tables}
                for _ in range(max(1, args.rounds)):
                    for name, table in tables.items():
                        times[name].append(table.once())
                browser.close()
        finally:
            for process, _ in servers.values():
                process.terminate()
                process.wait(timeout=30)
    median = {name: statistics.median(values) for name, values in times.items()}
    for name, values in times.items():
        high = statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]
        print(
            f"{name:<7} median {median[name]:7.1f} ms   p90 {high:7.1f} ms   ({len(values)} rounds)"
        )
    print(f"ratio now/anchor (median): {median['now'] / median['anchor']:.2f}")


if __name__ == "__main__":
    main()
