"""Every choice of every system's table options is named in words in both languages (the
start page's option form shows the text `web.option.<system>.<name>.<value>`, or the shared
`web.option.value.<value>`, and falls back to the raw value only where neither exists)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from spieltisch.systems.registry import get_system, system_ids

CATALOGS = Path(__file__).parents[2] / "src" / "spieltisch" / "i18n"


def _choices(schema: dict[str, Any]) -> list[tuple[str, object]]:
    defs = schema.get("$defs", {})
    found: list[tuple[str, object]] = []
    for name, prop in schema.get("properties", {}).items():
        parts = [prop, *prop.get("anyOf", ())]
        parts += [defs[p["$ref"].rsplit("/", 1)[-1]] for p in parts if "$ref" in p]
        for part in parts:
            found += [(name, value) for value in part.get("enum", ())]
    return found


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("system_id", system_ids())
def test_every_option_choice_has_a_text(system_id: str, language: str) -> None:
    with (CATALOGS / language / "web.po").open("rb") as f:
        texts = {m.id for m in read_po(f) if m.id and m.string}
    options = get_system(system_id).options
    schema = options.json_schema() if hasattr(options, "json_schema") else {}
    missing = [
        f"{name}={value}"
        for name, value in _choices(schema)
        if f"web.option.{system_id}.{name}.{value}" not in texts
        and f"web.option.value.{value}" not in texts
    ]
    assert missing == []
