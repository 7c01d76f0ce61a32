"""Random playouts of Kilkenny Cats in plies per second, beside OpenSpiel's Python loop.

A ply is one turn: a die roll followed by a uniformly random legal move (or a pass). For
comparison the same loop runs over OpenSpiel's ``einstein_wurfelt_nicht`` (also one die roll
and one move per turn), driven from Python as OpenSpiel's examples do; its plies are the
player decisions. Both run on one core in this process, one after the other.

    python bench/kilkenny_playouts.py [--seconds 5] [--players 2]

Target: at least 150,000 plies per second for Kilkenny. OpenSpiel is optional
(``pip install open_spiel``); without it the script says so and reports Kilkenny alone.
"""

from __future__ import annotations

import argparse
import random
import time

from spieltisch.systems.kilkenny.board import geometry
from spieltisch.systems.kilkenny.layout import get_layout
from spieltisch.systems.kilkenny.rules import Board, playout

TARGET = 150_000


def kilkenny_rate(seconds: float, players: int, seed: int = 1) -> tuple[float, int, float]:
    """Plies per second, games played and mean plies per game of random Kilkenny playouts."""
    layout = get_layout("default")
    geo = geometry(layout, layout.seats_for(players))
    start = Board.start(geo)
    rng = random.Random(seed)
    plies = games = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        _, played = playout(start.copy(), rng)
        plies += played
        games += 1
    elapsed = time.process_time() - began
    return plies / elapsed, games, plies / games


def openspiel_rate(seconds: float, seed: int = 1) -> tuple[float, int, float] | None:
    """The same for OpenSpiel's Einstein würfelt nicht, or ``None`` without open_spiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("einstein_wurfelt_nicht")
    rng = random.Random(seed)
    plies = games = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [action for action, _ in outcomes]
                weights = [probability for _, probability in outcomes]
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                plies += 1
        games += 1
    elapsed = time.process_time() - began
    return plies / elapsed, games, plies / games


def main() -> None:
    """Run both loops and print the rates and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    args = parser.parse_args()
    rate, games, length = kilkenny_rate(args.seconds, args.players)
    print(
        f"kilkenny ({args.players} players): {rate:,.0f} plies/s "
        f"({games} games, {length:.0f} plies per game); "
        f"target {TARGET:,}: {'met' if rate >= TARGET else 'NOT met'} "
        f"(ratio {rate / TARGET:.2f})"
    )
    other = openspiel_rate(args.seconds)
    if other is None:
        print("open_spiel is not installed: no OpenSpiel comparison (pip install open_spiel)")
        return
    other_rate, other_games, other_length = other
    print(
        f"open_spiel einstein_wurfelt_nicht (Python loop): {other_rate:,.0f} plies/s "
        f"({other_games} games, {other_length:.0f} plies per game)"
    )
    print(f"ratio kilkenny / open_spiel: {rate / other_rate:.2f}")


if __name__ == "__main__":
    main()
