"""The odds of the aura a planned move would enter (Spirit Guardians): the save the mover makes
where it steps into the area, and the damage, halved on a save — for the route preview."""

from __future__ import annotations

from fractions import Fraction

from spieltisch.engine.grid import Square, square_name
from spieltisch.systems.dnd5e.auras import aura_dice, aura_info, entering
from spieltisch.systems.dnd5e.casting import casting_at, save_bonus_of
from spieltisch.systems.dnd5e.lasting import dice_pmf
from spieltisch.systems.dnd5e.odds import DamageDice, mean, save_damage
from spieltisch.systems.dnd5e.queries import save_extra, save_mode
from spieltisch.systems.dnd5e.spells import spell_info
from spieltisch.systems.dnd5e.state import DndState, Fighter


def _exact(p: Fraction) -> dict[str, object]:
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def aura_entry_odds(
    state: DndState, mover: Fighter, path: tuple[Square, ...]
) -> dict[str, object] | None:
    """The first aura ``path`` (the start first) takes ``mover`` into, as the move would meet
    it (:func:`.auras.entering`): ``caster``, ``step`` (the step that enters), ``square``,
    ``save`` and ``fail`` (P with its exact fraction; a save that fails by itself: 0), the
    ``damage`` distribution (``value``, ``p``, ``exact``, halved on a save, rounded down where
    the aura says so) and its ``mean``; ``None`` when the path enters none. On the fold handed
    in: a player's preview knows no secret caster."""
    entry = entering(state, mover, path)
    if entry is None:
        return None
    step, who = entry
    aura = state.auras[who]
    info = aura_info(aura.spell)
    assert info is not None
    ability = str(info["save"])
    count, sides = aura_dice(aura.spell, spell_info(aura.spell).level, aura.slot)
    mode, fails = save_mode(state, mover, ability)
    odds = save_damage(
        [DamageDice(count, sides)],
        save_bonus_of(mover, ability),
        casting_at(state, state.fighters[who]).save_dc,
        half=bool(info.get("half")),
        mode=mode,
        fails=fails,
        extra=dice_pmf(save_extra(state, mover.id)),
    )
    return {
        "caster": who,
        "spell": aura.spell,
        "step": step,
        "square": square_name(path[step + 1]),
        "ability": ability,
        "save": _exact(odds.success),
        "fail": _exact(odds.failure),
        "damage": [{"value": k, **_exact(v)} for k, v in sorted(odds.damage.items())],
        "mean": float(mean(odds.damage)),
    }
