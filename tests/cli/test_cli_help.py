"""``--help`` of every command in German and English, from the ``cli.help.*`` catalog keys.

The help is checked three ways: the Click command tree itself (every help is a catalog key,
and after localizing it is that key's text), the help pages through ``CliRunner``, and the
help pages of the installed console script in a fresh process.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from spieltisch.cli.app import app, load_commands
from spieltisch.cli.context import (
    HELP_PREFIX,
    help_text,
    language_from_args,
    localize_help,
    settings,
)
from spieltisch.i18n import LANGUAGES, catalog

runner = CliRunner()

_LANG_VARIABLES = ("SPIELTISCH_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
_PANELS = ("arguments", "options", "commands")


def _fresh_tree() -> Any:
    """The whole Click command tree as Typer builds it, not yet localized (an invocation
    imports only the command modules it needs)."""
    load_commands()
    return typer.main.get_command(app)


def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _walk(sub, (*path, name))


def _keys(command: Any) -> tuple[str, list[str]]:
    """The help key of a command (unlocalized tree) and those of its parameters."""
    return command.help, [param.help for param in command.params]


COMMANDS: dict[tuple[str, ...], tuple[str, list[str]]] = {
    path: _keys(command) for path, command in _walk(_fresh_tree())
}
"""Every command path (the top level is ``()``) → its help key and its parameters' keys."""

SUBCOMMANDS: dict[tuple[str, ...], list[str]] = {
    path: [COMMANDS[(*path, name)][0] for name in command.commands]
    for path, command in _walk(_fresh_tree())
    if hasattr(command, "commands")
}
"""Every group → the help keys of the commands it lists."""

WITH_ARGUMENTS = {
    path
    for path, command in _walk(_fresh_tree())
    if any(param.param_type_name == "argument" for param in command.params)
}
"""The commands whose help page has an arguments panel."""


def _help_keys() -> set[str]:
    return {key for key in catalog("en") if key.startswith(HELP_PREFIX)}


def _normalized(text: str) -> str:
    """Help output without Rich's box drawing and line wrapping: words and single spaces."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def _expected(path: tuple[str, ...], lang: str) -> list[str]:
    """Every text the help page of ``path`` must show in ``lang``."""
    own, params = COMMANDS[path]
    keys = [own, *params, f"{HELP_PREFIX}opt.help", f"{HELP_PREFIX}panel.options"]
    if path in WITH_ARGUMENTS:
        keys.append(f"{HELP_PREFIX}panel.arguments")
    if path in SUBCOMMANDS:
        keys += [*SUBCOMMANDS[path], f"{HELP_PREFIX}panel.commands"]
    return [_normalized(catalog(lang)[key]) for key in keys]


def _other(lang: str) -> str:
    return next(other for other in LANGUAGES if other != lang)


def _assert_localized(output: str, path: tuple[str, ...], lang: str) -> None:
    shown = _normalized(output)
    for text in _expected(path, lang):
        assert text in shown, f"{' '.join(path) or 'spieltisch'} ({lang}): {text!r} missing"
    # The command's own help in the other language must not appear.
    own = _normalized(catalog(_other(lang))[COMMANDS[path][0]])
    assert own not in shown


IDS = [" ".join(path) or "spieltisch" for path in COMMANDS]


def test_the_tree_covers_every_command_group() -> None:
    tops = {path[0] for path in COMMANDS if path}
    assert {"roll", "odds", "tour", "verify", "kitties", "kilkenny", "table", "serve"} <= tops
    assert ("kitties", "odds") in COMMANDS and ("table", "import") in COMMANDS


# --- the catalog keys ----------------------------------------------------------------------


def test_every_help_is_a_catalog_key_of_both_languages() -> None:
    for path, (own, params) in COMMANDS.items():
        for key in (own, *params):
            assert isinstance(key, str) and key.startswith(HELP_PREFIX), (path, key)
            for lang in LANGUAGES:
                assert catalog(lang).get(key), (path, key, lang)


def test_every_help_key_of_the_catalog_is_used() -> None:
    used = {key for own, params in COMMANDS.values() for key in (own, *params)}
    used |= {f"{HELP_PREFIX}opt.help"} | {f"{HELP_PREFIX}panel.{kind}" for kind in _PANELS}
    assert _help_keys() == used


def test_help_texts_hold_no_rich_markup_and_differ_between_languages() -> None:
    for key in _help_keys():
        assert "[" not in catalog("de")[key] and "[" not in catalog("en")[key], key
    # German help is German: only a few names (e.g. "TCP port") may read alike.
    same = {key for key in _help_keys() if catalog("de")[key] == catalog("en")[key]}
    assert len(same) <= 3, same


@pytest.mark.parametrize("lang", LANGUAGES)
def test_localizing_puts_the_catalog_text_everywhere(lang: str) -> None:
    tree = _fresh_tree()
    localize_help(tree, _other(lang))
    localize_help(tree, lang)  # switching again works: the keys are remembered
    texts = catalog(lang)
    for path, command in _walk(tree):
        own, params = COMMANDS[path]
        assert command.help == texts[own]
        assert [param.help for param in command.params] == [texts[key] for key in params]
        option = command.get_help_option(command.context_class(command))
        assert option.help == texts[f"{HELP_PREFIX}opt.help"]
        for param in command.params:
            kind = "arguments" if param.param_type_name == "argument" else "options"
            assert param.rich_help_panel == texts[f"{HELP_PREFIX}panel.{kind}"]
        if path:
            assert command.rich_help_panel == texts[f"{HELP_PREFIX}panel.commands"]


def test_an_unknown_help_key_fails_at_once() -> None:
    with pytest.raises(KeyError, match=r"cli\.help\.no\.such"):
        help_text("cli.help.no.such")
    with pytest.raises(KeyError):
        help_text("kitties.tier.0")  # a catalog key, but no help text


# --- the language of an invocation ---------------------------------------------------------


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No language in the environment unless a test sets one."""
    for name in _LANG_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--lang", "de", "--help"], "de"),
        (["--lang=de", "roll", "3d6"], "de"),
        (["--help", "--lang", "de"], "de"),
        (["--lang", "de_DE.UTF-8", "tour"], "de"),
        (["--lang", "EN", "tour"], "en"),
        (["--lang", "fr"], "en"),
        (["roll", "--lang", "de"], "de"),  # accepted after the command too
        (["--lang", "en", "roll", "--lang", "de"], "de"),  # the last one wins
        (["say", "--", "--lang", "de"], "en"),  # after -- it is a value
        (["table", "new", "x", "--language", "de"], "en"),
        (["--lang"], "en"),
        ([], "en"),
    ],
)
def test_language_from_args(
    environment: pytest.MonkeyPatch, args: list[str], expected: str
) -> None:
    assert language_from_args(args) == expected


def test_language_from_args_falls_back_to_the_environment(
    environment: pytest.MonkeyPatch,
) -> None:
    environment.setenv("LANG", "de_DE.UTF-8")
    assert language_from_args(["roll", "3d6"]) == "de"
    assert language_from_args(["--lang"]) == "de"
    assert language_from_args(["--lang", "en"]) == "en"
    environment.setenv("SPIELTISCH_LANG", "en")
    assert language_from_args([]) == "en"


# --- help pages through CliRunner ----------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", list(COMMANDS), ids=IDS)
def test_help_page_via_cli_runner(
    environment: pytest.MonkeyPatch, path: tuple[str, ...], lang: str
) -> None:
    settings.lang = _other(lang)  # what an earlier invocation left must not matter
    result = runner.invoke(app, ["--lang", lang, *path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    _assert_localized(result.output, path, lang)


@pytest.mark.parametrize("variable", ["SPIELTISCH_LANG", "LANG", "LC_ALL"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_follows_the_environment(
    environment: pytest.MonkeyPatch, variable: str, lang: str
) -> None:
    settings.lang = _other(lang)
    value = lang if variable == "SPIELTISCH_LANG" else f"{lang}_{lang.upper()}.UTF-8"
    result = runner.invoke(app, ["kitties", "odds", "--help"], env={variable: value})
    assert result.exit_code == 0, result.output
    _assert_localized(result.output, ("kitties", "odds"), lang)


def test_lang_option_wins_over_the_environment(environment: pytest.MonkeyPatch) -> None:
    result = runner.invoke(app, ["--lang", "en", "--help"], env={"SPIELTISCH_LANG": "de"})
    _assert_localized(result.output, (), "en")
    result = runner.invoke(app, ["--help"], env={"SPIELTISCH_LANG": "de", "LANG": "en_US"})
    _assert_localized(result.output, (), "de")


def test_a_group_without_command_shows_its_help_localized(
    environment: pytest.MonkeyPatch,
) -> None:
    result = runner.invoke(app, ["--lang", "de", "kitties"])
    _assert_localized(result.output, ("kitties",), "de")
    result = runner.invoke(app, [], env={"LANG": "de_AT.UTF-8"})
    _assert_localized(result.output, (), "de")


# --- help pages of the console script ------------------------------------------------------


def _console_script() -> list[str]:
    script = Path(sys.executable).with_name("spieltisch")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from spieltisch.cli.app import main; main()"]


_WAYS = ("option", "SPIELTISCH_LANG", "LANG")
"""How a run picks its language; the runs take turns so every way is used for each language."""


def _run(path: tuple[str, ...], lang: str, way: str) -> tuple[int, str]:
    env = {key: value for key, value in os.environ.items() if key not in _LANG_VARIABLES}
    env["COLUMNS"] = "100"
    args = [*path, "--help"]
    if way == "option":
        env["SPIELTISCH_LANG"] = _other(lang)  # the option wins over the environment
        args = ["--lang", lang, *args]
    elif way == "SPIELTISCH_LANG":
        env["SPIELTISCH_LANG"] = lang
        env["LANG"] = f"{_other(lang)}_{_other(lang).upper()}.UTF-8"
    else:
        env["LANG"] = f"{lang}_{lang.upper()}.UTF-8"
    done = subprocess.run(
        [*_console_script(), *args], capture_output=True, text=True, env=env, timeout=120
    )
    return done.returncode, done.stdout + done.stderr


_SCRIPT_PATHS: tuple[tuple[str, ...], ...] = ((), ("kitties", "odds"), ("table", "new"))
"""Separate processes are slow to start: a few pages suffice there (CliRunner covers them all)."""
assert set(_SCRIPT_PATHS) <= set(COMMANDS)

RUNS = [
    (path, lang, _WAYS[(index + offset) % len(_WAYS)])
    for index, path in enumerate(_SCRIPT_PATHS)
    for offset, lang in enumerate(LANGUAGES)
]


@pytest.fixture(scope="module")
def console_pages() -> dict[tuple[tuple[str, ...], str], tuple[str, int, str]]:
    """The help page of every command in both languages, each from its own process."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda run: _run(*run), RUNS))
    return {
        (path, lang): (way, code, output)
        for (path, lang, way), (code, output) in zip(RUNS, results, strict=True)
    }


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "path", _SCRIPT_PATHS, ids=[" ".join(p) or "spieltisch" for p in _SCRIPT_PATHS]
)
def test_help_page_of_the_console_script(
    console_pages: dict[tuple[tuple[str, ...], str], tuple[str, int, str]],
    path: tuple[str, ...],
    lang: str,
) -> None:
    way, code, output = console_pages[(path, lang)]
    assert code == 0, (way, output)
    _assert_localized(output, path, lang)


def test_the_console_script_runs_take_every_way_for_each_language() -> None:
    for lang in LANGUAGES:
        assert {way for _, run_lang, way in RUNS if run_lang == lang} == set(_WAYS)
