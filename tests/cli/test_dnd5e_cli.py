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


def run_any(*args: str, lang: str = "en") -> tuple[int, object]:
    result = runner.invoke(app, ["--lang", lang, "dnd5e", *args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_monsters_json_lists_all_334() -> None:
    code, rows = run_any("monsters")
    assert code == 0 and isinstance(rows, list) and len(rows) == 334
    goblin = next(r for r in rows if r["id"] == "goblin")
    assert goblin == {
        "id": "goblin",
        "name": "Goblin",
        "size": "small",
        "type": "humanoid (goblinoid)",
        "cr": "1/4",
        "ac": 15,
        "hp": 7,
        "speeds": {"walk": 9},
        "attacks": ["Scimitar", "Shortbow"],
        "save_actions": [],
    }


def test_monster_json_has_parsed_lines() -> None:
    code, data = run_any("monster", "giant-spider")
    assert code == 0 and isinstance(data, dict)
    bite = data["lines"][0]
    assert bite["kind"] == "attack" and bite["bonus"] == 5
    assert bite["damage"] == [{"dice": "1d8+3", "type": "piercing"}]
    assert bite["save"] == {
        "dc": 11,
        "ability": "con",
        "damage": [{"dice": "2d8", "type": "poison"}],
        "half": True,
        "conditions": [],
    }
    code, red = run_any("monster", "adult-red-dragon")
    breath = next(x for x in red["lines"] if x["name"] == "Fire Breath")  # type: ignore[index]
    assert breath["area"] == {"shape": "cone", "size_m": "18", "width_m": None}
    assert breath["recharge"] == 5
    code, error = run_any("monster", "tarrasque-junior")
    assert code == 2 and error["error"]["code"] == "dnd5e.unknown_monster"  # type: ignore[index]


def test_spells_json() -> None:
    code, rows = run_any("spells")
    assert code == 0 and isinstance(rows, list) and len(rows) == 319
    fireball = next(r for r in rows if r["id"] == "fireball")
    assert fireball == {
        "id": "fireball",
        "name": "Fireball",
        "level": 3,
        "school": "evocation",
        "casting_time": {"amount": 1, "unit": "action"},
        "range": "distance",
        "range_m": 45,
        "area": {"shape": "sphere", "size_m": 6},
        "concentration": False,
        "attack": None,
        "save": {"ability": "dex", "success": "half"},
        "damage": {"type": "fire", "dice": "8d6"},
    }
    code, cantrips = run_any("spells", "--level", "0")
    assert code == 0 and all(r["level"] == 0 for r in cantrips)  # type: ignore[union-attr, index]
    code, error = run_any("spells", "--level", "10")
    assert code == 2 and error["error"]["code"] == "dnd5e.cli.bad_spell_level"  # type: ignore[index]


def test_odds_of_a_monster_action() -> None:
    code, data = run_any(
        "odds", "--monster", "giant-spider", "--attack", "bite", "--ac", "14", "--save-bonus", "1"
    )
    assert code == 0 and data == {
        "kind": "attack",
        "name": "Bite",
        "hit": 0.6,
        "critical": 0.05,
        "miss": 0.4,
        "save_success": 0.55,
        "mean_damage": 8.5575,
        "max_damage": 35,
        "conditions": [],
    }
    code, breath = run_any(
        "odds", "--monster", "adult-red-dragon", "--attack", "fire breath", "--save-bonus", "6"
    )
    assert code == 0 and breath["save_success"] == 0.3 and breath["mean_damage"] == 53.475  # type: ignore[index]
    code, error = run_any("odds", "--monster", "goblin", "--attack", "scimitar")
    assert code == 2 and error["error"]["code"] == "dnd5e.cli.ac_missing"  # type: ignore[index]
    code, error = run_any("odds", "--monster", "goblin", "--attack", "bite", "--ac", "12")
    assert error["error"]["code"] == "dnd5e.cli.unknown_action"  # type: ignore[index]
    assert "Scimitar, Shortbow" in error["error"]["message"]  # type: ignore[index]


def test_odds_of_a_spell() -> None:
    code, data = run_any("odds", "--spell", "fireball", "--dc", "15", "--save-bonus", "2")
    assert code == 0 and data["kind"] == "save" and data["slot"] == 3  # type: ignore[index]
    assert data["save_success"] == 0.4 and data["mean_damage"] == 22.3  # type: ignore[index]
    code, up = run_any("odds", "--spell", "fireball", "--slot", "5", "--dc", "15")
    assert up["max_damage"] == 60  # type: ignore[index]
    code, bolt = run_any(
        "odds", "--spell", "fire-bolt", "--bonus", "5", "--ac", "13", "--level", "5"
    )
    assert code == 0 and bolt["hit"] == 0.65 and bolt["max_damage"] == 40  # type: ignore[index]
    code, error = run_any("odds", "--spell", "fireball", "--slot", "2", "--dc", "14")
    assert code == 2 and error["error"]["code"] == "dnd5e.spell.bad_slot"  # type: ignore[index]
    code, error = run_any("odds", "--spell", "fireball")
    assert error["error"]["code"] == "dnd5e.cli.spell_dc_missing"  # type: ignore[index]
    code, error = run_any("odds", "--ac", "12")
    assert code == 2 and error["error"]["code"] == "dnd5e.cli.odds_what"  # type: ignore[index]


def test_german_display_of_a_monster() -> None:
    result = runner.invoke(app, ["--lang", "de", "dnd5e", "monster", "giant-spider"])
    assert result.exit_code == 0
    assert "Bite: +5, 7 (1W8+3) Stich, Reichweite 1,5 m; SG 11 Kon, 9 (2W8) Gift, halb" in (
        result.stdout.replace("\n", " ")
    )
    english = runner.invoke(app, ["--lang", "en", "dnd5e", "monster", "giant-spider"])
    assert "Bite: +5, 7 (1d8+3) piercing, reach 1.5 m; DC 11 con, 9 (2d8) poison, half" in (
        english.stdout.replace("\n", " ")
    )


def test_odds_of_darts_split_over_targets() -> None:
    # two darts of 1d4 + 1 on the target: 4 to 10, 7 on average
    code, data = run_any("odds", "--spell", "magic-missile", "--darts", "2")
    assert code == 0 and data["darts"] == 2  # type: ignore[index]
    assert data["mean_damage"] == 7.0 and data["max_damage"] == 10  # type: ignore[index]
    code, data = run_any("odds", "--spell", "magic-missile", "--slot", "3")
    assert data["darts"] == 5 and data["max_damage"] == 25  # type: ignore[index]
    # two rays of 2d6, each +6 against AC 13: one ray's hit, the two rays' damage
    code, data = run_any(
        "odds", "--spell", "scorching-ray", "--darts", "2", "--bonus", "6", "--ac", "13"
    )
    assert data["hit"] == 0.7 and data["max_damage"] == 48  # type: ignore[index]
    code, error = run_any("odds", "--spell", "magic-missile", "--darts", "4")
    assert code == 2 and error["error"]["code"] == "dnd5e.cli.bad_darts"  # type: ignore[index]
    code, error = run_any("odds", "--spell", "fireball", "--darts", "1", "--dc", "14")
    assert code == 2 and error["error"]["code"] == "dnd5e.cli.no_darts"  # type: ignore[index]
    code, error = run_any("odds", "--spell", "scorching-ray", "--darts", "2")
    assert error["error"]["code"] == "dnd5e.cli.spell_attack_missing"  # type: ignore[index]
