"""The replaced checks a Magical Kitties table keeps: bounded in rules edition 2, all of a scene
in edition 1 (tables made before), and a player's own check reachable behind the GM's hidden
ones as long as it is among the ``earlier_checks_kept`` newest.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kitties_helpers import MIA, TOM

from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.systems.magical_kitties.sheet import KittiesState
from spieltisch.systems.registry import get_system

GM = Actor(id="gm", role=Role.GM)
PLAYER = Actor(id="p1", role=Role.PLAYER)
MIAS = {"kind": "check", "kitty": "mia", "attribute": "cute"}
TOMS = {"kind": "check", "kitty": "tom", "attribute": "fierce"}
SYSTEM = get_system("magical-kitties")


class Ones:
    """Every die shows 1: every check fails, so a failure can always be accepted."""

    def roll(self, sides: int) -> int:
        return 1


def _table(options: dict[str, Any]) -> Table:
    table = Table(SYSTEM, options)
    for actor, command in (
        (PLAYER, MIA),
        (GM, TOM),
        (GM, {"kind": "start_episode"}),
        (GM, {"kind": "start_scene"}),
    ):
        _do(table, actor, command)
    return table


def _do(table: Table, actor: Actor, command: dict[str, Any], hidden: bool = False) -> None:
    table.execute(command, actor, lambda _index: Ones(), hidden=hidden)


@settings(max_examples=40, deadline=None)
@given(
    kept=st.integers(1, 4),
    steps=st.lists(st.sampled_from(["check", "hidden", "accept"]), min_size=1, max_size=60),
)
def test_the_state_stays_bounded_and_ones_own_check_is_reachable_behind_kept_hidden_ones(
    kept: int, steps: list[str]
) -> None:
    table = _table({"earlier_checks_kept": kept})
    hidden_since = 0  # hidden checks since the player's last check
    for step in steps:
        if step == "check":
            _do(table, PLAYER, MIAS)
            hidden_since = 0
        elif step == "hidden":
            _do(table, GM, TOMS, hidden=True)
            hidden_since += 1
        else:
            mine = table.shared_state.last_check
            if mine is None or mine.accepted:
                continue
            if hidden_since <= kept:
                _do(table, PLAYER, {"kind": "accept_failure"})
                assert table.shared_state.last_check.accepted
            else:
                with pytest.raises(RuleError) as refused:
                    _do(table, PLAYER, {"kind": "accept_failure"})
                assert refused.value.code == "table.hidden_conflict"
        for state in (table.state, table.shared_state):
            assert len(state.earlier_checks) <= kept


def test_a_long_scene_keeps_the_state_the_same_size() -> None:
    table = _table({})
    for _ in range(30):
        _do(table, PLAYER, MIAS)
        _do(table, GM, TOMS, hidden=True)
    size = len(table.state.model_dump_json())
    for _ in range(300):
        _do(table, PLAYER, MIAS)
        _do(table, GM, TOMS, hidden=True)
    assert (table.shared_state.checks, table.state.checks) == (330, 331)
    # Only the counters grow (a digit each); edition 1 would hold 300 more checks here.
    assert len(table.state.model_dump_json()) <= size + 10
    assert len(table.state.earlier_checks) == 1  # the player's, under the GM's hidden one


def test_the_players_check_behind_exactly_the_kept_hidden_ones_is_still_named() -> None:
    table = _table({"earlier_checks_kept": 2})
    _do(table, PLAYER, MIAS)  # 1
    _do(table, GM, TOMS, hidden=True)  # 2
    _do(table, GM, TOMS, hidden=True)  # 3
    assert list(table.state.earlier_checks) == [1, 2]
    _do(table, PLAYER, {"kind": "accept_failure"})
    assert table.state.earlier_checks[1].accepted
    _do(table, PLAYER, MIAS)  # 2 on the shared fold: replaces the GM's hidden 2
    _do(table, GM, TOMS, hidden=True)  # 4
    _do(table, GM, TOMS, hidden=True)  # 5
    _do(table, GM, TOMS, hidden=True)  # 6
    assert list(table.state.earlier_checks) == [4, 5]
    with pytest.raises(RuleError) as refused:
        _do(table, PLAYER, {"kind": "accept_failure"})
    assert refused.value.code == "table.hidden_conflict"
    assert not table.shared_state.last_check.accepted  # nothing changed


def test_a_check_numbered_behind_the_gms_leaves_no_earlier_one() -> None:
    # Only a check decided on the shared fold behind the GM's hidden ones takes a number the
    # GM's fold has used; after it, events name it (players) or it (the GM's newest check).
    table = _table({})
    _do(table, PLAYER, MIAS)  # 1
    _do(table, GM, TOMS, hidden=True)  # 2
    _do(table, GM, TOMS, hidden=True)  # 3
    assert list(table.state.earlier_checks) == [1, 2]
    _do(table, PLAYER, MIAS)  # 2 on the shared fold
    assert table.state.last_check.number == 2 and table.state.earlier_checks == {}
    _do(table, PLAYER, {"kind": "accept_failure"})
    _do(table, GM, TOMS, hidden=True)  # 4, after every check of the GM's fold
    assert table.state.last_check.number == 4 and list(table.state.earlier_checks) == [2]


def test_edition_1_keeps_every_replaced_check_of_the_scene() -> None:
    table = _table({"edition": 1})
    for _ in range(20):
        _do(table, PLAYER, MIAS)
    assert list(table.state.earlier_checks) == list(range(1, 20))
    _do(table, GM, {"kind": "end_scene"})
    assert table.state.earlier_checks == {}


def test_new_tables_store_edition_2_and_old_ones_read_as_edition_1() -> None:
    assert SYSTEM.stamp_options({}) == {"edition": 2}
    assert SYSTEM.stamp_options({"edition": 1}) == {"edition": 1}
    assert SYSTEM.upgrade_options({"max_pool": 12}) == {"max_pool": 12, "edition": 1}
    assert SYSTEM.upgrade_options({"edition": 2}) == {"edition": 2}


def test_a_snapshot_from_before_the_edition_is_folded_again() -> None:
    state = _table({"edition": 1}).state.model_dump(mode="json")
    assert KittiesState.model_validate(state).options.edition == 1
    del state["options"]["edition"]
    with pytest.raises(ValueError, match="fold again"):
        KittiesState.model_validate(state)


@pytest.mark.parametrize(
    ("options", "value"),
    [
        ({"edition": 3}, 3),
        ({"edition": True}, True),
        ({"earlier_checks_kept": 0}, 0),
        ({"earlier_checks_kept": 101}, 101),
    ],
)
def test_bad_edition_options_are_refused_by_name(options: dict[str, Any], value: object) -> None:
    with pytest.raises(RuleError) as refused:
        SYSTEM.new_state(options)
    assert refused.value.code == "kitties.bad_option"
    assert refused.value.params["option"] == next(iter(options))
    assert refused.value.params["value"] == value
