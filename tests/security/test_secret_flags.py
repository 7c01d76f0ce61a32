"""A command that makes something the GM's secret is a hidden record, however it was sent.

Every system's ``secret`` flag is declared with :class:`spieltisch.engine.permissions.Secret`;
the table then hides the record by itself, so the secret never stands in the players' log,
fold, view or export — even when the GM forgot to tick "hidden".
"""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.dice.fair import SeededSource
from spieltisch.engine.permissions import makes_secret
from spieltisch.engine.system import parse_command
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.systems.registry import get_system, system_ids

CANARY = "geheimnis-7f3a"


def _secret_fields(schema: Any, path: str = "") -> list[tuple[str, bool]]:
    """Every property named ``secret`` in a JSON Schema, with whether it hides its record."""
    found: list[tuple[str, bool]] = []
    if isinstance(schema, dict):
        for name, sub in (schema.get("properties") or {}).items():
            if name == "secret":
                found.append((f"{path}{schema.get('title', '')}.{name}", "x-hides-record" in sub))
        for key, sub in schema.items():
            if key != "properties":
                found.extend(_secret_fields(sub, path))
            else:
                for sub_schema in sub.values():
                    found.extend(_secret_fields(sub_schema, path))
    elif isinstance(schema, list):
        for item in schema:
            found.extend(_secret_fields(item, path))
    return found


@pytest.mark.parametrize("system_id", system_ids())
def test_every_secret_flag_hides_its_record(system_id: str) -> None:
    flags = _secret_fields(get_system(system_id).commands.json_schema())
    assert all(hides for _, hides in flags), flags


def test_an_open_secret_becomes_a_hidden_record_and_never_reaches_players() -> None:
    system = get_system("free-dice")
    table = Table(system)
    gm = Actor(id="gm", role=Role.GM)
    command = {"kind": "add_combatant", "id": "spy", "name": CANARY, "secret": True}
    assert makes_secret(parse_command(system, command))
    (record,) = table.execute(command, gm, lambda _index: SeededSource(1))
    assert record.hidden  # the GM did not ask for it: the flag did
    assert table.visible(Role.PLAYER) == []
    assert CANARY not in str(table.view(table.viewer(Actor(id="p", role=Role.PLAYER))))
    assert CANARY in str(table.view(table.viewer(gm)))
    # The same command without the flag is an open record.
    (open_record,) = table.execute(
        {**command, "id": "guard", "name": "Guard", "secret": False},
        gm,
        lambda _index: SeededSource(1),
    )
    assert not open_record.hidden


def test_a_player_cannot_make_a_secret(client: Any, make_party: Any) -> None:
    party = make_party(client, "free-dice")
    before = party.records(party.gm)
    reply = party.do(
        party.player,
        {"kind": "add_character", "id": "me", "name": "Me"},
    )
    assert reply.status_code == 200, reply.text
    refused = party.do(
        party.player, {"kind": "add_combatant", "id": "spy", "name": CANARY, "secret": True}
    )
    assert refused.status_code == 403
    assert CANARY not in refused.text
    assert len(party.records(party.gm)) == len(before) + 1
