"""Every command of the game through ``decide``/``evolve``, against hand-computed outcomes.

Dice are loaded (given in order) so each case can be worked out by hand; each refusal is
checked to leave the state unchanged.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kitties_helpers import MIA, Game

from spieltisch.dice.fair import SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import parse_command
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.magical_kitties.odds import successes, tier_odds
from spieltisch.systems.registry import get_system

ATTACK = {
    "kind": "check",
    "kitty": "mia",
    "attribute": "fierce",
    "talent": "Climbing",
    "foe": "rat",
}
CUTE = {"kind": "check", "kitty": "mia", "attribute": "cute"}


def choose(entry: str, **target: str) -> dict[str, Any]:
    return {"kind": "choose_outcome", "entry": entry, **target}


# -- creation ------------------------------------------------------------------------------


def test_new_kitty_gets_the_default_sheet(game: Game) -> None:
    mia = game.kitty()
    assert (mia.treats_value, mia.treats, mia.aua_limit, mia.level, mia.xp) == (2, 2, 2, 1, 0)
    assert mia.human.problems[0].rank == 2


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"id": "tom"}, "kitties.duplicate_id"),
        ({"id": "Big Cat"}, "kitties.bad_id"),
        ({"attributes": {"cute": 3, "cunning": 3, "fierce": 1}}, "kitties.bad_attributes"),
        ({"attributes": {"cute": 4, "cunning": 2, "fierce": 1}}, "kitties.bad_attributes"),
        ({"talents": []}, "kitties.bad_talent_count"),
        ({"powers": [{"name": "A"}, {"name": "B"}]}, "kitties.bad_power_count"),
        ({"flaw": ""}, "kitties.bad_name"),
    ],
)
def test_creation_is_validated(game: Game, change: dict[str, Any], code: str) -> None:
    error = game.fails({**MIA, "id": "new", **change})
    assert error.code == code


def test_options_change_creation_and_are_validated() -> None:
    generous = Game({"starting_treats": 3, "starting_aua_limit": 3, "creation_talents": 2})
    generous.do({**MIA, "talents": ["Climbing", "Purring"]})
    assert (generous.kitty().treats, generous.kitty().aua_limit) == (3, 3)
    with pytest.raises(RuleError) as caught:
        Game({"default_difficulty": 7})
    assert caught.value.code == "kitties.bad_option"
    assert caught.value.params["value"] == 7


# -- checks --------------------------------------------------------------------------------


def test_check_needs_a_scene() -> None:
    game = Game()
    game.do(MIA)
    assert game.fails(CUTE, [1, 2, 3]).code == "kitties.no_scene"


def test_pool_tiers_and_power_once_per_scene(game: Game) -> None:
    # Cute 3 + Climbing 1 + Teleport 2 = 6 dice against 4.
    command = {**CUTE, "talent": "Climbing", "power": "Teleport"}
    game.do(command, [4, 6, 1, 2, 3, 3])
    check = game.state.last_check
    assert check is not None and check.parts.total == 6
    assert game.system.view(game.state, GM_VIEWER)["last_check"]["tier"] == 2
    assert game.kitty().power_bonus_used
    assert game.fails(command, [1] * 6).code == "kitties.power_bonus_used"
    game.do({"kind": "end_scene"})
    game.do({"kind": "start_scene"})
    game.do(command, [6, 6, 6, 6, 1, 1])
    assert game.system.view(game.state, GM_VIEWER)["last_check"]["tier"] == 4


def test_difficulty_range_and_foe_difficulty(game: Game) -> None:
    assert game.fails({**CUTE, "difficulty": 2}).code == "kitties.bad_difficulty"
    assert game.fails({**CUTE, "difficulty": 7}).code == "kitties.bad_difficulty"
    game.do({"kind": "create_foe", "id": "boss", "name": "Boss", "difficulty": 6})
    game.do({**CUTE, "foe": "boss"}, [5, 5, 6])
    check = game.state.last_check
    assert check is not None and check.difficulty == 6
    assert game.state.foes["boss"].auas == 1  # one success (the 6) deals one Aua


def test_empty_pool_is_refused_and_rolls_nothing(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia", "count": 3})  # 2 Auas, then 1 injury
    error = game.fails({"kind": "check", "kitty": "mia", "attribute": "fierce"})
    assert (error.code, error.params["value"]) == ("kitties.pool_empty", 0)
    # The GM's modifier can still make it possible.
    game.do({"kind": "check", "kitty": "mia", "attribute": "fierce", "modifier": 1}, [2])


def test_attack_deals_an_aua_and_defeats_at_the_limit(game: Game) -> None:
    game.do(ATTACK, [5, 1])  # 1 success: at a cost, still 1 Aua
    assert game.state.foes["rat"].auas == 1
    game.do(ATTACK, [1, 1])  # failure: nothing
    assert game.state.foes["rat"].auas == 1
    game.do(ATTACK, [4, 6])
    assert game.state.foes["rat"].defeated
    assert game.fails(ATTACK, [6, 6]).code == "kitties.foe_defeated"


# -- treats: reroll, avoiding injuries, other uses ----------------------------------------


def test_reroll_chosen_dice_of_the_last_check(game: Game) -> None:
    game.do(CUTE, [1, 5, 2])
    game.do({"kind": "reroll", "dice": [0, 2]}, [6, 3])
    check = game.state.last_check
    assert check is not None
    assert (check.dice, check.rerolls) == ((6, 5, 3), 1)
    assert game.kitty().treats == 1
    assert game.fails({"kind": "reroll", "dice": [3]}).code == "kitties.bad_die_index"
    assert game.fails({"kind": "reroll", "dice": []}).code == "kitties.no_dice_chosen"
    assert game.fails({"kind": "reroll", "dice": [1, 1]}).code == "kitties.bad_die_index"
    game.do({"kind": "reroll", "dice": [2]}, [1])
    assert game.fails({"kind": "reroll", "dice": [2]}, [1]).code == "kitties.no_treats"


def test_reroll_of_an_attack_redecides_the_aua(game: Game) -> None:
    game.do(ATTACK, [4, 1])
    assert game.state.foes["rat"].auas == 1
    game.do({"kind": "reroll", "dice": [0]}, [2])  # now a failure: the Aua is taken back
    assert game.state.foes["rat"].auas == 0
    game.do({"kind": "reroll", "dice": [0, 1]}, [6, 6])
    assert game.state.foes["rat"].auas == 1  # still one Aua per check


def test_accepted_failures_earn_xp_but_not_after_a_reroll(game: Game) -> None:
    game.do(CUTE, [1, 2, 3])
    game.do({"kind": "accept_failure"})
    assert game.kitty().failures == 1
    assert game.fails({"kind": "accept_failure"}).code == "kitties.check_settled"
    assert game.fails({"kind": "reroll", "dice": [0]}, [6]).code == "kitties.check_settled"
    game.do(CUTE, [1, 2, 3])
    game.do({"kind": "reroll", "dice": [0, 1, 2]}, [1, 1, 1])
    game.do({"kind": "accept_failure"})
    assert game.kitty().failures == 1
    game.do(CUTE, [4, 2, 3])
    assert game.fails({"kind": "accept_failure"}).code == "kitties.not_a_failure"


def test_auas_become_injuries_and_a_treat_avoids_one(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia"})
    game.do({"kind": "give_aua", "kitty": "mia"})
    assert (game.kitty().auas, game.kitty().injuries) == (2, 0)
    assert game.fails({"kind": "avoid_injury", "kitty": "mia"}).code == "kitties.no_fresh_injury"
    game.do({"kind": "give_aua", "kitty": "mia", "count": 2})
    assert (game.kitty().auas, game.kitty().injuries) == (2, 2)
    game.do({"kind": "avoid_injury", "kitty": "mia"})
    assert (game.kitty().injuries, game.kitty().treats) == (1, 1)
    # Each injury is one die less: cute 3 − 1.
    game.do(CUTE, [1, 1])


def test_other_treat_uses_and_awards(game: Game) -> None:
    game.do({"kind": "spend_treat", "kitty": "mia", "purpose": "feature", "detail": "Silent"})
    game.do({"kind": "spend_treat", "kitty": "mia", "purpose": "story", "detail": "A back door"})
    assert game.kitty().treats == 0
    error = game.fails({"kind": "spend_treat", "kitty": "mia", "purpose": "story", "detail": "x"})
    assert error.code == "kitties.no_treats"
    game.do({"kind": "award_treat", "kitty": "mia", "reason": "Napped at the worst moment"})
    assert game.kitty().treats == 1


# -- injuries, incapacitation, scenes and episodes -----------------------------------------


def test_incapacitated_until_the_scene_heals_one(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia", "count": 5})  # 2 Auas, 3 injuries
    assert game.kitty().incapacitated
    error = game.fails({**CUTE, "modifier": 5})
    assert error.code == "kitties.incapacitated"
    game.do({"kind": "end_scene"})
    assert (game.kitty().injuries, game.kitty().incapacitated) == (2, False)
    game.do({"kind": "start_scene"})
    game.do({"kind": "end_scene"})  # no injury taken in this scene: nothing heals
    assert game.kitty().injuries == 2


def test_episode_start_refills_and_resets_by_choice(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia", "count": 4})  # 2 Auas, 2 injuries
    game.do({"kind": "spend_treat", "kitty": "mia", "purpose": "story", "detail": "A ladder"})
    game.do({"kind": "end_episode"})  # ends the scene: one injury heals
    game.do({"kind": "start_episode", "reset_injuries": False})
    assert (game.kitty().treats, game.kitty().auas, game.kitty().injuries) == (2, 0, 1)
    game.do({"kind": "end_episode"})
    game.do({"kind": "start_episode"})
    assert game.kitty().injuries == 0
    keep = Game({"episode_reset_auas": False})
    keep.do(MIA)
    keep.do({"kind": "give_aua", "kitty": "mia"})
    keep.do({"kind": "start_episode"})
    assert keep.kitty().auas == 1


def test_scene_and_episode_order(game: Game) -> None:
    assert game.fails({"kind": "start_scene"}).code == "kitties.scene_open"
    assert game.fails({"kind": "start_episode"}).code == "kitties.episode_open"
    game.do({"kind": "end_episode"})  # ends the open scene first
    assert not game.state.in_scene and not game.state.in_episode
    assert game.fails({"kind": "start_scene"}).code == "kitties.no_episode"
    assert game.fails({"kind": "end_scene"}).code == "kitties.no_scene"


def test_end_of_episode_xp_and_problems(game: Game) -> None:
    game.do({"kind": "add_problem", "id": "flood", "text": "The river floods", "rank": 1})
    game.do(CUTE, [1, 1, 1])
    game.do({"kind": "accept_failure"})
    game.do(CUTE, [1, 1, 1])
    game.do({"kind": "accept_failure"})
    game.do(
        {
            "kind": "end_episode",
            "saved_the_day": True,
            "fun": True,
            "lessons": ["mia"],
            "problems": [
                {"kitty": "mia", "problem": "lonely", "change": -1},
                {"problem": "flood", "change": -1},
            ],
        }
    )
    assert game.kitty().xp == 1 + 1 + 1 + 2
    assert game.kitty("tom").xp == 2
    assert game.kitty().failures == 0
    assert game.kitty().human.problems[0].rank == 1
    assert game.state.hometown == ()  # rank 0: solved and struck


def test_end_of_episode_refusals_and_cap() -> None:
    game = Game({"xp_failure_cap": 2})
    game.do(MIA)
    game.do({"kind": "start_episode"})
    game.do({"kind": "start_scene"})
    for _ in range(3):
        game.do(CUTE, [1, 1, 1])
        game.do({"kind": "accept_failure"})
    bad_change = {
        "kind": "end_episode",
        "problems": [{"kitty": "mia", "problem": "lonely", "change": 4}],
    }
    assert game.fails(bad_change).code == "kitties.bad_rank_change"
    unknown = {"kind": "end_episode", "problems": [{"problem": "nope", "change": -1}]}
    assert game.fails(unknown).code == "kitties.unknown_problem"
    assert game.fails({"kind": "end_episode", "lessons": ["rex"]}).code == "kitties.unknown_kitty"
    game.do({"kind": "end_episode"})
    assert game.kitty().xp == 2


# -- the outcome menus ---------------------------------------------------------------------


def test_complications_change_the_state(game: Game) -> None:
    game.do(CUTE, [1, 1, 1])
    game.do(choose("complication.minus_die"))
    assert game.kitty().penalty_dice == 1
    assert game.fails(choose("complication.aua")).code == "kitties.outcome_chosen"
    game.do(CUTE, [1, 2])  # 3 − 1 = 2 dice; the penalty is used up
    assert game.kitty().penalty_dice == 0
    game.do(choose("complication.aua"))
    assert game.kitty().auas == 1
    game.do(CUTE, [4, 4, 1])  # a plain success offers no menu
    error = game.fails(choose("complication.trouble"))
    assert (error.code, error.params["tier"]) == ("kitties.entry_not_for_tier", 2)


def test_bonuses_change_the_state(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "tom"})
    game.do(CUTE, [4, 5, 6])
    assert game.fails(choose("bonus.help_die", kitty="mia")).code == "kitties.needs_other_kitty"
    assert game.fails(choose("bonus.help_die")).code == "kitties.needs_kitty"
    assert game.fails(choose("super_bonus.all_dice")).code == "kitties.entry_not_for_tier"
    assert game.fails(choose("bonus.dance")).code == "kitties.unknown_entry"
    game.do(choose("bonus.help_die", kitty="tom"))
    assert game.kitty("tom").bonus_dice == 1
    game.do(CUTE, [4, 5, 6])
    game.do(choose("bonus.heal_aua", kitty="tom"))
    assert game.kitty("tom").auas == 0
    # Tom's next pool: fierce 3 + 1 bonus die.
    game.do({"kind": "check", "kitty": "tom", "attribute": "fierce"}, [1, 1, 1, 1])
    assert game.kitty("tom").bonus_dice == 0


def test_super_bonuses_change_the_state(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia", "count": 3})
    game.do({"kind": "give_aua", "kitty": "tom"})
    game.do({**CUTE, "modifier": 3}, [6, 6, 6, 6, 1])  # 3 − 1 injury + 3 = 5 dice
    game.do(choose("super_bonus.heal_injury"))
    assert game.kitty().injuries == 0
    game.do({**CUTE, "modifier": 1}, [6, 6, 6, 6])
    game.do(choose("super_bonus.all_heal_aua"))
    assert (game.kitty().auas, game.kitty("tom").auas) == (1, 0)
    game.do({**CUTE, "modifier": 1}, [6, 6, 6, 6])
    game.do(choose("super_bonus.all_dice"))
    assert (game.kitty().bonus_dice, game.kitty("tom").bonus_dice) == (1, 1)
    game.do({**ATTACK, "modifier": 1}, [6, 6, 6, 6])  # 1 + 1 + 1 + 1 bonus die
    game.do(choose("super_bonus.foe_extra_aua"))  # the attacked rat by default
    assert game.state.foes["rat"].defeated
    game.do({**CUTE, "modifier": 1}, [6, 6, 6, 6])
    game.do(choose("super_bonus.free_treat"))
    assert game.kitty().free_treats == 1
    game.do(CUTE, [1, 1, 1])
    game.do({"kind": "reroll", "dice": [0]}, [2])  # uses the free effect first
    assert (game.kitty().free_treats, game.kitty().treats) == (0, 2)


def test_events_replay_to_the_same_state(game: Game) -> None:
    game.do(ATTACK, [4, 1])
    game.do({"kind": "reroll", "dice": [1]}, [6])
    game.do({"kind": "give_aua", "kitty": "tom", "count": 3})
    game.do({"kind": "end_episode", "saved_the_day": True})
    assert game.replayed() == game.state


# -- contract: access, odds, public state --------------------------------------------------


def test_access(game: Game) -> None:
    system = game.system

    def access(command: dict[str, Any]) -> tuple[bool, str | None, bool]:
        found = system.access(game.state, parse_command(system, command))
        return found.gm_only, found.piece, found.claims

    assert access({**MIA, "id": "kim"}) == (False, "kim", True)
    assert access(CUTE) == (False, "mia", False)
    assert access({"kind": "give_aua", "kitty": "mia"}) == (True, None, False)
    assert access({"kind": "award_treat", "kitty": "mia"}) == (True, None, False)
    assert access({"kind": "start_scene"}) == (True, None, False)
    game.do(CUTE, [4, 5, 6])
    assert access({"kind": "reroll", "dice": [0]}) == (False, "mia", False)
    assert access(choose("bonus.second_goal")) == (False, "mia", False)
    assert access(choose("complication.aua")) == (True, None, False)


def test_odds_of_a_check_and_a_reroll(game: Game) -> None:
    odds = game.system.odds(game.state, parse_command(game.system, {**CUTE, "talent": "Climbing"}))
    assert odds is not None
    expected = tier_odds(4, 4)
    assert [o.exact for o in odds.outcomes] == [
        f"{v.numerator}/{v.denominator}" for v in expected.values()
    ]
    assert odds.mean == pytest.approx(2.0)
    with pytest.raises(RuleError):
        game.system.odds(game.state, parse_command(game.system, {**CUTE, "difficulty": 9}))
    game.do(CUTE, [6, 1, 1])
    reroll = game.system.odds(
        game.state, parse_command(game.system, {"kind": "reroll", "dice": [1, 2]})
    )
    assert reroll is not None
    fresh = successes(2, 4)  # one kept success plus two fresh dice
    assert [Fraction(o.exact or "0") for o in reroll.outcomes] == [0, *fresh, 0]
    assert game.system.odds(game.state, parse_command(game.system, {"kind": "end_scene"})) is None


def test_reroll_odds_follow_the_table_option() -> None:
    game = Game({"reroll_want": 3})
    game.do(MIA)
    game.do({"kind": "start_episode"})
    game.do({"kind": "start_scene"})
    command = parse_command(game.system, CUTE)
    odds = game.system.reroll_odds(game.state, command)
    assert odds is not None
    expected = tier_odds(3, 4, reroll=True, want=3)
    assert [Fraction(o.exact or "0") for o in odds.outcomes] == list(expected.values())
    assert expected != tier_odds(3, 4, reroll=True, want=2)
    end = parse_command(game.system, {"kind": "end_scene"})
    assert game.system.reroll_odds(game.state, end) is None


def test_problem_ranks_are_validated(game: Game) -> None:
    error = game.fails({"kind": "add_problem", "id": "x", "text": "Storm", "rank": 0})
    assert (error.code, error.params["value"]) == ("kitties.bad_value", 0)
    error = game.fails({"kind": "add_problem", "kitty": "mia", "id": "lonely", "text": "Again"})
    assert error.code == "kitties.duplicate_id"


def test_public_state_is_json_and_complete(game: Game) -> None:
    game.do(ATTACK, [4, 6])
    public = game.system.view(game.state, GM_VIEWER)
    assert json.loads(json.dumps(public)) == public
    mia = next(k for k in public["kitties"] if k["id"] == "mia")
    assert (mia["xp_needed"], mia["can_level_up"], mia["incapacitated"]) == (5, False, False)
    check = public["last_check"]
    assert (check["pool"], check["successes"], check["tier"], check["hits"]) == (
        2,
        2,
        2,
        [True, True],
    )
    assert check["menu"] is None and check["can_reroll"] and not check["can_accept"]
    assert public["foes"][0]["auas"] == 1


def test_level_up_effects() -> None:
    game = Game({"xp_per_level": [1, 1, 1, 1, 1, 1, 1, 1, 1]})
    game.do(MIA)
    edit = {"kind": "edit_kitty", "kitty": "mia", "changes": {"xp": 1}}
    ups = [
        {"list": "levels_2_4", "entry": "bonus_feature", "power": "teleport", "name": "Far"},
        {"list": "levels_2_4", "entry": "attribute", "attribute": "fierce"},
        {"list": "levels_2_4", "entry": "aua_limit"},
        {"list": "levels_5_7", "entry": "talent", "name": "Sewing"},
        {"list": "levels_2_4", "entry": "treats"},
        {"list": "levels_5_7", "entry": "attribute", "attribute": "cute"},
        {"list": "levels_8_10", "entry": "power", "name": "Glow"},
        {"list": "levels_8_10", "entry": "aua_limit"},
        {"list": "levels_5_7", "entry": "treats"},
    ]
    for up in ups:
        game.do(edit)
        game.do({"kind": "level_up", "kitty": "mia", **up})
        assert game.kitty().xp == 0
    mia = game.kitty()
    assert mia.level == 10
    assert mia.powers[0].features == ("Far",)
    assert [p.name for p in mia.powers] == ["Teleport", "Glow"]
    assert (mia.attributes.fierce, mia.attributes.cute) == (2, 4)
    assert (mia.aua_limit, mia.treats_value, mia.talents) == (4, 4, ("Climbing", "Sewing"))
    game.do(edit)
    error = game.fails(
        {"kind": "level_up", "kitty": "mia", "list": "levels_8_10", "entry": "treats"}
    )
    assert error.code == "kitties.max_level"


def test_level_up_keeps_extra_xp_only_when_asked() -> None:
    for carry, left in ((False, 0), (True, 2)):
        game = Game({"xp_carry_over": carry})
        game.do(MIA)
        game.do({"kind": "edit_kitty", "kitty": "mia", "changes": {"xp": 7}})
        game.do({"kind": "level_up", "kitty": "mia", "list": "levels_2_4", "entry": "aua_limit"})
        assert (game.kitty().level, game.kitty().xp) == (2, left)


def test_edit_kitty_is_validated(game: Game) -> None:
    bad = {"kind": "edit_kitty", "kitty": "mia", "changes": {"auas": 3}}
    assert game.fails(bad).code == "kitties.bad_value"
    assert game.fails({"kind": "edit_kitty", "kitty": "mia", "changes": {}}).code == (
        "kitties.nothing_to_edit"
    )
    game.do({"kind": "edit_kitty", "kitty": "mia", "changes": {"name": "Mimi", "treats": 5}})
    assert (game.kitty().name, game.kitty().treats) == ("Mimi", 5)


def test_unknown_command_parts_are_rule_errors() -> None:
    system = get_system("magical-kitties")
    with pytest.raises(RuleError) as caught:
        parse_command(system, {"kind": "check", "kitty": "mia", "attribute": "charm"})
    assert caught.value.code == "rule.bad_command"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)
KINDS = sorted(
    {
        "create_kitty",
        "edit_kitty",
        "create_foe",
        "add_problem",
        "start_episode",
        "end_episode",
        "start_scene",
        "end_scene",
        "check",
        "reroll",
        "accept_failure",
        "choose_outcome",
        "give_aua",
        "avoid_injury",
        "spend_treat",
        "award_treat",
        "level_up",
        "nonsense",
    }
)
FIELDS = [
    "kitty",
    "attribute",
    "dice",
    "entry",
    "count",
    "id",
    "name",
    "difficulty",
    "foe",
    "modifier",
    "list",
    "purpose",
    "detail",
    "changes",
    "talent",
    "power",
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(KINDS), st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=5))
def test_any_json_command_parses_or_is_refused_cleanly(kind: str, fields: dict[str, Any]) -> None:
    game = Game()
    game.do(MIA)
    game.do({"kind": "start_episode"})
    game.do({"kind": "start_scene"})
    before = game.state
    try:
        command = parse_command(game.system, {"kind": kind, **fields})
    except RuleError as error:
        assert error.code == "rule.bad_command"
        return
    try:
        game.system.decide(game.state, command, SeededSource(7))
    except RuleError as error:
        assert error.code.startswith(("kitties.", "rule."))
    assert game.state == before


def test_evolve_refuses_imported_events_that_break_the_rules() -> None:
    game = Game()
    good = game.system.events.validate_python(
        {
            "kind": "kitty_created",
            "kitty": {
                "id": "max",
                "name": "Max",
                "attributes": {"cute": 4, "cunning": 4, "fierce": 4},
                "talents": ["A"],
                "powers": [{"name": "B"}],
                "flaw": "C",
                "treats_value": 2,
                "treats": 2,
                "aua_limit": 2,
            },
        }
    )
    with pytest.raises(RuleError) as caught:
        game.system.evolve(game.state, good)
    assert caught.value.code == "kitties.bad_attributes"
    rolled = game.system.events.validate_python(
        {
            "kind": "check_rolled",
            "check": 1,
            "kitty": "mia",
            "attribute": "cute",
            "difficulty": 4,
            "dice": [6],
        }
    )
    game.do(MIA)
    game.do({"kind": "start_episode"})
    game.do({"kind": "start_scene"})
    with pytest.raises(RuleError) as caught:
        game.system.evolve(game.state, rolled)  # cute 3 needs three dice
    assert caught.value.code == "kitties.dice_mismatch"
