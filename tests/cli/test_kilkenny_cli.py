"""``spieltisch kilkenny``: moves and match as JSON, a scripted game, save and load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.cli.context import settings
from spieltisch.systems.kilkenny import Position

runner = CliRunner()


@pytest.fixture(autouse=True)
def english() -> None:
    settings.lang = "en"


def invoke(*args: str, data: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["--lang", "en", "kilkenny", *args], input=data)
    return result.exit_code, result.output


def test_moves_json_from_the_start() -> None:
    code, output = invoke("moves", "--roll", "6", "--json")
    assert code == 0
    moves = json.loads(output)["moves"]
    assert {(m["from"], m["to"]) for m in moves} == {
        ("f5", "l11"),
        ("g5", "m11"),
        ("h5", "n11"),
        ("g5", "a11"),
        ("h5", "b11"),
        ("i5", "c11"),
    }


def test_moves_json_counts_for_four_players() -> None:
    counts = []
    for roll in range(1, 7):
        code, output = invoke("moves", "--players", "4", "--roll", str(roll), "--json")
        assert code == 0
        counts.append(len(json.loads(output)["moves"]))
    assert counts == [32, 30, 26, 12, 8, 0]


def test_moves_json_for_a_position_with_a_hole_entry() -> None:
    code, output = invoke("moves", "--position", "S:g11 N:a1 S - 0", "--roll", "4", "--json")
    assert code == 0
    assert {"from": "g11", "to": "S1"} in json.loads(output)["moves"]


def test_moves_with_odds_give_each_move_its_chances() -> None:
    from spieltisch.systems.kilkenny import Position
    from spieltisch.systems.kilkenny.chances import move_chances

    text = "S:a1,e5 N:e10,n14 S - 0"
    code, output = invoke("moves", "--position", text, "--roll", "2", "--odds", "--json")
    assert code == 0
    moves = json.loads(output)["moves"]
    position = Position.from_text(text.replace(" - ", " 2 "))
    expected = move_chances(position)
    assert len(moves) == len(expected)
    for data, found in zip(moves, expected, strict=True):
        assert set(data) == {"from", "to", "captured", "enter"}
        assert data["captured"]["exact"] == str(found.captured)
        assert data["enter"]["exact"] == str(found.enter)
    [e7] = [m for m in moves if (m["from"], m["to"]) == ("e5", "e7")]
    assert e7["captured"] == {"probability": 1 / 6, "exact": "1/6"}
    code, text_output = invoke("moves", "--position", text, "--roll", "2", "--odds")
    assert code == 0
    assert "e5-e7" in text_output and "(1/6)" in text_output


def test_moves_empty_list_when_the_player_must_pass() -> None:
    code, output = invoke("moves", "--players", "4", "--roll", "6", "--json")
    assert code == 0
    assert json.loads(output) == {"moves": []}


@pytest.mark.parametrize(
    ("args", "code_name"),
    [
        (["--roll", "7"], "kilkenny.bad_roll_option"),
        (["--roll", "1", "--players", "5"], "kilkenny.bad_players"),
        (["--roll", "1", "--position", "S:z9 N:a1 S - 0"], "kilkenny.bad_position"),
    ],
)
def test_moves_errors_are_json_with_a_code(args: list[str], code_name: str) -> None:
    code, output = invoke("moves", *args, "--json")
    assert code != 0
    assert json.loads(output)["error"]["code"] == code_name


def test_match_json_tallies_every_game() -> None:
    code, output = invoke("match", "--a", "greedy", "--b", "random", "--games", "6", "--json")
    assert code == 0
    data = json.loads(output)
    assert data["games"] == 6
    assert data["wins"]["a"] + data["wins"]["b"] + data["draws"] + data["capped"] == 6
    assert data["wins"]["a"] >= 5
    again = invoke("match", "--a", "greedy", "--b", "random", "--games", "6", "--json")[1]
    assert json.loads(again) == data


def test_match_text_reports_the_interval() -> None:
    code, output = invoke("match", "--a", "random", "--b", "random", "--games", "4", "--seed", "3")
    assert code == 0
    assert "95% interval" in output
    assert "Draws:" in output


def test_match_refuses_unknown_players() -> None:
    code, output = invoke("match", "--a", "greedy", "--b", "nobody", "--json")
    assert code != 0
    assert json.loads(output)["error"]["code"] == "kilkenny.unknown_ai"


def test_scripted_hot_seat_game_rejects_bad_moves_and_saves(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    script = "\n".join(["z1-z2", "f4-f9", f"save {saved}", "quit", ""])
    code, output = invoke("play", "--seed", "1", data=script)
    assert code == 0
    assert "S South (human) to move" in output
    assert "Legal moves:" in output
    assert "'z1'" in output
    assert "'f4-f9' is not allowed" in output
    assert f"Game saved to {saved}" in output
    data = json.loads(saved.read_text())
    assert data["format"] == "spieltisch-kilkenny/1"
    assert data["events"][0]["kind"] == "rolled"


def _first_legal(output: str) -> str:
    line = next(line for line in output.splitlines() if line.startswith("Legal moves:"))
    return line.removeprefix("Legal moves:").split(",")[0].strip()


def test_scripted_game_against_the_ai_with_undo_and_load(tmp_path: Path) -> None:
    # Find a legal first move for seed 4, then play it, let the AI answer, undo, save.
    _, preview = invoke("play", "--seed", "4", "--ai", "greedy", data="quit\n")
    first = _first_legal(preview)
    saved = tmp_path / "undo.json"
    script = "\n".join([first, "undo", f"save {saved}", "quit", ""])
    code, output = invoke("play", "--seed", "4", "--ai", "greedy", data=script)
    assert code == 0
    assert "N North (greedy) to move" in output
    assert "Back to your last move." in output
    data = json.loads(saved.read_text())
    assert [e["kind"] for e in data["events"]] == ["rolled"]
    assert Position.from_text(data["position"]).roll is not None
    code, loaded = invoke("play", "--load", str(saved), data=f"{first}\nquit\n")
    assert code == 0
    assert "S plays" in loaded or "S South plays" in loaded


def test_ai_against_ai_plays_to_the_end() -> None:
    code, output = invoke("play", "--ai", "random", "--ai", "greedy", "--seed", "2")
    assert code == 0
    assert "wins" in output or "Draw" in output


def test_load_of_a_broken_file_fails_cleanly(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    code, output = invoke("play", "--load", str(broken))
    assert code != 0
    assert "cannot be read" in output


def test_german_output() -> None:
    result = runner.invoke(app, ["--lang", "de", "kilkenny", "moves", "--roll", "9"])
    assert result.exit_code != 0
    assert "muss zwischen 1 und 6 liegen" in result.output


def test_match_with_a_time_limit_and_a_bad_one() -> None:
    code, output = invoke(
        "match",
        "--a",
        "strongest",
        "--b",
        "greedy",
        "--games",
        "2",
        "--budget",
        "2",
        "--seconds",
        "0.5",
        "--json",
    )
    assert code == 0
    assert json.loads(output)["games"] == 2
    code, output = invoke("match", "--a", "strongest", "--b", "greedy", "--seconds", "0", "--json")
    assert code != 0
    assert json.loads(output)["error"]["code"] == "kilkenny.bad_seconds"
