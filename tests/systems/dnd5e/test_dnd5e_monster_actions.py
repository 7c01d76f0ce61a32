"""A monster's save action taken as its action in its own turn (the young red dragon's Fire
Breath: DC 17 Dexterity, 56 (16d6) fire, half on a save, recharge 5–6). The targets save, the
damage is rolled once, and the breath is spent: at the start of each of the dragon's later
turns a d6 brings it back on a 5 or 6. Taking it out of turn, an action the stat block does
not have as a save, or a spent breath is refused before a die is rolled; the fight's end
gives every breath back."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.events import MonsterActionUsed, Recharged, SaveActionRolled
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, end_turn, fresh, pc, play, start

BREATH = {"kind": "monster_action", "creature": "red", "action": "Fire Breath", "targets": ["ada"]}


def fight() -> DndState:
    """The dragon at c1 and Ada (Dex 14: +2 on Dexterity saves, 20 HP) at a1, the dragon's
    turn first."""
    state = fresh()
    state = play(state, pc("ada", "a1"))
    state = play(
        state, {"kind": "add_monster", "id": "red", "monster": "young-red-dragon", "position": "c3"}
    )
    return start(state, "red", "ada")


def refused(state: DndState, data: dict[str, Any]) -> RuleError:
    dice = Dice()
    with pytest.raises(RuleError) as caught:
        decide(state, command(data), dice)
    assert dice.asked == []
    return caught.value


def test_the_breath_strikes_and_is_spent_until_a_five_or_six() -> None:
    state = fight()
    # Ada's save: 14 + 2 = 16 < 17 fails; 16d6 all ones: 16 fire damage
    events = decide(state, command(BREATH), Dice(14, *[1] * 16))
    used, saves = events
    assert isinstance(used, MonsterActionUsed) and used.recharge == 5
    assert isinstance(saves, SaveActionRolled) and saves.saves[0].d20 == (14,)
    breathed = play(state, BREATH, 14, *[1] * 16)
    assert breathed.fighters["ada"].hp == 4
    assert breathed.recharging == {"red": ("Fire Breath",)}
    error = refused(breathed, BREATH)
    assert error.code == "dnd5e.monster_action.recharging"
    assert error_message(error, "en") == (
        "Fire Breath of Young Red Dragon is spent: it comes back on a 5 or more on a d6 at the"
        " start of its turn."
    )
    # Ada's turn, then the dragon's: a 4 leaves the breath spent, a 5 brings it back
    adas = end_turn(breathed)
    still = play(adas, {"kind": "end_turn"}, 4)
    assert still.recharging == {"red": ("Fire Breath",)}
    later = play(end_turn(still), {"kind": "end_turn"}, 5)
    assert later.recharging == {}
    (rolled,) = [
        x
        for x in decide(end_turn(still), command({"kind": "end_turn"}), Dice(6))
        if isinstance(x, Recharged)
    ]
    assert (rolled.roll, rolled.ready) == (6, True)


def test_a_save_halves_the_damage() -> None:
    # a natural 20 saves: half of 16d6 all sixes (96) is 48
    after = play(fight(), BREATH, 20, *[6] * 16)
    assert after.fighters["ada"].hp == 0  # 48 > 20 hit points


def test_the_odds_before_the_breath_are_its_damage_on_the_first_target() -> None:
    odds = SYSTEM.odds(fight(), command(BREATH))
    assert odds is not None
    total = sum(Fraction(o.exact) for o in odds.outcomes)
    assert total == 1
    # P(save) for Ada: d20 + 2 >= 17 on 15..20: 6/20; the mean is 56 on a failure, 28 on a
    # save (before rounding halves down): about 14/20 * 56 + 6/20 * 28
    assert odds.mean is not None and 47 < odds.mean < 48


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({**BREATH, "action": "Bite"}, "dnd5e.monster_action.unknown"),
        ({**BREATH, "action": "Frost Breath"}, "dnd5e.monster_action.unknown"),
    ],
)
def test_no_such_save_action_is_refused_naming_it(data: dict[str, Any], code: str) -> None:
    error = refused(fight(), data)
    assert error.code == code
    assert data["action"] in error_message(error, "de")


def test_out_of_its_turn_refused_and_the_end_of_the_fight_gives_the_breath_back() -> None:
    adas = end_turn(play(fight(), BREATH, 14, *[1] * 16))
    assert refused(adas, BREATH).code == "dnd5e.not_your_turn"
    over = play(adas, {"kind": "end_combat"})
    assert over.recharging == {}
