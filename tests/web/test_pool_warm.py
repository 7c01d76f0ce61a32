"""The process pool starts in the background: making it never waits for its fork server, which
imports every game's rules before it forks a worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_SCRIPT = """
import sys
from spieltisch.web.workers import PRELOAD, PoolSettings, Workers

workers = Workers(PoolSettings(size=1, timeout=120), preload=(*PRELOAD, "slow_preload"))
print("made, warming:", workers.warming.is_alive(), flush=True)
open(sys.argv[1], "w").close()  # now the fork server may finish importing
print("ran:", workers.run(abs, -3), flush=True)
workers.close()
"""


def test_the_pool_is_made_while_its_fork_server_still_imports(tmp_path: Path) -> None:
    """The fork server's imports wait for a file that is written only after the pool was
    made: were the start not in the background, the pool would never be made."""
    gate = tmp_path / "gate"
    here = Path(__file__).parent
    env = {
        **os.environ,
        "SPIELTISCH_TEST_GATE": str(gate),
        "PYTHONPATH": os.pathsep.join([str(here), *sys.path]),
    }
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(gate)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["made, warming: True", "ran: 3"]


_GAMES = """
import json, sys
from spieltisch.systems.registry import BUILT_IN
from spieltisch.web.workers import PoolSettings, Workers
from loaded_games import loaded

games = [module for module, _ in BUILT_IN.values()]
workers = Workers(PoolSettings(size=1, timeout=120))
print(json.dumps([games, workers.run(loaded, games), loaded(games)]))
workers.close()
"""


def test_a_worker_finds_every_game_imported_by_its_fork_server() -> None:
    """The registry imports a game when it is first asked for; the pool's worker must not
    import one at its first preview or AI move (seconds on a busy machine): its fork server
    imported them all. The process that made the pool imported none."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), *sys.path])}
    done = subprocess.run(
        [sys.executable, "-c", _GAMES], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    games, in_worker, here = json.loads(done.stdout)
    assert len(games) == 6
    assert in_worker == games
    assert here == []
