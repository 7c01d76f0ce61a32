"""Refusals name creatures by their display names, never by their ids (secret ones aside).
Ada (id ``ada``) and a goblin (id ``gob``, name Goblin) at c3; Ada's turn."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message

from .helpers import SYSTEM, command
from .test_dnd5e_casting import table
from .test_dnd5e_fight import ANNA, GM
from .test_dnd5e_table_parts import NO_DICE, fight, preview


def refusal(table: Any, command: dict[str, Any], actor: Any = GM) -> RuleError:
    with pytest.raises(RuleError) as error:
        table.execute(command, actor, NO_DICE.source_at)
    return error.value


def test_refusals_carry_display_names() -> None:
    table, _ = fight()
    turn = refusal(table, {"kind": "move", "creature": "gob", "steps": [{"to": "c4"}]})
    assert turn.code == "dnd5e.not_your_turn"
    assert dict(turn.params) == {"creature": "Goblin", "current": "Ada"}
    assert error_message(turn, "en") == "It is not Goblin's turn but Ada's."
    reach = refusal(
        table, {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"}, ANNA
    )
    assert dict(reach.params) == {"target": "Goblin", "attack": "Longsword"}
    # an id nobody has stays as it was; a duplicate id is about the id itself
    unknown = refusal(table, {"kind": "damage", "target": "nobody", "amount": 1})
    assert dict(unknown.params) == {"creature": "nobody"}
    twice = refusal(table, {"kind": "add_monster", "id": "gob", "monster": "rat"})
    assert dict(twice.params) == {"creature": "gob"}


def test_a_secret_creature_keeps_its_id() -> None:
    table, _ = fight()
    table.execute(
        {"kind": "add_monster", "id": "spy", "monster": "rat", "secret": True, "position": "h8"},
        GM,
        NO_DICE.source_at,
    )
    secret = refusal(table, {"kind": "move", "creature": "spy", "steps": [{"to": "h7"}]})
    assert secret.params["creature"] == "spy"


def test_the_route_check_names_the_creature_in_the_way() -> None:
    table, _ = fight()
    # b2 → c3 is the goblin's square: the error params name it
    blocked = preview(table, creature="ada", steps=[{"to": "b2"}, {"to": "c3"}])
    assert blocked["error"]["code"] == "dnd5e.move.hostile_space"
    assert blocked["error"]["params"]["creature"] == "Goblin"


def test_the_odds_name_the_creature_a_refusal_is_about() -> None:
    """The chance shown before a cast or a grapple is refused in the same words as the
    command: the creature out of range or reach by its name, not its id."""
    state = table(("g1", "z1"), width=40)
    cast = command({"kind": "cast", "creature": "wiz", "spell": "fire-bolt", "targets": ["g1"]})
    with pytest.raises(RuleError) as far:
        SYSTEM.odds(state, cast)
    assert far.value.code == "dnd5e.spell.out_of_range"
    assert far.value.params["target"] == "G1"
    grapple = command({"kind": "grapple", "creature": "wiz", "target": "g1"})
    with pytest.raises(RuleError) as reach:
        SYSTEM.odds(state, grapple)
    assert reach.value.code == "dnd5e.out_of_reach"
    assert reach.value.params["target"] == "G1"
