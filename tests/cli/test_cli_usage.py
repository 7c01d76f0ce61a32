"""Command lines the parser refuses: one localized line naming the value, exit code 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.i18n import translate

runner = CliRunner()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_value_the_option_type_refuses_is_named(lang: str) -> None:
    result = runner.invoke(app, ["--lang", lang, "kitties", "odds", "--pool", "drei"])
    assert result.exit_code == 2
    expected = translate("cli.usage.bad_value", lang, value="drei", name="'--pool' / '-p'")
    assert result.output.strip().endswith(expected)
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_missing_option_or_argument_is_named(lang: str) -> None:
    result = runner.invoke(app, ["--lang", lang, "kitties", "odds", "--difficulty", "4"])
    assert result.exit_code == 2
    assert translate("cli.usage.missing", lang, name="'--pool' / '-p'") in result.output
    result = runner.invoke(app, ["--lang", lang, "roll"])
    assert result.exit_code == 2
    assert translate("cli.usage.missing", lang, name="'EXPR'") in result.output


def test_an_unknown_option_is_named() -> None:
    result = runner.invoke(app, ["--lang", "de", "roll", "--sed", "1", "3d6"])
    assert result.exit_code == 2
    assert result.output.strip() == "Fehler: " + translate(
        "cli.usage.no_such_option_hint", "de", value="--sed", suggestions="'--seed'"
    )


def test_with_json_the_refusal_is_the_json_error_object() -> None:
    result = runner.invoke(app, ["--lang", "en", "kitties", "odds", "--pool=x", "--json"])
    assert result.exit_code == 2
    error = json.loads(result.output)["error"]
    assert error == {
        "code": "cli.usage.bad_value",
        "message": translate("cli.usage.bad_value", "en", value="x", name="'--pool' / '-p'"),
    }


def test_a_bare_group_still_shows_its_help() -> None:
    result = runner.invoke(app, ["--lang", "en", "kitties"])
    assert "odds" in result.output
    assert "check" in result.output


def test_an_unknown_language_is_refused_not_silently_replaced() -> None:
    result = runner.invoke(app, ["--lang", "fr", "roll", "3d6"])
    assert result.exit_code == 2
    assert translate("cli.usage.bad_value", "en", name="'--lang'", value="fr") in result.output
    assert runner.invoke(app, ["--lang", "DE", "roll", "3d6", "--seed", "1"]).exit_code == 0
