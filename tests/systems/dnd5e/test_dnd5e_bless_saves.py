"""Bless and Bane on every saving throw (rules edition 3): the save a hit forces (the giant
spider's poison), a monster's save action (the dragon's Wing Attack), the save that ends a
condition and a death save all roll the lasting effects' d4 through the one save roll; tables
of edition 2 keep rolling them without it. Hand-computed rolls, odds against enumeration.

Cleo (a cleric, Wis 16) at a1 blesses Ada (AC 15, 20 HP, Dex 14, Con 12, Wis 12) at b1;
initiative: Cleo, Ada, then the monster.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import GM_VIEWER
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.events import DeathSaved
from spieltisch.systems.dnd5e.evolve import evolve
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, end_turn, fresh, pc, play, spider_bite_odds
from .test_dnd5e_lasting import CLERIC

SPIDER = {"kind": "add_monster", "id": "spider", "monster": "giant-spider", "position": "a2"}
DRAGON = {"kind": "add_monster", "id": "drake", "monster": "adult-red-dragon", "position": "c1"}
BITE = {"kind": "attack", "creature": "spider", "target": "ada", "attack": "Bite"}
WING = {"kind": "legendary", "creature": "drake", "action": "Wing Attack", "targets": ["ada"]}
FEAR = {
    "kind": "condition",
    "target": "ada",
    "condition": "frightened",
    "duration": {"until": "save", "ability": "wis", "dc": 13},
}
D4 = range(1, 5)
D20 = range(1, 21)


def table(monster: dict[str, Any], spell: str = "bless", edition: int = 3) -> DndState:
    """Cleo, Ada and ``monster``; Cleo has cast ``spell`` on Ada (no save for Bless)."""
    state = fresh(edition=edition)
    state = play(state, pc("cleo", "a1", spellcasting=CLERIC, abilities={"wis": 16}))
    state = play(state, pc("ada", "b1"))
    state = play(state, monster)
    rolls = {"cleo": 20, "ada": 15, monster["id"]: 5}
    state = play(state, {"kind": "start_combat", "rolls": rolls})
    return play(state, {"kind": "cast", "creature": "cleo", "spell": spell, "targets": ["ada"]})


def spider_turn(edition: int = 3) -> DndState:
    return end_turn(end_turn(table(SPIDER, edition=edition)))


def kinds(state: DndState) -> set[str]:
    return {x.kind for x in state.effects.on("ada")}


# ---------------------------------------------------------------- a hit's rider save


def test_bless_helps_the_save_against_the_giant_spiders_poison() -> None:
    # d20 15 hits; 1d8 4 (+3 = 7 piercing); 2d8 5 + 4 = 9 poison; Con save DC 11 with +1:
    # 9 + 1 = 10 fails, the d4's 1 makes 11: half the poison (4)
    state = play(spider_turn(), BITE, 15, 4, 5, 4, 9, 1)
    assert state.fighters["ada"].hp == 20 - 7 - 4
    assert state.last_attack is not None


def test_bane_hinders_the_save_against_the_poison() -> None:
    state = fresh(edition=3)
    state = play(state, pc("cleo", "a1", spellcasting=CLERIC, abilities={"wis": 16}))
    state = play(state, pc("ada", "b1"))
    state = play(state, SPIDER)
    state = play(state, {"kind": "start_combat", "rolls": {"cleo": 20, "ada": 15, "spider": 5}})
    # Ada's Cha save (+0) of 5 against Cleo's DC 13 fails: she is baned
    cast = {"kind": "cast", "creature": "cleo", "spell": "bane", "targets": ["ada"]}
    state = end_turn(end_turn(play(state, cast, 5)))
    assert "baned" in kinds(state)
    # save 10 + 1 = 11 would halve the poison; the d4's 1 taken off makes 10: all of it
    state = play(state, BITE, 15, 4, 5, 4, 10, 1)
    assert state.fighters["ada"].hp == 20 - 7 - 9


def test_edition_two_rolls_the_rider_save_without_the_d4() -> None:
    state = play(spider_turn(edition=2), BITE, 15, 4, 5, 4, 9)
    assert state.fighters["ada"].hp == 20 - 7 - 9


def test_rider_effect_dice_that_do_not_fit_are_refused() -> None:
    state = spider_turn()
    events = SYSTEM.decide(state, command(BITE), Dice(15, 4, 5, 4, 9, 1))
    bad = events[-1].model_copy(update={"rider_effect_dice": (5,)})
    with pytest.raises(RuleError) as caught:
        SYSTEM.evolve(state, bad)
    assert caught.value.code == "dnd5e.spell.bad_effect_dice"


def test_the_odds_of_the_bite_count_bless_on_the_save() -> None:
    state = spider_turn()
    odds = SYSTEM.odds(state, command(BITE))
    assert odds is not None
    got = {o.value: Fraction(str(o.exact)) for o in odds.outcomes}
    # Brute force: the attack d20 (+5 against AC 15), 1d8+3 and the poison's 2d8 (both
    # doubled on a 20), the poison halved when the Con save d20 + 1 + d4 reaches DC 11.
    saved = sum(Fraction(1, 80) for d20, bless in itertools.product(D20, D4) if d20 + bless >= 10)
    assert saved == Fraction(27, 40)  # 11/20 without Bless
    assert got == spider_bite_odds(saved)


# ---------------------------------------------------------------- a save action's save


def wing_window(edition: int = 3) -> DndState:
    """Cleo's turn ended: the dragon may take a legendary action."""
    state = end_turn(table(DRAGON, edition=edition))
    assert state.legendary.window == "cleo"
    return state


def test_bless_helps_the_save_against_the_dragons_wing_attack() -> None:
    # Dex save DC 22 with +2: 16 + 2 = 18, the d4's 4 makes 22: saved (no damage on a save)
    state = play(wing_window(), WING, 16, 4, 3, 3)
    assert state.fighters["ada"].hp == 20 and "prone" not in kinds(state)
    # the d4's 3 makes 21: 2d6 + 8 = 14 bludgeoning, and prone
    state = play(wing_window(), WING, 16, 3, 3, 3)
    assert state.fighters["ada"].hp == 20 - 14 and "prone" in kinds(state)


def test_edition_two_rolls_the_wing_attack_save_without_the_d4() -> None:
    state = play(wing_window(edition=2), WING, 20, 3, 3)
    assert state.fighters["ada"].hp == 20  # 20 + 2 = 22
    state = play(wing_window(edition=2), WING, 19, 3, 3)
    assert state.fighters["ada"].hp == 6


def test_the_wing_attack_odds_count_bless() -> None:
    state = wing_window()
    odds = SYSTEM.odds(state, command(WING))
    assert odds is not None
    got = {o.value: Fraction(str(o.exact)) for o in odds.outcomes if Fraction(str(o.exact))}
    want: dict[int, Fraction] = {}
    for d20, bless, a, b in itertools.product(D20, D4, range(1, 7), range(1, 7)):
        damage = 0 if d20 + 2 + bless >= 22 else a + b + 8
        want[damage] = want.get(damage, Fraction(0)) + Fraction(1, 20 * 4 * 36)
    assert got == want
    saved = sum(Fraction(1, 80) for d20, bless in itertools.product(D20, D4) if d20 + bless >= 20)
    assert saved == Fraction(14, 80)
    wing = next(
        a
        for a in SYSTEM.view(state, GM_VIEWER)["legendary"]["monsters"][0]["actions"]
        if a["name"] == "Wing Attack"
    )
    by_target = {o["target"]: o["save"]["exact"] for o in wing["odds"]}
    assert by_target == {"ada": "7/40", "cleo": "1/20"}  # Cleo (Dex +2) is not blessed


# ---------------------------------------------------------------- the save that ends a condition


def feared(edition: int = 3) -> DndState:
    """Ada's turn, frightened until a Wis save DC 13 (+1) at the end of her turn."""
    state = end_turn(table(SPIDER, edition=edition))
    return play(state, FEAR)


def test_bless_helps_the_save_that_ends_a_condition() -> None:
    # 11 + 1 = 12 < 13; the d4's 1 makes 13: the fear ends
    state = play(feared(), {"kind": "end_turn"}, 11, 1)
    assert "frightened" not in kinds(state)
    # the d4 is not enough on a 10: 10 + 1 + 1 = 12
    state = play(feared(), {"kind": "end_turn"}, 10, 1)
    assert "frightened" in kinds(state)


def test_edition_two_rolls_the_condition_save_without_the_d4() -> None:
    state = play(feared(edition=2), {"kind": "end_turn"}, 11)
    assert "frightened" in kinds(state)


def test_the_condition_badge_counts_bless_in_the_odds() -> None:
    fighter = next(f for f in SYSTEM.view(feared(), GM_VIEWER)["fighters"] if f["id"] == "ada")
    badge = next(x for x in fighter["condition_details"] if x["kind"] == "frightened")
    want = sum(
        Fraction(1, 80) for d20, bless in itertools.product(D20, D4) if d20 + 1 + bless >= 13
    )
    assert want == Fraction(23, 40)
    assert badge["save"] == {"p": float(want), "exact": "23/40"}
    fighter = next(
        f for f in SYSTEM.view(feared(edition=2), GM_VIEWER)["fighters"] if f["id"] == "ada"
    )
    badge = next(x for x in fighter["condition_details"] if x["kind"] == "frightened")
    assert badge["save"]["exact"] == "9/20"


# ---------------------------------------------------------------- death saves


def dying(edition: int = 3) -> DndState:
    """Blessed Ada at 0 hit points, her turn."""
    state = play(table(SPIDER, edition=edition), {"kind": "damage", "target": "ada", "amount": 20})
    return end_turn(state)


DEATH_SAVE = {"kind": "death_save", "creature": "ada"}


def test_bless_helps_a_death_save_but_a_natural_one_stays_two_failures() -> None:
    state = play(dying(), DEATH_SAVE, 8, 2)  # 8 + 2 = 10: a success
    assert (state.fighters["ada"].death_successes, state.fighters["ada"].death_failures) == (1, 0)
    state = play(dying(), DEATH_SAVE, 8, 1)  # 9: a failure
    assert (state.fighters["ada"].death_successes, state.fighters["ada"].death_failures) == (0, 1)
    state = play(dying(), DEATH_SAVE, 1, 4)  # a natural 1: two failures, whatever the d4
    assert state.fighters["ada"].death_failures == 2


def test_edition_two_rolls_the_death_save_without_the_d4() -> None:
    state = play(dying(edition=2), DEATH_SAVE, 8)
    assert state.fighters["ada"].death_failures == 1


def test_a_death_save_carries_what_bless_adds_and_a_forged_one_is_refused() -> None:
    """The event tells the log the d4's part (8 + 2 = 10: saved); a boost that is not the
    dice's is refused when folded."""
    state = dying()
    (event,) = decide(state, command(DEATH_SAVE), Dice(8, 2))
    assert isinstance(event, DeathSaved)
    assert (event.d20, event.effect_dice, event.boost) == (8, (2,), 2)
    with pytest.raises(RuleError) as caught:
        evolve(state, event.model_copy(update={"boost": 0}))
    assert caught.value.code == "dnd5e.spell.bad_effect_dice"
