"""What the web table plays: a declared attack the hunter answers, sheets corrected, tokens
on the battle map, and what the view shows of it (choices, the coming INI-0 phase)."""

from __future__ import annotations

from typing import Any

import pytest
from hexxen_helpers import ADA, WOLF, Script

from spieltisch.engine.errors import RuleError
from spieltisch.engine.replay import replay_log
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.visibility import Viewer
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
BEN = Actor(id="ben", role=Role.PLAYER)
BO: dict[str, Any] = {**ADA, "id": "bo", "name": "Bo"}
DECLARE: dict[str, Any] = {
    "kind": "declare_attack",
    "npc": "wolf",
    "attack": "Klauenhieb",
    "target": "ada",
}


def _fight(script: Script) -> Table:
    table = Table(get_system("hexxen"))
    for actor, command in (
        (ANNA, ADA),
        (GM, WOLF),
        (GM, {"kind": "start_fight"}),
        (GM, {"kind": "set_bound", "target": "wolf", "bound": True, "other": "ada"}),
    ):
        table.execute(command, actor, script.source_at)
    return table


def test_a_declared_attack_waits_for_the_parry_and_comes_out_as_hand_computed() -> None:
    # Wolf 4 M dice 1,5,2,6 -> 3; Ada parries with 5 H dice 5,1,2,3,4 -> 1. Margin 2:
    # Schaden 3 + 2 - armour 1 = 4 LeP, 1 Ap for the parry, 1 Handlung for the wolf.
    table = _fight(Script([1, 5, 2, 6, 5, 1, 2, 3, 4]))
    table.execute(DECLARE, GM, Script([]).source_at)
    state = table.state
    assert state.pending is not None and state.hunters["ada"].lep.current == 12
    shown = get_system("hexxen").view(state, Viewer(role=Role.PLAYER, participant="anna"))
    pending = shown["fight"]["pending"]
    assert (pending["dice"], pending["damage"], pending["target"]) == (4, 3, "ada")
    choices = {c["defense"]: c for c in pending["choices"]}
    assert choices["parry"]["dice"] == 5 and choices["parry"]["allowed"]
    assert choices["dodge"]["dice"] == 2  # ATH 2 + Ausweichen 0
    with pytest.raises(RuleError) as refused:
        table.execute({"kind": "next_turn"}, GM, Script([]).source_at)
    assert refused.value.code == "hexxen.attack_pending"
    assert refused.value.params["value"] == "Ada"
    table.execute(
        {"kind": "defend", "hunter": "ada", "defense": "parry"},
        ANNA,
        Script([1, 5, 2, 6, 5, 1, 2, 3, 4]).source_at,
    )
    state = table.state
    assert state.pending is None
    assert state.hunters["ada"].lep.current == 8
    assert int(state.budgets["ada"].left["ap"]) == 5
    assert int(state.budgets["wolf"].left["handlungen"]) == 1
    rolled = table.records[-1].events[0]
    assert (rolled["roll"]["total"], rolled["defense_roll"]["total"], rolled["lep_lost"]) == (
        3,
        1,
        4,
    )
    assert replay_log(get_system("hexxen"), {}, table.records).ok


def test_only_the_attacked_hunters_player_answers() -> None:
    table = _fight(Script([6] * 40))
    table.execute(BO, BEN, Script([]).source_at)
    table.execute(DECLARE, GM, Script([]).source_at)
    with pytest.raises(RuleError) as refused:
        table.execute({"kind": "defend", "hunter": "bo"}, BEN, Script([6] * 20).source_at)
    assert refused.value.code == "hexxen.not_attacked"
    with pytest.raises(RuleError) as forbidden:
        table.execute({"kind": "defend", "hunter": "ada"}, BEN, Script([6] * 20).source_at)
    assert forbidden.value.code == "rule.forbidden"
    with pytest.raises(RuleError) as twice:
        table.execute(DECLARE, GM, Script([]).source_at)
    assert twice.value.code == "hexxen.attack_pending"


def test_without_an_attack_there_is_nothing_to_answer() -> None:
    table = _fight(Script([]))
    with pytest.raises(RuleError) as refused:
        table.execute({"kind": "defend", "hunter": "ada"}, ANNA, Script([]).source_at)
    assert refused.value.code == "hexxen.no_attack_pending"


def test_the_choices_say_when_the_ap_are_spent() -> None:
    script = Script([6] * 400)
    table = _fight(script)
    for _ in range(6):
        table.execute(
            {"kind": "hunter_check", "hunter": "ada", "skill": "Nahkampf", "ap": 1},
            ANNA,
            script.source_at,
        )
    table.execute(DECLARE, GM, Script([]).source_at)
    shown = get_system("hexxen").view(table.state, Viewer(role=Role.GM))
    choices = {c["defense"]: c for c in shown["fight"]["pending"]["choices"]}
    assert not choices["parry"]["allowed"]
    assert choices["parry"]["reason"] == "hexxen.no_ap_for_defense"
    assert choices["none"]["allowed"]
    with pytest.raises(RuleError) as refused:
        table.execute(
            {"kind": "defend", "hunter": "ada", "defense": "parry"},
            ANNA,
            script.source_at,
        )
    assert refused.value.code == "hexxen.no_ap_for_defense"
    assert refused.value.params["hunter"] == "Ada"


def test_the_odds_of_each_defence_are_those_of_the_attack() -> None:
    table = _fight(Script([]))
    table.execute(DECLARE, GM, Script([]).source_at)
    system = get_system("hexxen")
    for defense in ("none", "parry", "dodge"):
        answer = system.odds(
            table.state,
            system.commands.validate_python(
                {"kind": "defend", "hunter": "ada", "defense": defense}
            ),
        )
        direct = system.odds(
            table.state,
            system.commands.validate_python(
                {
                    "kind": "npc_attack",
                    "npc": "wolf",
                    "attack": "Klauenhieb",
                    "target": "ada",
                    "defense": defense,
                }
            ),
        )
        assert answer == direct
    # No defence: the margin is the wolf's 4 M dice alone, P(0) = (1/2)^4.
    plain = system.odds(
        table.state,
        system.commands.validate_python({"kind": "defend", "hunter": "ada"}),
    )
    assert plain is not None
    zero = next(o for o in plain.outcomes if o.value == 0)
    assert zero.exact == "1/16"


def test_a_corrected_sheet_derives_lep_and_ini_again() -> None:
    table = Table(get_system("hexxen"))
    table.execute(ADA, ANNA, Script([]).source_at)
    table.execute({"kind": "change_lep", "target": "ada", "amount": -4}, GM, Script([]).source_at)
    table.execute(
        {
            "kind": "edit_hunter",
            "hunter": "ada",
            "name": "Ada von Eck",
            "attributes": {"KKR": 4, "SIN": 3},
            "reflexe": 1,
        },
        ANNA,
        Script([]).source_at,
    )
    ada = table.state.hunters["ada"]
    assert ada.name == "Ada von Eck"
    assert (ada.lep.maximum, ada.lep.current) == (13, 9)  # 7 + 4 + 2; 4 lost stay lost
    assert ada.ini == 3 + 3 + 1
    assert ada.attributes["GES"] == 3
    with pytest.raises(RuleError) as forbidden:
        table.execute(
            {"kind": "edit_hunter", "hunter": "ada", "armour": 3}, BEN, Script([]).source_at
        )
    assert forbidden.value.code == "rule.forbidden"


def test_tokens_stand_on_free_squares_of_the_map() -> None:
    table = _fight(Script([]))
    run = Script([]).source_at
    table.execute({"kind": "place", "target": "ada", "to": "b2"}, ANNA, run)
    table.execute({"kind": "place", "target": "wolf", "to": "C2"}, GM, run)
    assert table.state.positions == {"ada": "b2", "wolf": "c2"}
    with pytest.raises(RuleError) as taken:
        table.execute({"kind": "place", "target": "ada", "to": "c2"}, ANNA, run)
    assert (taken.value.code, taken.value.params["name"]) == ("hexxen.square_taken", "Werwolf")
    with pytest.raises(RuleError) as off:
        table.execute({"kind": "place", "target": "ada", "to": "z9"}, ANNA, run)
    assert off.value.code == "toolkit.grid.off_grid"
    with pytest.raises(RuleError) as forbidden:
        table.execute({"kind": "place", "target": "wolf", "to": "d4"}, ANNA, run)
    assert forbidden.value.code == "rule.forbidden"
    with pytest.raises(RuleError) as small:
        table.execute({"kind": "set_map", "width": 2, "height": 2}, GM, run)
    assert small.value.code == "hexxen.map_too_small"
    table.execute({"kind": "set_map", "width": 6, "height": 5}, GM, run)
    shown = get_system("hexxen").view(table.state, Viewer(role=Role.PLAYER, participant="anna"))
    assert shown["map"] == {"width": 6, "height": 5}
    assert shown["hunters"][0]["position"] == "b2"
    assert shown["npcs"][0]["position"] == "c2" and shown["npcs"][0]["bound"]


def test_the_view_names_the_ticks_of_the_coming_ini0_phase() -> None:
    table = _fight(Script([]))
    run = Script([]).source_at
    table.execute(
        {"kind": "apply_effect", "target": "ada", "effect": "outer_damage", "level": 3}, GM, run
    )
    table.execute({"kind": "apply_effect", "target": "ada", "effect": "malus", "level": 1}, GM, run)
    shown = get_system("hexxen").view(table.state, Viewer(role=Role.PLAYER, participant="anna"))
    assert shown["fight"]["ini0"] == [
        {"target": "ada", "effect": "outer_damage", "level": 3, "amount": 6, "decay": "auto"}
    ]
    assert shown["hunters"][0]["ap_per_round"] == 6
    assert not shown["hunters"][0]["defeated"]


def test_a_secret_nsc_and_its_attack_stay_out_of_the_players_view() -> None:
    table = _fight(Script([]))
    run = Script([]).source_at
    secret = {**WOLF, "id": "shade", "name": "Schatten", "secret": True}
    records = table.execute(secret, GM, run)
    assert records[0].hidden
    table.execute({"kind": "place", "target": "shade", "to": "e5"}, GM, run, hidden=True)
    table.execute({"kind": "place", "target": "wolf", "to": "e4"}, GM, run)
    system = get_system("hexxen")
    player = Viewer(role=Role.PLAYER, participant="anna")
    shown = table.view(player)
    assert [n["id"] for n in shown["npcs"]] == ["wolf"]
    assert "shade" not in str(shown) and "Schatten" not in str(shown)
    gm_view = system.view(table.state_for(Viewer(role=Role.GM)), Viewer(role=Role.GM))
    assert {n["id"] for n in gm_view["npcs"]} == {"wolf", "shade"}


def test_refusals_name_hunters_and_nsc_by_their_names() -> None:
    table = _fight(Script([]))
    with pytest.raises(RuleError) as no_line:
        table.execute({**DECLARE, "attack": "Biss"}, GM, Script([]).source_at)
    assert no_line.value.code == "hexxen.unknown_attack"
    assert (no_line.value.params["npc"], no_line.value.params["value"]) == ("Werwolf", "Biss")
    remove = {"kind": "remove_effect", "target": "ada", "effect": "malus"}
    with pytest.raises(RuleError) as no_effect:
        table.execute(remove, GM, Script([]).source_at)
    assert (no_effect.value.code, no_effect.value.params["target"]) == ("hexxen.no_effect", "Ada")
