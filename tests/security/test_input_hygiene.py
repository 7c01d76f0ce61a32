"""Input hygiene: control characters, lengths, unknown fields and loose types are refused.

Every text a user can send — table title, GM name, join name, player seed, kitty, foe and
problem texts, dice labels — is refused with a clear, localized error when it holds a NUL or
another control character, on SQLite and on the real PostgreSQL alike (PostgreSQL cannot store
NUL at all, so a missed check there is a server error). Nothing is stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from asgi_client import TestClient
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import parse_command
from spieltisch.engine.text import Label, TextError, text_problem
from spieltisch.errors import InputError
from spieltisch.i18n import error_message
from spieltisch.store import EventStore
from spieltisch.systems.registry import get_system
from spieltisch.web.app import create_app

BAD = ["a\x00b", "a\x1bb", "a\x7fb", "a\x85b", "a\tb", "a\nb"]
"""NUL, ESC, DEL, a C1 control, and tab and line feed (one-line texts allow neither)."""

MOCHI: dict[str, Any] = {
    "kind": "create_kitty",
    "id": "mochi",
    "name": "Mochi",
    "attributes": {"cute": 1, "cunning": 2, "fierce": 3},
    "talents": ["Climbing"],
    "powers": [{"name": "Shadow step"}],
    "flaw": "Curious",
    "human": {"name": "Lena"},
}


def test_the_text_rule_by_hand() -> None:
    assert text_problem("Mochi the Brave", 80) is None
    assert text_problem("Ölfleck und Gänseblümchen 🐈", 80) is None
    nul = text_problem("ab\x00", 80)
    assert nul is not None and nul.params == {"codepoint": "U+0000", "position": 3}
    assert text_problem("line\nnext\ttab\r\n", 80, multiline=True) is None
    assert text_problem("line\nnext", 80) is not None
    assert text_problem("multi\x00line", 80, multiline=True) is not None
    surrogate = text_problem("\ud800", 80)
    assert surrogate is not None and surrogate.params["codepoint"] == "U+D800"
    long = text_problem("x" * 81, 80)
    assert long is not None and long.code == "text.too_long"
    assert long.params == {"limit": 80, "length": 81}
    assert text_problem("x" * 80, 80) is None


# -- the commands of every system ----------------------------------------------------------


def _texts() -> list[tuple[str, dict[str, Any], str]]:
    """(system, command with a text replaced by {bad}, the field's location)."""
    return [
        ("magical-kitties", {**MOCHI, "name": "{bad}"}, "name"),
        ("magical-kitties", {**MOCHI, "flaw": "{bad}"}, "flaw"),
        ("magical-kitties", {**MOCHI, "talents": ["{bad}"]}, "talents.0"),
        ("magical-kitties", {**MOCHI, "powers": [{"name": "{bad}"}]}, "powers.0.name"),
        ("magical-kitties", {**MOCHI, "human": {"name": "{bad}"}}, "human.name"),
        ("magical-kitties", {"kind": "create_foe", "id": "rat", "name": "{bad}"}, "name"),
        (
            "magical-kitties",
            {"kind": "add_problem", "id": "storm", "text": "{bad}"},
            "text",
        ),
        (
            "magical-kitties",
            {"kind": "spend_treat", "kitty": "mochi", "purpose": "story", "detail": "{bad}"},
            "detail",
        ),
        ("magical-kitties", {"kind": "award_treat", "kitty": "mochi", "reason": "{bad}"}, "reason"),
        ("magical-kitties", {"kind": "check", "kitty": "{bad}", "attribute": "cute"}, "kitty"),
        ("kilkenny", {"kind": "sit", "seat": "{bad}"}, "seat"),
        ("free-dice", {"kind": "roll", "expression": "d6", "label": "{bad}"}, "label"),
        ("free-dice", {"kind": "roll", "expression": "{bad}"}, "expression"),
    ]


def _label(where: str) -> Label:
    """The display name of the field at ``where``: its last named part (not a list index)."""
    return Label("text.field." + [part for part in where.split(".") if not part.isdigit()][-1])


def _fill(value: Any, bad: str) -> Any:
    if isinstance(value, str):
        return bad if value == "{bad}" else value
    if isinstance(value, list):
        return [_fill(item, bad) for item in value]
    if isinstance(value, dict):
        return {key: _fill(item, bad) for key, item in value.items()}
    return value


@pytest.mark.parametrize("bad", BAD)
@pytest.mark.parametrize(("system_id", "command", "where"), _texts())
def test_control_characters_in_command_texts_are_refused(
    system_id: str, command: dict[str, Any], where: str, bad: str
) -> None:
    with pytest.raises(RuleError) as caught:
        parse_command(get_system(system_id), _fill(command, bad))
    error = caught.value
    assert error.code == "rule.bad_command"
    detail = error.params["detail"]
    assert isinstance(detail, TextError) and detail.code == "text.control_character"
    assert detail.params["field"] == _label(where)
    assert detail.params["position"] == 2
    assert "control characters" in error_message(error, "en")
    assert "Steuerzeichen" in error_message(error, "de")


@pytest.mark.parametrize(("system_id", "command", "where"), _texts())
def test_too_long_command_texts_are_refused(
    system_id: str, command: dict[str, Any], where: str
) -> None:
    with pytest.raises(RuleError) as caught:
        parse_command(get_system(system_id), _fill(command, "x" * 501))
    detail = caught.value.params["detail"]
    assert isinstance(detail, TextError) and detail.code == "text.too_long"
    assert detail.params["field"] == _label(where) and detail.params["length"] == 501


@pytest.mark.parametrize(
    ("system_id", "command"),
    [
        # Unknown fields.
        ("magical-kitties", {"kind": "check", "kitty": "mochi", "attribute": "cute", "x": 1}),
        ("magical-kitties", {**MOCHI, "human": {"name": "Lena", "age": 9}}),
        ("kilkenny", {"kind": "roll", "seat": "S"}),
        ("kilkenny", {"kind": "move", "from": "f4", "to": "f5", "via": "f6"}),
        ("free-dice", {"kind": "roll", "expression": "d6", "hidden": True}),
        # Loose types: a text for a number, a flag for a number, a text for a flag.
        ("magical-kitties", {"kind": "check", "kitty": "m", "attribute": "cute", "modifier": "3"}),
        ("magical-kitties", {"kind": "check", "kitty": "m", "attribute": "cute", "modifier": True}),
        (
            "magical-kitties",
            {"kind": "check", "kitty": "m", "attribute": "cute", "difficulty": 4.0},
        ),
        ("magical-kitties", {"kind": "give_aua", "kitty": "m", "count": "2"}),
        ("magical-kitties", {"kind": "start_episode", "reset_auas": "yes"}),
        ("magical-kitties", {"kind": "end_episode", "fun": 1}),
        ("magical-kitties", {**MOCHI, "attributes": {"cute": "1", "cunning": 2, "fierce": 3}}),
        ("magical-kitties", {"kind": "reroll", "dice": ["0"]}),
        ("kilkenny", {"kind": "sit", "seat": 1}),
        ("free-dice", {"kind": "roll", "expression": 6}),
        # Lists beyond their bound.
        ("magical-kitties", {"kind": "reroll", "dice": list(range(61))}),
        ("magical-kitties", {"kind": "end_episode", "lessons": ["mochi"] * 21}),
    ],
)
def test_unknown_fields_loose_types_and_long_lists_are_refused(
    system_id: str, command: dict[str, Any]
) -> None:
    with pytest.raises(RuleError) as caught:
        parse_command(get_system(system_id), command)
    assert caught.value.code == "rule.bad_command"


def test_strict_fields_still_take_their_json_values() -> None:
    kitties = get_system("magical-kitties")
    check = parse_command(
        kitties, {"kind": "check", "kitty": "m", "attribute": "cute", "modifier": -2}
    )
    assert check.modifier == -2 and check.attribute == "cute"  # an enum given as text
    assert (
        parse_command(kitties, {"kind": "start_episode", "reset_auas": False}).reset_auas is False
    )
    assert parse_command(kitties, {"kind": "reroll", "dice": [0, 2]}).dice == (0, 2)


# -- the store and the HTTP API, on SQLite and PostgreSQL --------------------------------------


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    the_store = EventStore(database_url)
    try:
        yield the_store
    finally:
        the_store.close()


@pytest.mark.parametrize("bad", ["a\x00b", "a\x1bb", "a\nb"])
def test_the_store_refuses_control_characters_on_every_database(
    store: EventStore, bad: str
) -> None:
    def refused(call: Any, field: str) -> None:
        with pytest.raises(InputError) as caught:
            call()
        assert caught.value.code == "text.control_character"
        assert caught.value.params["field"] == Label(f"text.field.{field}")
        assert caught.value.params["position"] == 2
        assert "Steuerzeichen" in error_message(caught.value, "de")
        assert error_message(Label(f"text.field.{field}"), "en") in error_message(
            caught.value, "en"
        )

    refused(lambda: store.create_table("free-dice", title=bad), "title")
    refused(lambda: store.create_table("free-dice", name=bad), "name")
    assert store.list_tables() == []
    created = store.create_table("free-dice", title="Dice night")
    refused(lambda: store.join(created.table, created.invites["player"], bad), "name")
    gm = store.authenticate(created.table, created.token)
    refused(lambda: store.add_player_seed(created.table, gm, bad), "seed")
    assert [p.name for p in store.participants(created.table)] == [""]
    assert not store.info(created.table).player_seeds


@pytest.fixture
def api(store: EventStore) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as client:
        yield client


def _error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code
    message: str = response.json()["error"]["message"]
    return message


def test_over_http_every_text_input_refuses_nul(api: TestClient) -> None:
    nul = "Mo\x00chi"
    _error(
        api.post("/api/tables", json={"system": "free-dice", "title": nul}),
        422,
        "text.control_character",
    )
    _error(
        api.post("/api/tables", json={"system": "free-dice", "name": nul}),
        422,
        "text.control_character",
    )
    created = api.post("/api/tables", json={"system": "magical-kitties", "language": "en"}).json()
    table, gm = created["table"], {"Authorization": f"Bearer {created['token']}"}
    join = {"invite": created["invites"]["player"], "name": nul}
    _error(api.post(f"/api/tables/{table}/join", json=join), 422, "text.control_character")
    seed = api.post(f"/api/tables/{table}/player-seeds", headers=gm, json={"seed": nul})
    _error(seed, 422, "text.control_character")
    commands = [
        {**MOCHI, "name": nul},
        {**MOCHI, "human": {"name": nul}},
        {"kind": "create_foe", "id": "rat", "name": nul},
        {"kind": "add_problem", "id": "storm", "text": nul},
    ]
    for command in commands:
        response = api.post(f"/api/tables/{table}/commands", headers=gm, json={"command": command})
        message = _error(response, 422, "rule.bad_command")
        assert "control characters" in message and "U+0000" in message
    # A lone surrogate (valid JSON, not valid UTF-8) is refused as well.
    raw = b'{"command": {"kind": "create_foe", "id": "rat", "name": "\\ud800"}}'
    response = api.post(
        f"/api/tables/{table}/commands",
        headers={**gm, "Content-Type": "application/json"},
        content=raw,
    )
    assert "name" in _error(response, 422, "rule.bad_command")
    view = api.get(f"/api/tables/{table}", headers=gm).json()
    assert view["seq"] == 0 and view["player_seeds"] == [] and len(view["participants"]) == 1


def test_over_http_loose_types_and_unknown_fields_are_refused(api: TestClient) -> None:
    created = api.post("/api/tables", json={"system": "free-dice"}).json()
    url = f"/api/tables/{created['table']}/commands"
    gm = {"Authorization": f"Bearer {created['token']}"}
    roll = {"kind": "roll", "expression": "d6"}
    for body in (
        {"command": roll, "hidden": "yes"},
        {"command": roll, "hidden": 1},
        {"command": roll, "expected_seq": "0"},
        {"command": roll, "expected_seq": True},
        {"command": roll, "colour": "red"},
    ):
        _error(api.post(url, headers=gm, json=body), 422, "api.invalid_request")
    for body in (
        {"system": "free-dice", "title": 5},
        {"system": "free-dice", "secret": "x"},
        {"system": ["free-dice"]},
    ):
        _error(api.post("/api/tables", json=body), 422, "api.invalid_request")
    undo = api.post(f"/api/tables/{created['table']}/undo", headers=gm, json={"seq": "1"})
    _error(undo, 422, "api.invalid_request")
    assert api.get(f"/api/tables/{created['table']}", headers=gm).json()["seq"] == 0
