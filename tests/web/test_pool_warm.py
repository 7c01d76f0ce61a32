"""The process pool starts in the background: making it never waits for its fork server."""

from __future__ import annotations

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
