"""``--lang`` anywhere on the command line, and the parser's own words in both languages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from spieltisch.cli.app import app
from spieltisch.cli.context import lift_lang
from spieltisch.cli.words import TEMPLATES
from spieltisch.i18n import LANGUAGES, translate

runner = CliRunner()


def _paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from _paths(sub, (*path, name))


PATHS = [path for path in _paths(typer.main.get_command(app)) if path]


@pytest.mark.parametrize(
    ("args", "lifted"),
    [
        (["roll", "3d6", "--lang", "de"], ["--lang", "de", "roll", "3d6"]),
        (["roll", "--lang=de", "3d6"], ["--lang=de", "roll", "3d6"]),
        (["--lang", "en", "roll"], ["--lang", "en", "roll"]),
        (["kitties", "odds", "-p", "3", "--lang"], ["--lang", "kitties", "odds", "-p", "3"]),
        (["roll", "--", "--lang", "de"], ["roll", "--", "--lang", "de"]),
    ],
)
def test_lift_lang_moves_the_option_before_the_command(args: list[str], lifted: list[str]) -> None:
    assert lift_lang(args) == lifted


def test_lang_after_the_command_gives_the_same_output_as_before_it() -> None:
    before = runner.invoke(app, ["--lang", "de", "roll", "3d6", "--seed", "1"])
    after = runner.invoke(app, ["roll", "3d6", "--lang", "de", "--seed", "1"])
    assert before.exit_code == after.exit_code == 0
    assert after.output == before.output
    assert "Ergebnis" in after.output


@pytest.mark.parametrize("path", PATHS, ids=[" ".join(path) for path in PATHS])
def test_every_command_takes_lang_after_its_name(path: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*path, "--help", "--lang", "de"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Aufruf: spieltisch " + " ".join(path) in result.output
    assert "Usage" not in result.output


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_page_words_are_translated(lang: str) -> None:
    page = runner.invoke(app, ["roll", "--help", "--lang", lang], env={"COLUMNS": "120"}).output
    usage, options, required = (
        translate(f"cli.words.{key}", lang) for key in ("usage", "options_metavar", "required")
    )
    assert f"{usage} spieltisch roll {options}" in page
    assert required in page
    group = runner.invoke(app, ["kitties", "--help", "--lang", lang], env={"COLUMNS": "120"})
    assert translate("cli.words.command_metavar", lang) in group.output
    if lang == "de":
        assert "Usage" not in page and "[required]" not in page and "[OPTIONS]" not in page
    # Switching back within one process puts the other language's words in place again.
    again = runner.invoke(app, ["roll", "--help", "--lang", "en"], env={"COLUMNS": "120"})
    assert "Usage: spieltisch roll [OPTIONS]" in again.output


REFUSED: list[tuple[list[str], str, dict[str, str]]] = [
    (["rol", "3d6"], "cli.usage.no_such_command_hint", {"name": "rol", "suggestions": "'roll'"}),
    (["kitties", "zzz"], "cli.usage.no_such_command", {"name": "zzz"}),
    ([], "cli.usage.missing_command", {}),
    (["roll", "3d6", "4d6"], "cli.usage.extra_arguments", {"values": "4d6"}),
    (["roll", "3d6", "--seed"], "cli.usage.needs_value", {"name": "--seed"}),
    (["roll", "3d6", "--json=yes"], "cli.usage.takes_no_value", {"name": "--json"}),
    (
        ["kitties", "odds", "--poo", "3"],
        "cli.usage.no_such_option_hint",
        {"value": "--poo", "suggestions": "'--pool'"},
    ),
    (["roll", "--xyzzy", "1", "3d6"], "cli.usage.no_such_option", {"value": "--xyzzy"}),
    (
        ["table", "export", "-6abcdefghij"],
        "cli.usage.dash_value",
        {"value": "-6abcdefghij"},
    ),
    (["roll"], "cli.usage.missing", {"name": "'EXPR'"}),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("args", "code", "params"), REFUSED, ids=[r[1] for r in REFUSED])
def test_a_refused_command_line_is_one_localized_sentence(
    args: list[str], code: str, params: dict[str, str], lang: str
) -> None:
    if args:  # the top level has no --json; an option waiting for a value would take it
        at = 1 if args[-1] == "--seed" else len(args)
        result = runner.invoke(app, [*args[:at], "--json", *args[at:], "--lang", lang])
        assert result.exit_code == 2
        error = json.loads(result.output)["error"]
        assert error == {"code": code, "message": translate(code, lang, **params)}
    plain = runner.invoke(app, [*args, "--lang", lang])
    assert plain.exit_code == 2
    expected = translate("cli.error", lang) + ": " + translate(code, lang, **params)
    assert plain.output.strip() == expected


def test_every_template_is_reached_by_a_command_line() -> None:
    assert {code for _pattern, code in TEMPLATES} <= {code for _args, code, _p in REFUSED}
