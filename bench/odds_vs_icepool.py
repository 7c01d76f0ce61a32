"""Exact odds: Spieltisch's engine against icepool on the cases the games need.

Families: (a) success counting, (b) HeXXen checks with Janus dice, (c) comparative checks,
(d) exploding dice — the four of issue 2 — and (e) keep/drop (D&D advantage, ability
scores), (f) rerolls, (g) comparing a total with a target, (h) group rolls — issue 25.

What it measures is what a user's first request for an expression costs. Both engines run
in this one process, on every case family, every call from a cold start: before each call
the engine forgets everything it caches (per-die distributions, pool powers, and the parsed
texts that ``distribution(text)`` keeps for a table asking again; the clearing is timed with
the engine) and icepool builds its dice afresh (its ``Die`` objects memoize sums, so reusing
them would time a cache, not the computation).

``ours`` is ``distribution(tree)`` with the expression tree built inside the timed region, as
a game assembles its pool in code (as icepool users build dice objects); ``with parsing``
is ``distribution(text)``, the notation parsed cold — the end-to-end cost, and the gate.
Every case checks that both engines give the same distribution: the largest difference of
a probability ≤ 1e-12 plus the mass cut off from exploding dice, and that mass ≤ 1e-12.

Timing on a shared machine is noisy, so the bench counts the CPU time of this process (time
spent waiting for a core while others run is not counted, for either engine) and measures
each case in rounds: a round times a few calls back to back (fewer for slow cases) of
icepool, of ours and of ours with parsing, in an order that alternates from round to
round, so that load hits all three alike. The best round per call counts for each. After
``--rounds`` rounds a case goes on until its three best times have not improved by more
than 1 % for three rounds in a row (at most ``--max-rounds``), and in any case for at least
``--span`` seconds: a cheap case's rounds take a fraction of a millisecond, and a short slow
spell of a shared machine could otherwise spoil every round of one engine. A ratio is the
best icepool time over the best time of ours.

Run: ``python bench/odds_vs_icepool.py`` (``--quick`` for a few cases, ``--family e h`` for
some families). It prints every case's ratio without and with parsing and, per family, the
smallest and median ratios; the exit status is 0 when every case is identical and at least
10× faster than icepool with parsing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import icepool

from spieltisch.dice.notation import (
    BinaryOp,
    Compare,
    Constant,
    Dice,
    Explode,
    Expression,
    Group,
    Keep,
    Pool,
    Reroll,
    Test,
)
from spieltisch.dice.odds import TAIL, Distribution, clear_caches, distribution

TOLERANCE = 1e-12


Case = tuple[str, Callable[[], Expression], Callable[[], Any]]


def _gm() -> Any:
    return icepool.Die([1, 0, 0, 0, 1, 1])


def _janus_die() -> Any:
    return icepool.Die([0, 0, 0, 1, 1, 1])


def _hunter() -> Any:
    return icepool.Die([0, 0, 0, 0, 1, 1])


def _d(sides: int) -> Any:
    # icepool.d() is memoized inside icepool; build the die afresh like every other die.
    return icepool.Die(range(1, sides + 1))


def _success(n: int, t: int) -> Case:
    return (
        f"{n}W6>={t}",
        lambda: Dice(n, 6, compare=Compare(">=", t)),
        lambda: n @ (_d(6) >= t),
    )


def _janus(n: int, m: int, sign: str) -> Case:
    def ours() -> Expression:
        return BinaryOp("+" if sign == "+" else "-", Pool(n, "M"), Pool(m, "J"))

    def theirs() -> Any:
        gm = n @ _gm()
        janus = m @ _janus_die()
        if sign == "+":
            return gm + janus
        return (gm - janus).map(lambda x: max(x, 0))

    return f"{n}M{sign}{m}J", ours, theirs


def _versus(n: int) -> Case:
    return (
        f"8M - {n}H",
        lambda: BinaryOp("-", Pool(8, "M"), Pool(n, "H")),
        lambda: 8 @ _gm() - n @ _hunter(),
    )


def _exploding(k: int) -> Case:
    # The same cut-off as the engine: at most `depth` explosions per die.
    depth = 0
    while k * 10.0 ** -(depth + 1) > TAIL:
        depth += 1
    return (
        f"{k}W10!",
        lambda: Dice(k, 10, explode=Explode()),
        lambda: k @ _d(10).explode(depth=depth),
    )


def _plus(node: Expression, bonus: int) -> Expression:
    return BinaryOp("+", node, Constant(bonus)) if bonus else node


def _keep(n: int, sides: int, mode: str, k: int, bonus: int = 0) -> Case:
    def theirs() -> Any:
        pool = _d(sides).pool(n)
        if mode in ("kh", "dl"):
            kept = k if mode == "kh" else n - k
            return pool.highest(kept).sum() + bonus
        kept = k if mode == "kl" else n - k
        return pool.lowest(kept).sum() + bonus

    def ours() -> Expression:
        return _plus(Dice(n, sides, keep=Keep(mode, k)), bonus)  # type: ignore[arg-type]

    return str(ours()).replace(" ", ""), ours, theirs


def _reroll(n: int, sides: int, mode: str, op: str, target: int) -> Case:
    rule = Compare(op, target)  # type: ignore[arg-type]
    faces = [face for face in range(1, sides + 1) if rule.test(face)]
    depth: Any = 1 if mode == "once" else "inf"
    return (
        str(Dice(n, sides, reroll=Reroll(mode, rule))),  # type: ignore[arg-type]
        lambda: Dice(n, sides, reroll=Reroll(mode, rule)),  # type: ignore[arg-type]
        lambda: n @ _d(sides).reroll(faces, depth=depth),
    )


def _total(text: str, ours: Callable[[], Expression], theirs: Callable[[], Any]) -> Case:
    return text, ours, theirs


def _totals() -> list[Case]:
    depth = 0
    while 10.0 ** -(depth + 1) > TAIL:
        depth += 1
    return [
        _total(
            "1d20+5>=15",
            lambda: Test(_plus(Dice(1, 20), 5), Compare(">=", 15)),
            lambda: _d(20) + 5 >= 15,
        ),
        _total(
            "1d20+7>=18",
            lambda: Test(_plus(Dice(1, 20), 7), Compare(">=", 18)),
            lambda: _d(20) + 7 >= 18,
        ),
        _total(
            "(3d6+2)>=12",
            lambda: Test(_plus(Dice(3, 6), 2), Compare(">=", 12)),
            lambda: 3 @ _d(6) + 2 >= 12,
        ),
        _total(
            "2d20kh1+5>=15",
            lambda: Test(_plus(Dice(2, 20, keep=Keep("kh", 1)), 5), Compare(">=", 15)),
            lambda: _d(20).pool(2).highest(1).sum() + 5 >= 15,
        ),
        _total(
            "2d6+3d4>8",
            lambda: Test(BinaryOp("+", Dice(2, 6), Dice(3, 4)), Compare(">", 8)),
            lambda: 2 @ _d(6) + 3 @ _d(4) > 8,
        ),
        _total(
            "1W10!+7>=10",
            lambda: Test(_plus(Dice(1, 10, explode=Explode()), 7), Compare(">=", 10)),
            lambda: _d(10).explode(depth=depth) + 7 >= 10,
        ),
    ]


def _groups() -> list[Case]:
    def kh3() -> Expression:
        return Dice(4, 6, keep=Keep("kh", 3))

    return [
        (
            "{1d20,1d20}kh1",
            lambda: Group((Dice(1, 20), Dice(1, 20)), Keep("kh", 1)),
            lambda: icepool.Pool([_d(20), _d(20)]).highest(1).sum(),
        ),
        (
            "{1d20+5,1d20+5}kl1",
            lambda: Group((_plus(Dice(1, 20), 5), _plus(Dice(1, 20), 5)), Keep("kl", 1)),
            lambda: icepool.Pool([_d(20) + 5, _d(20) + 5]).lowest(1).sum(),
        ),
        (
            "{4d6kh3,4d6kh3}",
            lambda: Group((kh3(), kh3())),
            lambda: _d(6).pool(4).highest(3).sum() + _d(6).pool(4).highest(3).sum(),
        ),
        (
            "{2d6,1d12}kh1",
            lambda: Group((Dice(2, 6), Dice(1, 12)), Keep("kh", 1)),
            lambda: icepool.Pool([2 @ _d(6), _d(12)]).highest(1).sum(),
        ),
        (
            "{3d6,3d6,3d6}>=12",
            lambda: Group((Dice(3, 6),) * 3, compare=Compare(">=", 12)),
            lambda: 3 @ (3 @ _d(6) >= 12),
        ),
    ]


def cases(quick: bool) -> list[tuple[str, str, Callable[[], Expression], Callable[[], Any]]]:
    """Every benchmark case: (family, notation, build our tree, compute icepool's die)."""
    out: list[tuple[str, str, Callable[[], Expression], Callable[[], Any]]] = []
    for n in range(1, 13):
        for t in range(3, 7):
            if not quick or (n in (1, 6, 12) and t in (3, 6)):
                out.append(("a", *_success(n, t)))
    for n in range(1, 21):
        for m in range(6):
            for sign in "+-":
                if not quick or (n in (1, 10, 20) and m in (0, 5)):
                    out.append(("b", *_janus(n, m, sign)))
    for n in range(1, 16):
        if not quick or n in (1, 8, 15):
            out.append(("c", *_versus(n)))
    for k in range(1, 11):
        if not quick or k in (1, 5, 10):
            out.append(("d", *_exploding(k)))
    keeps = [
        (2, 20, "kh", 1, 5),
        (2, 20, "kl", 1, 5),
        (2, 20, "kh", 1, 0),
        (4, 6, "kh", 3, 0),
        (4, 6, "dl", 1, 0),
        (3, 6, "kh", 2, 0),
        (5, 10, "kh", 3, 0),
        (8, 6, "kh", 3, 0),
        (3, 20, "dh", 1, 0),
    ]
    for index, (n, sides, mode, k, bonus) in enumerate(keeps):
        if not quick or index in (0, 3):
            out.append(("e", *_keep(n, sides, mode, k, bonus)))
    rerolls = [
        (4, 6, "once", "=", 1),
        (2, 6, "once", "<", 3),
        (1, 20, "once", "=", 1),
        (4, 6, "always", "=", 1),
        (2, 10, "always", "<=", 2),
        (3, 8, "once", "<=", 2),
    ]
    for index, (n, sides, mode, op, target) in enumerate(rerolls):
        if not quick or index in (0, 3):
            out.append(("f", *_reroll(n, sides, mode, op, target)))
    for index, case in enumerate(_totals()):
        if not quick or index in (0, 2, 5):
            out.append(("g", *case))
    for index, case in enumerate(_groups()):
        if not quick or index in (0, 2, 3):
            out.append(("h", *case))
    return out


def _round(run: Callable[[], Any], inner: int) -> tuple[float, Any]:
    """Time per call of ``inner`` back-to-back cold calls, and the last result.

    Every call starts cold: the engine's caches are cleared before each call (inside the
    timing, so it counts against the engine) and icepool builds its dice afresh.
    """
    start = time.process_time()
    result: Any = None
    for _ in range(inner):
        clear_caches()
        result = run()
    return (time.process_time() - start) / inner, result


def _once(run: Callable[[], Any]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def _difference(ours: Distribution, theirs: Any) -> float:
    expected = {
        outcome: float(p)
        for outcome, p in zip(theirs.outcomes(), theirs.probabilities(), strict=True)
    }
    found: dict[Any, float] = {}
    for outcome, p in ours.table:
        value = outcome[0] if isinstance(outcome, tuple) else outcome
        found[int(value)] = found.get(int(value), 0.0) + p
    expected = {int(outcome): p for outcome, p in expected.items()}  # a comparison: 0 and 1
    keys = set(expected) | set(found)
    return max(abs(expected.get(k, 0.0) - found.get(k, 0.0)) for k in keys)


def _from_tree(build: Callable[[], Expression]) -> Callable[[], Distribution]:
    return lambda: distribution(build())


def _from_text(text: str) -> Callable[[], Distribution]:
    return lambda: distribution(text)


def measure(
    runs: list[Callable[[], Any]], rounds: int, most: int, span: float = 0.0
) -> tuple[list[float], list[Any], int]:
    """The best time per call of each run (and its last result) over interleaved rounds:
    at least ``rounds``, then until no best time improves by more than 1 % for three rounds
    in a row, at most ``most``, and in every case over at least ``span`` seconds; and how
    many rounds that took."""
    # A few calls per round, fewer where a call is slow (the first run is the slowest).
    inner = max(1, min(20, int(0.002 / max(_once(runs[0]), 1e-6))))
    best = [float("inf")] * len(runs)
    results: list[Any] = [None] * len(runs)
    calm = 0
    done = 0
    start = time.perf_counter()
    while (done < most and (done < rounds or calm < 3)) or time.perf_counter() - start < span:
        order = range(len(runs)) if done % 2 == 0 else reversed(range(len(runs)))
        improved = False
        for index in order:
            took, results[index] = _round(runs[index], inner)
            if took < best[index] * 0.99:
                improved = improved or best[index] < float("inf")
            best[index] = min(best[index], took)
        calm = 0 if improved else calm + 1
        done += 1
    return best, results, done


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per case plus a summary per family."""
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--quick", action="store_true", help="a few cases, few rounds")
    options.add_argument("--rounds", type=int, default=0, help="rounds per case at least")
    options.add_argument("--max-rounds", type=int, default=0, help="rounds per case at most")
    options.add_argument("--family", nargs="*", default=[], help="only these families (a-h)")
    options.add_argument(
        "--span", type=float, default=0.05, help="seconds per case at least (0.05)"
    )
    args = options.parse_args(argv)
    rounds = args.rounds or (5 if args.quick else 9)
    most = max(rounds, args.max_rounds or 4 * rounds)
    distribution("1d6")  # builds the grammar: once per process, not per case
    print(
        f"{'case':<20} {'icepool µs':>10} {'ours µs':>8} {'ratio':>7}  "
        f"{'with parsing µs':>15} {'ratio':>7}  {'rounds':>6}  {'max diff':>8}"
    )
    ratios: dict[str, list[float]] = {}
    text_ratios: dict[str, list[float]] = {}
    failures = 0
    for family, name, build, oracle in cases(args.quick):
        if args.family and family not in args.family:
            continue
        text = str(build())
        runs = [oracle, _from_tree(build), _from_text(text)]
        # One untimed call of each first: the first call of a case pays one-off costs
        # (icepool's very first call in the process several times over).
        for run in runs:
            _once(run)
        (ice, ours_time, text_time), (theirs, ours, _), done = measure(
            runs, rounds, most, 0.0 if args.quick else args.span
        )
        diff = _difference(ours, theirs)
        # the mass cut off exploding dice may all sit on one outcome of a comparison
        same = diff <= TOLERANCE + ours.truncated and ours.truncated <= TAIL
        ratio, text_ratio = ice / ours_time, ice / text_time
        ratios.setdefault(family, []).append(ratio)
        text_ratios.setdefault(family, []).append(text_ratio)
        failures += (not same) + (text_ratio < 10)
        flags = ("" if same else " DIFFERENT") + ("" if text_ratio >= 10 else " (< 10×)")
        print(
            f"{name:<20} {ice * 1e6:>10.0f} {ours_time * 1e6:>8.1f} {ratio:>6.1f}×  "
            f"{text_time * 1e6:>15.1f} {text_ratio:>6.1f}×  {done:>6}  {diff:>8.1e}{flags}"
        )
    print()
    for family, values in ratios.items():
        print(
            f"family {family}: {len(values)} cases; ratio min {min(values):.1f}×, "
            f"median {statistics.median(values):.1f}×; "
            f"with parsing min {min(text_ratios[family]):.1f}×, "
            f"median {statistics.median(text_ratios[family]):.1f}×"
        )
    print(
        "all cases identical and ≥ 10× faster with parsing"
        if not failures
        else f"{failures} problem(s)"
    )
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
