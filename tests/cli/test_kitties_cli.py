"""``spieltisch kitties odds`` and ``spieltisch kitties check`` in both languages."""

from __future__ import annotations

import json
from math import comb

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.dice.fair import SeededSource
from spieltisch.i18n import translate

runner = CliRunner()


def invoke(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def binomial_tiers(pool: int, difficulty: int) -> dict[str, float]:
    p = (7 - difficulty) / 6
    chances = [comb(pool, k) * p**k * (1 - p) ** (pool - k) for k in range(pool + 1)]
    return {
        "0": chances[0],
        "1": chances[1] if pool >= 1 else 0.0,
        "2": chances[2] if pool >= 2 else 0.0,
        "3": chances[3] if pool >= 3 else 0.0,
        "4+": sum(chances[4:]),
    }


@pytest.mark.parametrize(("pool", "difficulty"), [(1, 4), (3, 4), (5, 6), (8, 3)])
def test_odds_json_has_exactly_the_documented_shape(pool: int, difficulty: int) -> None:
    code, output = invoke(
        "--lang",
        "en",
        "kitties",
        "odds",
        "--pool",
        str(pool),
        "--difficulty",
        str(difficulty),
        "--json",
    )
    assert code == 0
    data = json.loads(output)
    assert set(data) == {"pool", "difficulty", "tiers"}
    assert (data["pool"], data["difficulty"]) == (pool, difficulty)
    assert list(data["tiers"]) == ["0", "1", "2", "3", "4+"]
    expected = binomial_tiers(pool, difficulty)
    for key, value in data["tiers"].items():
        assert value == pytest.approx(expected[key], abs=1e-12)


def test_odds_with_the_treat_reroll() -> None:
    # 3 dice against 4, reroll all misses once when below 2 successes (worked out by hand):
    # 0: 1/64, 1: 9/64, 2: 39/64, 3: 15/64.
    code, output = invoke(
        "--lang", "en", "kitties", "odds", "--pool", "3", "--difficulty", "4", "--reroll", "--json"
    )
    assert code == 0
    tiers = json.loads(output)["tiers"]
    assert tiers == pytest.approx({"0": 1 / 64, "1": 9 / 64, "2": 39 / 64, "3": 15 / 64, "4+": 0})
    code, output = invoke(
        "--lang", "en", "kitties", "odds", "--pool", "3", "--reroll", "--want", "1", "--json"
    )
    # With want 1 only a total miss (1/8) is rerolled: P(0) = 1/8 · 1/8.
    assert json.loads(output)["tiers"]["0"] == pytest.approx(1 / 64)
    assert json.loads(output)["tiers"]["1"] == pytest.approx(3 / 8 + 1 / 8 * 3 / 8)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_odds_table_in_both_languages(lang: str) -> None:
    code, output = invoke("--lang", lang, "kitties", "odds", "--pool", "2", "--difficulty", "6")
    assert code == 0
    for tier in range(5):
        assert translate(f"kitties.tier.{tier}", lang) in output
    assert translate("kitties.difficulty.6", lang) in output
    # 2 dice against 6: (5/6)² = 69.44 %
    assert ("69,44 %" if lang == "de" else "69.44 %") in output


@pytest.mark.parametrize("lang", ["de", "en"])
def test_bad_odds_input_fails_with_a_localized_line(lang: str) -> None:
    code, output = invoke("--lang", lang, "kitties", "odds", "--pool", "0")
    assert code == 2
    assert translate("kitties.pool_none", lang, value=0) in output
    code, output = invoke("--lang", lang, "kitties", "odds", "--pool", "2", "-d", "7", "--json")
    assert code == 2
    error = json.loads(output)["error"]
    assert error == {
        "code": "kitties.bad_difficulty",
        "message": translate("kitties.bad_difficulty", lang, value=7),
    }


@pytest.mark.parametrize("reroll", [[], ["--reroll"]])
def test_odds_refuse_a_want_below_one_with_or_without_reroll(reroll: list[str]) -> None:
    code, output = invoke("--lang", "en", "kitties", "odds", "--pool", "3", "--want", "0", *reroll)
    assert code == 2
    assert translate("kitties.bad_want", "en", value=0) in output


@pytest.mark.parametrize("lang", ["de", "en"])
def test_check_rolls_reproducibly_and_names_the_tier(lang: str) -> None:
    args = [
        "--lang",
        lang,
        "kitties",
        "check",
        "--attribute",
        "3",
        "--talent",
        "--power",
        "--injuries",
        "1",
        "--difficulty",
        "4",
        "--seed",
        "kitty",
    ]
    code, output = invoke(*args, "--json")
    assert code == 0
    data = json.loads(output)
    source = SeededSource("kitty")
    dice = [source.roll(6) for _ in range(5)]  # 3 + 1 + 2 − 1
    hits = sum(d >= 4 for d in dice)
    assert (data["pool"], data["dice"], data["successes"]) == (5, dice, hits)
    assert data["tier"] == min(hits, 4)
    assert data["odds"] == pytest.approx(binomial_tiers(5, 4))
    code, text = invoke(*args)
    assert code == 0
    assert translate(f"kitties.tier.{min(hits, 4)}", lang) in text
    assert translate(f"kitties.tier_text.{min(hits, 4)}", lang) in text
    assert " ".join(map(str, dice)) in text
    if data["menu"] is not None:
        for entry in data["menu"]["entries"]:
            assert translate(f"kitties.menu.{entry}", lang) in text


@pytest.mark.parametrize("seed", range(12))
def test_check_menus_follow_the_tier(seed: int) -> None:
    code, output = invoke(
        "--lang", "en", "kitties", "check", "--pool", "4", "--seed", str(seed), "--json"
    )
    assert code == 0
    data = json.loads(output)
    menu = {0: "complication", 1: "complication", 2: None, 3: "bonus", 4: "super_bonus"}
    assert (data["menu"] or {}).get("id") == menu[data["tier"]]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--pool", "2", "--attribute", "2"], "kitties.pool_or_attribute"),
        ([], "kitties.pool_or_attribute"),
        (["--attribute", "5"], "kitties.bad_rating"),
        (["--attribute", "1", "--injuries", "1"], "kitties.pool_none"),
        (["--pool", "2", "--injuries", "30"], "kitties.bad_count"),
        (["--pool", "2", "--difficulty", "2"], "kitties.bad_difficulty"),
    ],
)
def test_check_refuses_bad_input(args: list[str], code: str) -> None:
    exit_code, output = invoke("--lang", "de", "kitties", "check", *args, "--json")
    assert exit_code == 2
    error = json.loads(output)["error"]
    assert error["code"] == code
    assert error["message"] and error["message"] != code
