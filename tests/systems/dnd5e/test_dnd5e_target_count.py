"""How many creatures a spell may target (rules edition 4): Bless and Bane up to 3, one more
per slot level above 1st; more are refused with a localized error naming the count, and
nothing changes. Tables of edition 3 keep the old reading (the table did not count). Rules
edition 5 counts the spells of one creature too (Guiding Bolt, Sacred Flame, Blight, …) and
keeps the targets of Hold Person and its kin within 9 m of each other (Acid Splash: 1.5 m);
tables of edition 4 roll at each creature named, wherever it stands."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.data import spell, spell_targets, spell_volleys
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.events import SpellCast
from spieltisch.systems.dnd5e.spells import spell_info, target_limit
from spieltisch.systems.dnd5e.state import DndState

from .helpers import Dice, command, end_turn, fresh, pc, play
from .test_dnd5e_casting import target

CLERIC = {
    "ability": "wis",
    "level": 5,
    "save_dc": 13,
    "attack_bonus": 5,
    "slots": [4, 3, 2],
    "spells": [
        "bless",
        "bane",
        "hold-person",
        "guiding-bolt",
        "sacred-flame",
        "acid-splash",
        "blindness-deafness",
    ],
}
PARTY = ("b1", "c1", "d1", "e1")


def table(edition: int = 4, *far: str) -> DndState:
    """Cleo (a cleric with 1st-3rd level slots) at a1, four allies and four foes near (g0 to
    g3 at b3 to e3), and a foe ``f0``, ``f1``, … on each square of ``far``."""
    state = fresh(edition=edition)
    state = play(state, pc("cleo", "a1", spellcasting=CLERIC))
    for i, square in enumerate(PARTY):
        state = play(state, pc(f"p{i}", square))
    foes = [
        *((f"g{i}", f"{'bcde'[i]}3") for i in range(4)),
        *((f"f{i}", s) for i, s in enumerate(far)),
    ]
    for id_, square in foes:
        state = play(state, target(id_, square))
    order = ["cleo", *(f"p{i}" for i in range(4)), *(id_ for id_, _ in foes)]
    return play(state, {"kind": "start_combat", "rolls": {w: 20 - i for i, w in enumerate(order)}})


def bless(state: DndState, names: list[str], slot: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": "cast", "creature": "cleo", "spell": "bless", "targets": names}
    if slot is not None:
        data["slot"] = slot
    return data


@pytest.mark.parametrize(
    ("spell", "slot", "count"),
    [
        ("bless", 1, 3),
        ("bless", 2, 4),
        ("bless", 3, 5),
        ("bane", 1, 3),
        ("bane", 3, 5),
        ("hold-person", 2, 1),
        ("hold-person", 3, 2),
        ("aid", 4, 3),
        ("fire-bolt", 0, None),
    ],
)
def test_the_limit_by_slot(spell: str, slot: int, count: int | None) -> None:
    assert target_limit(spell_info(spell), slot, edition=4) == count


@pytest.mark.parametrize(
    ("spell", "slot", "edition", "count"),
    [
        ("fire-bolt", 0, 5, 1),
        ("fire-bolt", 0, 4, None),
        ("guiding-bolt", 3, 5, 1),
        ("blight", 4, 5, 1),
        ("blindness-deafness", 2, 5, 1),
        ("blindness-deafness", 4, 5, 3),
        ("blindness-deafness", 4, 4, None),
        ("acid-splash", 0, 5, 2),
        ("hold-person", 3, 5, 2),
        ("bless", 1, 5, 3),
        ("magic-missile", 1, 5, None),
        ("fireball", 3, 5, None),
    ],
)
def test_the_limit_by_edition(spell: str, slot: int, edition: int, count: int | None) -> None:
    assert target_limit(spell_info(spell), slot, edition=edition) == count


def test_three_blessed_with_a_first_level_slot_four_refused_naming_the_count() -> None:
    state = table()
    three = play(state, bless(state, ["cleo", "p0", "p1"]))
    assert {x.target for x in three.effects.items if x.kind == "blessed"} == {"cleo", "p0", "p1"}
    with pytest.raises(RuleError) as caught:
        decide(state, command(bless(state, ["cleo", "p0", "p1", "p2"])), Dice())
    error = caught.value
    assert error.code == "dnd5e.spell.too_many_targets"
    assert (error.params["count"], error.params["given"], error.params["slot"]) == (3, 4, 1)
    assert error_message(error, "en") == (
        "Bless with a level 1 slot may target at most 3 creatures, not 4."
    )
    assert error_message(error, "de") == (
        "Bless mit einem Zauberplatz des 1. Grades wirkt auf höchstens 3 Kreaturen, nicht auf 4."
    )


def test_a_second_level_slot_blesses_four_and_refuses_five() -> None:
    state = table()
    four = ["cleo", "p0", "p1", "p2"]
    assert play(state, bless(state, four, slot=2)).slots_used["cleo"] == (0, 1)
    with pytest.raises(RuleError) as caught:
        decide(state, command(bless(state, [*four, "p3"], slot=2)), Dice())
    assert caught.value.params["count"] == 4


def test_bane_counts_its_targets_before_any_save_is_rolled() -> None:
    state = table()
    bane = {
        "kind": "cast",
        "creature": "cleo",
        "spell": "bane",
        "targets": ["g0", "g1", "g2", "g3"],
    }
    dice = Dice()  # no die may be rolled for a refused cast
    with pytest.raises(RuleError) as caught:
        decide(state, command(bane), dice)
    assert caught.value.code == "dnd5e.spell.too_many_targets" and dice.asked == []


def test_hold_person_with_one_target_singular_wording() -> None:
    state = table()
    hold = {"kind": "cast", "creature": "cleo", "spell": "hold-person", "targets": ["g0", "g1"]}
    with pytest.raises(RuleError) as caught:
        decide(state, command(hold), Dice())
    assert error_message(caught.value, "en") == (
        "Hold Person with a level 2 slot may target 1 creature, not 2."
    )


def test_edition_three_does_not_count() -> None:
    state = table(edition=3)
    four = play(state, bless(state, ["cleo", "p0", "p1", "p2"]))
    assert len([x for x in four.effects.items if x.kind == "blessed"]) == 4
    assert end_turn(four).encounter is not None


# ---------------------------------------------------------------- rules edition 5


def cast_at(spell: str, names: list[str], slot: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": "cast", "creature": "cleo", "spell": spell, "targets": names}
    if slot is not None:
        data["slot"] = slot
    return data


def refused(state: DndState, data: dict[str, Any]) -> RuleError:
    """The error of a cast that must be refused before any die is rolled."""
    dice = Dice()
    with pytest.raises(RuleError) as caught:
        decide(state, command(data), dice)
    assert dice.asked == []
    return caught.value


def test_the_data_lists_only_known_combat_spells_of_no_area_and_no_volley() -> None:
    for spell_id, entry in spell_targets().items():
        info = spell_info(spell_id)
        assert info.in_combat and info.area is None and info.range != "self", spell_id
        assert spell_id not in spell_volleys(), spell_id
        assert entry.get("edition", 4) in (4, 5, 6)


def test_each_spell_of_one_creature_is_an_attack_or_names_one_creature() -> None:
    # the reading behind the data: an attack spell makes one attack, a save or healing spell
    # speaks of "a creature" (or a beast, a humanoid, "the creature that damaged you")
    for spell_id, entry in spell_targets().items():
        if entry.get("edition") != 5 or entry["count"] != 1:
            continue
        data = spell(spell_id)
        assert data is not None
        text = " ".join(data["text"]).lower()
        one = ("a creature", "one creature", "a beast", "a humanoid", "the creature")
        assert spell_info(spell_id).attack or any(x in text for x in one), spell_id


def test_edition_five_refuses_a_guiding_bolt_at_two_creatures_naming_the_count() -> None:
    state = table(5)
    error = refused(state, cast_at("guiding-bolt", ["g0", "g1"]))
    assert error.code == "dnd5e.spell.too_many_targets"
    assert error_message(error, "en") == (
        "Guiding Bolt with a level 1 slot may target 1 creature, not 2."
    )
    # one creature: the attack rolls (a natural 1 misses, no damage dice)
    one = play(state, cast_at("guiding-bolt", ["g0"]), 1)
    assert one.fighters["g0"].hp == 30 and one.slots_used["cleo"] == (1,)


def test_a_cantrip_names_no_slot_in_its_refusal() -> None:
    error = refused(table(5), cast_at("sacred-flame", ["g0", "g1"]))
    assert error.code == "dnd5e.spell.cantrip_targets"
    assert error.params["count"] == 1 and error.params["given"] == 2
    assert error_message(error, "en") == "Sacred Flame may target 1 creature, not 2."
    assert error_message(error, "de") == "Sacred Flame wirkt auf 1 Kreatur, nicht auf 2."


def test_edition_four_still_rolls_a_single_target_spell_at_each_creature() -> None:
    state = table(4)
    # two attack rolls, both natural 1s: both miss, nothing else rolled
    dice = Dice(1, 1)
    (cast,) = decide(state, command(cast_at("guiding-bolt", ["g0", "g1"])), dice)
    assert isinstance(cast, SpellCast) and dice.values == []
    assert [(t.target, t.d20) for t in cast.targets] == [("g0", (1,)), ("g1", (1,))]


def test_blindness_deafness_takes_one_more_creature_per_slot_level_above_second() -> None:
    state = table(5)
    error = refused(state, cast_at("blindness-deafness", ["g0", "g1"]))
    assert (error.params["count"], error.params["given"]) == (1, 2)
    three = refused(state, cast_at("blindness-deafness", ["g0", "g1", "g2"], slot=3))
    assert (three.params["count"], three.params["given"]) == (2, 3)
    # both save with a natural 20 (DC 13): a 3rd-level slot is spent on two creatures
    assert play(state, cast_at("blindness-deafness", ["g0", "g1"], slot=3), 20, 20).slots_used[
        "cleo"
    ] == (0, 0, 1)


def test_hold_person_keeps_its_targets_within_nine_metres_of_each_other() -> None:
    # f0 at b9 is 6 squares (9 m) from g0 at b3; f1 at b10 is 7 squares (10.5 m) from it
    state = table(5, "b9", "b10")
    near = play(state, cast_at("hold-person", ["g0", "f0"], slot=3), 20, 20)
    assert near.slots_used["cleo"] == (0, 0, 1)
    error = refused(state, cast_at("hold-person", ["g0", "f1"], slot=3))
    assert error.code == "dnd5e.spell.targets_apart"
    assert error_message(error, "en") == (
        "Hold Person: G0 and F1 are 10.5 m apart; its targets must be within 9 m of each other."
    )
    assert error_message(error, "de") == (
        "Hold Person: G0 und F1 sind 10.5 m voneinander entfernt; die Ziele dürfen höchstens"
        " 9 m auseinander sein."
    )
    # every pair counts: g0 and g1 stand side by side, f1 is too far from both
    assert refused(state, cast_at("hold-person", ["g0", "g1", "f1"], slot=4)).params == {
        "spell": "Hold Person",
        "first": "G0",
        "second": "F1",
        "distance": "10.5",
        "apart": "9",
    }


def test_edition_four_holds_creatures_however_far_apart() -> None:
    state = table(4, "b10")
    after = play(state, cast_at("hold-person", ["g0", "f0"], slot=3), 20, 20)
    assert after.slots_used["cleo"] == (0, 0, 1)


def test_acid_splash_takes_two_creatures_side_by_side_not_three_nor_two_apart() -> None:
    state = table(5)
    # g0 at b3 and g1 at c3 are 1.5 m apart: both save with a natural 20
    assert play(state, cast_at("acid-splash", ["g0", "g1"]), 20, 20).encounter is not None
    apart = refused(state, cast_at("acid-splash", ["g0", "g2"]))
    assert apart.code == "dnd5e.spell.targets_apart"
    assert (apart.params["distance"], apart.params["apart"]) == ("3.0", "1.5")
    three = refused(state, cast_at("acid-splash", ["g0", "g1", "g2"]))
    assert error_message(three, "en") == "Acid Splash may target at most 2 creatures, not 3."


def test_the_height_between_two_targets_counts_as_a_third_axis() -> None:
    # f0 at b8 is 5 squares (7.5 m) across from g0 at b3: near enough on the flat map, but on
    # ground 10.5 m high it is 10.5 m away (uniform diagonals: the longer of across and up)
    state = table(5, "b8")
    assert play(state, cast_at("hold-person", ["g0", "f0"], slot=3), 20, 20).slots_used["cleo"] == (
        0,
        0,
        1,
    )
    high = play(state, {"kind": "ground", "squares": ["b8"], "height_m": 10.5})
    error = refused(high, cast_at("hold-person", ["g0", "f0"], slot=3))
    assert (error.params["distance"], error.params["apart"]) == ("10.5", "9")
