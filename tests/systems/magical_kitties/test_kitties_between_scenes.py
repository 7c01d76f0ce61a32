"""An injury taken while no scene runs belongs to the next scene: its end heals one injury.

Mia (cute 3, Aua-Limit 2) in the fixture's scene 1 of episode 1; five Auas at once are two
Auas and three injuries, so she is incapacitated (3 injuries ≥ her highest attribute 3).
"""

from __future__ import annotations

from kitties_helpers import Game


def _five_auas(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia", "count": 5})


def test_an_injury_between_scenes_heals_at_the_end_of_the_next_scene(game: Game) -> None:
    game.do({"kind": "end_scene"})
    _five_auas(game)
    assert (game.kitty().auas, game.kitty().injuries) == (2, 3)
    game.do({"kind": "start_scene"})
    assert game.kitty().injuries_this_scene == 3
    assert game.state.kitties["mia"].injuries == 3  # nothing heals when the scene starts
    game.do({"kind": "end_scene"})
    assert game.kitty().injuries == 2  # 3 − 1: one injury per scene, and Mia wakes up
    assert game.kitty().injuries_this_scene == 0
    game.do({"kind": "start_scene"})
    game.do({"kind": "end_scene"})
    assert game.kitty().injuries == 2  # a scene without an injury heals nothing


def test_injuries_before_and_in_a_scene_still_heal_only_one(game: Game) -> None:
    game.do({"kind": "end_scene"})
    game.do({"kind": "give_aua", "kitty": "mia", "count": 3})  # 2 Auas, 1 injury
    game.do({"kind": "start_scene"})
    game.do({"kind": "give_aua", "kitty": "mia", "count": 1})  # a second injury
    assert (game.kitty().injuries, game.kitty().injuries_this_scene) == (2, 2)
    game.do({"kind": "end_scene"})
    assert game.kitty().injuries == 1


def test_a_fresh_injury_between_scenes_can_still_be_avoided_in_the_next(game: Game) -> None:
    game.do({"kind": "end_scene"})
    game.do({"kind": "give_aua", "kitty": "mia", "count": 3})  # 2 Auas, 1 injury
    game.do({"kind": "start_scene"})
    treats = game.kitty().treats
    game.do({"kind": "avoid_injury", "kitty": "mia"})
    assert (game.kitty().injuries, game.kitty().treats) == (0, treats - 1)
    game.do({"kind": "end_scene"})
    assert game.kitty().injuries == 0  # nothing left to heal


def test_an_injury_between_episodes_follows_the_episode_reset(game: Game) -> None:
    game.do({"kind": "end_episode"})
    _five_auas(game)
    # Kept by the GM's choice: healed at the end of the new episode's first scene.
    game.do({"kind": "start_episode", "reset_auas": False, "reset_injuries": False})
    game.do({"kind": "start_scene"})
    game.do({"kind": "end_scene"})
    assert (game.kitty().auas, game.kitty().injuries) == (2, 2)
    # Reset: no injury is left, and nothing stays marked to heal or avoid.
    game.do({"kind": "end_episode"})
    game.do({"kind": "give_aua", "kitty": "mia", "count": 1})  # the third injury again
    game.do({"kind": "start_episode", "reset_injuries": True})
    assert (game.kitty().injuries, game.kitty().injuries_this_scene) == (0, 0)
    assert game.kitty().avoidable_injuries == 0


def test_an_injury_in_a_scene_is_healed_at_that_scene_s_end_only(game: Game) -> None:
    game.do({"kind": "give_aua", "kitty": "mia", "count": 3})  # 2 Auas, 1 injury in scene 1
    game.do({"kind": "end_scene"})
    assert game.kitty().injuries == 0
    game.do({"kind": "start_scene"})
    assert game.kitty().injuries_this_scene == 0
