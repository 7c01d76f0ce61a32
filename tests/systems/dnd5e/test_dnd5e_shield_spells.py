"""Shield against spells (rules edition 5): an attack spell's hit and Magic Missile's darts at
a creature that may cast Shield wait for its decision, each target of a volley on its own.
Hand-computed rolls: Wiz's spell attacks are +6 (Fire Bolt 2d10 at level 5, Scorching Ray's
rays 2d6), the foes' AC 13 (18 with Shield), 30 HP."""

from __future__ import annotations

from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.visibility import Role, Viewer
from spieltisch.systems.dnd5e import events as e
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.evolve import fold
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, fresh, pc, play, start
from .test_dnd5e_casting import WIZARD, target

GM = Viewer(Role.GM)
SHIELD = {"ability": "int", "save_dc": 12, "attack_bonus": 4, "slots": [1], "spells": ["shield"]}
SPELLS = ["fire-bolt", "scorching-ray", "magic-missile"]


def table(edition: int = 5, *foes: str) -> DndState:
    """Wiz (Int 18, at a1) against the Shield casters m1 (at a4) and m2 (at a5) and the
    plain foe g1 (at a6); Wiz's turn."""
    state = fresh(edition=edition)
    wizard = {**WIZARD, "spells": SPELLS}
    state = play(state, pc("wiz", "a1", spellcasting=wizard, abilities={"int": 18}))
    state = play(state, target("m1", "a4", spellcasting=SHIELD))
    state = play(state, target("m2", "a5", spellcasting=SHIELD))
    state = play(state, target("g1", "a6"))
    return start(state, "wiz", "m1", "m2", "g1")


def cast(spell: str, *targets: str, **more: Any) -> dict[str, Any]:
    return {"kind": "cast", "creature": "wiz", "spell": spell, "targets": list(targets), **more}


def shield(creature: str = "m1", cast: bool = True) -> dict[str, Any]:
    return {"kind": "shield", "creature": creature, "cast": cast}


def refused(state: DndState, data: dict[str, Any], *dice: int) -> RuleError:
    with pytest.raises(RuleError) as caught:
        decide(state, command(data), Dice(*dice))
    return caught.value


def shield_odds(state: DndState, creature: str = "m1", cast: bool = True) -> dict[str, Any]:
    odds = SYSTEM.odds(state, command(shield(creature, cast)))
    assert odds is not None
    return {str(o.value): o.exact for o in odds.outcomes}


def test_a_fire_bolt_hit_waits_and_shield_turns_it_into_a_miss() -> None:
    state = table()
    events = decide(state, command(cast("fire-bolt", "m1")), Dice(10))  # 16: hits AC 13
    spell = events[0]
    assert isinstance(spell, e.SpellCast) and spell.held == ("m1",)
    assert spell.targets[0].d20 == (10,) and spell.targets[0].dice == ()
    held = play(state, cast("fire-bolt", "m1"), 10)
    assert held.held_spell is not None and held.fighters["m1"].hp == 30
    assert held.budgets["wiz"].amount("action") == 0  # the spell was cast
    seen = SYSTEM.view(held, GM)["held_spell"]
    assert (seen["target"], seen["ac"], seen["shield_ac"], seen["slot"]) == ("m1", 13, 18, 1)
    assert [r["total"] for r in seen["rolls"]] == [16] and seen["shield_hits"] == 0
    assert shield_odds(held) == {"hit": "0/1", "miss": "1/1"}
    assert shield_odds(held, cast=False) == {"hit": "1/1", "miss": "0/1"}
    shielded = play(held, shield())  # no die: 16 misses AC 18
    assert shielded.held_spell is None and shielded.fighters["m1"].hp == 30
    assert shielded.slots_used["m1"] == (1,) and shielded.budgets["m1"].amount("reaction") == 0
    assert "shielded" in {x.kind for x in shielded.effects.on("m1")}
    assert shielded.last_cast is not None
    assert shielded.last_cast["results"] == [
        {"target": "m1", "outcome": "miss", "damage": 0, "healed": 0, "conditions": []}
    ]


def test_a_fire_bolt_that_beats_the_shield_or_is_taken_rolls_its_damage_then() -> None:
    held = play(table(), cast("fire-bolt", "m1"), 12)  # 18: hits AC 18 too
    assert SYSTEM.view(held, GM)["held_spell"]["shield_hits"] == 1
    assert shield_odds(held) == {"hit": "1/1", "miss": "0/1"}
    after = play(held, shield(), 3, 4)
    assert after.fighters["m1"].hp == 23 and after.slots_used["m1"] == (1,)
    taken = play(play(table(), cast("fire-bolt", "m1"), 10), shield(cast=False), 5, 6)
    assert taken.fighters["m1"].hp == 19 and taken.slots_used.get("m1", ()) == ()
    assert taken.budgets["m1"].amount("reaction") == 1


def test_a_critical_fire_bolt_waits_and_stays_a_critical() -> None:
    held = play(table(), cast("fire-bolt", "m1"), 20)
    after = play(held, shield(), 1, 2, 3, 4)  # 4d10 on a critical
    assert after.fighters["m1"].hp == 20


def test_a_miss_or_a_foe_without_shield_does_not_wait() -> None:
    missed = play(table(), cast("fire-bolt", "m1"), 2)  # 8 misses AC 13
    assert missed.held_spell is None and missed.fighters["m1"].hp == 30
    plain = play(table(), cast("fire-bolt", "g1"), 10, 3, 4)
    assert plain.held_spell is None and plain.fighters["g1"].hp == 23


def test_scorching_rays_each_judged_again_and_the_other_target_at_once() -> None:
    rays = cast("scorching-ray", "m1", "m1", "g1", slot=2)
    # m1: 10 (16) and 14 (20) hit and wait; g1: 10 hits, 2d6 = 3 + 3 at once
    held = play(table(), rays, 10, 14, 10, 3, 3)
    assert held.fighters["g1"].hp == 24 and held.fighters["m1"].hp == 30
    assert held.held_spell is not None and [r.d20 for r in held.held_spell.rolls] == [(10,), (14,)]
    seen = SYSTEM.view(held, GM)["held_spell"]
    assert [r["total"] for r in seen["rolls"]] == [16, 20] and seen["shield_hits"] == 1
    after = play(held, shield(), 5, 5)  # the first ray misses AC 18, the second hits
    assert after.fighters["m1"].hp == 20 and after.held_spell is None
    taken = play(held, shield(cast=False), 1, 1, 2, 2)  # both rays: 2 + 4
    assert taken.fighters["m1"].hp == 24


def test_a_missed_ray_rolls_nothing_after_the_decision() -> None:
    held = play(table(), cast("scorching-ray", "m1", "m1", "m1", slot=2), 2, 12, 3)
    assert held.held_spell is not None and len(held.held_spell.rolls) == 3
    assert play(held, shield(cast=False), 6, 6).fighters["m1"].hp == 18  # one ray of 3 hit


def test_magic_missile_darts_at_a_shield_caster_wait_the_others_land() -> None:
    darts = cast("magic-missile", "m1", "g1", "m1")
    held = play(table(), darts, 2)  # g1's dart: 1d4 + 1 = 3; m1's two darts wait
    assert held.fighters["g1"].hp == 27 and held.fighters["m1"].hp == 30
    seen = SYSTEM.view(held, GM)["held_spell"]
    assert [r["total"] for r in seen["rolls"]] == [None, None] and seen["shield_hits"] == 0
    assert shield_odds(held) == {"hit": "0/1", "miss": "1/1"}
    shielded = play(held, shield())  # Shield: no damage from the darts, no die
    assert shielded.fighters["m1"].hp == 30 and shielded.held_spell is None
    taken = play(held, shield(cast=False), 1, 4)  # 2 + 5
    assert taken.fighters["m1"].hp == 23


def test_two_shield_casters_decide_in_turn_and_nothing_else_happens_meanwhile() -> None:
    held = play(table(), cast("magic-missile", "m2", "m1", "m1"))
    assert held.waiting_for == "m2"
    assert refused(held, {"kind": "end_turn"}).code == "dnd5e.hit_pending"
    assert refused(held, cast("fire-bolt", "g1"), 10).code == "dnd5e.hit_pending"
    assert refused(held, shield("m1")).code == "dnd5e.no_hit_pending"
    # a slot of a level m2 has not got is refused, naming the slot; nothing changes
    assert refused(held, {**shield("m2"), "slot": 3}).code == "dnd5e.spell.no_slot"
    first = play(held, shield("m2"))
    assert first.waiting_for == "m1" and first.fighters["m2"].hp == 30
    assert refused(first, {"kind": "end_turn"}).code == "dnd5e.hit_pending"
    second = play(first, shield("m1", cast=False), 4, 4)
    assert second.waiting_for is None and second.fighters["m1"].hp == 20
    assert play(second, {"kind": "end_turn"}).encounter is not None


def test_a_table_of_edition_four_resolves_spells_at_once() -> None:
    bolt = play(table(4), cast("fire-bolt", "m1"), 10, 3, 4)
    assert bolt.held_spell is None and bolt.fighters["m1"].hp == 23
    darts = play(table(4), cast("magic-missile", "m1", "m1", "m1"), 1, 1, 1)
    assert darts.held_spell is None and darts.fighters["m1"].hp == 24
    assert SYSTEM.view(bolt, GM)["held_spell"] is None  # nothing waits for m1


def test_the_held_spell_is_shown_only_to_viewers_who_see_both() -> None:
    state = fresh()
    wizard = {**WIZARD, "spells": SPELLS}
    state = play(state, pc("wiz", "a1", spellcasting=wizard, abilities={"int": 18}))
    state = play(
        state,
        {**target("m1", "a4", spellcasting=SHIELD), "secret": True},
    )
    state = start(state, "wiz", "m1")
    held = play(state, cast("fire-bolt", "m1"), 10)
    assert SYSTEM.view(held, GM)["held_spell"] is not None
    player = Viewer(Role.PLAYER, "p1", frozenset({"wiz"}))
    assert SYSTEM.view(held, player)["held_spell"] is None


@pytest.mark.parametrize("d20", range(1, 21))
def test_wait_and_still_hits_follow_every_d20(d20: int) -> None:
    """Brute force over the d20: Fire Bolt (+6) waits when it hits AC 13 (7 to 19, or a
    natural 20) and still hits with Shield on 12 or more (18) or a natural 20 — 14 of 20
    rolls wait, 9 of 20 still hit with Shield."""
    hit = d20 != 1 and (d20 + 6 >= 13 or d20 == 20)
    still = d20 != 1 and (d20 + 6 >= 18 or d20 == 20)
    state = table()
    events = decide(state, command(cast("fire-bolt", "m1")), Dice(d20, *([1] * 4)))
    spell = events[0]
    assert isinstance(spell, e.SpellCast) and spell.held == (("m1",) if hit else ())
    if hit:
        held = play(state, cast("fire-bolt", "m1"), d20)
        assert SYSTEM.view(held, GM)["held_spell"]["shield_hits"] == int(still)
        assert shield_odds(held)["hit"] == f"{int(still)}/1"


def test_a_landing_must_carry_the_rolls_that_wait() -> None:
    state = table()
    spell = decide(state, command(cast("fire-bolt", "m1")), Dice(10))[0]
    assert isinstance(spell, e.SpellCast)
    with pytest.raises(RuleError) as stray:
        fold(state, [spell.model_copy(update={"held": ("g1",)})])
    assert stray.value.code == "dnd5e.bad_target"
    held = fold(state, [spell])
    roll = e.SpellTarget(target="m1", d20=(11,), dice=(1, 1))
    forged = e.SpellLanded(creature="wiz", spell="fire-bolt", slot=0, targets=(roll,))
    with pytest.raises(RuleError) as other:
        fold(held, [forged])
    assert other.value.code == "dnd5e.hit_pending"
    with pytest.raises(RuleError) as none:
        fold(state, [forged])
    assert none.value.code == "dnd5e.no_hit_pending"
