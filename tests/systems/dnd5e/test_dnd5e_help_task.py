"""Help on a check keyed to the task: the helper names a skill or an ability, and only the
ally's next check of that task has advantage (a Strength task helps an Athletics check too,
being a Strength check); a check of another task rolls one die and leaves the help standing.
The odds before a check count the help only where it applies. Help without a task gives
advantage on the next check of any kind, as it always did (old logs replay unchanged). A
grapple, shove or escape uses up the Help of each side whose check it gave advantage."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.i18n import error_message
from spieltisch.systems.dnd5e.decide import decide
from spieltisch.systems.dnd5e.events import Contested
from spieltisch.systems.dnd5e.queries import helped_on
from spieltisch.systems.dnd5e.state import DndState

from .helpers import SYSTEM, Dice, command, end_turn, foe, fold, fresh, pc, play, start

HELP = {"kind": "action", "creature": "bo", "action": "help", "target": "ada", "help": "check"}


def party() -> DndState:
    """Ada (Athletics +4, Stealth +2, Str 14) and Bo at a1 and a2, Bo's turn first."""
    state = fresh()
    state = play(state, pc("ada", "a1", skills={"athletics": 4}))
    state = play(state, pc("bo", "a2"))
    state = play(state, foe("gob", "j10"))
    return start(state, "bo", "ada", "gob")


def check(**what: Any) -> dict[str, Any]:
    return {"kind": "check", "creature": "ada", "dc": 15, **what}


def p_success(state: DndState, data: dict[str, Any]) -> Fraction:
    odds = SYSTEM.odds(state, command(data))
    assert odds is not None
    return Fraction(odds.outcomes[0].exact)


def test_help_on_athletics_helps_athletics_only() -> None:
    state = play(party(), {**HELP, "task": "athletics"})
    athletics, stealth = check(skill="athletics"), check(skill="stealth")
    # Athletics +4 against 15: 11..20 on one die (1/2), with advantage 1 - (1/2)^2
    assert p_success(state, athletics) == Fraction(3, 4)
    # Stealth (Dex 14: +2) needs 13..20: 8/20 on one die, the help does not count
    assert p_success(state, stealth) == Fraction(8, 20)
    # the Stealth check rolls one die and leaves the help for the task standing
    hidden = play(state, stealth, 13)
    assert hidden.last_check is not None and hidden.last_check["roll"]["total"] == 15
    assert hidden.last_check["helped"] is False
    assert p_success(hidden, athletics) == Fraction(3, 4)
    # the Athletics check rolls two dice (3 and 11: 11 + 4 = 15) and uses the help up
    done = play(hidden, athletics, 3, 11)
    assert done.last_check is not None and done.last_check["roll"]["succeeded"] is True
    assert done.last_check["helped"] is True
    assert p_success(done, athletics) == Fraction(1, 2)


def test_help_on_an_ability_helps_every_check_of_it() -> None:
    state = play(party(), {**HELP, "task": "str"})
    assert p_success(state, check(skill="athletics")) == Fraction(3, 4)
    # a plain Strength check: +2 against 15 needs 13..20 (8/20), with advantage 1 - (12/20)^2
    assert p_success(state, check(ability="str")) == 1 - Fraction(12, 20) ** 2
    assert p_success(state, check(skill="stealth")) == Fraction(8, 20)


def test_help_without_a_task_still_helps_any_check() -> None:
    state = play(party(), HELP)
    assert p_success(state, check(skill="stealth")) == 1 - Fraction(12, 20) ** 2
    used = play(state, check(skill="stealth"), 2, 13)
    assert used.last_check is not None and used.last_check["helped"] is True
    assert p_success(used, check(skill="athletics")) == Fraction(1, 2)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({**HELP, "task": "juggling"}, "dnd5e.help_bad_task"),
        (
            {**HELP, "help": "attack", "foe": "gob", "task": "athletics"},
            "dnd5e.help_task_check_only",
        ),
    ],
)
def test_a_task_that_is_no_skill_nor_ability_or_on_an_attack_is_refused(
    data: dict[str, Any], code: str
) -> None:
    state = party()
    with pytest.raises(RuleError) as caught:
        decide(state, command(data), Dice())
    assert caught.value.code == code
    for language in ("en", "de"):
        assert data["task"] in error_message(caught.value, language)


def contest_party(**options: Any) -> DndState:
    """Ada (Athletics +4) beside the goblin Gob; Bo helps Ada, the hobgoblin Hob helps Gob."""
    state = fresh(**options)
    state = play(state, pc("ada", "a1", skills={"athletics": 4}))
    state = play(state, pc("bo", "a2"))
    state = play(state, foe("hob", "c3"))
    state = play(state, foe("gob", "b1"))
    state = start(state, "bo", "hob", "ada", "gob")
    state = end_turn(play(state, {**HELP, "task": "athletics"}))
    return end_turn(play(state, {**HELP, "creature": "hob", "target": "gob"}))


GRAPPLE = {"kind": "grapple", "creature": "ada", "target": "gob"}


def test_a_contest_uses_up_the_help_of_each_side() -> None:
    state = contest_party()
    # Both sides roll two dice: Ada 3 and 15 (15 + 4 = 19), Gob 10 and 4 (Athletics +0: 10).
    events = decide(state, command(GRAPPLE), Dice(3, 15, 10, 4))
    contested = events[0]
    assert isinstance(contested, Contested)
    assert (contested.active.total, contested.passive.total) == (19, 10)
    assert contested.active_helped and contested.passive_helped
    after = fold(state, events)
    assert not helped_on(after, "ada", "str", "athletics")
    assert not helped_on(after, "gob", "str", "athletics")
    assert "grappled" in {effect.kind for effect in after.effects.on("gob")}


def test_a_table_before_rules_edition_7_keeps_the_help_after_a_contest() -> None:
    """Old tables replay as they were played: the Help stays, and the record has no flags."""
    state = contest_party(edition=6)
    events = decide(state, command(GRAPPLE), Dice(3, 15, 10, 4))
    contested = events[0]
    assert isinstance(contested, Contested)
    assert not contested.active_helped and not contested.passive_helped
    assert "active_helped" not in contested.model_dump(mode="json")
    after = fold(state, events)
    assert helped_on(after, "ada", "str", "athletics")
    assert helped_on(after, "gob", "str", "athletics")


@pytest.mark.parametrize("edition", [6, 7])
def test_hide_uses_up_the_help_on_stealth_from_rules_edition_7(edition: int) -> None:
    state = fresh(edition=edition)
    state = play(state, pc("ada", "a1"))
    state = play(state, pc("bo", "a2"))
    state = play(state, foe("gob", "j10"))
    state = start(state, "bo", "ada", "gob")
    state = end_turn(play(state, {**HELP, "task": "stealth"}))
    hide = {"kind": "action", "creature": "ada", "action": "hide"}
    # Stealth (Dex 14: +2) with advantage: 4 and 17, 19 in all
    after = play(state, hide, 4, 17)
    assert after.stealth["ada"] == 19
    assert helped_on(after, "ada", "dex", "stealth") == (edition < 7)
