"""``spieltisch hexxen odds``, ``parse`` and ``check``: stable JSON and localized errors."""

from __future__ import annotations

import json
from itertools import product

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.dice.fair import SeededSource

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_odds_json_against_enumeration() -> None:
    code, out = invoke("hexxen", "odds", "--npc", "2", "--hunter", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"npc_dice", "hunter_dice", "npc_succeeds", "margins"}
    # NSC: each M die a success on 1, 5, 6; hunter's H die on 5, 6.
    counts: dict[int, int] = {}
    for a, b, h in product(range(1, 7), repeat=3):
        margin = (a in (1, 5, 6)) + (b in (1, 5, 6)) - (h in (5, 6))
        counts[margin] = counts.get(margin, 0) + 1
    assert data["margins"] == pytest.approx({"1": counts[1] / 216, "2": counts[2] / 216})
    assert data["npc_succeeds"] == pytest.approx((counts[1] + counts[2]) / 216)
    assert sum(data["margins"].values()) == pytest.approx(data["npc_succeeds"])


def test_odds_with_modifiers_and_bad_modifiers() -> None:
    plain = json.loads(invoke("hexxen", "odds", "--npc", "6", "--hunter", "4", "--json")[1])
    malus = json.loads(
        invoke("hexxen", "odds", "--npc", "6", "--hunter", "4", "--npc-mod", "-3", "--json")[1]
    )
    assert malus["npc_succeeds"] < plain["npc_succeeds"]
    code, out = invoke("hexxen", "odds", "--npc", "6", "--hunter", "4", "--npc-mod", "7", "--json")
    assert code == 2
    assert json.loads(out)["error"]["code"] == "hexxen.cli.bad_mod"


def test_parse_json_and_positioned_error() -> None:
    code, out = invoke("hexxen", "parse", "(N|F) Klauenhieb Angriff 10, Schaden 3", "--json")
    assert code == 0
    assert json.loads(out) == {
        "kind": "attack",
        "name": "Klauenhieb",
        "range": ["N", "F"],
        "attack": 10,
        "damage": 3,
    }
    code, out = invoke("hexxen", "parse", "(N) Klauenhieb Angriff zehn, Schaden 3", "--json")
    assert code != 0
    error = json.loads(out)["error"]
    assert error["code"] == "toolkit.statblock.unexpected" and error["position"] == 23
    code, out = invoke("--lang", "de", "hexxen", "parse", "(N) Klauenhieb")
    assert code != 0


def test_check_json_is_the_seeded_roll() -> None:
    code, out = invoke(
        "hexxen", "check", "--dice", "5", "--mod", "-2", "--gm", "--seed", "s1", "--json"
    )
    assert code == 0
    data = json.loads(out)
    source = SeededSource("s1")
    dice = [source.roll(6) for _ in range(5)]
    janus = [source.roll(6) for _ in range(2)]
    assert data["dice"] == dice and data["janus"] == janus and data["net"] == -2
    successes = sum(1 for d in dice if d in (1, 5, 6))
    symbols = sum(1 for j in janus if j >= 4)
    assert data["successes"] == successes
    assert data["result"] == max(0, successes - symbols)
    assert sum(data["odds"].values()) == pytest.approx(1.0)
