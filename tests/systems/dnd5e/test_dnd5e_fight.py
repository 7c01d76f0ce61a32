"""A scripted D&D 5e fight played through the table, checked by hand and replayed."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)


class _Source:
    def __init__(self, values: list[int], start: int) -> None:
        self.values, self.index = values, start

    def roll(self, sides: int) -> int:
        value = self.values[self.index]
        assert 1 <= value <= sides
        self.index += 1
        return value


class Script:
    """Dice by raw draw index, as the table asks for them."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def source_at(self, index: int) -> _Source:
        return _Source(self.values, index)


ADA: dict[str, Any] = {
    "kind": "add_character",
    "id": "ada",
    "name": "Ada",
    "ac": 16,
    "hp": 12,
    "abilities": {"str": 16, "dex": 14},
    "speeds": {"walk": 9},
    "attacks": ["Longsword: +5, 7 (1d8+3) slashing"],
    "position": "a1",
}
# initiative: ada 15 + 2 = 17, goblin 10 + 2 = 12; the goblin's scimitar hits with 18 for 2 + 2;
# ada's longsword crits with 20 and rolls 4 + 3 on two d8: 4 + 3 + 3 = 10 slashing.
DICE = [15, 10, 18, 2, 20, 4, 3]


def play() -> tuple[Table, Script]:
    script = Script(DICE)
    table = Table(get_system("dnd5e"))
    table.execute(ADA, ANNA, script.source_at)
    table.execute(
        {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "b2"},
        GM,
        script.source_at,
    )
    table.execute({"kind": "start_combat"}, GM, script.source_at)
    # Ada leaves the goblin's reach: the move stops before the step that leaves it
    table.execute(
        {"kind": "move", "creature": "ada", "steps": [{"to": "a2"}, {"to": "a3"}, {"to": "a4"}]},
        ANNA,
        script.source_at,
    )
    return table, script


def test_move_stops_for_the_opportunity_attack_then_continues() -> None:
    table, script = play()
    state = table.state
    assert state.encounter.order == ("ada", "gob")
    assert str(state.fighters["ada"].position) == "a3"
    assert state.pending.reactors == ("gob",) and state.movement["ada"].spent == 3
    with pytest.raises(RuleError) as waiting:
        table.execute({"kind": "end_turn"}, ANNA, script.source_at)
    assert waiting.value.code == "dnd5e.reaction_pending"
    table.execute({"kind": "react", "creature": "gob", "attack": "Scimitar"}, GM, script.source_at)
    state = table.state
    assert state.fighters["ada"].hp == 8  # 1d6 (2) + 2
    assert str(state.fighters["ada"].position) == "a4" and state.pending is None
    assert state.budgets["gob"].amount("reaction") == 0


def test_attack_critical_damage_and_monster_death() -> None:
    table, script = play()
    table.execute({"kind": "react", "creature": "gob", "attack": "Scimitar"}, GM, script.source_at)
    table.execute(
        {"kind": "move", "creature": "ada", "steps": [{"to": "b3"}]}, ANNA, script.source_at
    )
    odds = table.system.odds(
        table.state,
        table.system.commands.validate_python(
            {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"}
        ),
    )
    assert odds is not None and odds.outcomes[0].exact == "9/20"  # AC 15, +5: miss on 1-9
    table.execute(
        {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"},
        ANNA,
        script.source_at,
    )
    gob = table.state.fighters["gob"]
    assert gob.hp == 0 and gob.dead  # 10 damage ≥ 7 hit points; a monster dies at 0
    with pytest.raises(RuleError) as again:
        table.execute(
            {"kind": "attack", "creature": "ada", "target": "gob", "attack": "Longsword"},
            ANNA,
            script.source_at,
        )
    assert again.value.code == "dnd5e.bad_target"
    with pytest.raises(RuleError) as twice:  # the Attack action used the one action
        table.execute(
            {"kind": "action", "creature": "ada", "action": "dash"}, ANNA, script.source_at
        )
    assert twice.value.code == "toolkit.economy.not_enough"
    with pytest.raises(RuleError) as bonus:
        table.execute(
            {"kind": "bonus_action", "creature": "ada", "feature": "hide"}, ANNA, script.source_at
        )
    assert bonus.value.code == "dnd5e.no_bonus_action"
    result = replay_log(table.system, {}, table.records)
    assert result.ok


def test_players_act_only_for_their_character_and_see_the_view() -> None:
    table, script = play()
    with pytest.raises(RuleError):
        table.execute(
            {"kind": "react", "creature": "gob", "attack": "Scimitar"}, ANNA, script.source_at
        )
    view = table.view(table.viewer(ANNA))
    ada = next(f for f in view["fighters"] if f["id"] == "ada")
    assert ada["movement_left"] == {"walk": "6.0"} and ada["budgets"]["action"] == "1"
    assert view["pending_reaction"]["reactors"] == ["gob"]


def test_dying_and_death_saves() -> None:
    script = Script([15, 10, 1, 12, 20])
    table = Table(get_system("dnd5e"))
    table.execute(ADA, ANNA, script.source_at)
    table.execute(
        {"kind": "add_monster", "id": "gob", "monster": "goblin", "position": "e5"},
        GM,
        script.source_at,
    )
    table.execute({"kind": "start_combat"}, GM, script.source_at)
    table.execute(
        {"kind": "damage", "target": "ada", "amount": 12, "type": "fire"}, GM, script.source_at
    )
    ada = table.state.fighters["ada"]
    assert ada.hp == 0 and not ada.dead
    assert "unconscious" in {e.kind for e in table.state.effects.on("ada")}

    def next_round() -> None:  # one death save per turn, at its start: round by round
        for _ in range(2):
            table.execute({"kind": "end_turn"}, GM, script.source_at)

    next_round()
    table.execute({"kind": "death_save", "creature": "ada"}, ANNA, script.source_at)
    assert table.state.fighters["ada"].death_failures == 2  # a natural 1 counts twice
    next_round()
    table.execute({"kind": "death_save", "creature": "ada"}, ANNA, script.source_at)
    assert table.state.fighters["ada"].death_successes == 1
    next_round()
    table.execute({"kind": "death_save", "creature": "ada"}, ANNA, script.source_at)
    assert table.state.fighters["ada"].hp == 1  # a natural 20: back with 1 hit point


def test_secret_monsters_are_absent_for_players() -> None:
    script = Script([10])
    table = Table(get_system("dnd5e"))
    table.execute(
        {"kind": "add_monster", "id": "spy", "monster": "rat", "position": "c3", "secret": True},
        GM,
        script.source_at,
        hidden=False,
    )
    assert [f["id"] for f in table.view(table.viewer(ANNA))["fighters"]] == []
    assert [
        f["id"]
        for f in table.view(Viewer.gm() if hasattr(Viewer, "gm") else table.viewer(GM))["fighters"]
    ] == ["spy"]
