"""A scripted fight through the table, hand-computed, and replayed from its events."""

from __future__ import annotations

from typing import Any

import pytest
from hexxen_helpers import ADA, WOLF, Script

from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)

# (actor, command, dice it rolls)
FIGHT: list[tuple[Actor, dict[str, Any], list[int]]] = [
    (ANNA, ADA, []),
    (GM, WOLF, []),
    (GM, {"kind": "start_fight"}, []),
    (GM, {"kind": "set_bound", "target": "wolf", "bound": True, "other": "ada"}, []),
    # Wolf: 4 M dice 1,5,2,6 -> 3 (the star face counts for the GM). Ada parries with
    # GES 3 + Parieren 2 = 5 H dice 5,1,2,3,4 -> 1 success (the star does not count).
    # Margin 2 -> hit: Schaden 3 + 2 - armour 1 = 4 LeP.
    (
        GM,
        {
            "kind": "npc_attack",
            "npc": "wolf",
            "attack": "Klauenhieb",
            "target": "ada",
            "defense": "parry",
        },
        [1, 5, 2, 6, 5, 1, 2, 3, 4],
    ),
    # Terrorwelle: 3 M dice 6,6,4 -> 2; Ada WIL 2 + Geistesstärke 3 = 5 dice 1,2,3,4,2 -> 0.
    # 2 Differenzerfolge -> 2 Malusstufen; 1 Hex for the one target.
    (
        GM,
        {"kind": "npc_power", "npc": "wolf", "power": "Terrorwelle", "targets": ["ada"]},
        [6, 6, 4, 1, 2, 3, 4, 2],
    ),
    (GM, {"kind": "apply_effect", "target": "ada", "effect": "outer_damage", "level": 2}, []),
    (GM, {"kind": "next_turn"}, []),
    # Ada: KKR 3 + Nahkampf 3 = 6 dice 5,6,5,1,2,3 -> 3 successes, 1 star; malus 2 (her
    # Malusstufen) -> 2 Janus dice 4,1 -> 1 symbol -> total 2. Pays 2 Ap.
    (
        ANNA,
        {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf", "ap": 2},
        [5, 6, 5, 1, 2, 3, 4, 1],
    ),
    # Round end: outer damage 2 ticks 4 LeP in INI 0, falls to 1. The Malusstufen [Furcht]
    # decay by an Abbau check: Ada's 5 Geistesstärke dice 1,2,3,4,2 -> 0, two Janus dice
    # (malus 2) 1,1 -> nothing removed.
    (ANNA, {"kind": "next_turn"}, [1, 2, 3, 4, 2, 1, 1]),
    (GM, {"kind": "next_turn"}, []),
    # Second round end: 2 LeP, the effect ends; the Abbau check 5,2,3,4,2 -> 1 success,
    # Janus 4,1 -> one symbol removed: 0 again.
    (ANNA, {"kind": "next_turn"}, [5, 2, 3, 4, 2, 4, 1]),
]


def _play() -> Table:
    dice = [value for _, _, rolled in FIGHT for value in rolled]
    script = Script(dice)
    table = Table(get_system("hexxen"))
    for actor, command, _ in FIGHT:
        table.execute(command, actor, script.source_at)
    return table


def test_the_fight_comes_out_as_hand_computed() -> None:
    table = _play()
    state = table.state
    ada, wolf = state.hunters["ada"], state.npcs["wolf"]
    assert ada.lep.maximum == 12
    assert ada.ini == 5
    assert ada.lep.current == 12 - 4 - 4 - 2
    assert wolf.hex.maximum == 2  # 2 per Jz, one hunter
    assert wolf.hex.current == 1
    assert wolf.widernatuerlich and wolf.properties == ("Rudeltier",)
    levels = {(e.kind, e.target): e.level for e in state.effects.items}
    assert levels == {("malus[Furcht]", "ada"): 2}  # the tag names the condition
    assert state.encounter is not None and state.encounter.round == 3
    assert state.encounter.current == "wolf"
    assert int(state.budgets["ada"].left["ap"]) == 6
    events = [event for record in table.records for event in record.events]
    ticks = [e for e in events if e["kind"] == "effect_ticked"]
    assert [(t["amount"], t["level"], t["round"]) for t in ticks] == [(4, 2, 1), (2, 1, 2)]
    attack = next(e for e in events if e["kind"] == "attack_rolled")
    assert (attack["roll"]["total"], attack["defense_roll"]["total"]) == (3, 1)
    assert (attack["margin"], attack["lep_lost"]) == (2, 4)
    check = next(e for e in events if e["kind"] == "check_rolled")
    roll = check["roll"]
    assert (roll["successes"], roll["stars"], roll["janus_symbols"], roll["total"]) == (3, 1, 1, 2)


def test_the_fight_replays_from_its_events() -> None:
    table = _play()
    system = get_system("hexxen")
    assert replay_log(system, {}, table.records).ok
    state = system.new_state({})
    for record in table.records:
        for event in record.events:
            state = system.evolve(state, system.events.validate_python(event))
    assert state == table.state
    rebuilt = Table(system, {}, table.records)
    assert rebuilt.state == table.state


def test_melee_needs_bound_and_ranged_needs_free() -> None:
    dice = [value for _, _, rolled in FIGHT[:3] for value in rolled]
    script = Script(dice + [6] * 40)
    table = Table(get_system("hexxen"))
    for actor, command, _ in FIGHT[:3]:
        table.execute(command, actor, script.source_at)
    attack = {"kind": "npc_attack", "npc": "wolf", "attack": "Klauenhieb", "target": "ada"}
    with pytest.raises(RuleError) as refused:
        table.execute(attack, GM, script.source_at)
    assert refused.value.code == "hexxen.needs_bound"


def test_a_defence_without_ap_is_refused() -> None:
    table = _play()
    script = Script([6] * 400)
    for _ in range(6):
        table.execute(
            {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf", "ap": 1},
            ANNA,
            script.source_at,
        )
    table.execute(
        {"kind": "set_bound", "target": "wolf", "bound": True, "other": "ada"}, GM, script.source_at
    )
    parry = {
        "kind": "npc_attack",
        "npc": "wolf",
        "attack": "Klauenhieb",
        "target": "ada",
        "defense": "parry",
    }
    with pytest.raises(RuleError) as refused:
        table.execute(parry, GM, script.source_at)
    assert refused.value.code == "hexxen.no_ap_for_defense"
    before = table.seq
    table.execute({**parry, "defense": "none"}, GM, script.source_at)
    assert table.seq == before + 1
