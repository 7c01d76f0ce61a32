"""The learned win-chance model: features by hand, the fit, the shipped data, invariants."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from random import Random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.systems.kilkenny import Board, Position, geometry, get_layout, playout
from spieltisch.systems.kilkenny.ai.evaluate import WIN, race_tables, scores
from spieltisch.systems.kilkenny.ai.fitting import fit_logistic, self_play_samples
from spieltisch.systems.kilkenny.ai.learned import (
    FEATURES,
    ValueModel,
    learned_scores,
    side_features,
    value_model,
)

ROOT = Path(__file__).resolve().parents[3]


def test_side_features_by_hand() -> None:
    board = Position.from_text("S:h11,c3,S1 N:a14,b14,n1 S - 4").board()
    geo = board.geo
    only_second = race_tables(geo)[0][1]
    h11, c3 = geo.cell(7, 10), geo.cell(2, 2)
    first = only_second[h11]
    rest = first + min(only_second[c3], 30.0)
    # S: three cats (two on the board, one home); only a 4 (h11 straight up) enters S2.
    assert side_features(board, 0) == pytest.approx(
        (3, 1, first, 0, rest, 0, 1, 1, 1, 3, first, rest, 1, 1)
    )
    # N: three cats on the board, none home, none lined up with its holes below g1 and h1.
    both = race_tables(geo)[1][0]
    values = sorted(min(both[geo.cell(x, y)], 30.0) for x, y in ((0, 13), (1, 13), (13, 0)))
    assert side_features(board, 1) == pytest.approx(
        (3, 0, values[0], values[1], sum(values), 0, 0, 0, 0, 0, 0, 0, 0, 0)
    )
    # An N cat on h13 blocks the path: no open entry left for S.
    blocked = Position.from_text("S:h11,c3,S1 N:h13,b14,n1 S - 4").board()
    assert side_features(blocked, 0)[6:9] == (0, 0, 0)


def test_fit_recovers_a_known_logistic_model() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(40_000, 3)) * np.array([1.0, 5.0, 0.2]) + np.array([0.0, 3.0, 1.0])
    true_weights, true_bias = np.array([0.8, -0.3, 2.0]), 0.4
    chance = 1 / (1 + np.exp(-(x @ true_weights + true_bias)))
    y = (rng.random(len(x)) < chance).astype(float)
    weights, bias = fit_logistic(x, y)
    assert weights == pytest.approx(true_weights, abs=0.08)
    assert bias == pytest.approx(true_bias, abs=0.15)


def test_model_json_round_trips_and_names_what_is_missing() -> None:
    model = value_model()
    assert len(model.mover) == len(model.other) == len(FEATURES)
    assert ValueModel.from_dict(json.loads(json.dumps(model.to_dict()))) == model
    data = model.to_dict()
    other = dict(data["other"])  # type: ignore[call-overload]
    del other["cover"]
    with pytest.raises(ValueError, match="cover"):
        ValueModel.from_dict({**data, "other": other})


def test_an_open_winning_entry_counts_most_for_the_mover() -> None:
    model = value_model()
    s_to_move = Position.from_text("S:h11,c3,S1 N:a14,b14,n1 S - 4").board()
    n_to_move = Position.from_text("S:h11,c3,S1 N:a14,b14,n1 N - 4").board()
    s_moves = model.win_chance(s_to_move, 0)
    s_waits = 1 - model.win_chance(n_to_move, 1)
    assert 0.5 < s_waits < s_moves
    # Closing the path costs S chances.
    blocked = Position.from_text("S:h11,c3,S1 N:h13,b14,n1 S - 4").board()
    assert model.win_chance(blocked, 0) < s_moves


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 80), players=st.sampled_from([2, 3, 4]))
def test_learned_scores_are_chances_for_two_and_hand_scores_otherwise(
    seed: int, plies: int, players: int
) -> None:
    layout = get_layout("default")
    board = Board.start(geometry(layout, layout.seats_for(players)))
    outcome, _ = playout(board, Random(seed), max_plies=plies)
    if outcome.kind.value != "capped":
        return
    values = learned_scores(board)
    if players != 2:
        assert values == scores(board)
        return
    assert all(0.0 <= value <= WIN for value in values)
    assert sum(values) == pytest.approx(WIN)


def test_self_play_samples_replay_and_label_the_winner() -> None:
    layout = get_layout("default")
    geo = geometry(layout, layout.seats_for(2))
    x, y = self_play_samples(geo, 6, seed=3)
    again, y_again = self_play_samples(geo, 6, seed=3)
    assert x.shape == (len(y), 2 * len(FEATURES)) and len(y) > 6 * 10
    assert np.array_equal(x, again) and np.array_equal(y, y_again)
    assert set(np.unique(y)) <= {0.0, 1.0}
    # The first row of a game is the start: both sides have eight cats.
    assert x[0, 0] == x[0, len(FEATURES)] == 8
    with pytest.raises(ValueError):
        self_play_samples(geometry(layout, layout.seats_for(3)), 1, seed=0)


def test_fit_script_writes_a_loadable_model(tmp_path: Path) -> None:
    output = tmp_path / "model.json"
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts/kilkenny_fit_value.py"),
            "--games",
            "40",
            "--workers",
            "1",
            "--output",
            str(output),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "held-out log-loss" in done.stdout
    model = ValueModel.from_dict(json.loads(output.read_text(encoding="utf-8")))
    assert len(model.mover) == len(FEATURES)
