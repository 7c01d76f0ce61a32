"""``spieltisch verify FILE``: verdicts in both languages, JSON output, exit codes, bad files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.dice.fair import Draw, FairDice, ReplaySource, export_fair
from spieltisch.i18n import translate
from spieltisch.systems.registry import get_system

DICE = FairDice(hashlib.sha256(b"cli verify").digest(), "tisch-cli").with_player_seed(2, "Mauz")
SIDES = [[6, 6], [20], [10, 10, 10]]


def export(revealed: bool = True) -> dict[str, Any]:
    records, index = [], 0
    for seq, sides_list in enumerate(SIDES, start=1):
        draws = []
        for sides in sides_list:
            draws.append({"index": index, "sides": sides, "value": DICE.value(index, sides)})
            index += 1
        expression = f"{len(sides_list)}d{sides_list[0]}"
        command = {"kind": "roll", "expression": expression, "label": None}
        records.append({"seq": seq, "actor": "gm", "command": command, "draws": draws})
        records[-1]["events"] = _events(command, draws)
    return {
        "format": "spieltisch-table/1",
        "table": DICE.table,
        "system": "free-dice",
        "options": {},
        "language": "en",
        "fair": export_fair(DICE, revealed),
        "records": records,
    }


def _events(command: dict[str, Any], draws: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events the free-dice system makes of ``command`` with these draws."""
    system = get_system("free-dice")
    source = ReplaySource([Draw(d["index"], d["sides"], d["value"]) for d in draws])
    events = system.decide(system.new_state({}), system.commands.validate_python(command), source)
    return [system.events.dump_python(e, mode="json") for e in events]


def write(tmp_path: Path, data: Any, name: str = "table.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


def tampered() -> dict[str, Any]:
    data = export()
    draw = data["records"][2]["draws"][1]  # draw index 4, a d10
    draw["value"] = draw["value"] % 10 + 1
    return data


def test_an_intact_export_passes_with_exit_zero(tmp_path: Path) -> None:
    result = run("--lang", "en", "verify", write(tmp_path, export()))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("✓ ")
    assert "draws checked: 6" in result.stdout
    assert DICE.commitment in result.stdout


def test_a_mismatch_names_every_value_and_exits_one(tmp_path: Path) -> None:
    data = tampered()
    draw = data["records"][2]["draws"][1]
    result = run("--lang", "en", "verify", write(tmp_path, data))
    assert result.exit_code == 1
    expected_line = translate(
        "verify.mismatch_value",
        "en",
        seq=3,
        index=4,
        sides=10,
        expected=DICE.value(4, 10),
        logged=draw["value"],
    )
    assert f"✗ {expected_line}" in result.stdout
    assert "not matching: 1" in result.stdout


def test_the_verdict_speaks_german(tmp_path: Path) -> None:
    ok = run("--lang", "de", "verify", write(tmp_path, export()))
    assert "geprüfte Würfe: 6" in ok.stdout
    bad = run("--lang", "de", "verify", write(tmp_path, tampered(), "bad.json"))
    assert "Eintrag Nr. 3, Wurf Nr. 4" in bad.stdout


def test_json_verdicts(tmp_path: Path) -> None:
    ok = run("--lang", "en", "verify", "--json", write(tmp_path, export()))
    assert ok.exit_code == 0
    verdict = json.loads(ok.stdout)
    assert (verdict["ok"], verdict["draws"], verdict["mismatch"]) == (True, 6, None)

    bad = run("--lang", "en", "verify", write(tmp_path, tampered(), "bad.json"), "--json")
    assert bad.exit_code == 1
    verdict = json.loads(bad.stdout)
    assert verdict["ok"] is False
    assert verdict["draws"] == 6
    assert verdict["mismatch"]["kind"] == "value"
    assert (verdict["mismatch"]["seq"], verdict["mismatch"]["index"]) == (3, 4)
    assert verdict["mismatch"]["expected"] == DICE.value(4, 10)


def test_a_bad_commitment_fails_and_shows_both_hashes(tmp_path: Path) -> None:
    data = export()
    data["fair"]["commitment"] = "ab" * 32
    result = run("--lang", "en", "verify", write(tmp_path, data))
    assert result.exit_code == 1
    assert "ab" * 32 in result.stdout
    assert DICE.commitment in result.stdout
    assert "✓ " + translate("verify.summary_draws_ok", "en", draws=6) in result.stdout


def test_standard_input_is_read_for_a_dash() -> None:
    result = run("--lang", "en", "verify", "-", "--json", stdin=json.dumps(export()))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["ok"] is True


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("{not json", "verify.not_json"),
        ('"text"', "verify.bad_format"),
        (json.dumps({**export(), "format": "other/1"}), "verify.wrong_format"),
        (json.dumps(export(revealed=False)), "verify.not_revealed"),
    ],
)
def test_files_that_cannot_be_checked_exit_two(tmp_path: Path, content: str, code: str) -> None:
    path = write(tmp_path, content)
    as_json = run("--lang", "en", "verify", "--json", path)
    assert as_json.exit_code == 2
    error = json.loads(as_json.stdout)["error"]
    assert error["code"] == code
    assert error["message"] and error["message"] != code

    plain = run("--lang", "de", "verify", path)
    assert plain.exit_code == 2
    assert plain.stdout == ""
    assert plain.stderr.startswith(translate("cli.error", "de"))
    assert len(plain.stderr.strip().splitlines()) == 1


def test_missing_file_and_folder_are_named(tmp_path: Path) -> None:
    missing = str(tmp_path / "nowhere.json")
    result = run("--lang", "en", "verify", missing, "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "verify.no_file"
    assert repr(missing) in error["message"]

    folder = run("--lang", "en", "verify", str(tmp_path), "--json")
    assert json.loads(folder.stdout)["error"]["code"] == "verify.is_directory"
