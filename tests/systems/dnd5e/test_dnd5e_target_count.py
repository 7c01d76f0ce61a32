"""How many creatures a spell may target (rules edition 4): Bless and Bane up to 3, one more
per slot level above 1st; more are refused with a localized error naming the count, and
nothing changes. Tables of edition 3 keep the old reading (the table did not count)."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.decide import decide
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
    "spells": ["bless", "bane", "hold-person"],
}
PARTY = ("b1", "c1", "d1", "e1")


def table(edition: int = 4) -> DndState:
    """Cleo (a cleric with 1st-3rd level slots) at a1, four allies and four foes near."""
    state = fresh(edition=edition)
    state = play(state, pc("cleo", "a1", spellcasting=CLERIC))
    for i, square in enumerate(PARTY):
        state = play(state, pc(f"p{i}", square))
    for i in range(4):
        state = play(state, target(f"g{i}", f"{'bcde'[i]}3"))
    order = ["cleo", *(f"p{i}" for i in range(4)), *(f"g{i}" for i in range(4))]
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
    assert target_limit(spell_info(spell), slot) == count


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
