"""Encounters: order, rounds, the turn pointer, phases, joining, leaving and delaying."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from spieltisch.engine.encounter import (
    Combatant,
    Delay,
    Encounter,
    Join,
    Leave,
    NextTurn,
    Phase,
    PhaseEvent,
    Start,
    Step,
    apply,
    by_initiative,
    delay,
    join,
    leave,
    next_turn,
    run_hooks,
    start,
)
from spieltisch.engine.errors import RuleError


def fighter(name: str, ini: int, *tiebreak: int, side: str = "a") -> Combatant:
    return Combatant(
        id=name, side=side, initiative=Decimal(ini), tiebreak=tuple(map(Decimal, tiebreak))
    )


def marks(events: list[PhaseEvent]) -> list[tuple[str, int, str | None]]:
    return [(e.phase, e.round, e.combatant) for e in events]


def test_start_orders_by_initiative_then_tiebreaks_then_entry() -> None:
    encounter, events = start(
        [
            fighter("d", 12),
            fighter("b", 12, 3),
            fighter("a", 15),
            fighter("c", 12, 5),
            fighter("e", 12),
        ]
    )
    # c beats b on the tie-break; d and e have none, so they follow, d before e (entry order).
    assert encounter.order == ("a", "c", "b", "d", "e")
    assert encounter.round == 1 and encounter.current == "a"
    assert marks(events) == [("round_start", 1, None), ("turn_start", 1, "a")]


def test_a_system_key_replaces_the_default() -> None:
    def lowest_first(c: Combatant) -> tuple[Decimal]:
        return (c.initiative,)

    encounter, _ = start([fighter("a", 3), fighter("b", 1), fighter("c", 2)], lowest_first)
    assert encounter.order == ("b", "c", "a")


def test_a_round_passes_every_phase_in_order() -> None:
    encounter, _ = start([fighter("a", 9), fighter("b", 5)], round_end_phases=["ini0"])
    encounter, events = next_turn(encounter)
    assert marks(events) == [("turn_end", 1, "a"), ("turn_start", 1, "b")]
    encounter, events = next_turn(encounter)
    assert marks(events) == [
        ("turn_end", 1, "b"),
        ("ini0", 1, None),
        ("round_end", 1, None),
        ("round_start", 2, None),
        ("turn_start", 2, "a"),
    ]
    assert encounter.round == 2 and encounter.current == "a"


def test_round_start_phases_come_before_the_first_turn() -> None:
    _, events = start([fighter("a", 1)], round_start_phases=["surprise"])
    assert marks(events) == [
        ("round_start", 1, None),
        ("surprise", 1, None),
        ("turn_start", 1, "a"),
    ]


def test_start_refuses_nobody_and_twins() -> None:
    with pytest.raises(RuleError) as empty:
        start([])
    assert empty.value.code == "toolkit.encounter.empty"
    with pytest.raises(RuleError) as twin:
        start([fighter("a", 1), fighter("a", 2)])
    assert twin.value.code == "toolkit.encounter.duplicate_combatant"
    assert twin.value.params == {"value": "a"}


def test_a_newcomer_after_the_current_acts_this_round() -> None:
    encounter, _ = start([fighter("a", 20), fighter("b", 10), fighter("c", 5)])
    encounter, _ = next_turn(encounter)  # b's turn
    encounter, events = join(encounter, fighter("n", 7))
    assert encounter.order == ("a", "b", "n", "c") and encounter.current == "b"
    assert marks(events) == [("joined", 1, "n")]
    encounter, events = next_turn(encounter)
    assert marks(events) == [("turn_end", 1, "b"), ("turn_start", 1, "n")]


def test_a_newcomer_before_the_current_waits_for_the_next_round() -> None:
    encounter, _ = start([fighter("a", 20), fighter("b", 10), fighter("c", 5)])
    encounter, _ = next_turn(encounter)  # b's turn
    encounter, _ = join(encounter, fighter("n", 15))
    assert encounter.order == ("a", "n", "b", "c") and encounter.current == "b"
    encounter, _ = next_turn(encounter)
    encounter, events = next_turn(encounter)
    assert ("turn_start", 1, "n") not in marks(events)
    assert marks(events)[-1] == ("turn_start", 2, "a")
    encounter, events = next_turn(encounter)
    assert marks(events)[-1] == ("turn_start", 2, "n")


def test_equal_initiative_newcomer_goes_after_those_already_there() -> None:
    encounter, _ = start([fighter("a", 10), fighter("b", 10)])
    encounter, _ = join(encounter, fighter("n", 10))
    assert encounter.order == ("a", "b", "n")
    assert [c.id for c in encounter.combatants] == ["a", "b", "n"]


def test_leaving_before_the_current_keeps_the_pointer() -> None:
    encounter, _ = start([fighter("a", 3), fighter("b", 2), fighter("c", 1)])
    encounter, _ = next_turn(encounter)
    encounter, events = leave(encounter, "a")
    assert encounter.order == ("b", "c") and encounter.current == "b"
    assert marks(events) == [("left", 1, "a")]


def test_leaving_on_ones_own_turn_hands_the_turn_on() -> None:
    encounter, _ = start([fighter("a", 3), fighter("b", 2), fighter("c", 1)])
    encounter, events = leave(encounter, "a")
    assert encounter.current == "b"
    assert marks(events) == [("left", 1, "a"), ("turn_start", 1, "b")]
    encounter, _ = next_turn(encounter)
    encounter, events = leave(encounter, "c")  # the last of the round leaves on its turn
    assert marks(events) == [
        ("left", 1, "c"),
        ("round_end", 1, None),
        ("round_start", 2, None),
        ("turn_start", 2, "b"),
    ]
    encounter, events = leave(encounter, "b")
    assert encounter.current is None and encounter.order == ()
    assert marks(events) == [("left", 2, "b")]
    with pytest.raises(RuleError) as error:
        next_turn(encounter)
    assert error.value.code == "toolkit.encounter.not_started"
    encounter, events = join(encounter, fighter("z", 1))
    assert marks(events) == [("joined", 2, "z"), ("turn_start", 2, "z")]


def test_leave_refuses_a_stranger() -> None:
    encounter, _ = start([fighter("a", 1)])
    with pytest.raises(RuleError) as error:
        leave(encounter, "x")
    assert (error.value.code, error.value.params) == (
        "toolkit.encounter.unknown_combatant",
        {"value": "x"},
    )


def test_delay_moves_the_turn_later_this_round_only() -> None:
    encounter, _ = start([fighter("a", 4), fighter("b", 3), fighter("c", 2), fighter("d", 1)])
    encounter, events = delay(encounter, after="c")
    assert encounter.order == ("b", "c", "a", "d") and encounter.current == "b"
    assert marks(events) == [("turn_delayed", 1, "a"), ("turn_start", 1, "b")]
    encounter, _ = next_turn(encounter)
    encounter, events = next_turn(encounter)
    assert marks(events) == [("turn_end", 1, "c"), ("turn_resumed", 1, "a")]
    encounter, _ = next_turn(encounter)
    encounter, events = next_turn(encounter)
    assert encounter.order == ("a", "b", "c", "d")
    assert marks(events)[-1] == ("turn_start", 2, "a")


def test_delay_to_the_end_and_its_refusals() -> None:
    encounter, _ = start([fighter("a", 3), fighter("b", 2), fighter("c", 1)])
    encounter, _ = delay(encounter)
    assert encounter.order == ("b", "c", "a")
    encounter, _ = next_turn(encounter)  # c
    with pytest.raises(RuleError) as behind:
        delay(encounter, after="b")  # b already acted
    assert behind.value.code == "toolkit.encounter.bad_delay"
    assert behind.value.params == {"combatant": "c", "value": "b"}
    encounter, _ = next_turn(encounter)  # a resumes, the last one
    with pytest.raises(RuleError) as last:
        delay(encounter)
    assert last.value.code == "toolkit.encounter.cannot_delay"


def test_steps_are_data_that_replay_the_same() -> None:
    steps = TypeAdapter(list[Step]).validate_json(
        """[
          {"kind": "encounter.start", "combatants": [
             {"id": "a", "side": "x", "initiative": "3"},
             {"id": "b", "side": "y", "initiative": "2"}],
           "round_end_phases": ["ini0"]},
          {"kind": "encounter.delay"},
          {"kind": "encounter.join", "combatant": {"id": "c", "side": "y", "initiative": 1}},
          {"kind": "encounter.next_turn"},
          {"kind": "encounter.leave", "combatant": "b"}
        ]"""
    )
    encounter: Encounter | None = None
    seen: list[PhaseEvent] = []
    for step in steps:
        encounter, events = apply(encounter, step)
        seen += events
    assert encounter is not None
    assert encounter.order == ("a", "c") and encounter.current == "a"
    assert ("turn_resumed", 1, "a") in marks(seen)
    with pytest.raises(RuleError) as again:
        apply(encounter, steps[0])
    assert again.value.code == "toolkit.encounter.already_started"
    with pytest.raises(RuleError) as early:
        apply(None, NextTurn())
    assert early.value.code == "toolkit.encounter.not_started"


# -- properties ------------------------------------------------------------------------------

_initiatives = st.integers(min_value=0, max_value=6)
_ops = st.lists(
    st.one_of(
        st.just(("next",)),
        st.tuples(st.just("join"), _initiatives),
        st.tuples(st.just("leave"), st.integers(0, 20)),
        st.tuples(st.just("delay"), st.integers(0, 20)),
    ),
    max_size=60,
)


def _check(encounter: Encounter) -> None:
    ids = [c.id for c in encounter.combatants]
    assert sorted(encounter.order) == sorted(ids)
    assert len(set(ids)) == len(ids)
    if encounter.order:
        assert 0 <= encounter.index < len(encounter.order)
        assert encounter.current in ids
    assert encounter.delayed <= set(ids)


@settings(max_examples=200, deadline=None)
@given(st.lists(_initiatives, min_size=1, max_size=6), _ops)
def test_order_stays_a_permutation_and_the_pointer_on_someone(
    initiatives: list[int], ops: list[tuple[object, ...]]
) -> None:
    first = [fighter(f"c{i}", ini) for i, ini in enumerate(initiatives)]
    encounter, _ = start(first)
    steps: list[Step] = [Start(combatants=tuple(first))]
    _check(encounter)
    fresh = len(initiatives)
    for op in ops:
        step: Step
        if op[0] == "next":
            step = NextTurn()
        elif op[0] == "join":
            step = Join(combatant=fighter(f"c{fresh}", int(str(op[1]))))
            fresh += 1
        elif op[0] == "leave":
            if not encounter.order:
                continue
            ids = sorted(encounter.ids)
            step = Leave(combatant=ids[int(str(op[1])) % len(ids)])
        else:
            pending = encounter.pending()
            if not pending:
                continue
            step = Delay(after=pending[int(str(op[1])) % len(pending)])
        if not encounter.order and not isinstance(step, Join):
            continue
        encounter, _ = apply(encounter, step)
        steps.append(step)
        _check(encounter)
    replayed: Encounter | None = None
    for step in steps:
        replayed, _ = apply(replayed, step)
    assert replayed == encounter


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_initiatives, min_size=1, max_size=6),
    st.lists(st.one_of(st.none(), st.integers(0, 10)), max_size=50),
)
def test_every_round_gives_each_combatant_one_turn(
    initiatives: list[int], choices: list[int | None]
) -> None:
    """With only turns and delays, every round starts and ends each combatant's turn once."""
    encounter, events = start([fighter(f"c{i}", ini) for i, ini in enumerate(initiatives)])
    ids = sorted(encounter.ids)
    log = list(events)
    for choice in choices:
        pending = encounter.pending()
        if choice is None or not pending:
            encounter, events = next_turn(encounter)
        else:
            encounter, events = delay(encounter, pending[choice % len(pending)])
        log += events
        assert sorted(encounter.order) == ids
    finished = {e.round for e in log if e.phase == Phase.ROUND_END}
    for round_ in finished:
        starts = Counter(e.combatant for e in log if e.round == round_ and e.phase == "turn_start")
        ends = Counter(e.combatant for e in log if e.round == round_ and e.phase == "turn_end")
        assert starts == ends == Counter(ids)
        resumed = [e.combatant for e in log if e.round == round_ and e.phase == "turn_resumed"]
        delayed = [e.combatant for e in log if e.round == round_ and e.phase == "turn_delayed"]
        assert Counter(resumed) == Counter(delayed)


def test_the_default_key_reads_initiative_and_tiebreaks() -> None:
    assert by_initiative(fighter("a", 5, 2)) < by_initiative(fighter("b", 5, 1))
    assert by_initiative(fighter("a", 5, 1)) < by_initiative(fighter("b", 5))
    assert by_initiative(fighter("a", 6)) < by_initiative(fighter("b", 5, 9))


def test_an_encounter_survives_a_json_round_trip() -> None:
    encounter, _ = start([fighter("a", 3, 1), fighter("b", 2), fighter("c", 1)])
    encounter, _ = delay(encounter, "b")
    assert Encounter.model_validate_json(encounter.model_dump_json()) == encounter


def test_hooks_fold_the_markers_of_their_phase_in_order() -> None:
    encounter, first = start([fighter("a", 2), fighter("b", 1)], round_end_phases=["ini0"])
    encounter, more = next_turn(encounter)
    encounter, last = next_turn(encounter)
    log = run_hooks(
        (),
        first + more + last,
        {
            "turn_start": lambda seen, e: (*seen, f"start {e.combatant}"),
            "ini0": lambda seen, e: (*seen, f"ini0 {e.round}"),
        },
    )
    assert log == ("start a", "start b", "ini0 1", "start a")
