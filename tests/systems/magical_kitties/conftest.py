"""Fixtures of the Magical Kitties tests."""

from __future__ import annotations

import pytest
from kitties_helpers import MIA, TOM, Game


@pytest.fixture
def game() -> Game:
    """Mia and Tom in scene 1 of episode 1, with a rat (difficulty 4, Aua-Limit 2)."""
    played = Game()
    played.do(MIA)
    played.do(TOM)
    played.do({"kind": "start_episode"})
    played.do({"kind": "start_scene"})
    played.do({"kind": "create_foe", "id": "rat", "name": "Rat"})
    return played
