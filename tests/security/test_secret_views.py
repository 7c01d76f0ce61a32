"""A system's view hides a secret being everywhere it names one, not only in its list.

The table never hands a player the GM's fold (``Table.state_for``), so these cases cannot be
reached through a table; they check the second line of defence, the view itself: given the
GM's state, the view for a player names no secret being — not whose turn it is, not its place
in the order, not the source of an effect, not the target of a begun technique.
"""

from __future__ import annotations

import json

from leak_samples import CANARY

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.table import Table
from spieltisch.engine.visibility import Actor, Role
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
PLAYER = Actor(id="paul", role=Role.PLAYER)
ATTRS = {
    "staerke": 3,
    "konstitution": 3,
    "agilitaet": 2,
    "geschick": 3,
    "intelligenz": 2,
    "wahrnehmung": 2,
    "willenskraft": 2,
    "charisma": 1,
}
SECRET = f"{CANARY}-foe"


class _Dice:
    """Hands out the given values in order."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def roll(self, sides: int) -> int:
        return self.values.pop(0)


def _source(*values: int) -> object:
    dice = _Dice(*values)

    def at(index: int) -> DiceSource:
        return dice

    return at


def _being(being_id: str, side: str, **extra: object) -> dict[str, object]:
    weapon = {"name": "Fackel", "skill": "schwerter", "damage_type": "BR"}
    weapon["markings"] = [{"name": "langzeiteffekt", "detail": "feuer"}]
    sheet = {"name": being_id, "side": side, "attributes": ATTRS, "hp": 30, "weapons": [weapon]}
    return {"kind": "create_being", "id": being_id, "sheet": sheet, **extra}


def test_a_secret_being_whose_turn_it_is_is_named_nowhere_in_a_players_view() -> None:
    table = Table(get_system("kreiswanderer"))
    table.execute(_being("ada", "party"), PLAYER, _source())
    table.execute(_being(SECRET, "foes", secret=True), GM, _source(), hidden=True)
    # The secret foe rolls 9 and 9, Ada 1 and 1: the foe acts first.
    start = {"kind": "start_combat", "combatants": ["ada", SECRET]}
    table.execute(start, GM, _source(1, 1, 9, 9), hidden=True)
    for being in ("ada", SECRET):
        assign = {"kind": "assign_dice", "being": being, "dodge": 0}
        table.execute(assign, GM, _source(), hidden=True)
    # The foe sets Ada burning (10, 10, 5 hits whatever her dodge), Ada begins a technique.
    attack = {"kind": "attack", "being": SECRET, "target": "ada", "weapon": "Fackel"}
    table.execute(attack, GM, _source(10, 10, 5), hidden=True)
    table.execute({"kind": "end_turn"}, GM, _source(), hidden=True)
    technique = {"kind": "attack", "being": "ada", "target": SECRET, "weapon": "Fackel", "cost": 3}
    table.execute(technique, GM, _source(), hidden=True)
    table.execute({"kind": "end_turn"}, GM, _source(), hidden=True)
    gm_state = table.state_for(Role.GM)
    assert gm_state.fight.encounter.current == SECRET
    system = table.system
    seen = system.view(gm_state, table.viewer(PLAYER))
    assert CANARY not in json.dumps(seen), json.dumps(seen["fight"])
    fight = seen["fight"]
    assert fight["current"] is None and fight["order"] == ["ada"]
    (ada,) = fight["combatants"]
    assert ada["burning"] and ada["effects"][0]["source"] is None
    assert ada["pending"][0]["detail"]["target"] is None
    # The GM's own view names the foe everywhere.
    mine = system.view(gm_state, table.viewer(GM))
    assert mine["fight"]["current"] == SECRET
