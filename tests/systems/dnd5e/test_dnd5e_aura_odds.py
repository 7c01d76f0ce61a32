"""The route preview's odds of entering Spirit Guardians: the mover's Wisdom save against the
caster's DC and the damage, halved (rounded down) on a save. Hand-computed cases, an
enumeration of every d20 and every 3d8 as the oracle, and the move itself with scripted dice
agreeing with the preview's sides."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

from spieltisch.systems.dnd5e.decide import preview_move
from spieltisch.systems.dnd5e.state import DndState

from .helpers import command, end_turn, play
from .test_dnd5e_guardians import GUARDIANS, table


def at_g1_s_turn(**cast: object) -> DndState:
    """Cleo's guardians around a1; g1 (Wis 10: +0 against DC 13) at f1 in its turn."""
    return end_turn(end_turn(play(table(foe_at="f1"), {**GUARDIANS, **cast})))


def preview(state: DndState, *squares: str) -> dict[str, object]:
    steps = [{"to": sq} for sq in squares]
    return preview_move(state, command({"kind": "move", "creature": "g1", "steps": steps}))


def enumerated(dc: int, bonus: int, dice: int) -> tuple[Fraction, dict[int, Fraction]]:
    """P(save) and the damage distribution by counting every d20 and every ``dice``d8."""
    saves = sum(1 for d20 in range(1, 21) if d20 + bonus >= dc)
    counts: Counter[int] = Counter()
    for d20 in range(1, 21):
        for faces in itertools.product(range(1, 9), repeat=dice):
            counts[sum(faces) // 2 if d20 + bonus >= dc else sum(faces)] += 1
    total = 20 * 8**dice
    return Fraction(saves, 20), {k: Fraction(n, total) for k, n in counts.items()}


def test_entering_shows_the_save_and_the_halved_damage() -> None:
    found = preview(at_g1_s_turn(), "e1", "d1", "d2")["aura"]
    assert isinstance(found, dict)
    # d1 is the first square inside: the second step (index 1)
    assert (found["caster"], found["step"], found["square"]) == ("cleo", 1, "d1")
    # d20 + 0 >= 13: 8 of 20 faces save
    assert found["save"] == {"p": 0.4, "exact": "2/5"}
    assert found["fail"] == {"p": 0.6, "exact": "3/5"}
    save, damage = enumerated(13, 0, 3)
    assert save == Fraction(2, 5)
    shown = {d["value"]: Fraction(str(d["exact"])) for d in found["damage"]}  # type: ignore[union-attr]
    assert shown == damage
    # the mean by hand: 3/5 of 13.5, plus 2/5 of the mean of half of 3d8 rounded down
    half = sum(Fraction(sum(f) // 2) for f in itertools.product(range(1, 9), repeat=3)) / 512
    assert (
        Fraction(found["mean"]).limit_denominator(10**6)
        == Fraction(3, 5) * Fraction(27, 2) + Fraction(2, 5) * half
    )  # type: ignore[arg-type]


def test_a_higher_slot_adds_a_d8_to_the_odds() -> None:
    found = preview(at_g1_s_turn(slot=4), "e1", "d1")["aura"]
    assert isinstance(found, dict)
    shown = {d["value"]: Fraction(str(d["exact"])) for d in found["damage"]}  # type: ignore[union-attr]
    assert shown == enumerated(13, 0, 4)[1]
    assert max(shown) == 32


def test_a_route_outside_the_area_or_inside_it_already_has_none() -> None:
    assert "aura" not in preview(at_g1_s_turn(), "g1", "h1")
    # struck once this turn: entering again is no new save
    state = at_g1_s_turn()
    moved = play(
        state,
        {"kind": "move", "creature": "g1", "steps": [{"to": "e1"}, {"to": "d1"}]},
        10,
        1,
        1,
        1,
    )
    assert "aura" not in preview(moved, "e1", "d1")


def test_the_preview_s_sides_match_the_move() -> None:
    """A d20 of 12 fails (the whole 3d8), 13 saves (half): the move deals what the preview's
    two sides say."""
    state = at_g1_s_turn()
    steps = {"kind": "move", "creature": "g1", "steps": [{"to": "e1"}, {"to": "d1"}]}
    assert play(state, steps, 12, 4, 5, 6).fighters["g1"].hp == 30 - 15
    assert play(state, steps, 13, 4, 5, 6).fighters["g1"].hp == 30 - 7
