"""An invocation imports what its command needs: the dice commands start without the store,
the web server or any game system; a table command imports the games it opens, no other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from spieltisch.systems.registry import BUILT_IN, get_system, system_ids

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


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=True
    )


def _modules(*args: str) -> set[str]:
    return set(json.loads(_run(*args).stderr.strip().splitlines()[-1]))


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


_GAMES = {
    "spieltisch.systems.dnd5e",
    "spieltisch.systems.freedice",
    "spieltisch.systems.hexxen",
    "spieltisch.systems.kilkenny",
    "spieltisch.systems.kreiswanderer",
    "spieltisch.systems.magical_kitties",
}
"""The packages of the games' rules."""


def test_table_commands_import_only_the_games_they_open(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.sqlite3")
    assert not _GAMES & _modules("table", "list", "--db", db)
    loaded = _modules("table", "new", "free-dice", "--db", db)
    assert _GAMES & loaded == {"spieltisch.systems.freedice"}
    assert len(json.loads(_run("table", "list", "--json", "--db", db).stdout)) == 1


def test_every_built_in_system_is_found_under_its_own_id() -> None:
    for system_id in BUILT_IN:
        assert get_system(system_id).id == system_id
    assert set(system_ids()) >= set(BUILT_IN)
