"""Exact odds against icepool (the oracle) on a broad matrix: agreement to 1e-12."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import icepool
import pytest

from spieltisch.dice.odds import TAIL, Distribution, distribution

V = icepool.Vector
D6 = icepool.d(6)
GM = icepool.Die([1, 0, 0, 0, 1, 1])  # M: every symbol a success
HUNTER = icepool.Die([0, 0, 0, 0, 1, 1])  # H: successes only
HUNTER_STARS = icepool.Die([V((0, 1)), V((0, 0)), V((0, 0)), V((0, 0)), V((1, 0)), V((1, 0))])
JANUS = icepool.Die([0, 0, 0, 1, 1, 1])
BLOOD = icepool.Die([0, 1, 1, 2, 2, 3])
ELIXIR = icepool.Die([1, 2, 3, 4, 5, 3])
BLESSING = icepool.Die([V((0, 1)), V((0, 1)), V((0, 0)), V((1, 0)), V((1, 0)), V((2, 0))])
DEEP = 20  # icepool explodes deeper than the engine's cut, so only the engine's tail differs


def _clip(die: Any) -> Any:
    return die.map(lambda x: max(x, 0))


def _ops() -> dict[str, Callable[[Any, int], Any]]:
    return {
        ">=": lambda d, t: d >= t,
        ">": lambda d, t: d > t,
        "<=": lambda d, t: d <= t,
        "<": lambda d, t: d < t,
        "=": lambda d, t: d == t,
    }


MATRIX: list[tuple[str, Callable[[], Any]]] = []


def case(text: str, oracle: Callable[[], Any]) -> None:
    MATRIX.append((text, oracle))


for n in (1, 2, 5, 8, 12):
    for t in (3, 4, 5, 6):
        case(f"{n}W6>={t}", lambda n=n, t=t: n @ (t <= D6))
for op, check in _ops().items():
    case(f"6d10{op}7", lambda check=check: 6 @ check(icepool.d(10), 7))
for n in (1, 3, 10, 20):
    for m in (0, 1, 3, 5):
        case(f"{n}M+{m}J", lambda n=n, m=m: n @ GM + m @ JANUS)
        case(f"{n}M-{m}J", lambda n=n, m=m: _clip(n @ GM - m @ JANUS))
for n in (1, 2, 3, 4):  # small checks: the integer-polynomial path
    for m in (2, 4):
        case(f"{n}M+{m}J", lambda n=n, m=m: n @ GM + m @ JANUS)
        case(f"{n}M-{m}J", lambda n=n, m=m: _clip(n @ GM - m @ JANUS))
    case(f"{n}M+0J", lambda n=n: n @ GM)
    case(f"{n}M-{n}J - 1H", lambda n=n: _clip(n @ GM - n @ JANUS) - HUNTER)
    case(f"{n}W6>=6", lambda n=n: n @ (D6 >= 6))
# Around the largest pools the integer path takes (weights below 2**64) and just past them.
for text, oracle in [
    ("63d2", lambda: 63 @ icepool.d(2)),
    ("64d2", lambda: 64 @ icepool.d(2)),
    ("24d6", lambda: 24 @ D6),
    ("24d6+1d6", lambda: 25 @ D6),
    ("63M-1J", lambda: _clip(63 @ GM - JANUS)),
    ("64M-1J", lambda: _clip(64 @ GM - JANUS)),
]:
    case(text, oracle)
for n in (1, 5, 8, 15):
    case(f"8M - {n}H", lambda n=n: 8 @ GM - n @ HUNTER)
    case(f"{n}M - 8H", lambda n=n: n @ GM - 8 @ HUNTER)
for k in (1, 2, 4, 7, 10):
    case(f"{k}d10!", lambda k=k: k @ icepool.d(10).explode(depth=DEEP))
for text, oracle in [
    ("3d6+2d8-1d4", lambda: 3 @ D6 + 2 @ icepool.d(8) - icepool.d(4)),
    ("4d6kh3", lambda: D6.pool(4).highest(3).sum()),
    ("4d6dl1", lambda: D6.pool(4).highest(3).sum()),
    ("5d10kl2", lambda: icepool.d(10).pool(5).lowest(2).sum()),
    ("6d8dh2", lambda: icepool.d(8).pool(6).lowest(4).sum()),
    ("2d20kh1", lambda: icepool.d(20).pool(2).highest(1).sum()),
    ("2d20kl1+5", lambda: icepool.d(20).pool(2).lowest(1).sum() + 5),
    ("12d6kh4", lambda: D6.pool(12).highest(4).sum()),
    ("3d10!kh2", lambda: icepool.d(10).explode(depth=DEEP).pool(3).highest(2).sum()),
    ("3d6*2", lambda: 3 @ D6 * 2),
    ("1d6*1d8", lambda: D6 * icepool.d(8)),
    ("(1d4+1)*(1d6-2)", lambda: (icepool.d(4) + 1) * (D6 - 2)),
    ("-3d4+10", lambda: -(3 @ icepool.d(4)) + 10),
    ("1d%", lambda: icepool.d(100)),
    ("3d2!", lambda: 3 @ icepool.d(2).explode(depth=60)),
    ("2d6!+1d8!", lambda: 2 @ D6.explode(depth=DEEP) + icepool.d(8).explode(depth=DEEP)),
    ("50d6", lambda: 50 @ D6),
    ("4B", lambda: 4 @ BLOOD),
    ("3E+2", lambda: 3 @ ELIXIR + 2),
]:
    case(text, oracle)


# The forms of issue 25, each against icepool.
D20 = icepool.d(20)
D10 = icepool.d(10)
for text, oracle in [
    # comparing a total
    ("1d20+5>=15", lambda: D20 + 5 >= 15),
    ("1W10!+7>=10", lambda: D10.explode(depth=DEEP) + 7 >= 10),
    ("(3d6+2)>=12", lambda: 3 @ D6 + 2 >= 12),
    ("(2d6)<5", lambda: 2 @ D6 < 5),
    ("(4dF)>=1", lambda: 4 @ icepool.Die([-1, -1, 0, 0, 1, 1]) >= 1),
    # rerolls
    ("4d6r1", lambda: 4 @ D6.reroll([1], depth=1)),
    ("2d6ro<3", lambda: 2 @ D6.reroll([1, 2], depth=1)),
    ("1d20ro1", lambda: D20.reroll([1], depth=1)),
    ("4d6rr1", lambda: 4 @ D6.reroll([1], depth="inf")),
    ("2d10rr<=2", lambda: 2 @ D10.reroll([1, 2], depth="inf")),
    ("4d6r1kh3", lambda: D6.reroll([1], depth=1).pool(4).highest(3).sum()),
    # explosions
    ("1d6!>=5", lambda: D6.explode([5, 6], depth=40)),
    ("2d6!>4", lambda: 2 @ D6.explode([5, 6], depth=40)),
    ("1d6!!", lambda: D6.explode(depth=DEEP)),
    ("1d6xo", lambda: D6.explode(depth=1)),
    ("2d8xo>=7", lambda: 2 @ icepool.d(8).explode([7, 8], depth=1)),
    ("1d6ra6", lambda: D6.explode(depth=1)),
    ("10d10ie10", lambda: 10 @ D10.explode(depth=DEEP)),
    ("3d6!>=5kh2", lambda: D6.explode([5, 6], depth=40).pool(3).highest(2).sum()),
    # keep and drop
    ("2d20kh", lambda: D20.pool(2).highest(1).sum()),
    ("2d20kl+5", lambda: D20.pool(2).lowest(1).sum() + 5),
    ("4d6k3", lambda: D6.pool(4).highest(3).sum()),
    ("4d6d1", lambda: D6.pool(4).highest(3).sum()),
    ("4d6dh1", lambda: D6.pool(4).lowest(3).sum()),
    ("8d10kl3", lambda: D10.pool(8).lowest(3).sum()),
    # bounds and arithmetic
    ("2d6min2", lambda: 2 @ D6.map(lambda x: max(x, 2))),
    ("1d20mi10", lambda: D20.map(lambda x: max(x, 10))),
    ("3d6max4", lambda: 3 @ D6.map(lambda x: min(x, 4))),
    ("8d6/2", lambda: (8 @ D6).map(lambda x: x // 2)),
    ("ceil(8d6/2)", lambda: (8 @ D6).map(lambda x: -(-x // 2))),
    ("round(3d6/4)", lambda: (3 @ D6).map(lambda x: (2 * x + 4) // 8)),
    ("abs(2d6-7)", lambda: (2 @ D6 - 7).map(abs)),
    ("(2d6-9)/2", lambda: (2 @ D6 - 9).map(lambda x: x // 2)),
    # success and failure counting
    ("10d10cs>=7", lambda: 10 @ (D10 >= 7)),
    ("10d10cf<=1", lambda: 10 @ (D10 <= 1)),
    ("5d10t8f1", lambda: 5 @ D10.map(lambda x: 1 if x >= 8 else -1 if x <= 1 else 0)),
    ("6d6cs6cf1", lambda: 6 @ D6.map(lambda x: 1 if x == 6 else -1 if x == 1 else 0)),
    ("4d6!cs>=5", lambda: 4 @ (D6.explode(depth=DEEP) >= 5)),
    # Fate dice, groups, labels
    ("4dF", lambda: 4 @ icepool.Die([-1, -1, 0, 0, 1, 1])),
    ("{1d20, 1d20}kh1", lambda: icepool.Pool([D20, D20]).highest(1).sum()),
    ("{1d20+5, 1d12+7}kh1", lambda: icepool.Pool([D20 + 5, icepool.d(12) + 7]).highest(1).sum()),
    (
        "{2d6, 1d12, 1d8+2}kh2",
        lambda: icepool.Pool([2 @ D6, icepool.d(12), icepool.d(8) + 2]).highest(2).sum(),
    ),
    ("{4d6kh3, 4d6kh3}", lambda: 2 @ D6.pool(4).highest(3).sum()),
    ("{3d6, 3d6, 3d6}>=12", lambda: 3 @ (3 @ D6 >= 12)),
    ("{1d6, 1d8}dl1", lambda: icepool.Pool([D6, icepool.d(8)]).highest(1).sum()),
    ("2d6[fire] + 1d8[cold] + 3", lambda: 2 @ D6 + icepool.d(8) + 3),
    ("1d20+5 # Wahrnehmung", lambda: D20 + 5),
]:
    case(text, oracle)


def _flatten(dist: Distribution) -> dict[Any, float]:
    out: dict[Any, float] = {}
    for outcome, p in dist.table:
        key = outcome[0] if isinstance(outcome, tuple) and len(outcome) == 1 else outcome
        out[key] = out.get(key, 0.0) + p
    return out


def _oracle(die: Any) -> dict[Any, float]:
    out: dict[Any, float] = {}
    for outcome, p in zip(die.outcomes(), die.probabilities(), strict=True):
        key = tuple(outcome) if isinstance(outcome, icepool.Vector) else int(outcome)  # bool: 0/1
        out[key] = out.get(key, 0.0) + float(p)
    return out


def _agree(ours: dict[Any, float], theirs: dict[Any, float]) -> float:
    keys = set(ours) | set(theirs)
    return max(abs(ours.get(k, 0.0) - theirs.get(k, 0.0)) for k in keys)


@pytest.mark.parametrize(("text", "oracle"), MATRIX, ids=[text for text, _ in MATRIX])
def test_agrees_with_icepool(text: str, oracle: Callable[[], Any]) -> None:
    dist = distribution(text)
    # exploding dice: the mass the engine cuts off may all sit on one outcome of a comparison
    assert _agree(_flatten(dist), _oracle(oracle())) <= 1e-12 + dist.truncated
    assert dist.truncated <= TAIL


@pytest.mark.parametrize(
    ("text", "oracle"),
    [
        ("5H", lambda: 5 @ HUNTER_STARS),
        ("4S", lambda: 4 @ BLESSING),
        ("3H+2S", lambda: 3 @ HUNTER_STARS + 2 @ BLESSING),
    ],
)
def test_symbol_counts_agree_with_icepool_vectors(text: str, oracle: Callable[[], Any]) -> None:
    assert _agree(_flatten(distribution(text)), _oracle(oracle())) <= 1e-12


def test_hunter_with_janus_bonus_agrees_per_symbol() -> None:
    dist = distribution("6H+3J")
    theirs = _oracle(6 @ HUNTER_STARS + 3 @ JANUS.map(lambda j: V((j, 0))))
    assert _agree(_flatten(dist), theirs) <= 1e-12


def test_hunter_with_janus_malus_agrees_per_symbol() -> None:
    dist = distribution("6H-3J")
    theirs = _oracle(
        (6 @ HUNTER_STARS - 3 @ JANUS.map(lambda j: V((j, 0)))).map(
            lambda v: V((max(v[0], 0), v[1]))
        )
    )
    assert _agree(_flatten(dist), theirs) <= 1e-12
