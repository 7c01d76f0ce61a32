"""What a viewer sees at a Magical Kitties table, and the GM's hidden checks beside a player's.

A player decides on the shared fold, where the GM's hidden check does not exist: their own
check stays the last one there, and rerolling, accepting or choosing its outcome must also
apply to the GM's fold (where the hidden check came later). Dice are loaded, so every case is
worked out by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from kitties_helpers import MIA, TOM, LoadedDice

from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.visibility import GM_VIEWER, Viewer
from spieltisch.systems.magical_kitties.system import public_state
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
PLAYER = Actor(id="p1", role=Role.PLAYER)
CUTE = {"kind": "check", "kitty": "mia", "attribute": "cute"}  # 3 dice, difficulty 4
TOM_FIERCE = {"kind": "check", "kitty": "tom", "attribute": "fierce"}  # 3 dice


class Play:
    """A kitties table with Mia (the player's) and Tom (the GM's) in scene 1."""

    def __init__(self) -> None:
        self.table = Table(get_system("magical-kitties"))
        self.dice = LoadedDice([])
        self.do(PLAYER, MIA)
        self.do(GM, TOM)
        self.do(GM, {"kind": "start_episode"})
        self.do(GM, {"kind": "start_scene"})

    def do(
        self, actor: Actor, command: dict[str, Any], dice: Sequence[int] = (), hidden: bool = False
    ) -> list[dict[str, Any]]:
        self.dice.values.extend(dice)
        [record] = self.table.execute(command, actor, lambda _index: self.dice, hidden=hidden)
        assert self.dice.used == len(self.dice.values)
        return record.events

    def seen(self, viewer: Viewer | None = None) -> dict[str, Any]:
        return self.table.view(viewer or self.table.viewer(PLAYER))


def test_accepting_ones_own_failure_after_the_gms_hidden_check() -> None:
    play = Play()
    assert play.do(PLAYER, CUTE, [1, 2, 3])[0]["check"] == 1  # no success: a failure
    before = play.seen()
    play.do(GM, TOM_FIERCE, [6, 6, 6], hidden=True)
    assert play.seen() == before  # the hidden check does not exist on the player's side
    assert play.seen(GM_VIEWER)["last_check"]["number"] == 2
    assert play.do(PLAYER, {"kind": "accept_failure"}) == [
        {"kind": "failure_accepted", "check": 1, "kitty": "mia"}
    ]
    for state in (play.table.state, play.table.shared_state):
        assert state.kitties["mia"].failures == 1
    assert play.table.shared_state.last_check.accepted
    assert play.table.state.earlier_checks[1].accepted  # the GM's fold: under the hidden one
    assert play.table.state.last_check.number == 2 and not play.table.state.last_check.accepted


def test_rerolling_and_choosing_ones_own_bonus_after_the_gms_hidden_check() -> None:
    play = Play()
    play.do(PLAYER, CUTE, [5, 1, 1])  # one success
    play.do(GM, TOM_FIERCE, [2, 2, 2], hidden=True)
    [rerolled] = play.do(PLAYER, {"kind": "reroll", "dice": [1, 2]}, [6, 4])
    assert (rerolled["check"], rerolled["values"]) == (1, [6, 4])
    assert play.seen()["last_check"]["successes"] == 3  # a bonus
    play.do(PLAYER, {"kind": "choose_outcome", "entry": "bonus.second_goal"})
    for state in (play.table.state, play.table.shared_state):
        assert state.kitties["mia"].treats == 1
    mine = play.table.state.earlier_checks[1]
    assert (mine.dice, mine.outcome) == ((5, 6, 4), "bonus.second_goal")
    assert play.seen()["last_check"]["outcome"] == "bonus.second_goal"
    hidden = play.table.state.last_check
    assert (hidden.kitty, hidden.dice, hidden.outcome) == ("tom", (2, 2, 2), None)


def test_a_check_after_a_hidden_one_takes_the_shared_number() -> None:
    play = Play()
    play.do(PLAYER, CUTE, [4, 4, 1])
    play.do(GM, TOM_FIERCE, [1, 1, 1], hidden=True)  # number 2 in the GM's fold
    assert play.do(PLAYER, CUTE, [6, 1, 1])[0]["check"] == 2  # the player sees no gap
    assert play.seen()["checks"] == 2
    assert play.seen(GM_VIEWER)["last_check"]["dice"] == [6, 1, 1]
    play.do(PLAYER, {"kind": "reroll", "dice": [1]}, [5])
    assert play.table.state.last_check.dice == play.table.shared_state.last_check.dice == (6, 5, 1)
    # The GM's next check is numbered after every check of his fold.
    assert play.do(GM, TOM_FIERCE, [1, 1, 1])[0]["check"] == 3


def test_the_gms_hidden_check_of_a_players_kitty_stays_his() -> None:
    play = Play()
    play.do(PLAYER, CUTE, [4, 1, 1])
    before = play.seen()
    play.do(GM, {**CUTE, "attribute": "fierce"}, [6], hidden=True)
    assert play.seen() == before
    play.do(PLAYER, {"kind": "reroll", "dice": [2]}, [5])
    assert play.seen()["last_check"]["dice"] == [4, 1, 5]
    assert play.seen(GM_VIEWER)["last_check"]["dice"] == [6]


def test_claiming_the_id_of_a_hidden_kitty_is_refused_without_details() -> None:
    play = Play()
    play.do(GM, {**TOM, "id": "ghost", "name": "Ghost"}, hidden=True)
    assert [kitty["id"] for kitty in play.seen()["kitties"]] == ["mia", "tom"]
    with pytest.raises(RuleError) as refused:
        play.do(PLAYER, {**MIA, "id": "ghost"})
    assert (refused.value.code, refused.value.params) == ("table.hidden_conflict", {})
    with pytest.raises(RuleError) as unknown:
        play.do(PLAYER, {"kind": "check", "kitty": "ghost", "attribute": "cute"})
    assert unknown.value.code == "rule.forbidden"  # as for any kitty that is not theirs


@pytest.mark.parametrize("system", ["magical-kitties", "kilkenny", "free-dice"])
def test_every_viewer_of_a_fold_sees_all_of_it(system: str) -> None:
    # The rules of these games keep nothing on the table private: the view of a fold is the
    # same for the GM, a player with pieces and a spectator.
    game = get_system(system)
    state = game.new_state({})
    viewers = [
        GM_VIEWER,
        Viewer(Role.PLAYER, "p1", frozenset({"mia", "seat:S"})),
        Viewer(Role.SPECTATOR, "s1"),
    ]
    views = [game.view(state, viewer) for viewer in viewers]
    assert views[0] == views[1] == views[2]


def test_the_view_shows_foes_and_problems_as_entered() -> None:
    play = Play()
    play.do(GM, {"kind": "create_foe", "id": "rat", "name": "Rat", "difficulty": 5})
    play.do(GM, {"kind": "add_problem", "id": "flood", "text": "The river floods"})
    seen = play.seen()
    assert seen["foes"][0]["difficulty"] == 5 and seen["foes"][0]["aua_limit"] == 2
    assert seen["hometown"] == [{"id": "flood", "text": "The river floods", "rank": 1}]
    assert seen == public_state(play.table.shared_state)
    assert "earlier_checks" not in seen
