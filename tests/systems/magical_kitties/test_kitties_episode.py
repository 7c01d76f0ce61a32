"""A scripted episode through the shared table (GM and players), replayed, exported, undone.

Creation → scenes with checks, a treat reroll, Auas, an avoided injury, menu choices and
accepted failures → end of the episode → level-up. The same commands played directly through
``decide``/``evolve`` give the same sheets, and so does re-folding the table's exported log.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kitties_helpers import MIA, TOM, Game, LoadedDice

from spieltisch.dice.fair import DiceSource, SeededSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Record, Role, Table
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
ANNA = Actor(id="anna", role=Role.PLAYER)
BEN = Actor(id="ben", role=Role.PLAYER)


class Script:
    """All dice of a session in order; the table positions it at each command's first draw."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def source_at(self, index: int) -> DiceSource:
        return LoadedDice(self.values[index:])


# (actor, command, dice rolled by it)
EPISODE: list[tuple[Actor, dict[str, Any], list[int]]] = [
    (ANNA, MIA, []),
    (BEN, TOM, []),
    (GM, {"kind": "add_problem", "id": "flood", "text": "The river floods", "rank": 2}, []),
    (GM, {"kind": "start_episode"}, []),
    (GM, {"kind": "start_scene"}, []),
    (GM, {"kind": "create_foe", "id": "rat", "name": "Rat King"}, []),
    # Mia: cute 3 + talent 1 + power 2 = 6 dice, three successes → a bonus for Tom.
    (
        ANNA,
        {
            "kind": "check",
            "kitty": "mia",
            "attribute": "cute",
            "talent": "Climbing",
            "power": "Teleport",
        },
        [6, 6, 4, 2, 1, 1],
    ),
    (ANNA, {"kind": "choose_outcome", "entry": "bonus.help_die", "kitty": "tom"}, []),
    # Tom attacks: fierce 3 + talent 1 + bonus die 1 = 5 dice, all miss; a treat rerolls two.
    (
        BEN,
        {
            "kind": "check",
            "kitty": "tom",
            "attribute": "fierce",
            "talent": "Pouncing",
            "foe": "rat",
        },
        [1, 2, 3, 1, 2],
    ),
    (BEN, {"kind": "reroll", "dice": [0, 2]}, [5, 6]),
    # The rat bites back: 3 Auas, the third an injury, which Tom avoids with his last treat.
    (GM, {"kind": "give_aua", "kitty": "tom", "count": 3}, []),
    (BEN, {"kind": "avoid_injury", "kitty": "tom"}, []),
    # Mia fails twice and accepts it; the GM adds an Aua as the complication.
    (ANNA, {"kind": "check", "kitty": "mia", "attribute": "cunning"}, [1, 3]),
    (ANNA, {"kind": "accept_failure"}, []),
    (GM, {"kind": "choose_outcome", "entry": "complication.aua"}, []),
    (ANNA, {"kind": "check", "kitty": "mia", "attribute": "cunning"}, [2, 2]),
    (ANNA, {"kind": "accept_failure"}, []),
    (GM, {"kind": "award_treat", "kitty": "mia", "reason": "Fell asleep on guard"}, []),
    (GM, {"kind": "end_scene"}, []),
    (GM, {"kind": "start_scene"}, []),
    # Mia finishes the rat: fierce 1 die, one success, the rat reaches its limit.
    (ANNA, {"kind": "check", "kitty": "mia", "attribute": "fierce", "foe": "rat"}, [4]),
    (
        GM,
        {
            "kind": "end_episode",
            "saved_the_day": True,
            "fun": True,
            "lessons": ["mia"],
            "problems": [
                {"kitty": "mia", "problem": "lonely", "change": -1},
                {"problem": "flood", "change": 1},
            ],
        },
        [],
    ),
    (
        ANNA,
        {
            "kind": "level_up",
            "kitty": "mia",
            "list": "levels_2_4",
            "entry": "attribute",
            "attribute": "fierce",
        },
        [],
    ),
]


EPISODE_DICE = [value for _, _, dice in EPISODE for value in dice]


def play_table() -> Table:
    script = Script(EPISODE_DICE)
    table = Table(get_system("magical-kitties"))
    for actor, command, _ in EPISODE:
        table.execute(command, actor, script.source_at)
    return table


def play_direct() -> Game:
    game = Game()
    for _, command, dice in EPISODE:
        game.do(command, dice)
    return game


def test_the_episode_ends_with_the_hand_computed_sheets() -> None:
    state = play_table().state
    mia, tom = state.kitties["mia"], state.kitties["tom"]
    # Mia: saved the day, fun, lesson, two accepted failures = 5 XP → level 2, XP back to 0.
    assert (mia.level, mia.xp, mia.attributes.fierce) == (2, 0, 2)
    assert mia.picks[0].entry == "attribute"
    assert (mia.auas, mia.injuries, mia.treats) == (1, 0, 3)
    assert mia.human.problems[0].rank == 1
    # Tom: two answers = 2 XP; Auas 2, the injury avoided, both treats spent.
    assert (tom.level, tom.xp, tom.auas, tom.injuries, tom.treats) == (1, 2, 2, 0, 0)
    assert state.foes["rat"].defeated
    assert state.hometown[0].rank == 3
    assert (state.episode, state.in_episode, state.scene, state.checks) == (1, False, 2, 5)


def test_direct_play_and_replay_give_the_same_sheets() -> None:
    table = play_table()
    direct = play_direct()
    assert direct.state == table.state
    assert direct.replayed() == table.state
    exported = json.loads(json.dumps([r.model_dump(mode="json") for r in table.records]))
    again = Table(
        get_system("magical-kitties"), records=[Record.model_validate(r) for r in exported]
    )
    assert again.state == table.state
    assert table.owners() == {"mia": "anna", "tom": "ben"}


def test_players_act_only_for_their_own_kitties() -> None:
    table = play_table()
    script = Script([*EPISODE_DICE, *[6] * 10])
    table.execute({"kind": "start_episode"}, GM, script.source_at)
    table.execute({"kind": "start_scene"}, GM, script.source_at)
    seq = table.seq
    for actor, command in [
        (BEN, {"kind": "check", "kitty": "mia", "attribute": "cute"}),
        (ANNA, {"kind": "give_aua", "kitty": "tom"}),
        (ANNA, {"kind": "end_scene"}),
        (ANNA, {"kind": "award_treat", "kitty": "mia"}),
    ]:
        with pytest.raises(RuleError) as caught:
            table.execute(command, actor, script.source_at)
        assert caught.value.code == "rule.forbidden"
    table.execute({"kind": "check", "kitty": "mia", "attribute": "cute"}, ANNA, script.source_at)
    with pytest.raises(RuleError) as caught:
        table.execute(
            {"kind": "choose_outcome", "entry": "super_bonus.all_dice"}, BEN, script.source_at
        )
    assert caught.value.code == "rule.forbidden"
    assert table.seq == seq + 1


def test_undo_of_a_check() -> None:
    table = play_table()
    script = Script([*EPISODE_DICE, 1, 1, 1, 6, 6, 6, 6])
    table.execute({"kind": "start_episode"}, GM, script.source_at)
    table.execute({"kind": "start_scene"}, GM, script.source_at)
    before = table.state
    [check] = table.execute(
        {"kind": "check", "kitty": "mia", "attribute": "cute"}, ANNA, script.source_at
    )
    assert table.state.last_check is not None and table.state.checks == before.checks + 1
    [reroll] = table.execute({"kind": "reroll", "dice": [0]}, ANNA, script.source_at)
    # The reroll builds on the check: undoing the check alone is refused.
    with pytest.raises(RuleError) as caught:
        table.undo(check.seq, GM)
    assert caught.value.code == "table.undo_dependent"
    table.undo(reroll.seq, GM)
    assert table.state.kitties["mia"].treats == 2
    table.undo(check.seq, GM)
    assert table.state == before
    with pytest.raises(RuleError) as caught:
        table.undo(check.seq, ANNA)
    assert caught.value.code == "rule.forbidden"


# -- invariants under arbitrary play -------------------------------------------------------

KITTIES = ["mia", "tom"]
TALENTS = {"mia": "Climbing", "tom": "Pouncing"}
CHECKS = st.builds(
    lambda k, a, d, f, m, talent: {
        "kind": "check",
        "kitty": k,
        "attribute": a,
        "difficulty": d,
        "foe": f,
        "modifier": m,
        "talent": TALENTS[k] if talent else None,
    },
    st.sampled_from(KITTIES),
    st.sampled_from(["cute", "cunning", "fierce"]),
    st.sampled_from([3, 4, 4, 5, 6, 7]),
    st.sampled_from([None, "rat"]),
    st.integers(-1, 3),
    st.booleans(),
)
FOLLOW_UPS = st.one_of(
    st.builds(lambda ds: {"kind": "reroll", "dice": ds}, st.lists(st.integers(-1, 4), max_size=3)),
    st.just({"kind": "accept_failure"}),
    st.builds(
        lambda e, k: {"kind": "choose_outcome", "entry": e, "kitty": k},
        st.sampled_from(
            [
                "complication.aua",
                "complication.minus_die",
                "bonus.help_die",
                "bonus.heal_aua",
                "super_bonus.all_dice",
                "super_bonus.heal_injury",
                "super_bonus.free_treat",
                "super_bonus.all_heal_aua",
                "super_bonus.foe_extra_aua",
            ]
        ),
        st.sampled_from([None, *KITTIES]),
    ),
)
OTHERS = st.one_of(
    st.builds(
        lambda k, n: {"kind": "give_aua", "kitty": k, "count": n},
        st.sampled_from(KITTIES),
        st.integers(1, 4),
    ),
    st.builds(lambda k: {"kind": "avoid_injury", "kitty": k}, st.sampled_from(KITTIES)),
    st.sampled_from(
        [
            {"kind": "end_scene"},
            {"kind": "start_scene"},
            {"kind": "start_episode"},
            {"kind": "end_episode", "saved_the_day": True},
        ]
    ),
)
# A check followed by what players and GM do with it, or something else happening.
TURNS = st.one_of(
    st.tuples(CHECKS, FOLLOW_UPS).map(list),
    st.tuples(CHECKS, FOLLOW_UPS, FOLLOW_UPS).map(list),
    st.tuples(OTHERS).map(list),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TURNS, min_size=5, max_size=25), st.integers(0, 2**32))
def test_any_play_keeps_the_sheets_sound_and_replays(
    turns: list[list[dict[str, Any]]], seed: int
) -> None:
    commands = [command for turn in turns for command in turn]
    game = Game()
    game.do(MIA)
    game.do(TOM)
    game.do({"kind": "create_foe", "id": "rat", "name": "Rat"})
    game.do({"kind": "start_episode"})
    game.do({"kind": "start_scene"})
    source = SeededSource(seed)
    for command in commands:
        before = game.state
        try:
            events = game.system.decide(
                game.state, game.system.commands.validate_python(command), source
            )
        except RuleError:
            assert game.state == before
            continue
        for event in events:
            game.state = game.system.evolve(game.state, event)
        game.events.extend(events)
        for kitty in game.state.kitties.values():
            assert 0 <= kitty.auas <= kitty.aua_limit
            assert kitty.injuries >= 0 and kitty.treats >= 0 and kitty.free_treats >= 0
            assert kitty.incapacitated == (kitty.injuries >= kitty.attributes.highest)
        rat = game.state.foes["rat"]
        assert 0 <= rat.auas <= rat.aua_limit
        check = game.state.last_check
        if check is not None:
            assert len(check.dice) == check.parts.total >= 1
    assert game.replayed() == game.state
