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
    assert set(data) == {
        "npc_dice",
        "hunter_dice",
        "npc_net",
        "hunter_net",
        "npc_succeeds",
        "margins",
    }
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


@pytest.mark.parametrize(("cap", "janus"), [("each_side", 1), ("net", 4)])
def test_odds_with_each_sides_bonus_and_malus_against_enumeration(cap: str, janus: int) -> None:
    # The NSC rolls its attribute 2; the hunter 1 die with bonus 4 and malus 8: capped per
    # side that is 4 - 5 = -1 (one Janus die as malus); netted first, -4 (four).
    code, out = invoke(
        "hexxen", "odds", "--npc-attribute", "2", "--hunter", "1", "--hunter-bonus", "4",
        "--hunter-malus", "8", "--cap", cap, "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert (data["npc_dice"], data["hunter_net"], data["npc_net"]) == (2, -janus, 0)
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=3 + janus):
        npc = sum(f in (1, 5, 6) for f in faces[:2])
        hunter = max(0, (faces[2] in (5, 6)) - sum(f >= 4 for f in faces[3:]))
        counts[npc - hunter] = counts.get(npc - hunter, 0) + 1
    total = 6 ** (3 + janus)
    assert data["margins"] == pytest.approx({"1": counts[1] / total, "2": counts[2] / total})


def test_odds_needs_the_npcs_dice_or_attribute() -> None:
    code, out = invoke("hexxen", "odds", "--hunter", "2", "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "hexxen.cli.npc_or_attribute"
    code, out = invoke("hexxen", "odds", "--npc", "2", "--hunter", "2", "--npc-malus", "31")
    assert code == 2


def test_parse_reads_the_new_grammar() -> None:
    line = "Bezauberung (NN: 6 gegen Willenskraft, 1 Malusstufe pro Differenzerfolg)"
    code, out = invoke("hexxen", "parse", line, "--json")
    assert code == 0
    power = json.loads(out)
    assert (power["handlungen"], power["hex"], power["range"]) == ({"N": 2}, 0, ["N"])
    block = "KKR 4, WIL 6\nWürfelpool 5\nHex +1 pro Jz pro Runde"
    code, out = invoke("hexxen", "parse", block, "--json")
    assert json.loads(out)["lines"] == [
        {"kind": "attributes", "values": {"KKR": 4, "WIL": 6}},
        {"kind": "pool", "value": 5},
        {"kind": "growth", "value": 1, "per_jz": True},
    ]


def test_parse_reads_blut_and_elixier_dice_and_properties() -> None:
    line = "(N) Biss Angriff 4, Schaden 2, 1 Elixierwürfel, 2 Blutwürfel innerer Schaden [Gift]"
    code, out = invoke("hexxen", "parse", line, "--json")
    assert code == 0
    attack = json.loads(out)
    assert (attack["elixir"], attack["dice"]) == (
        1,
        [{"die": "blood", "count": 2, "effect": "innerer Schaden", "tag": "Gift"}],
    )
    power = "Fluch (F: 3 gegen Willenskraft, 1 Elixierwürfel Malusstufen, 2 Hex)"
    code, out = invoke("hexxen", "parse", power, "--json")
    assert json.loads(out)["per_difference"] == {
        "amount": 1,
        "effect": "Malusstufen",
        "tag": None,
        "die": "elixir",
    }
    code, out = invoke("hexxen", "parse", "Eigenschaften: Regeneration 2, Giftig (Biss)", "--json")
    assert json.loads(out)["items"] == ["Regeneration 2", "Giftig (Biss)"]


def test_odds_show_the_numbers_of_blut_and_elixier_dice_against_enumeration() -> None:
    code, out = invoke(
        "hexxen", "odds", "--npc", "2", "--hunter", "1", "--blood", "2", "--elixir", "1", "--json"
    )
    assert code == 0
    data = json.loads(out)
    drops = [0, 1, 1, 2, 2, 3]
    counts: dict[str, int] = {}
    for a, b in product(drops, repeat=2):
        counts[str(a + b)] = counts.get(str(a + b), 0) + 1
    assert data["blood"] == pytest.approx({k: v / 36 for k, v in counts.items()})
    assert data["elixir"] == pytest.approx(
        {"1": 1 / 6, "2": 1 / 6, "3": 1 / 3, "4": 1 / 6, "5": 1 / 6}
    )
    code, out = invoke("hexxen", "odds", "--npc", "2", "--hunter", "1", "--elixir", "11", "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "hexxen.cli.bad_dice"
