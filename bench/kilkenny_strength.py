"""Strength of the Kilkenny Cats AI players: seeded matches with 95% intervals.

Each pairing plays ``--games`` games (default 400) with dice seeded per game, alternating who
starts; a game's score is 1 for a win, 1/2 for a draw or a capped game. Targets:

* greedy scores at least 95% against random;
* expectimax at least 60% against greedy;
* the strongest at least 55% against expectimax, thinking at most 1 s per move.

    python bench/kilkenny_strength.py [--games 400] [--pairs greedy-random,expectimax-greedy]
        [--budget 6] [--seconds 1.0] [--workers 2] [--seed 0]

The strongest player's ``--budget`` (candidate moves searched deeper) is deterministic;
``--seconds`` is a time limit per move on top of it. The mean thinking time per move is
reported beside each result.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from spieltisch.systems.kilkenny.ai import make_player
from spieltisch.systems.kilkenny.ai.match import MatchResult, play_match

TARGETS = {
    ("greedy", "random"): 0.95,
    ("expectimax", "greedy"): 0.60,
    ("strongest", "expectimax"): 0.55,
}


def _part(
    a: str, b: str, games: int, first: int, seed: int, budget: int, seconds: float | None
) -> MatchResult:
    return play_match(
        lambda: make_player(a, budget, seconds),
        lambda: make_player(b, budget, seconds),
        games,
        seed=seed,
        first=first,
    )


def run_pair(
    a: str, b: str, games: int, seed: int, budget: int, seconds: float | None, workers: int
) -> MatchResult:
    """Play one pairing, split over ``workers`` processes."""
    if workers <= 1:
        return _part(a, b, games, 0, seed, budget, seconds)
    share = -(-games // workers)
    result = MatchResult()
    with ProcessPoolExecutor(workers) as pool:
        futures = [
            pool.submit(_part, a, b, min(share, games - first), first, seed, budget, seconds)
            for first in range(0, games, share)
        ]
        for future in futures:
            result.merge(future.result())
    return result


def main() -> None:
    """Run the pairings and print score, interval, time per move and the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--pairs", default="greedy-random,expectimax-greedy,strongest-expectimax")
    parser.add_argument("--budget", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for pair in args.pairs.split(","):
        a, b = pair.split("-")
        began = time.perf_counter()
        result = run_pair(a, b, args.games, args.seed, args.budget, args.seconds, args.workers)
        low, high = result.interval_a()
        target = TARGETS.get((a, b))
        verdict = ""
        if target is not None:
            verdict = f"target {target:.0%}: " + (
                "met"
                if low >= target
                else "point estimate met"
                if result.score_a >= target
                else "NOT met"
            )
        print(
            f"{a} vs {b}: {result.games} games, wins {result.wins_a}-{result.wins_b}, "
            f"draws {result.draws}, capped {result.capped}; score {result.score_a:.3f} "
            f"(95% CI {low:.3f}-{high:.3f}); {result.seconds_per_move(0):.4f} s/move for {a}, "
            f"{result.seconds_per_move(1):.4f} s/move for {b}; "
            f"{result.plies / result.games:.1f} plies/game; {verdict}; "
            f"wall {time.perf_counter() - began:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
