"""Spells as pure rules (slots, casting time, the one-spell rule, scaling, odds,
concentration) and areas of effect on the grid, against hand-computed and brute-force values."""

from __future__ import annotations

import itertools
from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spieltisch.engine.errors import RuleError
from spieltisch.engine.grid import Size, Square, parse_square
from spieltisch.systems.dnd5e.areas import Template, creatures_in, squares_in
from spieltisch.systems.dnd5e.data import spells
from spieltisch.systems.dnd5e.odds import DamageDice
from spieltisch.systems.dnd5e.rules import Mode, attack_outcome
from spieltisch.systems.dnd5e.spells import (
    SLOTS,
    CastingTurn,
    area_odds,
    cantrip_tier,
    check_cast,
    check_slot,
    concentrate,
    concentration_dc,
    concentration_odds,
    keeps_concentration,
    spell_damage_dice,
    spell_heal_dice,
    spell_info,
    spell_odds,
)


def test_slots_by_hand() -> None:
    assert SLOTS["full"][0] == (2,)
    assert SLOTS["full"][4] == (4, 3, 2)  # a 5th-level wizard
    assert SLOTS["full"][19] == (4, 3, 3, 3, 3, 2, 2, 1, 1)
    assert SLOTS["half"][0] == () and SLOTS["half"][4] == (4, 2)
    assert all(len(row) <= 9 for rows in SLOTS.values() for row in rows)


def test_slot_levels() -> None:
    fireball = spell_info("fireball")
    assert check_slot(fireball, 3) == 3 and check_slot(fireball, 9) == 9
    for slot in (0, 2, 10):
        with pytest.raises(RuleError) as error:
            check_slot(fireball, slot)
        assert error.value.code == "dnd5e.spell.bad_slot"
    with pytest.raises(RuleError) as cantrip:
        check_slot(spell_info("fire-bolt"), 1)
    assert cantrip.value.code == "dnd5e.spell.cantrip_slot"
    with pytest.raises(RuleError) as unknown:
        spell_info("wish-for-more-wishes")
    assert unknown.value.code == "dnd5e.spell.unknown"


def test_casting_at_higher_levels_and_cantrip_scaling() -> None:
    fireball = spell_info("fireball")
    assert spell_damage_dice(fireball, 3) == [DamageDice(8, 6)]
    assert spell_damage_dice(fireball, 5) == [DamageDice(10, 6)]
    bolt = spell_info("fire-bolt")
    assert [cantrip_tier(n) for n in (1, 4, 5, 10, 11, 16, 17, 20)] == [1, 1, 5, 5, 11, 11, 17, 17]
    assert spell_damage_dice(bolt, 0, character_level=4) == [DamageDice(1, 10)]
    assert spell_damage_dice(bolt, 0, character_level=5) == [DamageDice(2, 10)]
    assert spell_damage_dice(bolt, 0, character_level=17) == [DamageDice(4, 10)]
    with pytest.raises(RuleError):
        cantrip_tier(21)
    cure = spell_info("cure-wounds")
    assert spell_heal_dice(cure, 2, modifier=3) == [DamageDice(2, 8, 3)]
    assert spell_damage_dice(spell_info("bless"), 1) == []


def test_fireball_odds_by_hand() -> None:
    fireball = spell_info("fireball")
    # DC 15 against a +2 Dexterity save: success on 13+ (8/20); half of 8d6 on a success.
    odds = spell_odds(fireball, 3, dc=15, save_bonus=2)
    assert odds.save_success == Fraction(2, 5)
    # half of 8d6 rounded down averages (28 − P(odd) = 1/2) / 2
    assert odds.mean_damage == Fraction(3, 5) * 28 + Fraction(2, 5) * Fraction(55, 4)


def test_save_spell_without_half_deals_nothing_on_a_success() -> None:
    hold = spell_info("hold-person")
    odds = spell_odds(hold, 2, dc=13, save_bonus=0)
    assert odds.save_success == Fraction(8, 20) and odds.damage == {0: Fraction(1)}
    assert "paralyzed" in odds.conditions


def test_attack_spell_matches_brute_force() -> None:
    # Fire bolt at character level 5 (2d10), +5 against AC 14 with disadvantage.
    # Every one of the 20² × 10⁴ throws is enumerated and counted; the counts become
    # fractions once at the end (a fraction added per throw took most of the test's time).
    bolt = spell_info("fire-bolt")
    counts: Counter[int] = Counter()
    for a, b in itertools.product(range(1, 21), repeat=2):
        outcome = attack_outcome(min(a, b), 5, 14)
        for w, x, y, z in itertools.product(range(1, 11), repeat=4):
            counts[{"miss": 0, "hit": w + x, "critical": w + x + y + z}[outcome]] += 1
    expected = {damage: Fraction(n, 400 * 10**4) for damage, n in counts.items()}
    odds = spell_odds(bolt, 0, character_level=5, attack_bonus=5, ac=14, mode=Mode.DISADVANTAGE)
    assert odds.damage == expected


def test_magic_missile_needs_no_roll() -> None:
    odds = spell_odds(spell_info("magic-missile"), 1)
    assert odds.kind == "effect" and odds.hit is None
    assert sum(odds.damage.values()) == 1 and min(odds.damage) >= 2


def test_every_spell_has_odds_at_every_allowed_slot() -> None:
    for spell_id in spells():
        info = spell_info(spell_id)
        for slot in [0] if info.level == 0 else range(info.level, 10):
            odds = spell_odds(info, slot, character_level=11, modifier=3, dc=14)
            assert sum(odds.damage.values()) == 1


def test_castable_without_mechanics() -> None:
    mount = spell_info("find-steed")
    assert not mount.mechanical and mount.text
    assert spell_info("fireball").mechanical


def test_one_spell_rule() -> None:
    word, bolt, fireball = (
        spell_info("healing-word"),
        spell_info("fire-bolt"),
        spell_info("fireball"),
    )
    turn = check_cast(word, CastingTurn())
    assert turn.bonus_action_spell
    assert check_cast(bolt, turn).cantrip_action  # a cantrip of 1 action may follow
    with pytest.raises(RuleError) as levelled:
        check_cast(fireball, turn)
    assert levelled.value.code == "dnd5e.spell.one_spell"
    with pytest.raises(RuleError):
        check_cast(word, turn)
    after_fireball = check_cast(fireball, CastingTurn())
    with pytest.raises(RuleError):
        check_cast(word, after_fireball)
    # a cantrip with the action first leaves the bonus-action spell open
    assert check_cast(word, check_cast(bolt, CastingTurn())).bonus_action_spell
    with pytest.raises(RuleError) as long:
        check_cast(spell_info("identify"), CastingTurn())
    assert long.value.code == "dnd5e.spell.too_long"
    shield = spell_info("shield")
    assert shield.casting_unit == "reaction" and shield.in_combat


def test_concentration_dc_and_odds() -> None:
    assert [concentration_dc(d) for d in (0, 1, 19, 20, 21, 22, 45)] == [
        10,
        10,
        10,
        10,
        10,
        11,
        22,
    ]
    # +3 against DC 11 (22 damage): 8+ on the d20, 13/20.
    assert concentration_odds(3, 22) == Fraction(13, 20)
    assert concentration_odds(3, 22, Mode.ADVANTAGE) == 1 - Fraction(7, 20) ** 2


@given(st.integers(0, 200), st.integers(-5, 15))
def test_concentration_odds_match_enumeration(damage: int, bonus: int) -> None:
    dc = max(10, damage // 2)
    kept = sum(1 for roll in range(1, 21) if roll + bonus >= dc)
    assert concentration_odds(bonus, damage) == Fraction(kept, 20)


def _names(squares: frozenset[Square]) -> set[str]:
    return {str(s) for s in squares}


def test_sphere_by_hand() -> None:
    # 3 m radius (2 squares) around e5: centres within 2 squares.
    template = Template(shape="sphere", size_m=Decimal(3), origin=parse_square("e5"))
    inside = squares_in(template, 20, 20)
    assert len(inside) == 13  # 1 + 4 + 4 + 4: (0,0), (±1,0)…, (±1,±1), (±2,0)…
    assert {"e5", "e7", "g5", "f6", "c5"} <= _names(inside)
    assert "g6" not in _names(inside)  # (2, 1): √5 > 2


def test_fireball_sphere_counts_squares_within_four() -> None:
    template = Template(shape="sphere", size_m=Decimal(6), origin=parse_square("k11"))
    inside = squares_in(template, 30, 30)
    expected = sum(1 for x in range(-4, 5) for y in range(-4, 5) if x * x + y * y <= 16)
    assert len(inside) == expected == 49


def test_cone_by_hand() -> None:
    # 4.5 m (3 squares) east from a1's centre: width equals the distance along the axis.
    template = Template(
        shape="cone", size_m=Decimal("4.5"), origin=parse_square("a2"), toward=parse_square("d2")
    )
    assert _names(squares_in(template, 10, 10)) == {"b2", "c1", "c2", "c3", "d1", "d2", "d3"}


def test_line_by_hand() -> None:
    template = Template(
        shape="line", size_m=Decimal("4.5"), origin=parse_square("b2"), toward=parse_square("b9")
    )
    assert _names(squares_in(template, 10, 10)) == {"b3", "b4", "b5"}
    wide = template.model_copy(update={"width_m": Decimal(3)})
    # 3 m wide: up to 1 square from the axis
    assert _names(squares_in(wide, 10, 10)) == {f"{c}{r}" for c in "abc" for r in (3, 4, 5)}
    diagonal = Template(
        shape="line", size_m=Decimal("4.5"), origin=parse_square("a1"), toward=parse_square("d4")
    )
    assert _names(squares_in(diagonal, 10, 10)) == {"b2", "c3"}  # d4 is 3√2 squares away


def test_cube_by_hand() -> None:
    template = Template(
        shape="cube", size_m=Decimal(3), origin=parse_square("e5"), toward=parse_square("a1")
    )
    assert _names(squares_in(template, 10, 10)) == {"d4", "d5", "e4", "e5"}


def test_creatures_inside_by_any_square_of_their_space() -> None:
    template = Template(shape="sphere", size_m=Decimal(3), origin=parse_square("e5"))
    creatures = {
        "ogre": (parse_square("g6"), Size.LARGE),  # g6, h6, g7, h7: none inside
        "troll": (parse_square("f6"), Size.LARGE),  # f6 is inside
        "rat": (parse_square("e7"), Size.TINY),
        "far": (parse_square("a1"), Size.MEDIUM),
    }
    assert creatures_in(template, creatures, 20, 20) == ["rat", "troll"]


@given(
    st.sampled_from(["sphere", "cylinder", "cone", "line", "cube"]),
    st.integers(1, 12),
    st.integers(0, 9),
    st.integers(0, 9),
    st.integers(0, 9),
    st.integers(0, 9),
)
def test_areas_match_a_float_oracle(
    shape: str, size: int, ox: int, oy: int, tx: int, ty: int
) -> None:
    size_m = Decimal(size) * Decimal("1.5")
    template = Template.model_validate(
        {
            "shape": shape,
            "size_m": size_m,
            "origin": Square(x=ox, y=oy),
            "toward": Square(x=tx, y=ty),
        }
    )
    eps = 1e-9
    expected = set()
    for x, y in itertools.product(range(10), range(10)):
        dx, dy = x - ox, y - oy
        ax, ay = tx - ox, ty - oy
        if shape in ("sphere", "cylinder"):
            ok = (dx * dx + dy * dy) ** 0.5 <= size + eps
        elif shape == "cube":
            sx = -1 if ax < 0 else 1
            sy = -1 if ay < 0 else 1
            ok = 0 <= dx * sx < size and 0 <= dy * sy < size
        else:
            norm = (ax * ax + ay * ay) ** 0.5
            if norm == 0:
                ok = False
            else:
                along = (dx * ax + dy * ay) / norm
                across = abs(dx * ay - dy * ax) / norm
                limit = along / 2 if shape == "cone" else 0.5
                ok = 0 < along <= size + eps and across <= limit + eps
        if ok:
            expected.add(Square(x=x, y=y))
    assert squares_in(template, 10, 10) == expected


def test_concentration_one_at_a_time() -> None:
    bless, hold, fireball = spell_info("bless"), spell_info("hold-person"), spell_info("fireball")
    assert concentrate(None, bless) == ("bless", None)
    assert concentrate("bless", hold) == ("hold-person", "bless")
    assert concentrate("bless", fireball) == ("bless", None)
    assert keeps_concentration(10, 21) and not keeps_concentration(10, 22)


def test_fireball_odds_for_each_creature_inside() -> None:
    template = Template(shape="sphere", size_m=Decimal(6), origin=parse_square("k11"))
    creatures = {
        "ogre": (parse_square("k14"), Size.LARGE, -1),  # 3 squares south: inside
        "rogue": (parse_square("n11"), Size.MEDIUM, 7),  # 3 east: inside
        "far": (parse_square("k16"), Size.MEDIUM, 0),  # 5 north: outside
    }
    odds = area_odds(
        spell_info("fireball"),
        3,
        template,
        creatures,
        30,
        30,
        dc=15,
        modes={"rogue": Mode.ADVANTAGE},
    )
    assert sorted(odds) == ["ogre", "rogue"]
    assert odds["ogre"].save_success == Fraction(5, 20)  # 16+ on the d20
    assert odds["rogue"].save_success == 1 - Fraction(7, 20) ** 2  # 8+ with advantage
