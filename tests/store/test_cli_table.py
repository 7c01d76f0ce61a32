"""``spieltisch table new|list|export|import`` and ``spieltisch serve`` on real databases."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.dice.verify import verify_export
from spieltisch.store import EventStore

runner = CliRunner()


def _run(*args: str, lang: str = "en") -> Any:
    return runner.invoke(app, ["--lang", lang, *args])


def _json(result: Any) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_new_list_export_import(tmp_path: Path) -> None:
    db, other = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3"
    assert "No tables yet." in _run("table", "list", "--db", str(db)).stdout
    created = _json(
        _run("table", "new", "free-dice", "--title", "Friday", "--db", str(db), "--json")
    )
    assert set(created) >= {"table", "token", "invites", "commitment"}
    listed = _json(_run("table", "list", "--db", str(db), "--json"))
    assert [(t["table"], t["system"], t["title"], t["seq"]) for t in listed] == [
        (created["table"], "free-dice", "Friday", 0)
    ]
    human = _run("table", "list", "--db", str(db), lang="de")
    assert "Tisch" in human.stdout and created["table"] in human.stdout

    store = EventStore(db_path=str(db))
    gm = store.authenticate(created["table"], created["token"])
    store.execute(created["table"], gm, {"kind": "roll", "expression": "2d6"})
    store.reveal(created["table"], gm)
    store.close()

    out = tmp_path / "export.json"
    result = _run("table", "export", created["table"], "--db", str(db), "--out", str(out))
    assert result.exit_code == 0, result.output
    exported = json.loads(out.read_text())
    assert exported["format"] == "spieltisch-table/3" and verify_export(exported).ok
    imported = _json(_run("table", "import", str(out), "--db", str(other), "--json"))
    assert imported["table"] != created["table"]
    store = EventStore(db_path=str(other))
    try:
        records = store.table(imported["table"]).records
        assert [r.model_dump(mode="json") for r in records] == _records(exported)
    finally:
        store.close()


def _records(export: dict[str, Any]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = export["records"]
    return records


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["table", "new", "no-such-game"], "rule.unknown_system"),
        (["table", "new", "free-dice", "--language", "fr"], "table.bad_language"),
        (["table", "new", "free-dice", "--options", "[1]"], "table.cli.bad_options_json"),
        (["table", "import", "MISSING"], "table.cli.unreadable"),
    ],
)
def test_errors_are_one_localized_line(tmp_path: Path, args: list[str], code: str) -> None:
    args = [str(tmp_path / "missing.json") if a == "MISSING" else a for a in args]
    result = _run(*args, "--db", str(tmp_path / "x.sqlite3"), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == code
    german = _run(*args, "--db", str(tmp_path / "x.sqlite3"), lang="de")
    assert german.exit_code == 2 and "Fehler" in german.output


def test_import_refuses_what_is_not_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    result = _run("table", "import", str(bad), "--db", str(tmp_path / "x.sqlite3"), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "table.cli.not_json"
    result = _run("table", "export", "nope", "--db", str(tmp_path / "x.sqlite3"))
    assert result.exit_code == 2 and "'nope'" in result.output


def test_serve_refuses_workers_without_postgres(tmp_path: Path) -> None:
    result = _run("serve", "--workers", "2", "--db", str(tmp_path / "x.sqlite3"))
    assert result.exit_code == 2 and "PostgreSQL" in result.output


def test_serve_prints_its_address(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    code = "from spieltisch.cli.app import main; main()"
    args = ["--lang", "en", "serve", "--port", str(port), "--db", str(tmp_path / "s.sqlite3")]
    env = {**os.environ, "COLUMNS": "200"}
    process = subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
    finally:
        process.kill()
        process.wait(timeout=30)
    assert f"http://127.0.0.1:{port}" in line and "s.sqlite3" in line


def test_an_older_tables_id_beginning_with_a_dash_is_written_after_two_dashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "old.sqlite3"
    monkeypatch.setattr("spieltisch.store.tables.new_id", lambda: "-6OldTable01")
    created = _json(_run("table", "new", "free-dice", "--db", str(db), "--json"))
    assert created["table"] == "-6OldTable01"
    as_option = _run("table", "export", "-6OldTable01", "--db", str(db))
    assert as_option.exit_code == 2
    assert "'-6OldTable01' reads as an option" in as_option.output
    assert "'--'" in as_option.output
    exported = _run("table", "export", "--db", str(db), "--", "-6OldTable01")
    assert exported.exit_code == 0, exported.output
    assert json.loads(exported.stdout)["table"] == "-6OldTable01"
