"""Field-level permissions: the matrix of every GM-only field × GM, player and spectator.

The fields come from the systems' own declarations (:func:`gm_only_fields`), so a system that
declares a new GM-only field is tested here at once — it only has to add a scenario below (a
table where a player owns the piece the command acts for, and a value to set) and a row to the
table in docs/table-api.md's "Permissions" section, which is the one documented list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
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


Effect = Callable[[Table, Table, str, Any], bool]
"""Whether the GM's value of a field took effect: the table after the GM's command with the
value, and its twin after the same command without it (the same dice: the seeds go by draw)."""


@dataclass(frozen=True)
class Scenario:
    """A table ready for ``command`` from the player, and a value to set per GM-only field."""

    table: Callable[[], Table]
    command: dict[str, Any]
    values: dict[str, Any]
    effect: Effect


def _event(table: Table, kind: str) -> dict[str, Any]:
    """The event of ``kind`` in the last record."""
    event: dict[str, Any] = next(e for e in table.records[-1].events if e["kind"] == kind)
    return event


def _check_effect(table: Table, twin: Table, field: str, value: Any) -> bool:
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


# -- HeXXen 1733 -------------------------------------------------------------------------------

ADA_HUNTER: dict[str, Any] = {
    "kind": "create_hunter",
    "id": "ada",
    "name": "Ada",
    "attributes": {"KKR": 3, "ATH": 2, "GES": 3, "SIN": 2, "WIS": 1, "WIL": 2},
    "skills": {"Nahkampf": 2},
}


def _hexxen_table() -> Table:
    """Paul's hunter Ada and the GM's wolf, whose bite has 4 attack dice."""
    table = Table(get_system("hexxen"))
    table.execute(ADA_HUNTER, PLAYER, _source)
    wolf = {"kind": "create_npc", "id": "wolf", "name": "Wolf", "statblock": ""}
    block = "LeP 9\nKKR 4, WIL 6\n(N) Biss Angriff 4, Schaden 2"
    table.execute({**wolf, "statblock": block}, GM, _source)
    return table


def _npc_dice_effect(table: Table, twin: Table, field: str, value: Any) -> bool:
    # Without the fields the wolf defends with the attribute Ada's Nahkampf rolls, KKR 4;
    # else with the GM's dice, or the GM's attribute (WIL 6).
    rolled = _event(table, "contest_rolled")["npc_roll"]["dice"]
    default = _event(twin, "contest_rolled")["npc_roll"]["dice"]
    wanted = value if field == "npc_dice" else 6
    return len(rolled) == wanted and len(default) == 4


# -- Kreiswanderer -----------------------------------------------------------------------------

KW_ATTRIBUTES = {
    "staerke": 3,
    "konstitution": 3,
    "agilitaet": 2,
    "geschick": 3,
    "intelligenz": 2,
    "wahrnehmung": 2,
    "willenskraft": 2,
    "charisma": 1,
}


def _being(being_id: str, name: str, side: str) -> dict[str, Any]:
    """A being with Geschick 3 and Schwerter (depth 2, value 4): talent value 3 × 2 + 4 = 10."""
    sheet = {
        "name": name,
        "side": side,
        "attributes": KW_ATTRIBUTES,
        "skills": {"schwerter": {"depth": 2, "value": 4}},
        "hp": 20,
        "weapons": [{"name": "Schwert", "skill": "schwerter", "attribute": "geschick"}],
    }
    return {"kind": "create_being", "id": being_id, "sheet": sheet}


def _kw_table() -> Table:
    """Paul's being Ada and the GM's goblin (the same sheet, on the foes' side)."""
    table = Table(get_system("kreiswanderer"))
    table.execute(_being("ada", "Ada", "party"), PLAYER, _source)
    table.execute(_being("gob", "Goblin", "foes"), GM, _source)
    return table


def _kw_fight() -> Table:
    """The same two in a fight, at Ada's turn."""
    table = _kw_table()
    table.execute({"kind": "start_combat", "combatants": ["ada", "gob"]}, GM, _source)
    for being in ("ada", "gob"):
        table.execute({"kind": "assign_dice", "being": being, "dodge": 0}, GM, _source)
    while table.state.fight.encounter.current != "ada":
        table.execute({"kind": "end_turn"}, GM, _source)
    return table


def _kw_effect(kind: str, *path: str) -> Effect:
    """The GM's modifier adds to the talent value (10 without it) at ``path`` of the ``kind``
    event, the opponent's to the passive side's; the GM's target replaces the table's."""

    def effect(table: Table, twin: Table, field: str, value: Any) -> bool:
        def at(t: Table, *keys: str) -> Any:
            found: Any = _event(t, kind)
            for key in keys:
                found = found[key]
            return found

        if field == "target":
            where = (*path[:-1], "target")
            return bool(at(table, *where) == value != at(twin, *where))
        if field in ("opponent_modifier", "opponent_tools"):
            passive, active = ("passive", "talent_value"), ("active", "talent_value")
            return bool(at(table, *passive) == 10 + value and at(table, *active) == 10)
        return bool(at(table, *path) == 10 + value and at(twin, *path) == 10)

    return effect


def _secret_effect(table: Table, twin: Table, field: str, value: Any) -> bool:
    # The being is secret: absent from the players' view, unlike its twin.
    beings = (t.state.beings["lu"].creature.secret for t in (table, twin))
    seen = [b["id"] for b in table.view(table.viewer(PLAYER))["beings"]]
    return tuple(beings) == (True, False) and seen == ["ada", "gob"]


# -- D&D 5e ------------------------------------------------------------------------------------

ADA_CHARACTER: dict[str, Any] = {
    "kind": "add_character",
    "id": "ada",
    "name": "Ada",
    "ac": 16,
    "hp": 12,
    "abilities": {"str": 16, "dex": 14},
    "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
    "position": "a1",
}


def _dnd_table() -> Table:
    """Paul's fighter Ada beside the GM's goblin, in a fight at Ada's turn."""
    table = Table(get_system("dnd5e"))
    table.execute(ADA_CHARACTER, PLAYER, _source)
    goblin = {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "b2"}
    table.execute(goblin, GM, _source)
    table.execute({"kind": "start_combat"}, GM, _source)
    while table.state.encounter.current != "ada":
        table.execute({"kind": "end_turn"}, GM, _source)
    return table


def _mode_effect(table: Table, twin: Table, field: str, value: Any) -> bool:
    # The flag rolls two d20 (the higher or the lower); without it one, in the normal mode.
    attacked, plain = _event(table, "attacked"), _event(twin, "attacked")
    if field == "modifier":  # the situational modifier is carried on the roll
        return bool(attacked.get("modifier") == value and plain.get("modifier", 0) == 0)
    if field == "cover":  # the GM's ruling on cover is carried on the roll (the map has none)
        return bool(attacked.get("cover") == value and plain.get("cover", "none") == "none")
    return bool(
        attacked["mode"] == field
        and len(attacked["d20"]) == 2
        and (plain["mode"], len(plain["d20"])) == ("normal", 1)
    )


KW_CHECK = {"being": "ada", "attribute": "geschick", "skill": "schwerter"}
KW_COMBINED = {"being": "ada", "attribute": "geschick", "skills": ["schwerter"]}

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
    ("hexxen", "hunter_contest"): Scenario(
        _hexxen_table,
        {"kind": "hunter_contest", "hunter": "ada", "skill": "Nahkampf", "npc": "wolf"},
        {"npc_dice": 7, "npc_attribute": "WIL"},
        _npc_dice_effect,
    ),
    ("kreiswanderer", "check"): Scenario(
        _kw_table,
        {"kind": "check", **KW_CHECK},
        {"modifier": 3, "target": 7},
        _kw_effect("check_rolled", "talent_value"),
    ),
    ("kreiswanderer", "combined_check"): Scenario(
        _kw_table,
        # one skill: the combined value is Schwerter's 10
        {"kind": "combined_check", **KW_COMBINED},
        {"modifier": -4, "target": 9},
        _kw_effect("check_rolled", "talent_value"),
    ),
    ("kreiswanderer", "comparative"): Scenario(
        _kw_table,
        {
            "kind": "comparative",
            **KW_CHECK,
            "opponent": "gob",
            "opponent_attribute": "geschick",
            "opponent_skill": "schwerter",
        },
        {"modifier": 2, "opponent_modifier": -3, "opponent_tools": 2},
        _kw_effect("comparative_rolled", "active", "talent_value"),
    ),
    ("kreiswanderer", "accumulate_start"): Scenario(
        _kw_table,
        {"kind": "accumulate_start", "id": "forge", **KW_CHECK, "rolls": 3},
        {"modifier": 5, "target": 12},
        _kw_effect("accumulation_started", "accumulation", "talent_value"),
    ),
    ("kreiswanderer", "attack"): Scenario(
        _kw_fight,
        {"kind": "attack", "being": "ada", "target": "gob", "weapon": "Schwert"},
        {"modifier": 1},
        _kw_effect("attacked", "talent_value"),
    ),
    ("kreiswanderer", "create_being"): Scenario(
        _kw_table,
        _being("lu", "Lu", "party"),
        {"secret": True},
        _secret_effect,
    ),
    ("dnd5e", "attack"): Scenario(
        _dnd_table,
        {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"},
        {"advantage": True, "disadvantage": True, "modifier": 2, "cover": "half"},
        _mode_effect,
    ),
}

DECLARED = sorted(
    (system_id, kind, field, label)
    for system_id in system_ids()
    for kind, fields in gm_only_fields(get_system(system_id).commands).items()
    for field, label in fields.items()
)

DOCS = Path(__file__).parents[2] / "docs" / "table-api.md"


def documented_fields() -> list[tuple[str, str, str, str]]:
    """The GM-only-field table of the API documentation's "Permissions" section.

    Each row: system, command, field and the field's display name (English); rows of a system
    without such fields (an em dash for the command) are left out.
    """
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("\n## Permissions\n", 1)[1].split("\n## ", 1)[0]
    rows: list[tuple[str, str, str, str]] = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) < 4 or not cells[0].startswith("`"):
            continue
        system, command, field, name = cells[:4]
        if command == "—":
            continue
        rows.append((system.strip("`"), command.strip("`"), field.split("`")[1], name))
    return sorted(rows)


def test_the_declarations_are_the_documented_ones() -> None:
    # docs/table-api.md is the one list: a declaration it lacks (or one it names that no
    # system declares) fails here, and so does a display name that differs from the catalog's.
    declared = [
        (system_id, kind, field, error_message(Label(label), "en"))
        for system_id, kind, field, label in DECLARED
    ]
    assert documented_fields() == declared
    assert len(declared) >= 4  # the parse found the table


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
    twin = scenario.table()
    twin.execute(scenario.command, GM, _source)
    assert scenario.effect(table, twin, field, value)


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
    models = get_system(system_id).commands.json_schema()["$defs"].values()
    schema = next(m for m in models if m.get("properties", {}).get("kind", {}).get("const") == kind)
    default = schema["properties"][field]["default"]
    for command in ({**scenario.command, field: default}, scenario.command):
        table = scenario.table()
        seq = table.seq
        table.execute(command, PLAYER, _source)
        assert table.seq == seq + 1


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
