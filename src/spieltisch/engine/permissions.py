"""Field-level permissions: command fields only the game master may set.

A system declares such a field on its command model, as data::

    modifier: Annotated[StrictInt, GmOnly("kitties.field.modifier")] = 0

and the table enforces it for every system in one place (:func:`check_fields`, called by
:class:`~spieltisch.engine.table.Table` for players): a player's command that sets a GM-only
field to anything but the field's default is refused with ``rule.forbidden_field``, naming the
field's display name (the catalog key given to :class:`GmOnly`) and the command. The command's
JSON Schema marks the field with ``"x-gm-only": true``, so clients and the API documentation
know it too, and :func:`gm_only_fields` lists every declaration of a system.

A field that makes what a command creates the GM's secret is declared :class:`Secret`::

    secret: Annotated[StrictBool, Secret()] = False

and a command that sets it to true becomes a hidden record by itself (:func:`makes_secret`,
called by the table): its content never reaches the players' log, their fold or their view,
whatever the issuer asked for. Only the GM can issue hidden records, so such a field is the
GM's too.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, GetJsonSchemaHandler, TypeAdapter
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from spieltisch.engine.errors import RuleError
from spieltisch.engine.text import Label

__all__ = [
    "GM_ONLY_KEY",
    "GmOnly",
    "Secret",
    "check_fields",
    "gm_only_fields",
    "makes_secret",
    "set_gm_fields",
]

GM_ONLY_KEY = "x-gm-only"
"""The JSON Schema key that marks a GM-only field (its value: the display-name key)."""


@dataclass(frozen=True)
class GmOnly:
    """Annotation of a command field only the GM may set; ``label`` keys its display name."""

    label: str

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The field's schema, marked with ``"x-gm-only": <label>``."""
        schema = handler(core_schema)
        schema[GM_ONLY_KEY] = self.label
        return schema


@dataclass(frozen=True)
class Secret:
    """Annotation of a command's flag that makes the command's record hidden when true."""

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The field's schema, marked with ``"x-hides-record": true``."""
        schema = handler(core_schema)
        schema["x-hides-record"] = True
        return schema


def makes_secret(command: Any) -> bool:
    """Whether ``command`` sets a :class:`Secret` flag (its record is then hidden)."""
    if not isinstance(command, BaseModel):
        return False
    return any(
        isinstance(mark, Secret) and getattr(command, name) is True
        for name, info in type(command).model_fields.items()
        for mark in info.metadata
    )


def _declared(model: type[BaseModel]) -> Iterator[tuple[str, GmOnly]]:
    for name, info in model.model_fields.items():
        for mark in info.metadata:
            if isinstance(mark, GmOnly):
                yield name, mark


def set_gm_fields(command: BaseModel) -> list[GmOnly]:
    """The GM-only fields ``command`` sets to something other than their default.

    Nested models (and tuples or lists of them) are searched as well.
    """
    found: list[GmOnly] = []
    fields = type(command).model_fields
    for name, mark in _declared(type(command)):
        default = fields[name].get_default(call_default_factory=True)
        if getattr(command, name) != default:
            found.append(mark)
    for name in fields:
        value = getattr(command, name)
        items = value if isinstance(value, tuple | list) else (value,)
        for item in items:
            if isinstance(item, BaseModel):
                found.extend(set_gm_fields(item))
    return found


def check_fields(command: Any) -> None:
    """Refuse a player's ``command`` that sets a GM-only field (``rule.forbidden_field``)."""
    if not isinstance(command, BaseModel):
        return
    found = set_gm_fields(command)
    if found:
        kind = getattr(command, "kind", type(command).__name__)
        raise RuleError("rule.forbidden_field", field=Label(found[0].label), command=kind)


def gm_only_fields(commands: TypeAdapter[Any]) -> dict[str, dict[str, str]]:
    """Every GM-only field of a system's commands: kind → {field name → display-name key}.

    Read from the commands' JSON Schema (field names as they appear in JSON), so it lists
    exactly what clients see.
    """
    schema = commands.json_schema()
    models = [schema, *schema.get("$defs", {}).values()]
    found: dict[str, dict[str, str]] = {}
    for model in models:
        properties = model.get("properties", {})
        kind = properties.get("kind", {}).get("const")
        if kind is None:
            continue
        marked = {
            name: str(prop[GM_ONLY_KEY]) for name, prop in properties.items() if GM_ONLY_KEY in prop
        }
        if marked:
            found[kind] = marked
    return found
