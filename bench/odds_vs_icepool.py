"""Exact odds: Spieltisch's engine against icepool on the cases the games need.

Both engines run in this one process. Every case is timed from a cold start: before each
repetition the engine's caches (per-die distributions, pool powers, parsed texts) are
cleared and icepool builds its dice afresh; the best of the repetitions counts for both.

Columns: ``tree`` is ``distribution(expression tree)`` with the tree built inside the timed
region (what a game does: it assembles its pool in code, as icepool users build dice
objects); ``text`` additionally parses the notation with the grammar. The ratio compares
icepool with ``tree``; ``ratio(text)`` is shown for completeness. Each case also checks that
both engines give the same distribution (largest difference of a probability ≤ 1e-12, and
the mass the engine cut off from exploding dice ≤ 1e-12).

Run: ``python bench/odds_vs_icepool.py`` (``--quick`` for a short run).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import icepool

from spieltisch.dice.notation import BinaryOp, Dice, Expression, Pool, parse
from spieltisch.dice.odds import TAIL, Distribution, clear_caches, distribution

TOLERANCE = 1e-12


def _success(n: int, t: int) -> tuple[str, Callable[[], Expression], Callable[[], Any]]:
    from spieltisch.dice.notation import Compare

    return (
        f"{n}W6>={t}",
        lambda: Dice(n, 6, compare=Compare(">=", t)),
        lambda: n @ (icepool.d(6) >= t),
    )


def _janus(n: int, m: int, sign: str) -> tuple[str, Callable[[], Expression], Callable[[], Any]]:
    def ours() -> Expression:
        return BinaryOp("+" if sign == "+" else "-", Pool(n, "M"), Pool(m, "J"))

    def theirs() -> Any:
        gm = n @ icepool.Die([1, 0, 0, 0, 1, 1])
        janus = m @ icepool.Die([0, 0, 0, 1, 1, 1])
        if sign == "+":
            return gm + janus
        return (gm - janus).map(lambda x: max(x, 0))

    return f"{n}M{sign}{m}J", ours, theirs


def _versus(n: int) -> tuple[str, Callable[[], Expression], Callable[[], Any]]:
    return (
        f"8M - {n}H",
        lambda: BinaryOp("-", Pool(8, "M"), Pool(n, "H")),
        lambda: 8 @ icepool.Die([1, 0, 0, 0, 1, 1]) - n @ icepool.Die([0, 0, 0, 0, 1, 1]),
    )


def _exploding(k: int) -> tuple[str, Callable[[], Expression], Callable[[], Any]]:
    # The same cut-off as the engine: at most `depth` explosions per die.
    depth = 0
    while k * 10.0 ** -(depth + 1) > TAIL:
        depth += 1
    return (
        f"{k}W10!",
        lambda: Dice(k, 10, explode=True),
        lambda: k @ icepool.d(10).explode(depth=depth),
    )


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
    return out


def _best(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times: list[float] = []
    result: Any = None
    for _ in range(repeat):
        clear_caches()
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def _difference(ours: Distribution, theirs: Any) -> float:
    expected = {
        outcome: float(p)
        for outcome, p in zip(theirs.outcomes(), theirs.probabilities(), strict=True)
    }
    found: dict[Any, float] = {}
    for outcome, p in ours.table:
        value = outcome[0] if isinstance(outcome, tuple) else outcome
        found[int(value)] = found.get(int(value), 0.0) + p
    keys = set(expected) | set(found)
    return max(abs(expected.get(k, 0.0) - found.get(k, 0.0)) for k in keys)


def _from_tree(build: Callable[[], Expression]) -> Callable[[], Distribution]:
    return lambda: distribution(build())


def _from_text(text: str) -> Callable[[], Distribution]:
    return lambda: distribution(parse(text))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per case plus a summary per family."""
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--quick", action="store_true", help="a few cases, few repetitions")
    options.add_argument("--repeat", type=int, default=0, help="repetitions per case")
    args = options.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 7)
    distribution("1d6")  # build the grammar once: a per-process cost, not a per-case one
    print(
        f"{'case':<12} {'icepool µs':>11} {'tree µs':>9} {'text µs':>9} "
        f"{'ratio':>7} {'ratio(text)':>11} {'max diff':>9}  ok"
    )
    ratios: dict[str, list[float]] = {}
    failures = 0
    for family, name, build, oracle in cases(args.quick):
        ice_time, theirs = _best(oracle, repeat)
        tree_time, ours = _best(_from_tree(build), repeat)
        text_time, _ = _best(_from_text(str(build())), repeat)
        diff = _difference(ours, theirs)
        same = diff <= TOLERANCE and ours.truncated <= TAIL
        ratio = ice_time / tree_time
        ratios.setdefault(family, []).append(ratio)
        fast = ratio >= 10
        failures += (not same) + (not fast)
        print(
            f"{name:<12} {ice_time * 1e6:>11.0f} {tree_time * 1e6:>9.1f} {text_time * 1e6:>9.1f} "
            f"{ratio:>6.1f}× {ice_time / text_time:>10.1f}× {diff:>9.1e}  "
            f"{'yes' if same else 'DIFFERENT'}{'' if fast else ' (< 10×)'}"
        )
    print()
    for family, values in ratios.items():
        print(
            f"family {family}: {len(values)} cases, ratio min {min(values):.1f}×, "
            f"median {statistics.median(values):.1f}×, max {max(values):.1f}×"
        )
    print("all cases identical and ≥ 10× faster" if not failures else f"{failures} problem(s)")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
