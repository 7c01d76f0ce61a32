"""Every system's commands take numbers, flags and texts by the shared strict rules.

The rules (``engine/text.py`` and pydantic's strict types): a number is a JSON integer (not
``"16"``, ``true`` or ``16.0``), a flag is ``true`` or ``false``, and a text is JSON text
that passes the text rule (no control characters, a length limit) or a fixed pattern. A walk
over every registered system's command schema finds any field that does not; D&D 5e's fields
named in the hostile-input report are tried one by one, in the library and through the store
on SQLite and PostgreSQL (where a NUL would be a server error), and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import parse_command
from spieltisch.engine.text import TextError
from spieltisch.store import EventStore
from spieltisch.systems.registry import get_system, system_ids


def _loose_fields(schema: dict[str, Any]) -> list[str]:
    """Where a command schema takes a number, flag or text outside the strict rules."""
    found: list[str] = []
    definitions: dict[str, Any] = {}
    seen: set[str] = set()

    def walk(node: dict[str, Any], path: str, ruled: bool = False) -> None:
        kind = node.get("type")
        if kind == "definitions":
            definitions.update({d["ref"]: d for d in node["definitions"]})
            walk(node["schema"], path)
        elif kind == "definition-ref":
            if node["schema_ref"] not in seen:
                seen.add(node["schema_ref"])
                walk(definitions[node["schema_ref"]], path)
        elif kind in ("int", "float", "bool"):
            if not node.get("strict"):
                found.append(f"{path}: {kind}")
        elif kind == "str":
            if not node.get("strict"):
                found.append(f"{path}: str (not strict)")
            elif not ruled and not node.get("pattern"):
                found.append(f"{path}: str (no text rule)")
        elif kind == "literal":
            if any(not isinstance(v, str) for v in node["expected"]):
                found.append(f"{path}: literal (compared loosely)")
        elif (
            kind == "function-before"
            and getattr(node["function"]["function"], "__qualname__", "") == "exact_int"
        ):
            pass  # a literal of integers taken only as JSON integers
        elif kind == "function-after":
            rule = getattr(node["function"]["function"], "__qualname__", "")
            walk(node["schema"], path, rule.startswith("text_rule"))
        elif kind == "model-fields":
            for name, field in node["fields"].items():
                walk(field["schema"], f"{path}.{name}")
        else:
            for key in ("schema", "items_schema", "keys_schema", "values_schema"):
                inner = node.get(key)
                if isinstance(inner, dict):
                    walk(inner, path, ruled)
            if kind == "tuple":
                for inner in node.get("items_schema", []):
                    walk(inner, path, ruled)
            choices = node.get("choices", ())
            for choice in choices.values() if isinstance(choices, dict) else choices:
                walk(choice[0] if isinstance(choice, tuple) else choice, path, ruled)

    walk(schema, "")
    return found


@pytest.mark.parametrize("system_id", system_ids())
def test_every_command_field_follows_the_strict_rules(system_id: str) -> None:
    assert _loose_fields(get_system(system_id).commands.core_schema) == []


def test_the_walk_finds_loose_fields() -> None:
    from typing import Literal

    from pydantic import BaseModel, TypeAdapter

    class Loose(BaseModel):
        count: int
        name: str
        edition: Literal[1, 2]

    assert _loose_fields(TypeAdapter(Loose).core_schema) == [
        ".count: int",
        ".name: str (not strict)",
        ".edition: literal (compared loosely)",
    ]


GOBLIN: dict[str, Any] = {
    "id": "g1",
    "name": "Goblin",
    "hp": 7,
    "ac": 15,
    "speeds": {"walk": 9},
    "abilities": {"str": 8, "dex": 14},
    "resistances": ["fire"],
}


def _monster(**sheet: Any) -> dict[str, Any]:
    return {"kind": "add_monster", "id": "g1", "sheet": {**GOBLIN, **sheet}}


LOOSE = [
    _monster(abilities={"str": "16"}),
    _monster(abilities={"str": True}),
    _monster(abilities={"str": 16.0}),
    _monster(speeds={"walk": "9"}),
    _monster(speeds={"walk": True}),
    _monster(speeds={"walk": 9.25}),  # metres in half steps: 7.5 and 9.0 are speeds, 9.25 not
    {"kind": "start_combat", "rolls": {"g1": "20"}},
    {"kind": "start_combat", "rolls": {"g1": True}},
    {"kind": "start_combat", "rolls": {"g1": 20.0}},
    {"kind": "move", "creature": "g1", "steps": [{"to": "C4", "obstacle": 1}]},
    {"kind": "move", "creature": "g1", "steps": [{"to": 4}]},
    {"kind": "cast", "creature": "g1", "spell": "fireball", "slot": "3"},
    {"kind": "cast", "creature": "g1", "spell": "fireball", "slot": True},
    {"kind": "cast", "creature": "g1", "spell": "fireball", "slot": 3.0},
    {"kind": "cast", "creature": "g1", "spell": "Fireball"},  # by id, as the SRD data has it
    _monster(spellcasting={"ability": "int", "save_dc": "14", "attack_bonus": 6}),
    _monster(spellcasting={"ability": "int", "save_dc": 14, "attack_bonus": 6, "slots": [4.0]}),
]


@pytest.mark.parametrize("command", LOOSE)
def test_dnd5e_refuses_numbers_and_flags_in_other_clothes(command: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as caught:
        parse_command(get_system("dnd5e"), command)
    assert caught.value.code == "rule.bad_command"


CONTROL = [
    ({"kind": "damage", "target": "g1", "amount": 3, "type": "fi\x00re"}, "type"),
    ({"kind": "damage", "target": "g1", "amount": 3, "type": "fi\x1bre"}, "type"),
    (_monster(resistances=["co\x00ld"]), "resistances"),
    (_monster(vulnerabilities=["co\x1bld"]), "vulnerabilities"),
    (_monster(immunities=["poi\x00son"]), "immunities"),
    (_monster(attacks=["Scimitar\x1b[31m +4"]), "attacks"),
    (_monster(position="C\x004"), "position"),
    ({"kind": "terrain", "squares": ["C\x004"], "terrain": "wall"}, "squares"),
    ({"kind": "move", "creature": "g1", "steps": [{"to": "C\x1b4"}]}, "to"),
    (
        {"kind": "cast", "creature": "g1", "spell": "fireball", "area": {"origin": "C\x004"}},
        "origin",
    ),
]


@pytest.mark.parametrize(("command", "field"), CONTROL)
def test_dnd5e_texts_refuse_control_characters(command: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_command(get_system("dnd5e"), command)
    detail = caught.value.params["detail"]
    assert isinstance(detail, TextError) and detail.code == "text.control_character"
    assert detail.params["field"].code == f"text.field.{field}"


def test_dnd5e_still_takes_the_json_values() -> None:
    dnd = get_system("dnd5e")
    monster = parse_command(dnd, _monster(abilities={"str": 16}, speeds={"walk": 9, "fly": 0}))
    assert monster.sheet is not None and monster.sheet.abilities == {"str": 16}
    assert parse_command(dnd, {"kind": "start_combat", "rolls": {"g1": 20}}).rolls == {"g1": 20}
    damage = parse_command(dnd, {"kind": "damage", "target": "g1", "amount": 3, "type": "fire"})
    assert damage.type == "fire"


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    the_store = EventStore(database_url)
    try:
        yield the_store
    finally:
        the_store.close()


def test_the_store_refuses_them_on_every_database(store: EventStore) -> None:
    created = store.create_table("dnd5e")
    gm = store.authenticate(created.table, created.token)
    store.execute(created.table, gm, {"kind": "add_monster", "id": "g1", "sheet": GOBLIN})
    before = store.export(created.table, gm)
    for command in [*LOOSE[:9], *(command for command, _ in CONTROL[:6])]:
        if command["kind"] == "add_monster":
            command = {**command, "id": "g2", "sheet": {**command["sheet"], "id": "g2"}}
        with pytest.raises(RuleError) as caught:
            store.execute(created.table, gm, command)
        assert caught.value.code == "rule.bad_command"
    assert store.export(created.table, gm) == before
