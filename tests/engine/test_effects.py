"""Effects: catalogs as data, stacking, ticks on phases and durations that end exactly when due."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.engine.effects import (
    Duration,
    Effects,
    apply,
    change_level,
    effects_with_tag,
    level_of,
    load_catalog,
    remove,
    remove_kind,
    tick,
)
from spieltisch.engine.encounter import Combatant, PhaseEvent, delay, next_turn, start
from spieltisch.engine.errors import RuleError

CATALOG = load_catalog(
    json.loads(
        """{
      "aeusserer_schaden": {"max_level": 5, "stacking": "add", "tags": ["damage"],
                            "tick": {"phase": "ini0", "per_level": 2, "level_change": -1}},
      "malus": {"max_level": 5, "stacking": "highest", "tags": ["malus"]},
      "prone": {},
      "poisoned": {"stacking": "independent"},
      "burning": {"tick": {"phase": "turn_start", "amount": 3}}
    }"""
    )
)


def marker(phase: str, round_: int = 1, who: str | None = None) -> PhaseEvent:
    return PhaseEvent(phase=phase, round=round_, combatant=who)


def test_hexxen_damage_level_3_ticks_6_then_4_then_2_and_ends() -> None:
    effects, damage = apply(Effects(), CATALOG, "aeusserer_schaden", "jaeger", level=3)
    effects, report = tick(effects, CATALOG, marker("turn_start", who="jaeger"))
    assert report.ticks == () and effects.get(damage.id).level == 3
    dealt = []
    for _ in range(3):
        effects, report = tick(effects, CATALOG, marker("ini0"))
        dealt += [(t.level, t.amount) for t in report.ticks]
    assert dealt == [(3, 6), (2, 4), (1, 2)]
    assert effects.items == () and [e.level for e in report.expired] == [1]


def test_ticks_on_turn_phases_only_in_the_targets_turn() -> None:
    effects, _ = apply(Effects(), CATALOG, "burning", "orc")
    _, report = tick(effects, CATALOG, marker("turn_start", who="elf"))
    assert report.ticks == ()
    _, report = tick(effects, CATALOG, marker("turn_start", who="orc"))
    assert [(t.target, t.amount) for t in report.ticks] == [("orc", Decimal(3))]


def test_stacking_rules() -> None:
    effects, first = apply(Effects(), CATALOG, "aeusserer_schaden", "j", level=3)
    effects, added = apply(effects, CATALOG, "aeusserer_schaden", "j", level=4)
    assert added.id == first.id and added.level == 5 and len(effects.items) == 1

    effects, high = apply(effects, CATALOG, "malus", "j", level=2)
    same, kept = apply(effects, CATALOG, "malus", "j", level=1)
    assert same == effects and kept == high
    effects, higher = apply(effects, CATALOG, "malus", "j", level=3)
    assert level_of(effects, "malus", "j") == 3 and higher.id != high.id

    effects, _ = apply(effects, CATALOG, "prone", "j", duration=Duration.rounds(1))
    effects, prone = apply(effects, CATALOG, "prone", "j")
    assert [e.duration for e in effects.on("j") if e.kind == "prone"] == [Duration()]
    assert prone.duration == Duration.until_removed()

    effects, a = apply(effects, CATALOG, "poisoned", "j", duration=Duration.rounds(1))
    effects, b = apply(effects, CATALOG, "poisoned", "j", duration=Duration.rounds(3))
    assert a.id != b.id and len([e for e in effects.on("j") if e.kind == "poisoned"]) == 2
    assert [e.kind for e in effects_with_tag(effects, CATALOG, "j", "malus")] == ["malus"]
    assert level_of(effects, "poisoned", "x") == 0


def test_levels_and_removal() -> None:
    effects, malus = apply(Effects(), CATALOG, "malus", "j", level=2)
    effects, raised = change_level(effects, CATALOG, malus.id, 9)
    assert raised is not None and raised.level == 5
    effects, gone = change_level(effects, CATALOG, malus.id, -5)
    assert gone is None and effects.items == ()
    effects, poison = apply(effects, CATALOG, "poisoned", "j")
    assert remove(effects, poison.id).items == ()
    assert remove_kind(effects, "poisoned", "j").items == ()
    with pytest.raises(RuleError) as unknown:
        remove(effects, 99)
    assert unknown.value.code == "toolkit.effects.unknown_instance"


def test_apply_refuses_unknown_effects_and_bad_levels() -> None:
    with pytest.raises(RuleError) as unknown:
        apply(Effects(), CATALOG, "frog", "j")
    assert unknown.value.params == {"value": "frog"}
    with pytest.raises(RuleError) as level:
        apply(Effects(), CATALOG, "malus", "j", level=6)
    assert level.value.code == "toolkit.effects.bad_level"
    assert level.value.params == {"effect": "malus", "value": 6, "max": 5}
    with pytest.raises(RuleError):
        apply(Effects(), CATALOG, "prone", "j", level=0)


def test_bad_catalog_data_names_the_effect_and_field() -> None:
    with pytest.raises(RuleError) as error:
        load_catalog({"stun": {"stacking": "sometimes"}})
    assert error.value.code == "toolkit.effects.bad_catalog"
    assert error.value.params == {"effect": "stun", "field": "stacking", "value": "'sometimes'"}
    with pytest.raises(RuleError) as level:
        load_catalog({"stun": {"max_level": 0}})
    assert level.value.params["field"] == "max_level"
    with pytest.raises(RuleError) as shape:
        load_catalog({"stun": 3})
    assert shape.value.params == {"effect": "stun", "field": "", "value": "3"}


def test_rounds_count_round_ends_from_the_current_one() -> None:
    effects, _ = apply(Effects(), CATALOG, "prone", "j", duration=Duration.rounds(2))
    effects, report = tick(effects, CATALOG, marker("round_end", 1))
    assert report.expired == () and effects.items[0].remaining == 1
    effects, report = tick(effects, CATALOG, marker("turn_end", 2, "j"))
    assert report.expired == ()
    effects, report = tick(effects, CATALOG, marker("round_end", 2))
    assert effects.items == () and len(report.expired) == 1


def test_until_the_end_of_ones_next_turn_outlasts_the_current_turn() -> None:
    """Applied during the caster's own turn, it lasts through the caster's next turn."""
    duration = Duration.until_turn_end("caster")
    effects, _ = apply(Effects(), CATALOG, "prone", "foe", duration=duration)
    for event in (marker("turn_end", 1, "caster"), marker("turn_start", 1, "foe")):
        effects, report = tick(effects, CATALOG, event)
        assert report.expired == ()
    effects, _ = tick(effects, CATALOG, marker("turn_start", 2, "caster"))
    assert effects.items[0].armed
    effects, report = tick(effects, CATALOG, marker("turn_end", 2, "caster"))
    assert effects.items == () and len(report.expired) == 1


def test_until_the_start_of_a_turn_ends_at_that_turn_only() -> None:
    effects, _ = apply(Effects(), CATALOG, "prone", "j", duration=Duration.until_turn_start("k"))
    effects, report = tick(effects, CATALOG, marker("turn_start", 1, "j"))
    assert report.expired == ()
    effects, report = tick(effects, CATALOG, marker("turn_start", 1, "k"))
    assert effects.items == ()


def test_a_tick_on_the_last_round_happens_before_it_ends() -> None:
    catalog = load_catalog({"fire": {"tick": {"phase": "round_end", "amount": 1}}})
    effects, _ = apply(Effects(), catalog, "fire", "j", duration=Duration.rounds(1))
    effects, report = tick(effects, catalog, marker("round_end"))
    assert len(report.ticks) == 1 and len(report.expired) == 1 and effects.items == ()


# -- property: durations end exactly when due -----------------------------------------------


def _due(
    events: list[PhaseEvent], kind: str, who: str, rounds: int, applied_round: int
) -> int | None:
    """The index of the marker that ends the effect, computed straight from the rule."""
    armed = False
    for index, event in enumerate(events):
        if kind == "rounds":
            if event.phase == "round_end" and event.round == applied_round + rounds - 1:
                return index
        elif kind == "start":
            if event.phase == "turn_start" and event.combatant == who:
                return index
        else:
            if event.phase == "turn_start" and event.combatant == who:
                armed = True
            if armed and event.phase == "turn_end" and event.combatant == who:
                return index
    return None


@settings(max_examples=300, deadline=None)
@given(
    size=st.integers(1, 4),
    before=st.lists(st.integers(0, 9), max_size=12),
    after=st.lists(st.integers(0, 9), max_size=40),
    kind=st.sampled_from(["rounds", "start", "end"]),
    who=st.integers(0, 3),
    rounds=st.integers(1, 4),
)
def test_durations_expire_exactly_when_due(
    size: int, before: list[int], after: list[int], kind: str, who: int, rounds: int
) -> None:
    """Run a fight, apply an effect mid-way, and watch it end at the one right marker."""
    fighters = [Combatant(id=f"c{i}", side="x", initiative=Decimal(i)) for i in range(size)]
    encounter, _ = start(fighters)
    bound = f"c{who % size}"

    def step(choice: int) -> list[PhaseEvent]:
        nonlocal encounter
        pending = encounter.pending()
        if choice >= 7 and pending:
            encounter, events = delay(encounter, pending[choice % len(pending)])
        else:
            encounter, events = next_turn(encounter)
        return events

    for choice in before:
        step(choice)
    duration = {
        "rounds": Duration.rounds(rounds),
        "start": Duration.until_turn_start(bound),
        "end": Duration.until_turn_end(bound),
    }[kind]
    effects, _ = apply(Effects(), CATALOG, "prone", "c0", duration=duration)
    applied_round = encounter.round
    events = [event for choice in after for event in step(choice)]
    due = _due(events, kind, bound, rounds, applied_round)
    for index, event in enumerate(events):
        effects, report = tick(effects, CATALOG, event)
        if index == due:
            assert effects.items == () and len(report.expired) == 1
            break
        assert len(effects.items) == 1 and report.expired == ()
    else:
        assert due is None and len(effects.items) == 1


def test_effects_and_catalogs_survive_a_json_round_trip() -> None:
    effects, _ = apply(Effects(), CATALOG, "prone", "j", duration=Duration.until_turn_end("k"))
    effects, _ = apply(effects, CATALOG, "aeusserer_schaden", "j", level=2)
    assert Effects.model_validate_json(effects.model_dump_json()) == effects
    assert type(CATALOG).model_validate_json(CATALOG.model_dump_json()) == CATALOG
