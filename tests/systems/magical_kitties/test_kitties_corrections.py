"""A GM's correction carries the fields as they were, so that the log can show old → new."""

from __future__ import annotations

from kitties_helpers import Game

from spieltisch.systems.magical_kitties.events import KittyEdited


def test_a_correction_keeps_the_old_values_of_the_fields_it_names(game: Game) -> None:
    # Mia starts with the table's default treats and Aua-Limit; she takes one Aua first.
    game.do({"kind": "give_aua", "kitty": "mia", "count": 1})
    treats, limit = game.kitty().treats, game.kitty().aua_limit
    (event,) = game.do(
        {
            "kind": "edit_kitty",
            "kitty": "mia",
            "changes": {
                "treats": 0,
                "auas": 0,
                "attributes": {"cute": 2, "cunning": 2, "fierce": 2},
            },
        }
    )
    assert isinstance(event, KittyEdited)
    before = event.before.model_dump(exclude_none=True)
    assert before == {
        "treats": treats,
        "auas": 1,
        "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
    }
    # Fields the correction does not name stay out of both sides.
    assert event.before.aua_limit is None and event.changes.aua_limit is None
    assert game.kitty().aua_limit == limit and game.kitty().treats == 0


def test_a_logged_correction_without_old_values_still_folds(game: Game) -> None:
    event = KittyEdited.model_validate(
        {"kind": "kitty_edited", "kitty": "mia", "changes": {"xp": 3}}
    )
    assert event.before.model_dump(exclude_none=True) == {}
    state = game.system.evolve(game.state, event)
    assert state.kitties["mia"].xp == 3
