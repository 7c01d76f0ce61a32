"""Field-level permissions: the matrix of every GM-only field × GM, player and spectator.

The fields come from the systems' own declarations (:func:`gm_only_fields`), so a system that
declares a new GM-only field is tested here at once — it only has to add a scenario below (a
table where a player owns the piece the command acts for, and a value to set).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from spieltisch.dice.fair import SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.permissions import gm_only_fields
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.text import Label
from spieltisch.i18n import error_message
from spieltisch.systems.registry import get_system, system_ids

GM = Actor(id="gm", role=Role.GM)
PLAYER = Actor(id="paul", role=Role.PLAYER)
SPECTATOR = Actor(id="sue", role=Role.SPECTATOR)

MOCHI: dict[str, Any] = {
    "kind": "create_kitty",
    "id": "mochi",
    "name": "Mochi",
    "attributes": {"cute": 1, "cunning": 2, "fierce": 3},
    "talents": ["Climbing"],
    "powers": [{"name": "Shadow step"}],
    "flaw": "Curious",
}


def _source(index: int) -> SeededSource:
    return SeededSource(1733 + index)


def _kitties_table() -> Table:
    """Paul's kitty Mochi in scene 1 of episode 1."""
    table = Table(get_system("magical-kitties"))
    table.execute(MOCHI, PLAYER, _source)
    table.execute({"kind": "start_episode"}, GM, _source)
    table.execute({"kind": "start_scene"}, GM, _source)
    return table


@dataclass(frozen=True)
class Scenario:
    """A table ready for ``command`` from the player, and a value to set per GM-only field."""

    table: Callable[[], Table]
    command: dict[str, Any]
    values: dict[str, Any]
    effect: Callable[[Table, str, Any], bool]
    """Whether the GM's value took effect in the last record."""


def _check_effect(table: Table, field: str, value: Any) -> bool:
    event = table.records[-1].events[0]
    if field == "modifier":
        return bool(event["modifier"] == value and len(event["dice"]) == 3 + value)
    return bool(event[field] == value)


def _free_table() -> Table:
    """Paul's character Mia on a free table's map."""
    table = Table(get_system("free-dice"))
    table.execute({"kind": "set_map", "width": 6, "height": 6}, GM, _source)
    mia = {"kind": "add_character", "id": "mia", "name": "Mia", "at": "a1"}
    table.execute({**mia, "tracks": [{"name": "HP", "maximum": 30}]}, PLAYER, _source)
    table.execute({"kind": "paint", "squares": ["c3"], "terrain": "wall"}, GM, _source)
    return table


SCENARIOS: dict[tuple[str, str], Scenario] = {
    ("free-dice", "change_track"): Scenario(
        _free_table,
        {"kind": "change_track", "combatant": "mia", "track": "HP", "amount": 2},
        {"maximum": 40},
        _check_effect,
    ),
    ("free-dice", "move"): Scenario(
        _free_table,
        {"kind": "move", "combatant": "mia", "to": "b2"},
        {"free": True},
        _check_effect,
    ),
    ("magical-kitties", "check"): Scenario(
        _kitties_table,
        {"kind": "check", "kitty": "mochi", "attribute": "fierce"},
        {"modifier": 2, "difficulty": 3},
        _check_effect,
    ),
}

DECLARED = sorted(
    (system_id, kind, field, label)
    for system_id in system_ids()
    for kind, fields in gm_only_fields(get_system(system_id).commands).items()
    for field, label in fields.items()
)


def test_the_declarations_are_the_documented_ones() -> None:
    # docs/table-api.md lists exactly these; a change here is a change of the documentation.
    assert DECLARED == [
        ("free-dice", "change_track", "maximum", "freedice.field.maximum"),
        ("free-dice", "move", "free", "freedice.field.free"),
        ("magical-kitties", "check", "difficulty", "kitties.field.difficulty"),
        ("magical-kitties", "check", "modifier", "kitties.field.modifier"),
    ]


@pytest.mark.parametrize(("system_id", "kind", "field", "label"), DECLARED)
def test_every_declared_field_has_a_scenario_and_a_display_name(
    system_id: str, kind: str, field: str, label: str
) -> None:
    scenario = SCENARIOS[system_id, kind]
    assert field in scenario.values
    for lang in ("de", "en"):
        assert error_message(Label(label), lang) != label  # both catalogs name the field


@pytest.mark.parametrize(("system_id", "kind", "field", "label"), DECLARED)
def test_the_gm_may_set_a_gm_only_field(system_id: str, kind: str, field: str, label: str) -> None:
    scenario = SCENARIOS[system_id, kind]
    table = scenario.table()
    value = scenario.values[field]
    table.execute({**scenario.command, field: value}, GM, _source)
    assert scenario.effect(table, field, value)


@pytest.mark.parametrize(("system_id", "kind", "field", "label"), DECLARED)
def test_a_player_is_refused_and_nothing_changes(
    system_id: str, kind: str, field: str, label: str
) -> None:
    scenario = SCENARIOS[system_id, kind]
    table = scenario.table()
    before = (table.seq, table.state, table.owners())
    with pytest.raises(RuleError) as caught:
        table.execute({**scenario.command, field: scenario.values[field]}, PLAYER, _source)
    error = caught.value
    assert error.code == "rule.forbidden_field"
    assert error.params["command"] == kind
    assert isinstance(error.params["field"], Label) and error.params["field"].code == label
    assert (table.seq, table.state, table.owners()) == before
    # The message names the field by its display name, in each language.
    for lang in ("de", "en"):
        message = error_message(error, lang)
        assert error_message(Label(label), lang) in message and repr(kind) in message


@pytest.mark.parametrize(("system_id", "kind", "field", "label"), DECLARED)
def test_a_player_may_send_the_default_and_may_play_without_the_field(
    system_id: str, kind: str, field: str, label: str
) -> None:
    scenario = SCENARIOS[system_id, kind]
    table = scenario.table()
    models = get_system(system_id).commands.json_schema()["$defs"].values()
    schema = next(m for m in models if m.get("properties", {}).get("kind", {}).get("const") == kind)
    default = schema["properties"][field]["default"]
    table.execute({**scenario.command, field: default}, PLAYER, _source)
    table.execute(scenario.command, PLAYER, _source)
    assert table.seq == 5


@pytest.mark.parametrize(("system_id", "kind", "field", "label"), DECLARED)
def test_a_spectator_is_refused(system_id: str, kind: str, field: str, label: str) -> None:
    scenario = SCENARIOS[system_id, kind]
    table = scenario.table()
    before = (table.seq, table.state)
    for command in ({**scenario.command, field: scenario.values[field]}, scenario.command):
        with pytest.raises(RuleError) as caught:
            table.execute(command, SPECTATOR, _source)
        assert caught.value.code == "rule.forbidden"
    assert (table.seq, table.state) == before


def test_a_nested_gm_only_field_is_found_too() -> None:
    # The declaration is generic: a GmOnly field inside a nested model counts as well.
    from typing import Annotated, Literal

    from pydantic import BaseModel, TypeAdapter

    from spieltisch.engine.permissions import GmOnly, check_fields

    class Inner(BaseModel):
        secret: Annotated[int, GmOnly("kitties.field.modifier")] = 0

    class Outer(BaseModel):
        kind: Literal["outer"] = "outer"
        items: tuple[Inner, ...] = ()

    check_fields(Outer(items=(Inner(),)))
    with pytest.raises(RuleError) as caught:
        check_fields(TypeAdapter(Outer).validate_python({"items": [{}, {"secret": 1}]}))
    assert caught.value.params["command"] == "outer"


# -- over HTTP ---------------------------------------------------------------------------------


def _kitties_party(client: Any, make_party: Any) -> Any:
    party = make_party(client, "magical-kitties")
    assert party.do(party.player, MOCHI).status_code == 200
    for kind in ("start_episode", "start_scene"):
        assert party.do(party.gm, {"kind": kind}).status_code == 200
    return party


@pytest.mark.parametrize(("field", "value"), [("modifier", 10), ("difficulty", 3)])
def test_over_http_a_player_cannot_set_a_gm_field(
    client: Any, make_party: Any, field: str, value: int
) -> None:
    party = _kitties_party(client, make_party)
    check = {"kind": "check", "kitty": "mochi", "attribute": "fierce", field: value}
    before = party.records()
    response = party.do(party.player, check)
    assert response.status_code == 403, response.text
    error = response.json()["error"]
    assert error["code"] == "rule.forbidden_field"
    assert error_message(Label(f"kitties.field.{field}"), "en") in error["message"]
    assert party.records() == before
    german = client.post(
        f"/api/tables/{party.id}/commands?lang=de", headers=party.player, json={"command": check}
    )
    assert error_message(Label(f"kitties.field.{field}"), "de") in german.json()["error"]["message"]
    # The spectator is refused as well; the GM's check rolls with the value.
    assert party.do(party.spectator, check).status_code == 403
    done = party.do(party.gm, check)
    assert done.status_code == 200, done.text
    event = done.json()["records"][0]["events"][0]
    if field == "modifier":
        assert len(event["dice"]) == 3 + value  # Fierce 3 + 10 other dice: 13 dice, the GM's
    else:
        assert event["difficulty"] == value


def test_over_http_the_ai_budget_is_bounded(client: Any) -> None:
    def create(budget: Any) -> Any:
        seats = [{"player": "human"}, {"player": "strongest", "budget": budget}]
        body = {"system": "kilkenny", "options": {"seats": seats}}
        return client.post("/api/tables", json=body)

    for bad in (1_000_000, 17, 0, "3", True):
        response = create(bad)
        assert response.status_code == 422, response.text
        assert response.json()["error"]["code"] == "kilkenny.bad_options"
        assert "budget" in response.json()["error"]["message"]
    assert create(16).status_code == 201
