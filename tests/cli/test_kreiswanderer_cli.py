"""``spieltisch kreiswanderer odds`` and ``check``: stable JSON, errors as JSON."""

from __future__ import annotations

import json

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
