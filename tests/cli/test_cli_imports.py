"""An invocation imports what its command needs: the dice commands start without the store,
the web server or any game system."""

from __future__ import annotations

import json
import subprocess
import sys

_PROBE = """
import json, sys
from spieltisch.cli.app import main
sys.argv = ["spieltisch", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _modules(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def test_odds_imports_neither_store_nor_systems() -> None:
    loaded = _modules("odds", "3d6", "--json")
    assert "spieltisch.cli.dice" in loaded
    heavy = {"sqlalchemy", "alembic", "fastapi", "spieltisch.store", "spieltisch.systems"}
    assert not heavy & loaded
    assert not {m for m in loaded if m.startswith("spieltisch.cli.")} - {
        "spieltisch.cli.app",
        "spieltisch.cli.context",
        "spieltisch.cli.words",
        "spieltisch.cli.dice",
    }


def test_a_game_command_imports_its_own_module_only() -> None:
    loaded = _modules("kitties", "odds", "--pool", "3", "--difficulty", "4", "--json")
    assert "spieltisch.cli.kitties" in loaded
    assert "spieltisch.cli.hexxen" not in loaded
    assert "spieltisch.store" not in loaded
