"""``spieltisch kreiswanderer odds`` and ``check``: stable JSON, errors as JSON."""

from __future__ import annotations

import json
from fractions import Fraction

from typer.testing import CliRunner

from spieltisch.cli.app import app

runner = CliRunner()


def test_odds_json() -> None:
    result = runner.invoke(
        app, ["kreiswanderer", "odds", "--value", "5", "--target", "10", "--json"]
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == [
        "value",
        "target",
        "pass",
        "critical_success",
        "critical_failure",
        "outcomes",
        "truncated",
    ]
    assert abs(data["pass"] - 0.6) < 1e-9
    assert data["outcomes"][0] == {"quality": -4, "passed": False, "probability": 0.1}


def test_check_json_and_the_untrained_refusal() -> None:
    args = ["kreiswanderer", "check", "--attribute", "3", "--depth", "2", "--skill", "4"]
    result = runner.invoke(app, [*args, "--seed", "1", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["talent_value"] == 10
    assert data["result"] == 10 + sum(data["rolls"])
    assert list(data) == ["talent_value", "rolls", "result", "passed", "quality", "critical"]
    bad = runner.invoke(app, [*args[:-1], "0", "--seed", "1", "--json"])
    assert bad.exit_code != 0
    assert json.loads(bad.stdout)["error"]["code"] == "kreiswanderer.untrained"


def _odds(*args: str) -> dict:
    result = runner.invoke(app, ["kreiswanderer", "odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict = json.loads(result.stdout)
    return data


# Kept faces of one exploding d10 and the cut-off tail: the oracle of the tests below.
FACES = {10 * k + r: Fraction(1, 10 ** (k + 1)) for k in range(12) for r in range(1, 10)}
TAIL = Fraction(1, 10**12)


def test_comparative_odds_against_enumeration() -> None:
    data = _odds("--mode", "comparative", "--value", "8", "--opponent", "6")
    assert list(data) == ["mode", "value", "opponent", "tie", "active", "passive", "truncated"]
    active = sum(FACES[x] * FACES[y] for x in FACES for y in FACES if 8 + x > 6 + y)
    assert abs(data["active"] - float(active)) < 1e-12
    tie = sum(FACES[x] * FACES[y] for x in FACES for y in FACES if 8 + x == 6 + y)
    flipped = _odds("--mode", "comparative", "--value", "8", "--opponent", "6", "--tie", "active")
    assert abs(flipped["active"] - float(active + tie)) < 1e-12


def test_combined_odds_take_the_lowest_value() -> None:
    data = _odds("--mode", "combined", "--value", "9", "--value", "5", "--value", "7")
    assert (data["mode"], data["values"], data["value"]) == ("combined", [9, 5, 7], 5)
    assert data["pass"] == 0.6  # 5 + d10 ≥ 10: a 5 or more


def test_accumulated_odds_after_rolls_and_within_rolls() -> None:
    # TW 10, two rolls, target 20 (the seed: the Talentwert once): dice x + y ≥ 10.
    data = _odds("--mode", "accumulated", "--value", "10", "--target", "20", "--rolls", "2")
    expected = sum(FACES[x] * FACES[y] for x in FACES for y in FACES if x + y >= 10)
    tails = 1 - (1 - TAIL) ** 2
    assert abs(data["pass"] - float(expected + tails)) < 1e-15
    assert data["outcomes"][-1]["or_more"] and data["outcomes"][-1]["quality"] == 10
    within = _odds(
        "--mode", "accumulated", "--value", "10", "--target", "20", "--quality", "0", "--rolls", "2"
    )
    first = sum(p for x, p in FACES.items() if x >= 10) + TAIL  # one roll: a 10 (explodes)
    assert [w["rolls"] for w in within["within"]] == [1, 2]
    assert abs(within["within"][0]["probability"] - float(first)) < 1e-15
    assert abs(within["within"][1]["probability"] - data["pass"]) < 1e-15
    old = _odds(
        "--mode",
        "accumulated",
        "--value",
        "10",
        "--target",
        "20",
        "--rolls",
        "2",
        "--reading",
        "every_roll",
    )
    assert old["pass"] == 1.0  # 10 + x + 10 + y ≥ 20 always


def test_attack_odds_hit_and_damage_after_resistance() -> None:
    data = _odds(
        "--mode",
        "attack",
        "--value",
        "10",
        "--target",
        "13",
        "--bonus",
        "2",
        "--resistance",
        "2",
    )
    assert abs(data["hit"] - 0.8) < 1e-12  # 1 and 2 miss
    damage = {d["damage"]: d["probability"] for d in data["damage"]}
    assert damage[0] == 0.1 and damage[6] == 0.1  # roll 3: 0 + 2 − 2; roll 9: 6
    assert 7 not in damage and abs(damage[8] - 0.01) < 1e-15  # 10 then 1: quality 8


def test_odds_options_that_do_not_fit_are_refused() -> None:
    for args in (
        ["--mode", "comparative", "--value", "8"],
        ["--mode", "accumulated", "--value", "8"],
        ["--mode", "check", "--value", "8", "--value", "9"],
        ["--mode", "nonsense", "--value", "8"],
    ):
        result = runner.invoke(app, ["kreiswanderer", "odds", *args, "--json"])
        assert result.exit_code == 2, args
        assert json.loads(result.stdout)["error"]["code"].startswith("kreiswanderer.cli.bad_")
