"""One die as thrown: rerolls, bounds and explosions, as exact integer weights.

A die of a :class:`~spieltisch.dice.notation.Dice` term is described by its
:class:`~spieltisch.dice.notation.DieSpec`. A throw shows a face (after the reroll rule:
rerolled once, or until the rule no longer holds); the face adds its value (bounded by
``min``/``max``; one less on the extra throws of a penetrating die); a face that explodes adds
another throw — once (``xo``) or again and again (``!``, ``!p``). Dice that explode again and
again are cut after so many explosions that the mass left out of a whole expression stays at
most :data:`TAIL` (reported as ``truncated``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from spieltisch.dice.arrays import NUMERIC, Pmf, convolve1d, zeros
from spieltisch.dice.notation import Dice, DieSpec, Expression

TAIL = 1e-12
"""Upper bound of the probability mass left out when exploding dice are cut off."""

Weights = tuple[int, tuple[int, ...], int]
"""The lowest value, integer weights of the values from there on, their denominator."""


def explosion_depth(sides: int, dice: int, share: float, chance: float | None = None) -> int:
    """Explosions kept per die so that ``dice`` dice lose at most ``share`` of the mass; a
    throw explodes with ``chance`` (default: one face of ``sides``)."""
    depth = 0
    if chance is None:
        while dice * float(sides) ** -(depth + 1) > share:
            depth += 1
        return depth
    while dice * chance ** (depth + 1) > share:
        depth += 1
    return depth


def explosion_chance(spec: DieSpec) -> float:
    """The chance that one throw of the die explodes."""
    faces = spec.faces()
    hits = sum(weight for face, weight in faces if spec.explodes(face))
    return hits / sum(weight for _, weight in faces)


def _plain(spec: DieSpec) -> bool:
    """The common exploding die: explodes on its highest face, no rule changes a throw."""
    explode = spec.explode
    return (
        explode is not None
        and explode.mode == "add"
        and explode.on is None
        and spec.reroll is None
        and spec.minimum is None
        and spec.maximum is None
    )


def _throws(spec: DieSpec, extra: bool) -> tuple[dict[int, int], dict[int, int], int]:
    """What one throw adds, split into the faces that stop and those that explode (value →
    weight), and the denominator of the weights."""
    stop: dict[int, int] = {}
    again: dict[int, int] = {}
    total = 0
    for face, weight in spec.faces():
        if not weight:
            continue
        total += weight
        value = spec.value(face, extra)
        target = again if spec.explodes(face) else stop
        target[value] = target.get(value, 0) + weight
    return stop, again, total


def _dense(values: dict[int, int]) -> tuple[int, list[int]]:
    low = min(values)
    out = [0] * (max(values) - low + 1)
    for value, weight in values.items():
        out[value - low] += weight
    return low, out


def _times(a: tuple[int, list[int]], b: tuple[int, list[int]]) -> tuple[int, list[int]]:
    """The product of two integer polynomials (value → weight), exactly."""
    if len(a[1]) * len(b[1]) <= 4096:
        out = [0] * (len(a[1]) + len(b[1]) - 1)
        for i, x in enumerate(a[1]):
            if x:
                for j, y in enumerate(b[1]):
                    out[i + j] += x * y
        return a[0] + b[0], out
    line = convolve1d(np.array(a[1], dtype=object), np.array(b[1], dtype=object))
    return a[0] + b[0], [int(x) for x in line]


def _add_into(acc: dict[int, int], poly: tuple[int, list[int]], factor: int) -> None:
    low, weights = poly
    for i, weight in enumerate(weights):
        if weight:
            acc[low + i] = acc.get(low + i, 0) + weight * factor


@lru_cache(maxsize=256)
def die_weights(spec: DieSpec, depth: int) -> tuple[Weights, float]:
    """One die's totals as exact integer weights, and the mass cut off.

    Without explosions the weights are those of the faces after the reroll rule, by value.
    Exploding once, the extra throw is added to an exploding first throw. Exploding again and
    again, at most ``depth`` extra throws are followed: ``k`` explosions and then a throw
    that stops weigh ``q^(depth - k)`` times their own weight over ``q^(depth + 1)``.
    """
    stop, again, q = _throws(spec, False)
    explode = spec.explode
    if explode is None or not again:
        low, weights = _dense(stop)
        common = math.gcd(*weights)
        return (low, tuple(w // common for w in weights), q // common), 0.0
    if explode.mode == "once":
        every = dict(stop)
        extra_stop, extra_again, _ = _throws(spec, True)
        every_extra = dict(extra_stop)
        for value, weight in extra_again.items():
            every_extra[value] = every_extra.get(value, 0) + weight
        acc: dict[int, int] = {value: weight * q for value, weight in every.items()}
        _add_into(acc, _times(_dense(again), _dense(every_extra)), 1)
        low, weights = _dense(acc)
        common = math.gcd(*weights)
        return (low, tuple(w // common for w in weights), q * q // common), 0.0
    extra_stop, extra_again, _ = _throws(spec, True)
    acc = {value: weight * q**depth for value, weight in stop.items()}
    chain = _dense(again)
    stop_extra = _dense(extra_stop) if extra_stop else None
    again_extra = _dense(extra_again)
    for k in range(1, depth + 1):
        if stop_extra is not None:
            _add_into(acc, _times(chain, stop_extra), q ** (depth - k))
        if k < depth:
            chain = _times(chain, again_extra)
    low, weights = _dense(acc)
    missing = explosion_chance(spec) ** (depth + 1)
    return (low, tuple(weights), q ** (depth + 1)), missing


@lru_cache(maxsize=256)
def die_pmf(spec: DieSpec, depth: int, exact: bool) -> Pmf:
    """One die of ``spec`` as a distribution (float or ``exact`` weights); exploding dice
    keep up to ``depth`` extra throws (``-1``: as for a die that does not explode)."""
    sides = spec.sides
    if (
        spec.explode is None
        and spec.reroll is None
        and spec.minimum is None
        and spec.maximum is None
    ):
        weights = zeros((sides,), exact)
        weights[:] = 1 if exact else 1.0 / sides
        return Pmf(NUMERIC, (1,), weights, sides if exact else 1, 0.0)
    if _plain(spec) and depth >= 0:
        # k explosions, then a throw below the highest face: k·sides + r, weight sides^-(k+1)
        size = depth * sides + sides - 1
        weights = zeros((size,), exact)
        for k in range(depth + 1):
            start = k * sides
            if exact:
                weights[start : start + sides - 1] = sides ** (depth - k)
            else:
                weights[start : start + sides - 1] = float(sides) ** -(k + 1)
        missing = float(sides) ** -(depth + 1)
        return Pmf(NUMERIC, (1,), weights, sides ** (depth + 1) if exact else 1, missing)
    (low, ints, denominator), missing = die_weights(spec, max(depth, 0))
    if exact:
        array = np.empty(len(ints), dtype=object)
        array[:] = list(ints)
        return Pmf(NUMERIC, (low,), array, denominator, missing)
    floats = np.array([w / denominator for w in ints])
    return Pmf(NUMERIC, (low,), floats, 1, missing)


def exploding_dice(node: Expression) -> list[Dice]:
    """The dice terms of ``node`` that explode again and again (and so are cut off)."""
    return [
        n
        for n in node.walk()
        if isinstance(n, Dice) and n.explode is not None and n.explode.mode != "once"
    ]


def depths_of(node: Expression) -> dict[DieSpec, int]:
    """Explosion depth per kind of die so the whole expression loses at most :data:`TAIL`."""
    exploding = exploding_dice(node)
    if not exploding:
        return {}
    share = TAIL / len(exploding)
    depths: dict[DieSpec, int] = {}
    for n in exploding:
        spec = n.spec
        chance = None if _plain(spec) else explosion_chance(spec)
        depth = explosion_depth(n.sides, n.count, share, chance)
        depths[spec] = max(depths.get(spec, 0), depth)
    return depths


def depth_of(depths: Mapping[DieSpec, int], node: Dice) -> int:
    """The depth the engine uses for the dice of ``node`` (``-1`` when they do not explode
    again and again)."""
    return depths.get(node.spec, -1)
