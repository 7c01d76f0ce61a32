"""Shield against the attack that triggers it (rules edition 4): a hit on a creature that may
cast Shield waits for its decision; Shield's +5 AC counts against that attack. Hand-computed
rolls: the goblin-like foe's Claw is +4 (1d6 + 2), the wizard's AC 15 (20 with Shield)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import Role, Viewer
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, end_turn, fresh, pc, play, start
from .test_dnd5e_casting import WIZARD, target

MAGE = {**WIZARD, "slots": [1, 1], "spells": ["fire-bolt", "shield"]}
CLAW = {"kind": "attack", "creature": "g1", "target": "wiz", "attack": "claw"}
GM = Viewer(Role.GM)


def table(edition: int = 4, **mage: Any) -> DndState:
    """Wiz (AC 15, 20 HP, Shield with one 1st- and one 2nd-level slot) at a1 beside g1 at a2;
    g1's turn."""
    state = fresh(edition=edition)
    state = play(state, pc("wiz", "a1", spellcasting={**MAGE, **mage}, abilities={"int": 18}))
    state = play(state, target("g1", "a2"))
    return end_turn(start(state, "wiz", "g1"))


def refused(state: DndState, data: dict[str, Any], *dice: int) -> RuleError:
    with pytest.raises(RuleError) as caught:
        decide(state, command(data), Dice(*dice))
    return caught.value


def shield_odds(state: DndState, cast: bool = True) -> dict[str, str | None]:
    odds = SYSTEM.odds(state, command({"kind": "shield", "creature": "wiz", "cast": cast}))
    assert odds is not None
    return {str(o.value): o.exact for o in odds.outcomes}


def test_a_hit_on_a_shield_caster_waits_and_shield_turns_it_into_a_miss() -> None:
    held = play(table(), CLAW, 12)  # 12 + 4 = 16: hits AC 15, no damage rolled yet
    assert held.held_hit is not None and held.held_hit.d20 == (12,)
    assert held.fighters["wiz"].hp == 20 and held.last_attack is None
    seen = SYSTEM.view(held, GM)["held_hit"]
    assert (seen["natural"], seen["total"], seen["ac"], seen["shield_ac"]) == (12, 16, 15, 20)
    assert seen["slot"] == 1 and seen["shield_hits"] == {"p": 0.0, "exact": "0/1"}
    assert shield_odds(held) == {"hit": "0/1", "miss": "1/1"}
    assert shield_odds(held, cast=False) == {"hit": "1/1", "miss": "0/1"}
    shielded = play(held, {"kind": "shield", "creature": "wiz"})  # no die: the roll stands
    assert shielded.held_hit is None and shielded.fighters["wiz"].hp == 20
    assert shielded.last_attack is not None and shielded.last_attack.outcome == "miss"
    assert shielded.slots_used["wiz"] == (1,) and shielded.budgets["wiz"].amount("reaction") == 0
    assert "shielded" in {x.kind for x in shielded.effects.on("wiz")}
    assert shielded.budgets["g1"].amount("action") == 0  # the attack was made
    # the +5 lasts: the next hit of 19 misses AC 20 without waiting (Shield is up)
    assert SYSTEM.view(shielded, GM)["held_hit"] is None


def test_a_hit_that_beats_the_shield_still_hits_and_rolls_its_damage() -> None:
    held = play(table(), CLAW, 16)  # 20 hits AC 20 too
    assert SYSTEM.view(held, GM)["held_hit"]["shield_hits"] == {"p": 1.0, "exact": "1/1"}
    assert shield_odds(held) == {"hit": "1/1", "miss": "0/1"}
    after = play(held, {"kind": "shield", "creature": "wiz", "slot": 2}, 3)  # 1d6 = 3, + 2
    assert after.fighters["wiz"].hp == 15 and after.slots_used["wiz"] == (0, 1)
    assert after.last_attack is not None and after.last_attack.outcome == "hit"


def test_letting_the_hit_stand_keeps_slot_and_reaction() -> None:
    held = play(table(), CLAW, 12)
    after = play(held, {"kind": "shield", "creature": "wiz", "cast": False}, 4)
    assert after.fighters["wiz"].hp == 14 and after.held_hit is None
    assert after.slots_used.get("wiz", ()) == () and after.budgets["wiz"].amount("reaction") == 1


def test_a_critical_waits_too_and_stays_a_critical() -> None:
    held = play(table(), CLAW, 20)
    assert SYSTEM.view(held, GM)["held_hit"]["shield_hits"]["exact"] == "1/1"
    after = play(held, {"kind": "shield", "creature": "wiz"}, 1, 2)  # 2d6 on a critical
    assert after.last_attack is not None and after.last_attack.outcome == "critical"
    assert after.fighters["wiz"].hp == 15


def test_nothing_else_happens_while_the_hit_waits() -> None:
    held = play(table(), CLAW, 12)
    assert refused(held, {"kind": "end_turn"}).code == "dnd5e.hit_pending"
    assert refused(held, CLAW, 10).code == "dnd5e.hit_pending"
    spell = {"kind": "cast", "creature": "wiz", "spell": "shield"}
    assert refused(held, spell).code == "dnd5e.hit_pending"
    assert refused(held, {"kind": "shield", "creature": "g1"}).code == "dnd5e.no_hit_pending"
    assert refused(table(), {"kind": "shield", "creature": "wiz"}).code == "dnd5e.no_hit_pending"
    # a slot of a level the caster has not got is refused, naming the slot; nothing changes
    error = refused(held, {"kind": "shield", "creature": "wiz", "slot": 3})
    assert error.code == "dnd5e.spell.no_slot"


@pytest.mark.parametrize(
    ("why", "mage", "d20"),
    [
        ("a miss", {}, 10),  # 14 misses AC 15
        ("no Shield on the list", {"spells": ["fire-bolt"]}, 12),
        ("no slot left", {"slots": [0, 0]}, 12),
    ],
)
def test_no_wait_without_a_hit_or_a_shield_to_cast(
    why: str, mage: dict[str, Any], d20: int
) -> None:
    after = play(table(**mage), CLAW, d20, *(() if d20 == 10 else (3,)))
    assert after.held_hit is None, why
    assert after.last_attack is not None


def test_no_wait_with_the_reaction_spent_or_on_a_table_of_edition_three() -> None:
    state = table()
    shielded = play(state, {"kind": "cast", "creature": "wiz", "spell": "shield"})
    # already shielded: 12 + 4 misses AC 20 without waiting
    assert play(shielded, CLAW, 12).held_hit is None
    # edition 3 keeps the old reading: the hit lands at once, damage rolled with it
    old = play(table(edition=3), CLAW, 12, 3)
    assert old.held_hit is None and old.fighters["wiz"].hp == 15


def test_an_innate_shield_waits_with_slot_one() -> None:
    innate = {"ability": "cha", "save_dc": 12, "attack_bonus": 4, "innate": {"shield": 1}}
    state = fresh()
    state = play(state, pc("wiz", "a1", spellcasting=innate))
    state = play(state, target("g1", "a2"))
    held = play(end_turn(start(state, "wiz", "g1")), CLAW, 12)
    assert SYSTEM.view(held, GM)["held_hit"]["slot"] == 1
    after = play(held, {"kind": "shield", "creature": "wiz"})
    assert after.innate_used == {"wiz": {"shield": 1}} and after.fighters["wiz"].hp == 20


def test_an_opportunity_attack_that_hits_waits_and_the_move_goes_on_after_shield() -> None:
    state = fresh()
    state = play(state, pc("wiz", "b2", spellcasting=MAGE, abilities={"int": 18}))
    state = play(state, target("g1", "b3"))
    state = start(state, "wiz", "g1")
    away = {"kind": "move", "creature": "wiz", "steps": [{"to": "b1"}, {"to": "a1"}]}
    # b1 is 3 m from g1 at b3: the first step leaves its reach, so the move waits on b2
    waiting = play(state, away)
    assert waiting.pending is not None and str(waiting.fighters["wiz"].position) == "b2"
    held = play(waiting, {"kind": "react", "creature": "g1", "attack": "claw"}, 12)
    assert held.held_hit is not None and held.held_hit.opportunity
    assert held.pending is not None  # the move waits on the decision
    assert SYSTEM.view(held, GM)["pending_reaction"]["attacks"] == []
    after = play(held, {"kind": "shield", "creature": "wiz"})
    assert after.pending is None and after.held_hit is None
    assert after.fighters["wiz"].hp == 20 and after.budgets["g1"].amount("reaction") == 0
    assert str(after.fighters["wiz"].position) == "a1"


def test_the_held_hit_is_shown_only_to_viewers_who_see_both() -> None:
    state = fresh()
    state = play(state, pc("wiz", "a1", spellcasting=MAGE, abilities={"int": 18}))
    spy = target("g1", "a2")
    state = play(state, {**spy, "secret": True})
    state = end_turn(start(state, "wiz", "g1"))
    held = play(state, CLAW, 12)
    player = Viewer(Role.PLAYER, "p", frozenset({"wiz"}))
    assert SYSTEM.view(held, player)["held_hit"] is None
    assert SYSTEM.view(held, GM)["held_hit"]["attacker"] == "g1"


def test_p_still_hits_matches_enumeration_over_every_d20() -> None:
    """P(the attack still hits) with Shield is certain once the d20 is rolled: for each face,
    against the rule written out (hit when 20, or d20 + 4 >= 20)."""
    for face in range(1, 21):
        rolled = face + 4
        state = table()
        if face != 20 and rolled < 15:
            continue  # a miss does not wait
        held = play(state, CLAW, face)
        expected = Fraction(int(face == 20 or rolled >= 20))
        assert shield_odds(held)["hit"] == f"{expected.numerator}/{expected.denominator}"


def test_a_readied_attack_that_hits_waits_and_its_reaction_is_paid_once() -> None:
    state = table()
    ready = {
        "kind": "ready",
        "creature": "g1",
        "trigger": "the wizard casts",
        "attack": "claw",
        "target": "wiz",
    }
    wiz_turn = end_turn(play(state, ready))
    held = play(wiz_turn, {"kind": "trigger", "creature": "g1"}, 13)  # 17 hits AC 15
    assert held.held_hit is not None and held.held_hit.readied
    after = play(held, {"kind": "shield", "creature": "wiz"})
    assert after.last_attack is not None and after.last_attack.outcome == "miss"
    assert after.budgets["g1"].amount("reaction") == 0 and after.held_hit is None
