"""``spieltisch roll``, ``odds`` and ``tour`` on the real app, in both languages."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.dice.dice import roll
from spieltisch.dice.fair import SeededSource
from spieltisch.i18n import translate

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("lang", ["de", "en"])
def test_roll_shows_every_die_and_the_result(lang: str) -> None:
    code, out = run("--lang", lang, "roll", "4W6kh3", "--seed", "7")
    assert code == 0
    expected = roll("4d6kh3", SeededSource("7"))
    # the notation is echoed as typed (German W stays W)
    heading = translate("dice.cli.result", lang, expression="4W6kh3", result=expected.value)
    assert heading in out
    assert translate("dice.cli.dropped", lang) in out
    assert translate("dice.cli.face", lang) in out


@pytest.mark.parametrize(("lang", "claim"), [("en", "counts"), ("de", "zählt")])
def test_a_die_below_the_target_is_not_called_counting(lang: str, claim: str) -> None:
    # 1d6>=6 with a 2: the status column says the die was kept, not that it counts.
    code, out = run("--lang", lang, "roll", "1d6>=6", "--seed", "1")
    assert code == 0
    assert claim not in out
    assert translate("dice.cli.kept", lang) in out


def test_roll_json_is_stable_and_seeded() -> None:
    code, out = run("--lang", "de", "roll", "10M-3J", "--seed", "42", "--json")
    assert code == 0
    data = json.loads(out)
    assert data == {**roll("10M-3J", SeededSource("42")).to_json(), "written": "10M-3J"}
    assert set(data) == {"expression", "result", "dice", "written"}
    assert data["expression"] == "10M - 3J"
    assert set(data["result"]) == {"successes"}
    assert run("--lang", "en", "roll", "10M-3J", "--seed", "42", "--json")[1] == out


def test_roll_shows_symbols_as_symbols() -> None:
    code, out = run("--lang", "de", "roll", "10H+2J", "--seed", "1733")
    assert code == 0
    assert "Espritsterne" in out
    assert translate("dice.glyph.stars", "de") in out
    code, out = run("--lang", "en", "roll", "10H+2J", "--seed", "1733")
    assert "stars" in out


def test_roll_without_seed_rolls() -> None:
    code, out = run("--lang", "en", "roll", "1d20", "--json")
    assert code == 0
    assert 1 <= json.loads(out)["result"] <= 20


@pytest.mark.parametrize("lang", ["de", "en"])
def test_odds_table_and_chart(lang: str) -> None:
    code, out = run("--lang", lang, "odds", "2W6", "--exact")
    assert code == 0
    assert translate("dice.cli.probability", lang) in out
    assert "1/36" in out and "1/6" in out
    assert "█" in out
    assert translate("dice.cli.odds_title", lang, expression="2W6") in out


def test_odds_json_is_documented_shape() -> None:
    code, out = run("--lang", "en", "odds", "2d6", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"expression", "outcomes", "mean", "truncated", "written"}
    assert [o["value"] for o in data["outcomes"]] == list(range(2, 13))
    assert all(set(o) == {"value", "probability"} for o in data["outcomes"])
    assert data["mean"] == pytest.approx(7)
    code, out = run("--lang", "en", "odds", "2d6", "--json", "--exact")
    exact = json.loads(out)
    assert sum(Fraction(o["exact"]) for o in exact["outcomes"]) == 1


def test_odds_json_for_symbols_uses_english_keys_in_both_languages() -> None:
    outputs = [run("--lang", lang, "odds", "10M-3J", "--json")[1] for lang in ("de", "en")]
    assert outputs[0] == outputs[1]
    data = json.loads(outputs[0])
    assert data["mean"] is None
    assert data["outcomes"][0]["value"] == {"successes": 0}


def test_odds_of_exploding_dice_report_the_cut() -> None:
    code, out = run("--lang", "en", "odds", "1d6!", "--json")
    data = json.loads(out)
    assert 0 < data["truncated"] <= 1e-12
    code, out = run("--lang", "de", "odds", "1W6!")
    assert code == 0
    assert "abgeschnitten" in out


@pytest.mark.parametrize("command", ["roll", "odds"])
def test_bad_notation_fails_with_a_localized_line(command: str) -> None:
    code_de, out_de = run("--lang", "de", command, "3x6")
    code_en, out_en = run("--lang", "en", command, "3x6")
    assert code_de != 0 and code_en != 0
    assert "'3x6'" in out_de and "'3x6'" in out_en
    assert "Stelle 2" in out_de
    assert "position 2" in out_en
    assert len(out_en.strip().splitlines()) == 1


def test_bad_notation_as_json() -> None:
    code, out = run("--lang", "en", "roll", "4d6kh5", "--json")
    assert code != 0
    data = json.loads(out)
    assert data["error"]["code"] == "dice.bad_keep"
    assert "'kh5'" in data["error"]["message"]
    code, out = run("--lang", "de", "odds", "500d100*500d100", "--json")
    assert code != 0
    assert json.loads(out)["error"]["code"] == "dice.too_complex"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_tour_runs_in_both_languages(lang: str) -> None:
    code, out = run("--lang", lang, "tour")
    assert code == 0
    assert translate("dice.tour.title", lang) in out
    assert translate("dice.tour.about.versus", lang).split()[0] in out
    assert "█" in out
    assert out == run("--lang", lang, "tour")[1]  # seeded: the same every time


def test_long_fractions_are_listed_below_the_table() -> None:
    from spieltisch.dice.odds import distribution

    code, out = run("--lang", "en", "odds", "3d6!cs>=5", "--exact")
    assert code == 0
    for value, fraction in distribution("3d6!cs>=5").exact():
        assert f"{value}: {fraction.numerator}/{fraction.denominator}" in out


def test_numbers_follow_the_language() -> None:
    assert "2,78 %" in run("--lang", "de", "odds", "2d6")[1]
    assert "2.78 %" in run("--lang", "en", "odds", "2d6")[1]
