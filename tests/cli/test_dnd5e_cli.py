"""``spieltisch dnd5e``: stable JSON of odds, jump and move."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spieltisch.cli.app import app

runner = CliRunner()


def run(*args: str) -> tuple[int, dict[str, object]]:
    result = runner.invoke(app, ["--lang", "en", "dnd5e", *args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_odds_json() -> None:
    code, data = run("odds", "--bonus", "5", "--ac", "15")
    assert code == 0 and data == {"hit": 0.55, "critical": 0.05, "miss": 0.45}
    code, data = run("odds", "--bonus", "5", "--ac", "15", "--advantage")
    assert data == {"hit": 0.7975, "critical": 0.0975, "miss": 0.2025}
    # Both flags given cancel (any advantage and any disadvantage make a normal roll).
    code, data = run("odds", "--bonus", "5", "--ac", "15", "--advantage", "--disadvantage")
    assert code == 0 and data == {"hit": 0.55, "critical": 0.05, "miss": 0.45}


def test_jump_json() -> None:
    assert run("jump", "--strength", "15") == (0, {"long_m": 4.5, "high_m": 1.5})
    assert run("jump", "--strength", "15", "--standing") == (0, {"long_m": 2.25, "high_m": 0.75})


def test_move_json(tmp_path: Path) -> None:
    scenario = {
        "grid": {"width": 10, "height": 10, "diagonal": "uniform"},
        "terrain": [{"square": "c1", "kind": "difficult"}],
        "creatures": [
            {
                "id": "ada",
                "side": "party",
                "position": "a1",
                "speeds": {"walk": 9},
                "conditions": ["prone"],
            },
            {"id": "gob", "side": "foes", "size": "small", "position": "b2"},
        ],
        "move": {
            "creature": "ada",
            "stand_up": True,
            "steps": [{"to": "b1"}, {"to": "c1"}, {"to": "d1"}],
        },
    }
    file = tmp_path / "move.json"
    file.write_text(json.dumps(scenario))
    code, data = run("move", "--scenario", str(file))
    assert code == 0
    assert data["legal"] is False and data["cost_m"] == 8.5 and data["remaining_m"] == 0.5
    assert data["error"]["code"] == "dnd5e.move.too_far" and data["error"]["step"] == 2  # type: ignore[index]
    scenario["move"]["steps"] = [{"to": "b1"}]  # type: ignore[index]
    scenario["move"]["dash"] = True  # type: ignore[index]
    file.write_text(json.dumps(scenario))
    code, data = run("move", "--scenario", str(file))
    assert data == {
        "legal": True,
        "cost_m": 5.5,
        "remaining_m": 12.5,
        "opportunity_attacks": [],
        "error": None,
    }
    scenario["creatures"][0]["conditions"] = []  # type: ignore[index]
    scenario["move"] = {"creature": "ada", "steps": [{"to": "a2"}, {"to": "a3"}, {"to": "a4"}]}
    file.write_text(json.dumps(scenario))
    assert run("move", "--scenario", str(file))[1]["opportunity_attacks"] == ["gob"]
    file.write_text("{")
    code, data = run("move", "--scenario", str(file))
    assert code == 2 and data["error"]["code"] == "dnd5e.scenario.bad_json"  # type: ignore[index]
