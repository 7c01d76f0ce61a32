"""Chain Lightning counts its targets (rules edition 6): it strikes the first creature named,
which must be within its range (45 m), and leaps to at most three others (one more per slot
level above 6th), each within 9 m of that first one, wherever they stand from the caster.
More creatures, or one farther from the first, are refused before a die is rolled, with a
localized error naming them. Tables of edition 5 and before read the cast as they did: every
creature named within range, however many (the frozen exports replay as played)."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.events import SpellCast
from spieltisch.systems.dnd5e.spells import spell_info, target_limit, targets_leap_m
from spieltisch.systems.dnd5e.state import DndState

from .helpers import Dice, command, fresh, pc, play
from .test_dnd5e_casting import target

WIZARD = {
    "ability": "int",
    "level": 13,
    "save_dc": 17,
    "attack_bonus": 9,
    "slots": [4, 3, 3, 3, 2, 1, 1],
    "spells": ["chain-lightning"],
}


class Steady:
    """Dice that save every d20 (a natural 20) and roll 1 on every damage die."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def roll(self, sides: int) -> int:
        self.asked.append(sides)
        return 20 if sides == 20 else 1


def table(edition: int, *foes: tuple[str, str]) -> DndState:
    """Zed (a wizard with a 6th- and a 7th-level slot) at a1 on a map 40 squares wide, and
    a foe on each square named."""
    state = fresh(edition=edition, width=40)
    state = play(state, pc("zed", "a1", spellcasting=WIZARD))
    for id_, square in foes:
        state = play(state, target(id_, square))
    order = ["zed", *(id_ for id_, _ in foes)]
    return play(state, {"kind": "start_combat", "rolls": {w: 20 - i for i, w in enumerate(order)}})


def cast(names: list[str], slot: int = 6) -> dict[str, Any]:
    return {
        "kind": "cast",
        "creature": "zed",
        "spell": "chain-lightning",
        "slot": slot,
        "targets": names,
    }


def struck(state: DndState, names: list[str], slot: int = 6) -> list[str]:
    """The creatures a cast strikes (each saves with a natural 20)."""
    (event,) = decide(state, command(cast(names, slot)), Steady())
    assert isinstance(event, SpellCast)
    return [t.target for t in event.targets]


def refused(state: DndState, names: list[str], slot: int = 6) -> RuleError:
    dice = Dice()
    with pytest.raises(RuleError) as caught:
        decide(state, command(cast(names, slot)), dice)
    assert dice.asked == []
    return caught.value


# Five foes in a row from j1 (13.5 m from Zed at a1) eastward, one square (1.5 m) apart, and
# one more seven squares (10.5 m) beyond the first.
ROW = [("o1", "j1"), ("o2", "k1"), ("o3", "l1"), ("o4", "m1"), ("o5", "n1"), ("far", "q1")]


def test_the_data_reads_one_bolt_and_three_leaps_one_more_per_slot_above_sixth() -> None:
    info = spell_info("chain-lightning")
    assert (info.level, info.range_m) == (6, 45)
    assert target_limit(info, 6, edition=6) == 4
    assert target_limit(info, 7, edition=6) == 5
    assert target_limit(info, 6, edition=5) is None
    assert str(targets_leap_m(info)) == "9"


def test_four_creatures_with_a_sixth_level_slot_five_refused_naming_the_count() -> None:
    state = table(6, *ROW)
    assert struck(state, ["o1", "o2", "o3", "o4"]) == ["o1", "o2", "o3", "o4"]
    error = refused(state, ["o1", "o2", "o3", "o4", "o5"])
    assert error.code == "dnd5e.spell.too_many_targets"
    assert (error.params["count"], error.params["given"]) == (4, 5)
    assert error_message(error, "en") == (
        "Chain Lightning with a level 6 slot may target at most 4 creatures, not 5."
    )


def test_a_seventh_level_slot_leaps_to_one_more() -> None:
    state = table(6, *ROW)
    assert len(struck(state, ["o1", "o2", "o3", "o4", "o5"], slot=7)) == 5
    assert refused(state, [*(f"o{i}" for i in range(1, 6)), "far"], slot=7).params["count"] == 5


def test_every_other_target_within_nine_metres_of_the_first() -> None:
    state = table(6, *ROW)
    # o5 at n1 is 4 squares (6 m) from o1; "far" at q1 is 7 squares (10.5 m) from it
    assert struck(state, ["o1", "o5"]) == ["o1", "o5"]
    error = refused(state, ["o1", "o2", "far"])
    assert error.code == "dnd5e.spell.leap_too_far"
    assert error.params == {
        "spell": "Chain Lightning",
        "first": "O1",
        "target": "Far",
        "distance": "10.5",
        "leap": "9",
    }
    assert error_message(error, "en") == (
        "Chain Lightning: Far is 10.5 m from O1, the first target; the spell leaps at most 9 m"
        " from it."
    )
    assert "dem ersten Ziel" in error_message(error, "de")
    # measured from the first, not from each other: o5, 4.5 m from "far", does not help
    assert refused(state, ["o1", "o5", "far"]).params["target"] == "Far"
    # struck first from o2 (k1), "far" is 6 squares (9 m) away: near enough
    assert struck(state, ["o2", "far"]) == ["o2", "far"]
    # the first creature named is the one struck first: from "far" the others are too far
    assert refused(state, ["far", "o1"]).params["target"] == "O1"


def test_only_the_first_target_needs_to_be_within_range() -> None:
    # from Zed at a1: "near" at ad1 is 29 squares (43.5 m) away, within the 45 m range;
    # "edge" at af1 (31 squares, 46.5 m) and "past" at ah1 (33 squares, 49.5 m) are beyond it
    # but within 9 m of "near"
    state = table(6, ("near", "ad1"), ("edge", "af1"), ("past", "ah1"))
    assert struck(state, ["near", "edge", "past"]) == ["near", "edge", "past"]
    error = refused(state, ["edge", "near"])
    assert error.code == "dnd5e.spell.out_of_range"
    assert error.params["target"] == "Edge"


def test_edition_five_strikes_every_creature_named_within_range() -> None:
    state = table(5, *ROW)
    assert len(struck(state, ["o1", "o2", "o3", "o4", "o5", "far"])) == 6
    edge = table(5, ("near", "ad1"), ("edge", "af1"))
    assert refused(edge, ["near", "edge"]).code == "dnd5e.spell.out_of_range"
