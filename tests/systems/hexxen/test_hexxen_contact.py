"""Contact (issue 20 §1): a hunter's move onto or through a secret NSC's square stops before
it and reveals the NSC, instead of a refusal that would tell the player without showing."""

from __future__ import annotations

from typing import Any

from hexxen_helpers import ADA, WOLF, LoadedDice

from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.hexxen.decide import line_between
from spieltisch.systems.hexxen.events import NpcRevealed, Placed
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
SYSTEM = get_system("hexxen")
SHADE: dict[str, Any] = {**WOLF, "id": "shade", "name": "Schatten", "secret": True}


def _none(_index: int) -> LoadedDice:
    return LoadedDice([])


def _table(ada_at: str | None = "b2") -> Table:
    table = Table(SYSTEM)
    table.execute(ADA, ANNA, _none)
    table.execute(SHADE, GM, _none)
    table.execute({"kind": "place", "target": "shade", "to": "e2"}, GM, _none, hidden=True)
    if ada_at is not None:
        table.execute({"kind": "place", "target": "ada", "to": ada_at}, ANNA, _none)
    return table


def _contact(table: Table, command: dict[str, Any]) -> list[Any] | None:
    parsed = SYSTEM.commands.validate_python(command)
    events = SYSTEM.decide(table.shared_state, parsed, LoadedDice([]))
    return SYSTEM.contact(table.state, parsed, events)


def test_the_line_of_a_move() -> None:
    assert line_between("b2", "h2") == ["c2", "d2", "e2", "f2", "g2", "h2"]
    assert line_between("a1", "d3") == ["b2", "c2", "d3"]


def test_a_move_through_a_secret_nsc_stops_before_it_and_reveals_it() -> None:
    table = _table()
    found = _contact(table, {"kind": "place", "target": "ada", "to": "h2"})
    assert found is not None
    moved, revealed = found
    assert moved == Placed(target="ada", to="d2")
    assert isinstance(revealed, NpcRevealed)
    assert (revealed.npc.id, revealed.at, revealed.by) == ("shade", "e2", "ada")
    assert not revealed.npc.secret
    # Onto its square: the same stop.
    onto = _contact(table, {"kind": "place", "target": "ada", "to": "e2"})
    assert onto is not None and onto[0] == Placed(target="ada", to="d2")


def test_next_to_it_or_without_a_square_the_hunter_stays() -> None:
    beside = _contact(_table("d2"), {"kind": "place", "target": "ada", "to": "f2"})
    assert beside is not None and [type(e) for e in beside] == [NpcRevealed]
    fresh = _contact(_table(None), {"kind": "place", "target": "ada", "to": "e2"})
    assert fresh is not None and [type(e) for e in fresh] == [NpcRevealed]


def test_nothing_hidden_on_the_way_is_no_contact() -> None:
    table = _table()
    assert _contact(table, {"kind": "place", "target": "ada", "to": "b6"}) is None
    assert _contact(table, {"kind": "place", "target": "ada", "to": "d2"}) is None
    # The GM moving an NSC is no hunter's contact.
    gm_move = SYSTEM.commands.validate_python({"kind": "place", "target": "shade", "to": "h8"})
    assert SYSTEM.contact(table.state, gm_move, []) is None


def test_the_reveal_applies_to_both_folds() -> None:
    table = _table()
    found = _contact(table, {"kind": "place", "target": "ada", "to": "h2"})
    assert found is not None
    shared, full = table.shared_state, table.state
    for event in found:
        shared = SYSTEM.evolve(shared, event)
        full = SYSTEM.evolve(full, event)
    player = Viewer(role=Role.PLAYER, participant="anna")
    shown = SYSTEM.view(shared, player)
    assert [(n["id"], n["position"], n["secret"]) for n in shown["npcs"]] == [
        ("shade", "e2", False)
    ]
    assert shared.positions["ada"] == full.positions["ada"] == "d2"
    assert not full.npcs["shade"].secret
