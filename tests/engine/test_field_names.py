"""Every text field of every command has a display name in both catalogs."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine import chat
from spieltisch.engine.text import Label, field_label
from spieltisch.i18n import LANGUAGES, catalog
from spieltisch.systems.registry import get_system, system_ids


def text_fields(schema: dict[str, Any]) -> set[str]:
    """The names of the properties holding a free text (a string with a length limit)."""
    found: set[str] = set()

    def walk(node: Any, name: str | None) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, name)
            return
        if not isinstance(node, dict):
            return
        if node.get("type") == "string" and "maxLength" in node and name is not None:
            found.add(name)
        for key, value in node.get("properties", {}).items():
            walk(value, key)
        for key in ("items", "anyOf", "oneOf", "allOf", "prefixItems", "additionalProperties"):
            walk(node.get(key), name)

    walk(schema, None)
    for definition in schema.get("$defs", {}).values():
        walk(definition, None)
    return found


SCHEMAS = {sid: get_system(sid).commands.json_schema() for sid in system_ids()}
SCHEMAS["chat"] = chat.COMMANDS.json_schema()


@pytest.mark.parametrize("source", sorted(SCHEMAS))
def test_every_text_field_has_a_display_name(source: str) -> None:
    fields = text_fields(SCHEMAS[source])
    assert fields, source  # the walk finds something in every schema
    for lang in LANGUAGES:
        missing = {name for name in fields if f"text.field.{name}" not in catalog(lang)}
        assert not missing, (source, lang, sorted(missing))


def test_the_label_is_the_last_named_part_of_the_location() -> None:
    assert field_label(("sheet", "talents", 0)) == Label("text.field.talents")
    assert field_label(("name",)) == Label("text.field.name")
    assert field_label((0,)) == Label("text.field.text")
