"""Helpers for the Magical Kitties tests: loaded dice and a game driven through the contract."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from spieltisch.engine.errors import RuleError
from spieltisch.engine.system import parse_command
from spieltisch.systems.magical_kitties.sheet import KittiesState, Kitty
from spieltisch.systems.registry import get_system


class LoadedDice:
    """A dice source that yields the given values in order (to hand-compute outcomes)."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.used = 0

    def roll(self, sides: int) -> int:
        assert sides == 6
        assert self.used < len(self.values), "the test supplied too few dice"
        value = self.values[self.used]
        self.used += 1
        return value


MIA: dict[str, Any] = {
    "kind": "create_kitty",
    "id": "mia",
    "name": "Mia",
    "attributes": {"cute": 3, "cunning": 2, "fierce": 1},
    "talents": ["Climbing"],
    "powers": [{"name": "Teleport"}],
    "flaw": "Lazy",
    "human": {"name": "Jenny", "problems": [{"id": "lonely", "text": "No friends", "rank": 2}]},
}
TOM: dict[str, Any] = {
    "kind": "create_kitty",
    "id": "tom",
    "name": "Tom",
    "attributes": {"cute": 1, "cunning": 2, "fierce": 3},
    "talents": ["Pouncing"],
    "powers": [{"name": "Shadow step", "features": ["Silent"]}],
    "flaw": "Greedy",
}


class Game:
    """A Magical Kitties state driven through ``decide`` and ``evolve``."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.system = get_system("magical-kitties")
        self.state: KittiesState = self.system.new_state(options or {})
        self.events: list[Any] = []

    def do(self, command: Mapping[str, Any], dice: Sequence[int] = ()) -> list[Any]:
        source = LoadedDice(dice)
        parsed = parse_command(self.system, dict(command))
        events = self.system.decide(self.state, parsed, source)
        assert source.used == len(source.values), "the command rolled fewer dice than given"
        for event in events:
            self.state = self.system.evolve(self.state, event)
        self.events.extend(events)
        return events

    def fails(self, command: Mapping[str, Any], dice: Sequence[int] = ()) -> RuleError:
        before = self.state
        with pytest.raises(RuleError) as caught:
            self.do(command, dice)
        assert self.state == before
        return caught.value

    def kitty(self, kitty_id: str = "mia") -> Kitty:
        return self.state.kitties[kitty_id]

    def replayed(self) -> KittiesState:
        state = self.system.new_state(self.state.options.model_dump())
        for event in self.events:
            data = self.system.events.dump_python(event, mode="json")
            state = self.system.evolve(state, self.system.events.validate_python(data))
        return state
