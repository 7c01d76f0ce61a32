"""Fit the strongest Kilkenny player's win-chance model to self-play games and write it.

    python scripts/kilkenny_fit_value.py [--games 40000] [--seed 1] [--workers 2]
        [--epsilon 0.1] [--output src/spieltisch/systems/kilkenny/data/value_model.json]

Plays ``--games`` two-player games on the default layout (one-ply players on the hand-set
evaluation, a random move with chance ``--epsilon``), fits the logistic model of
``spieltisch.systems.kilkenny.ai.learned`` to every position before a roll and prints the
log-loss of the model on a fifth as many further games (held out from the fit). The same
arguments give the same file (``--workers`` included: each worker's games have their own seed).
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from spieltisch.systems.kilkenny.ai.fitting import fit_value_model, self_play_samples
from spieltisch.systems.kilkenny.board import geometry
from spieltisch.systems.kilkenny.layout import get_layout

OUTPUT = Path(__file__).parent.parent / "src/spieltisch/systems/kilkenny/data/value_model.json"


def _samples(games: int, seed: str, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    layout = get_layout("default")
    return self_play_samples(geometry(layout, layout.seats_for(2)), games, seed, epsilon)


def _log_loss(logits: np.ndarray, y: np.ndarray) -> float:
    chance = np.clip(1 / (1 + np.exp(-np.clip(logits, -30, 30))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(chance) + (1 - y) * np.log(1 - chance)))


def main() -> None:
    """Generate the games, fit, report the held-out log-loss and write the model."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    share = -(-args.games // args.workers)
    counts = [min(share, args.games - start) for start in range(0, args.games, share)]
    seeds = [f"{args.seed}.{part}" for part in range(len(counts))]
    with ProcessPoolExecutor(args.workers) as pool:
        parts = list(
            pool.map(
                _samples,
                [*counts, max(1, args.games // 5)],
                [*seeds, f"{args.seed}.held-out"],
                [args.epsilon] * (len(counts) + 1),
            )
        )
    x = np.concatenate([p[0] for p in parts[:-1]])
    y = np.concatenate([p[1] for p in parts[:-1]])
    x_test, y_test = parts[-1]
    print(f"{len(y)} positions to fit, {len(y_test)} held out")
    model = fit_value_model(x, y)
    size = len(model.mover)
    logits = model.bias + x_test[:, :size] @ model.mover + x_test[:, size:] @ model.other
    base = float(np.log(y.mean() / (1 - y.mean())))
    print(
        f"held-out log-loss {_log_loss(logits, y_test):.4f}"
        f" (a constant chance: {_log_loss(np.full(len(y_test), base), y_test):.4f})"
    )
    args.output.write_text(json.dumps(model.to_dict(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
