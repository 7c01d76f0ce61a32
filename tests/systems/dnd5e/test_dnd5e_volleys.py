"""Volley spells: Magic Missile's darts, Scorching Ray's rays and Eldritch Blast's beams split
over their targets, each rolled on its own — hand-computed casts, the odds per target against
enumeration and icepool, the old reading kept for tables of edition 1."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import icepool
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.engine.system import stamp_options, upgrade_options
from spieltisch.systems.dnd5e.spells import missile_count, spell_info, spell_odds
from spieltisch.systems.dnd5e.state import EDITION, DndState

from .helpers import SYSTEM, command, fresh, pc, play, start
from .test_dnd5e_casting import WIZARD, cast, refused, target

VOLLEYS = ["magic-missile", "scorching-ray", "eldritch-blast", "fire-bolt"]


def table(*foes: tuple[str, str], edition: int = 2, width: int = 20, **wizard: Any) -> DndState:
    """The wizard Wiz (Int 18, +6 to hit, at a1) against ``foes`` (AC 13, 30 HP each)."""
    state = fresh(edition=edition, width=width, height=width)
    spellcasting = {**WIZARD, "spells": VOLLEYS, **wizard}
    state = play(state, pc("wiz", "a1", spellcasting=spellcasting, abilities={"int": 18}))
    for id_, square in foes:
        state = play(state, target(id_, square))
    return start(state, "wiz", *(f for f, _ in foes))


def hp(state: DndState, *ids: str) -> tuple[int, ...]:
    return tuple(state.fighters[i].hp for i in ids)


def last_cast(state: DndState, key: str) -> list[dict[str, Any]]:
    """The latest cast's ``results`` or ``targets`` (one entry per missile)."""
    assert state.last_cast is not None
    found: list[dict[str, Any]] = state.last_cast[key]  # type: ignore[assignment]
    return found


# ---------------------------------------------------------------- darts


def test_magic_missile_splits_its_darts_each_rolled_on_its_own() -> None:
    state = table(("g1", "c3"), ("g2", "d4"))
    # two darts at g1 (4 + 1, 2 + 1), one at g2 (3 + 1)
    after = cast(state, 4, 2, 3, creature="wiz", spell="magic-missile", targets=["g1", "g2", "g1"])
    assert hp(after, "g1", "g2") == (30 - 8, 30 - 4)
    results = [(r["target"], r["damage"]) for r in last_cast(after, "results")]
    assert results == [("g1", 5), ("g1", 3), ("g2", 4)]
    assert after.slots_used["wiz"] == (1,)


def test_one_target_takes_every_dart_and_a_higher_slot_adds_one() -> None:
    state = table(("g1", "c3"))
    after = cast(state, 1, 1, 1, 1, creature="wiz", spell="magic-missile", slot=2, targets=["g1"])
    assert hp(after, "g1") == (30 - 8,)  # four darts of 1 + 1
    assert len(last_cast(after, "targets")) == 4


def test_a_split_that_does_not_name_every_dart_is_refused_and_changes_nothing() -> None:
    state = table(("g1", "c3"), ("g2", "d4"))
    error = refused(state, {"creature": "wiz", "spell": "magic-missile", "targets": ["g1", "g2"]})
    assert error.code == "dnd5e.spell.missiles"
    assert error.params["count"] == 3 and error.params["given"] == 2
    assert state.slots_used == {}


def test_each_creature_a_dart_goes_to_must_be_in_range() -> None:
    state = table(("g1", "c3"), ("g2", "a30"), width=40)
    error = refused(
        state, {"creature": "wiz", "spell": "magic-missile", "targets": ["g1", "g2", "g1"]}
    )
    assert error.code == "dnd5e.spell.out_of_range" and error.params["target"] == "G2"


# ---------------------------------------------------------------- rays and beams


def test_scorching_ray_rolls_an_attack_per_ray() -> None:
    state = table(("g1", "c3"), ("g2", "d4"))
    # +6 against AC 13: 10 hits (2d6: 3 + 4), 2 misses (no dice), 20 is a critical (4d6)
    after = cast(
        state,
        *(10, 3, 4),
        2,
        *(20, 1, 2, 3, 4),
        creature="wiz",
        spell="scorching-ray",
        targets=["g1", "g1", "g2"],
    )
    assert hp(after, "g1", "g2") == (30 - 7, 30 - 10)
    outcomes = [r["outcome"] for r in last_cast(after, "results")]
    assert outcomes == ["hit", "miss", "critical"]
    assert after.slots_used["wiz"] == (0, 1)


def test_eldritch_blast_makes_a_beam_per_tier_of_the_caster() -> None:
    fifth = table(("g1", "c3"), level=5)
    # two beams at level 5, both at g1: 15 hits (1d10: 10), 13 hits (1d10: 5)
    after = cast(fifth, 15, 10, 13, 5, creature="wiz", spell="eldritch-blast", targets=["g1"])
    assert hp(after, "g1") == (30 - 15,)
    fourth = table(("g1", "c3"), ("g2", "d4"), level=4)
    error = refused(fourth, {"creature": "wiz", "spell": "eldritch-blast", "targets": ["g1", "g2"]})
    assert error.code == "dnd5e.spell.missiles" and error.params["count"] == 1
    assert [
        missile_count(spell_info("eldritch-blast"), 0, character_level=n)
        for n in (1, 5, 11, 17, 20)
    ] == [1, 2, 3, 4, 4]


def test_a_plain_spell_still_refuses_a_creature_named_twice() -> None:
    state = table(("g1", "c3"))
    error = refused(state, {"creature": "wiz", "spell": "fire-bolt", "targets": ["g1", "g1"]})
    assert error.code == "dnd5e.spell.twice"


def test_edition_one_keeps_the_whole_spell_on_each_creature_named() -> None:
    state = table(("g1", "c3"), ("g2", "d4"), edition=1)
    # before volleys: each creature named takes all three darts (3d4 + 3)
    after = cast(
        state, 1, 1, 1, 2, 2, 2, creature="wiz", spell="magic-missile", targets=["g1", "g2"]
    )
    assert hp(after, "g1", "g2") == (30 - 6, 30 - 9)
    assert upgrade_options(SYSTEM, {"width": 20}) == {"width": 20, "edition": 1}
    assert stamp_options(SYSTEM, {})["edition"] == EDITION


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.data())
def test_every_split_deals_each_target_its_darts(slot: int, data: st.DataObject) -> None:
    count = 2 + slot
    aims = data.draw(st.lists(st.sampled_from(["g1", "g2", "g3"]), min_size=count, max_size=count))
    rolled = data.draw(st.lists(st.integers(1, 4), min_size=count, max_size=count))
    state = table(("g1", "c3"), ("g2", "d4"), ("g3", "e5"), slots=[1] * 9)
    after = cast(state, *rolled, creature="wiz", spell="magic-missile", slot=slot, targets=aims)
    # the darts roll in the order of their targets' first naming
    order = list(dict.fromkeys(aims))
    dice = iter(rolled)
    taken = {who: sum(next(dice) + 1 for _ in range(aims.count(who))) for who in order}
    for who in ("g1", "g2", "g3"):
        assert after.fighters[who].hp == max(30 - taken.get(who, 0), 0)


# ---------------------------------------------------------------- odds per target


def _odds(state: DndState, **fields: Any) -> dict[str, dict[Any, Fraction]]:
    odds = SYSTEM.odds(state, command({"kind": "cast", **fields}))
    assert odds is not None
    return {p.key: {o.value: Fraction(o.exact or 0) for o in p.odds.outcomes} for p in odds.parts}


def _ray_by_enumeration(bonus: int, ac: int) -> dict[int, Fraction]:
    """One ray of 2d6 by enumerating the d20 and four d6 (a critical doubles the dice)."""
    out: dict[int, Fraction] = {}
    weight = Fraction(1, 20 * 6**4)
    for d20, a, b, c, d in product(range(1, 21), *[range(1, 7)] * 4):
        if d20 == 20:
            value = a + b + c + d
        elif d20 != 1 and d20 + bonus >= ac:
            value = a + b
        else:
            value = 0
        out[value] = out.get(value, Fraction(0)) + weight
    return out


def _icepool(die: icepool.Die) -> dict[int, Fraction]:
    return {int(k): Fraction(v, die.denominator()) for k, v in die.items()}


def test_scorching_ray_odds_add_up_the_rays_on_each_target() -> None:
    state = table(("g1", "c3"), ("g2", "d4"))
    parts = _odds(state, creature="wiz", spell="scorching-ray", targets=["g1", "g2", "g1"])
    one = _ray_by_enumeration(6, 13)
    ray = icepool.Die({k: int(v * 20 * 6**4) for k, v in one.items()})
    assert parts["g2"] == one
    assert parts["g1"] == _icepool(ray + ray)
    assert parts["g1.hit"]["hit"] == Fraction(7, 10)  # one ray: the faces 7 to 20


def test_magic_missile_odds_are_the_darts_on_each_target() -> None:
    state = table(("g1", "c3"), ("g2", "d4"))
    parts = _odds(
        state, creature="wiz", spell="magic-missile", slot=2, targets=["g1", "g1", "g1", "g2"]
    )
    assert parts["g1"] == _icepool(3 @ (icepool.d4 + 1))
    assert parts["g2"] == _icepool(icepool.d4 + 1)


def test_spell_odds_take_the_darts_on_the_target() -> None:
    two = spell_odds(spell_info("magic-missile"), 1, missiles=2)
    assert two.damage == _icepool(2 @ (icepool.d4 + 1))
    assert spell_odds(spell_info("magic-missile"), 1).damage == _icepool(3 @ icepool.d4 + 3)
