"""StoredTable's memos: what it remembers equals what a plain Table computes, across forks.

The store decides each command on a fork of the cached table and throws the fork away when
the command fails, so a later fork may hold another record at the same ``seq``; the memos
(record texts, draws, owners, views) must never serve what a thrown-away fork produced.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.dice.fair import DiceSource
from spieltisch.engine.errors import RuleError
from spieltisch.engine.table import Actor, Role, Table
from spieltisch.engine.visibility import GM_VIEWER, Viewer
from spieltisch.store.cache import StoredTable

GM = Actor(id="gm", role=Role.GM)
PLAYER = Actor(id="p1", role=Role.PLAYER)


class Counting:
    """A die that counts up: every draw differs, so a re-decided record differs too."""

    def __init__(self, start: int) -> None:
        self.next = start

    def roll(self, sides: int) -> int:
        self.next += 1
        return self.next % sides + 1


def dice(index: int) -> DiceSource:
    return Counting(index)


PIECES = st.sampled_from(["cat", "rat"])
COMMANDS = st.one_of(
    st.builds(lambda p: {"kind": "join", "piece": p}, PIECES),
    st.builds(lambda p: {"kind": "roll", "piece": p, "sides": 6}, PIECES),
    st.just({"kind": "count"}),
)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.sampled_from(["gm", "player"]), COMMANDS, st.booleans(), st.booleans()),
        st.tuples(st.just("undo"), st.integers(1, 20), st.booleans(), st.booleans()),
    ),
    max_size=20,
)


def check(toy: Any, table: StoredTable) -> None:
    plain = Table(toy, table.options, table.records)
    assert table.next_draw == plain.next_draw
    for role in Role:
        assert table.owners(role) == plain.owners(role)
    for viewer in (GM_VIEWER, Viewer(Role.PLAYER, "p1"), table.viewer(PLAYER)):
        assert json.loads(table.view_json(viewer)) == plain.view(viewer)
    for record in table.records:
        assert table.record_json(record) == record.model_dump_json()


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS)
def test_memos_equal_a_plain_table_whatever_forks_were_thrown_away(
    toy: Any, steps: list[Any]
) -> None:
    table = StoredTable(toy)
    for who, arg, hidden, keep in steps:
        work = table.fork()
        try:
            if who == "undo":
                work.undo(arg, GM)
            else:
                work.execute(arg, GM if who == "gm" else PLAYER, dice, hidden=hidden)
        except RuleError:
            continue
        check(toy, work)  # the fork's memos, shared with its parent's where they may be
        if keep:
            table = work
        check(toy, table)


def test_a_thrown_away_fork_never_lends_its_record_text(toy: Any) -> None:
    table = StoredTable(toy)
    table.execute({"kind": "join", "piece": "cat"}, PLAYER, dice)
    thrown = table.fork()
    [lost] = thrown.execute({"kind": "roll", "piece": "cat", "sides": 6}, PLAYER, dice)
    assert thrown.record_json(lost) == lost.model_dump_json()
    kept = table.fork()
    [record] = kept.execute({"kind": "count"}, PLAYER, dice)
    assert record.seq == lost.seq
    assert kept.record_json(record) == record.model_dump_json() != lost.model_dump_json()


def test_spectators_who_own_nothing_share_one_view(toy: Any) -> None:
    """One view per viewer class: every spectator without pieces gets the very same view (and
    text), players each their own, and a patch between two versions is made once."""
    table = StoredTable(toy, {})
    table.execute({"kind": "join", "piece": "cat"}, PLAYER, dice)
    sue, tom = (Viewer(Role.SPECTATOR, name) for name in ("sue", "tom"))
    assert table.view(sue) is table.view(tom)
    assert table.view_json(sue) is table.view_json(tom)
    assert table.view(sue) == Table(toy, {}, table.records).view(sue)
    owner = table.viewer(PLAYER)
    assert owner.pieces == {"cat"} and table.view(owner) is not table.view(sue)
    later = table.fork()
    later.execute({"kind": "roll", "piece": "cat", "sides": 6}, PLAYER, dice)
    assert later.view(sue)["pieces"] != table.view(sue)["pieces"]
    assert later.patch_json(table, sue) is later.patch_json(table, tom)
