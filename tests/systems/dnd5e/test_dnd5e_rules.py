"""D&D 5e rules, moves, odds and stat lines against hand-computed cases."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.grid import Diagonal, Grid, Size, parse_square
from spieltisch.engine.statblock import StatLineError
from spieltisch.systems.dnd5e import rules
from spieltisch.systems.dnd5e.movement import Body, MoveStep, TurnMovement, check_move
from spieltisch.systems.dnd5e.odds import DamageDice, attack_damage, attack_odds, save_odds
from spieltisch.systems.dnd5e.rules import Mode
from spieltisch.systems.dnd5e.statblock import parse_attack

D = Decimal
GRID = Grid(width=12, height=12)


def body(id_: str = "me", at: str = "a1", side: str = "party", **kw: object) -> Body:
    return Body(id=id_, side=side, position=parse_square(at), **kw)  # type: ignore[arg-type]


def walk(*squares: str, mode: str = "walk") -> list[MoveStep]:
    return [MoveStep(to=s, mode=mode) for s in squares]  # type: ignore[arg-type]


def test_seed_split_movement_9m_3m_search_6m() -> None:
    me = body(speeds={"walk": D(9)})
    first = check_move(GRID, me, [], walk("b1", "c1"))
    assert first.legal and first.cost_m == 3 and first.remaining_m == 6
    moved = me.model_copy(update={"position": parse_square("c1")})
    second = check_move(GRID, moved, [], walk("d1", "e1", "f1", "g1"), before=first.movement)
    assert second.legal and second.cost_m == 6 and second.remaining_m == 0
    third = check_move(GRID, moved, [], walk("d1", "e1", "f1", "g1", "h1"), before=first.movement)
    assert not third.legal and third.error_step == 4 and third.error is not None
    assert third.error.code == "dnd5e.move.no_movement_left" and third.cost_m == 6


def test_seed_harpy_fly_3_walk_3_fly_6() -> None:
    harpy = body(speeds={"walk": D(6), "fly": D(12)})
    steps = (
        walk("b1", "c1", mode="fly")
        + walk("d1", "e1")
        + walk(*"fghi1"[:0])
        + [MoveStep(to=f"{f}1", mode="fly") for f in "fghi"]
    )
    result = check_move(GRID, harpy, [], steps)
    assert result.legal and result.cost_m == 12 and result.remaining_m == 0
    # walking after 6 m is no longer possible: 6 − 6 = 0 left
    late = check_move(GRID, harpy, [], walk("b1", "c1", "d1", "e1", mode="fly") + walk("f1"))
    assert late.error is not None and late.error.code == "dnd5e.move.no_movement_left"


def test_seed_standing_up_from_9m_costs_4m() -> None:
    assert rules.stand_up_cost(D(9)) == 4
    me = body(speeds={"walk": D(9)}, conditions=frozenset({"prone"}))
    result = check_move(GRID, me, [], walk("b1"), stand_up=True)
    assert result.cost_m == D("5.5") and result.remaining_m == D("3.5")
    assert not check_move(GRID, me, [], walk("b1")).legal  # prone: crawl only
    crawl = check_move(GRID, me, [], walk("b1", mode="crawl"))
    assert crawl.legal and crawl.cost_m == 3
    frozen = body(speeds={"walk": D(9)}, conditions=frozenset({"prone", "grappled"}))
    assert check_move(GRID, frozen, [], [], stand_up=True).error.code == (  # type: ignore[union-attr]
        "dnd5e.move.stand_speed_zero"
    )
    late = check_move(GRID, me, [], [], stand_up=True, before=TurnMovement(spent=D(6), mode="walk"))
    assert late.error is not None and late.error.code == "dnd5e.move.stand_too_little"


def test_difficult_terrain_never_more_than_plus_one() -> None:
    grid = GRID.with_terrain(parse_square("b1"), "difficult")
    me = body(speeds={"walk": D(9)})
    foe_in_square = body("x", "b1", side="party", size=Size.MEDIUM)
    result = check_move(grid, me, [foe_in_square], walk("b1", "c1"))
    assert result.cost_m == D("4.5")  # 3 m for difficult (ground and creature), 1.5 m plain
    climb = check_move(grid, me, [], walk("b1", mode="climb"))
    assert climb.cost_m == D("4.5")  # climbing in difficult terrain: +2 m per metre
    spider = body(speeds={"walk": D(9), "climb": D(9)})
    assert check_move(GRID, spider, [], walk("b1", mode="climb")).cost_m == D("1.5")


def test_spaces_friendly_hostile_and_ending() -> None:
    me = body(speeds={"walk": D(9)})
    friend = body("f", "b1")
    foe = body("o", "b1", side="foes")
    through_friend = check_move(GRID, me, [friend], walk("b1", "c1"))
    assert through_friend.legal and through_friend.cost_m == D("4.5")
    blocked = check_move(GRID, me, [foe], walk("b1", "c1"))
    assert blocked.error.code == "dnd5e.move.hostile_space" and blocked.error_step == 0  # type: ignore[union-attr]
    ogre = body("o", "b1", side="foes", size=Size.HUGE)
    past = check_move(
        GRID,
        me.model_copy(update={"speeds": {"walk": D(12)}}),
        [ogre],
        walk("b1", "c1", "d1", "e1"),
    )
    assert past.legal and past.cost_m == D("10.5")  # three squares of its space, then one
    ends = check_move(GRID, me, [friend], walk("b1"))
    assert ends.error.code == "dnd5e.move.ends_in_space" and ends.cost_m == 0  # type: ignore[union-attr]
    rat = body("r", speeds={"walk": D(6)}, size=Size.TINY)
    other_rat = body("r2", "b1", size=Size.TINY)
    assert check_move(GRID, rat, [other_rat], walk("b1")).legal


def test_diagonals_uniform_and_5_10_5() -> None:
    me = body(speeds={"walk": D(9)})
    assert check_move(GRID, me, [], walk("b2", "c3", "d4")).cost_m == D("4.5")
    alternating = GRID.model_copy(update={"diagonal": Diagonal.ALTERNATING})
    assert check_move(alternating, me, [], walk("b2", "c3", "d4")).cost_m == 6


def test_opportunity_attacks_disengage_and_dash() -> None:
    me = body(speeds={"walk": D(9)})
    foe = body("o", "b2", side="foes")
    result = check_move(GRID, me, [foe], walk("b1", "c1", "d1"))
    assert result.opportunity_attacks == (("o", 2),)
    assert (
        check_move(GRID, me, [foe], walk("b1", "c1", "d1"), disengage=True).opportunity_attacks
        == ()
    )
    stunned = body("o", "b2", side="foes", conditions=frozenset({"stunned"}))
    assert check_move(GRID, me, [stunned], walk("b1", "c1", "d1")).opportunity_attacks == ()
    dash = check_move(
        GRID, me, [], walk(*[f"{f}1" for f in "bcdefghijk"]), before=TurnMovement(dashes=1)
    )
    assert dash.legal and dash.cost_m == 15 and dash.remaining_m == 3


@given(st.lists(st.sampled_from(["b", "a"]), max_size=30), st.integers(0, 30))
def test_budget_never_exceeded(pattern: list[str], speed: int) -> None:
    me = body(at="a1", speeds={"walk": D(speed)})
    steps = [MoveStep(to=f"{'b' if i % 2 == 0 else 'a'}1") for i in range(len(pattern))]
    result = check_move(GRID, me, [], steps)
    assert 0 <= result.cost_m <= speed
    assert result.remaining_m == speed - result.cost_m
    assert result.legal == (len(steps) * D("1.5") <= speed)


def test_jumps() -> None:
    assert rules.long_jump_m(15) == D("4.5") and rules.long_jump_m(15, standing=True) == D("2.25")
    assert rules.high_jump_m(15) == D("1.5") and rules.high_jump_m(10, standing=True) == D("0.45")
    assert rules.high_jump_m(1) == 0
    assert rules.jump_reach_m(D("1.5"), D("1.8")) == D("4.2")


def test_damage_temp_hp_and_death_saves() -> None:
    assert rules.modify_damage(7, "fire", resistances=frozenset({"fire"})) == 3
    assert rules.modify_damage(7, "fire", vulnerabilities=frozenset({"fire"})) == 14
    assert rules.modify_damage(7, "fire", immunities=frozenset({"fire"})) == 0
    hit = rules.take_damage(10, 5, 10, 8)
    assert (hit.hp, hit.temp_hp, hit.instant_death) == (7, 0, False)
    assert rules.take_damage(5, 0, 10, 15).instant_death
    saves = rules.DeathSaves()
    saves, _ = rules.death_save(saves, 1)
    assert saves.failures == 2
    saves, _ = rules.death_save(saves, 9)
    assert saves.dead
    assert rules.death_save(rules.DeathSaves(0, 2), 20) == (rules.DeathSaves(), True)
    assert rules.resolve_mode(3, 1) is Mode.NORMAL and rules.resolve_mode(2, 0) is Mode.ADVANTAGE


def _icepool_attack(bonus: int, ac: int, mode: Mode) -> tuple[Fraction, Fraction]:
    die = icepool.d20
    roll = die
    if mode is Mode.ADVANTAGE:
        roll = icepool.Pool([die, die]).highest(1).sum()
    elif mode is Mode.DISADVANTAGE:
        roll = icepool.Pool([die, die]).lowest(1).sum()
    hit = crit = Fraction(0)
    denominator = roll.denominator()
    for face, count in roll.items():
        chance = Fraction(count, denominator)
        if face == 20 or (face != 1 and face + bonus >= ac):
            hit += chance
        if face == 20:
            crit += chance
    return hit, crit


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize(("bonus", "ac"), [(5, 15), (0, 25), (12, 5), (-2, 10)])
def test_attack_odds_against_icepool(bonus: int, ac: int, mode: Mode) -> None:
    odds = attack_odds(bonus, ac, mode)
    assert (odds.hit, odds.critical) == _icepool_attack(bonus, ac, mode)
    assert odds.hit + odds.miss == 1


def test_hand_computed_odds_and_damage() -> None:
    normal = attack_odds(5, 15)
    assert normal.hit == Fraction(11, 20) and normal.critical == Fraction(1, 20)
    assert attack_odds(5, 15, Mode.ADVANTAGE).critical == Fraction(39, 400)
    assert save_odds(2, 12) == Fraction(11, 20)
    pmf = attack_damage([DamageDice(1, 6, 2)], normal)
    assert pmf[0] == Fraction(9, 20)
    assert pmf[14] == Fraction(1, 20) * Fraction(1, 36)  # 2d6+2 = 14 only on a critical
    assert pmf[3] == Fraction(10, 20) * Fraction(1, 6)  # a plain hit of 1


def test_stat_lines() -> None:
    line = parse_attack("Scimitar: +4, 5 (1d6+2) slashing")
    assert (line.name, line.bonus, line.damage[0].sides, line.damage[0].type) == (
        "Scimitar",
        4,
        6,
        "slashing",
    )
    with pytest.raises(StatLineError) as wrong:
        parse_attack("Scimitar: +4, 6 (1d6+2) slashing")
    assert wrong.value.code == "dnd5e.statblock.average" and wrong.value.params["column"] == 15
    with pytest.raises(StatLineError) as typo:
        parse_attack("Scimitar: +4, 5 (1d6+2) slushing")
    assert typo.value.params["position"] == 24


@given(st.text(max_size=60))
def test_any_text_parses_or_fails_positioned(text: str) -> None:
    try:
        parse_attack(text)
    except StatLineError as error:
        assert 0 <= error.params["position"] <= len(text)


def test_attack_damage_with_advantage_matches_brute_force() -> None:
    # +5 against AC 15 with advantage, 1d6+2: both d20 and both damage dice enumerated.
    expected: dict[int, Fraction] = {}
    share = Fraction(1, 20 * 20 * 6 * 6)
    for a, b, x, y in itertools.product(range(1, 21), range(1, 21), range(1, 7), range(1, 7)):
        outcome = rules.attack_outcome(max(a, b), 5, 15)
        damage = {"miss": 0, "hit": x + 2, "critical": x + y + 2}[outcome]
        expected[damage] = expected.get(damage, Fraction(0)) + share
    odds = attack_odds(5, 15, Mode.ADVANTAGE)
    assert attack_damage([DamageDice(1, 6, 2)], odds) == expected
