"""The small rule functions against hand-computed cases, plus invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.systems.magical_kitties import rules
from spieltisch.systems.magical_kitties.data import level_lists, menu_for_tier, menus
from spieltisch.systems.magical_kitties.sheet import (
    Attribute,
    Attributes,
    Foe,
    KittiesOptions,
    Kitty,
    LevelPick,
    Power,
    Tier,
)

OPTIONS = KittiesOptions()


def kitty(**changes: object) -> Kitty:
    base = Kitty(
        id="mia",
        name="Mia",
        attributes=Attributes(cute=3, cunning=2, fierce=1),
        talents=("Climbing",),
        powers=(Power(name="Teleport"),),
        flaw="Lazy",
        treats_value=2,
        treats=2,
        aua_limit=2,
    )
    return base.model_copy(update=changes)


def code_of(call: object, *args: object, **kwargs: object) -> str:
    assert callable(call)
    with pytest.raises(RuleError) as caught:
        call(*args, **kwargs)
    return caught.value.code


def test_successes_and_tiers() -> None:
    assert rules.count_successes([1, 4, 5, 6, 3], 4) == 3
    assert rules.count_successes([6, 6], 6) == 2
    assert rules.count_successes([5, 5], 6) == 0
    assert [rules.tier_of(n) for n in range(7)] == [
        Tier.FAILURE,
        Tier.AT_A_COST,
        Tier.SUCCESS,
        Tier.BONUS,
        Tier.SUPER,
        Tier.SUPER,
        Tier.SUPER,
    ]


def test_pool_is_built_part_by_part() -> None:
    plain = rules.pool_parts(kitty(), Attribute.CUNNING, None, None, 0, OPTIONS)
    assert plain.total == 2
    full = rules.pool_parts(
        kitty(injuries=1, bonus_dice=1, penalty_dice=1),
        Attribute.CUTE,
        "climbing",
        "Teleport",
        -1,
        OPTIONS,
    )
    # 3 cute + 1 talent + 2 power − 1 injury + 1 bonus − 1 penalty − 1 other = 4
    assert (full.attribute, full.talent, full.power, full.injuries) == (3, 1, 2, -1)
    assert (full.bonus, full.penalty, full.modifier, full.total) == (1, -1, -1, 4)


def test_pool_refusals() -> None:
    hurt = kitty(injuries=1)
    assert code_of(rules.pool_parts, hurt, Attribute.FIERCE, None, None, 0, OPTIONS) == (
        "kitties.pool_empty"
    )
    assert code_of(rules.pool_parts, kitty(), Attribute.CUTE, "Sewing", None, 0, OPTIONS) == (
        "kitties.unknown_talent"
    )
    assert code_of(rules.pool_parts, kitty(), Attribute.CUTE, None, "Flying", 0, OPTIONS) == (
        "kitties.unknown_power"
    )
    used = kitty(power_bonus_used=True)
    assert code_of(rules.pool_parts, used, Attribute.CUTE, None, "Teleport", 0, OPTIONS) == (
        "kitties.power_bonus_used"
    )
    # With the option off, the bonus works again in the same scene.
    relaxed = OPTIONS.model_copy(update={"power_bonus_once_per_scene": False})
    assert rules.pool_parts(used, Attribute.CUTE, None, "Teleport", 0, relaxed).total == 5
    assert code_of(rules.build_pool, 1, modifier=-1) == "kitties.pool_none"
    assert code_of(rules.build_pool, 19, power=True) == "kitties.pool_too_large"


def test_auas_turn_into_injuries_past_the_limit() -> None:
    assert rules.take_auas(0, 0, 2, 1) == (1, 0)
    assert rules.take_auas(1, 0, 2, 1) == (2, 0)
    assert rules.take_auas(2, 0, 2, 1) == (2, 1)
    assert rules.take_auas(1, 1, 2, 3) == (2, 3)
    assert rules.take_auas(0, 0, 0, 2) == (0, 2)


@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6), st.integers(0, 8))
def test_take_auas_keeps_every_aua(auas: int, injuries: int, limit: int, count: int) -> None:
    auas = min(auas, limit)
    new_auas, new_injuries = rules.take_auas(auas, injuries, limit, count)
    assert new_auas <= limit
    assert new_injuries >= injuries
    assert (new_auas - auas) + (new_injuries - injuries) == count
    # Injuries only come once the limit is full.
    assert new_injuries == injuries or new_auas == limit


def test_incapacitated_at_highest_attribute() -> None:
    assert not kitty(injuries=2).incapacitated
    assert kitty(injuries=3).incapacitated
    strong = kitty(attributes=Attributes(cute=4, cunning=2, fierce=1), injuries=3)
    assert not strong.incapacitated


def test_foe_damage_stops_at_limit() -> None:
    foe = Foe(id="rat", name="Rat", difficulty=4, aua_limit=2)
    hit, taken = rules.damage_foe(foe, 1)
    assert (hit.auas, taken, hit.defeated) == (1, 1, False)
    beaten, taken = rules.damage_foe(hit, 3)
    assert (beaten.auas, taken, beaten.defeated) == (2, 1, True)


def test_creation_rules() -> None:
    good = Attributes(cute=2, cunning=3, fierce=1)
    rules.validate_creation(good, ["Climbing"], [Power(name="Teleport")], "Lazy", OPTIONS)
    twice = Attributes(cute=3, cunning=3, fierce=1)
    cases = [
        ((twice, ["Climbing"], [Power(name="Teleport")], "Lazy"), "kitties.bad_attributes"),
        ((good, [], [Power(name="Teleport")], "Lazy"), "kitties.bad_talent_count"),
        ((good, ["A", "B"], [Power(name="Teleport")], "Lazy"), "kitties.bad_talent_count"),
        ((good, ["Climbing"], [], "Lazy"), "kitties.bad_power_count"),
        ((good, ["Climbing"], [Power(name="Teleport")], "  "), "kitties.bad_name"),
    ]
    for args, code in cases:
        assert code_of(rules.validate_creation, *args, OPTIONS) == code
    assert code_of(rules.check_id, "Mia!", "kitty") == "kitties.bad_id"


def test_xp_levels_and_problem_ranks() -> None:
    assert [rules.xp_needed(level, OPTIONS) for level in range(1, 11)] == [
        5,
        6,
        6,
        7,
        7,
        8,
        8,
        9,
        9,
        None,
    ]
    assert rules.failure_xp(5, OPTIONS) == 5
    capped = OPTIONS.model_copy(update={"xp_failure_cap": 2})
    assert rules.failure_xp(5, capped) == 2
    assert rules.episode_xp(kitty(failures=3), True, False, True, capped) == 4
    assert rules.change_rank(2, -1) == 1
    assert rules.change_rank(2, -3) == 0
    assert rules.change_rank(1, 3) == 4
    assert code_of(rules.change_rank, 2, -4) == "kitties.bad_rank_change"


def test_level_up_constraints() -> None:
    ready = kitty(xp=5)
    rules.validate_level_up(ready, "levels_2_4", "aua_limit", None, None, None, OPTIONS)
    assert (
        code_of(
            rules.validate_level_up,
            kitty(xp=4),
            "levels_2_4",
            "aua_limit",
            None,
            None,
            None,
            OPTIONS,
        )
        == "kitties.not_enough_xp"
    )
    # The 5–7 list opens when the kitty reaches level 5.
    assert (
        code_of(
            rules.validate_level_up, ready, "levels_5_7", "talent", None, None, "Sewing", OPTIONS
        )
        == "kitties.level_list_closed"
    )
    level4 = kitty(level=4, xp=7)
    rules.validate_level_up(level4, "levels_5_7", "talent", None, None, "Sewing", OPTIONS)
    # Not twice from the same list, but again from another list.
    took = kitty(level=4, xp=7, picks=(LevelPick(level=2, list="levels_2_4", entry="aua_limit"),))
    assert (
        code_of(rules.validate_level_up, took, "levels_2_4", "aua_limit", None, None, None, OPTIONS)
        == "kitties.level_entry_taken"
    )
    rules.validate_level_up(took, "levels_5_7", "aua_limit", None, None, None, OPTIONS)
    # Attribute caps: 3 from the first list (even later), 4 from the others.
    assert (
        code_of(
            rules.validate_level_up,
            level4,
            "levels_2_4",
            "attribute",
            Attribute.CUTE,
            None,
            None,
            OPTIONS,
        )
        == "kitties.attribute_cap"
    )
    rules.validate_level_up(level4, "levels_5_7", "attribute", Attribute.CUTE, None, None, OPTIONS)
    rules.validate_level_up(ready, "levels_2_4", "attribute", Attribute.FIERCE, None, None, OPTIONS)
    top = kitty(level=10, xp=50)
    assert (
        code_of(rules.validate_level_up, top, "levels_8_10", "treats", None, None, None, OPTIONS)
        == "kitties.max_level"
    )
    assert (
        code_of(
            rules.validate_level_up,
            ready,
            "levels_2_4",
            "bonus_feature",
            None,
            "Flying",
            "x",
            OPTIONS,
        )
        == "kitties.unknown_power"
    )
    assert (
        code_of(rules.validate_level_up, ready, "levels_2_4", "dance", None, None, None, OPTIONS)
        == "kitties.unknown_level_entry"
    )


def test_menus_and_level_lists_as_data() -> None:
    ids = [entry.id for menu in menus() for entry in menu.entries]
    assert len(ids) == len(set(ids)) == 8 + 5 + 6
    assert menu_for_tier(0) is menu_for_tier(1)
    assert menu_for_tier(0) is not None and menu_for_tier(0).id == "complication"
    assert menu_for_tier(2) is None
    assert [m.id for m in (menu_for_tier(3), menu_for_tier(4))] == ["bonus", "super_bonus"]
    assert [(lst.id, lst.min_level, len(lst.entries)) for lst in level_lists()] == [
        ("levels_2_4", 2, 4),
        ("levels_5_7", 5, 5),
        ("levels_8_10", 8, 5),
    ]
