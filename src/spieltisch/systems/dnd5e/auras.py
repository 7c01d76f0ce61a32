"""Spells whose area surrounds the caster and moves with it (Spirit Guardians; rules edition
4; data in ``data/spell_auras.json``).

The area is every square within the radius of the caster (the grid's distance rule, heights
as a third axis), wherever the caster stands now. A creature it affects — not the caster, not
a creature it spares (by default the caster's side) — makes the aura's save when it enters the
area for the first time on a turn (by moving) or starts its turn there, at most once a turn
for each aura; its speed is halved in the area (a step onto a square of the area costs twice).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from spieltisch.engine.grid import Size, Square, distance
from spieltisch.systems.dnd5e.data import spell_auras
from spieltisch.systems.dnd5e.queries import square_distance
from spieltisch.systems.dnd5e.state import Aura, DndState, Fighter

__all__ = [
    "affects",
    "aura_dice",
    "aura_info",
    "entering",
    "inside",
    "slowed_squares",
    "strikes_due",
]


def aura_info(spell_id: str) -> dict[str, Any] | None:
    """The aura data of a spell (``None``: the spell makes no aura)."""
    return spell_auras().get(spell_id)


def aura_dice(spell_id: str, level: int, slot: int) -> tuple[int, int]:
    """The damage dice (count, sides) of an aura cast with a slot of ``slot`` level."""
    info = aura_info(spell_id)
    assert info is not None
    extra = int(info["per_slot"]) * max(slot - level, 0)
    return int(info["dice"]["count"]) + extra, int(info["dice"]["sides"])


def affects(state: DndState, aura: Aura, caster: Fighter, creature: Fighter) -> bool:
    """Whether ``caster``'s aura affects ``creature``: not the caster, not a creature it
    spares (by default every creature of the caster's side), living and on the map."""
    if creature.id == caster.id or creature.dead or creature.position is None:
        return False
    if aura.spared is None:
        return creature.side != caster.side
    return creature.id not in aura.spared


def inside(state: DndState, caster: Fighter, creature: Fighter, at: Square | None = None) -> bool:
    """Whether ``creature`` (standing at ``at``, default where it is) is within the radius of
    ``caster``'s aura."""
    aura = state.auras.get(caster.id)
    if aura is None or caster.position is None or caster.dead:
        return False
    info = aura_info(aura.spell)
    assert info is not None
    body = creature if at is None else creature.model_copy(update={"position": at})
    return square_distance(state, caster, body) <= Decimal(str(info["radius_m"]))


def strikes_due(state: DndState, creature: str) -> tuple[str, ...]:
    """The casters whose aura strikes ``creature`` where it stands now (it is inside, the
    aura affects it and has not struck it this turn), in the order of the auras."""
    target = state.fighters[creature]
    return tuple(
        who
        for who, aura in state.auras.items()
        if creature not in aura.struck
        and affects(state, aura, state.fighters[who], target)
        and inside(state, state.fighters[who], target)
    )


def entering(state: DndState, mover: Fighter, path: tuple[Square, ...]) -> tuple[int, str] | None:
    """The first step of ``path`` (the start first) that takes ``mover`` into the area of an
    aura that affects it and has not struck it this turn, with that aura's caster; ``None``."""
    casters = [
        state.fighters[who]
        for who, aura in state.auras.items()
        if mover.id not in aura.struck and affects(state, aura, state.fighters[who], mover)
    ]
    for index in range(1, len(path)):
        for caster in casters:
            if inside(state, caster, mover, path[index]) and not inside(
                state, caster, mover, path[index - 1]
            ):
                return index - 1, caster.id
    return None


def area_squares(state: DndState, caster: Fighter, size: Size = Size.MEDIUM) -> frozenset[Square]:
    """The squares where a creature of ``size`` stands within ``caster``'s aura (measured on
    the map, as steps are); none when the caster has no aura or is not on the map."""
    aura = state.auras.get(caster.id)
    info = aura_info(aura.spell) if aura is not None else None
    here = caster.position
    if info is None or here is None or caster.dead:
        return frozenset()
    radius = Decimal(str(info["radius_m"]))
    span = int(radius / state.grid.square_m) + 4  # the radius, the footprints and a margin
    return frozenset(
        square
        for x in range(max(here.x - span, 0), min(here.x + span, state.grid.width))
        for y in range(max(here.y - span, 0), min(here.y + span, state.grid.height))
        if distance(state.grid, here, caster.size, (square := Square(x=x, y=y)), size) <= radius
    )


def slowed_squares(state: DndState, mover: Fighter) -> frozenset[Square]:
    """The squares where ``mover``'s speed is halved: within an aura that affects it and
    halves speed."""
    out: frozenset[Square] = frozenset()
    for who, aura in state.auras.items():
        caster = state.fighters[who]
        info = aura_info(aura.spell)
        if info and info.get("halves_speed") and affects(state, aura, caster, mover):
            out |= area_squares(state, caster, mover.size)
    return out
