"""Which automatic commands cross into the process pool: only the heavy ones."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from spieltisch.engine.system import parse_command
from spieltisch.systems.kilkenny.system import KilkennyState, KilkennySystem
from spieltisch.systems.registry import get_system
from spieltisch.web.workers import PoolSettings, Workers, automatic_in_pool


class Where:
    """A stand-in system whose automatic answer is the process that computed it."""

    id = "where"

    def __init__(self, heavy: bool | None) -> None:
        self.heavy = heavy

    def automatic_is_heavy(self, state: Any) -> bool:
        """As configured."""
        assert self.heavy is not None
        return self.heavy

    def automatic(self, state: Any) -> int:
        """The pid of the process asked."""
        return os.getpid()


class Unsaid:
    """A system that does not say whether its automatic is heavy."""

    id = "unsaid"

    def automatic(self, state: Any) -> int:
        """The pid of the process asked."""
        return os.getpid()


@pytest.fixture(scope="module")
def workers() -> Iterator[Workers]:
    pool = Workers(PoolSettings(size=1, timeout=30))
    try:
        yield pool
    finally:
        pool.close()


def test_light_automatic_runs_in_the_callers_process(workers: Workers) -> None:
    automatic = automatic_in_pool(workers, Where(heavy=False))  # type: ignore[arg-type]
    assert automatic(None) == os.getpid()


def test_heavy_automatic_runs_in_the_pool(workers: Workers) -> None:
    automatic = automatic_in_pool(workers, Where(heavy=True))  # type: ignore[arg-type]
    assert automatic(None) != os.getpid()


def test_a_system_that_does_not_say_goes_to_the_pool(workers: Workers) -> None:
    automatic = automatic_in_pool(workers, Unsaid())  # type: ignore[arg-type]
    assert automatic(None) != os.getpid()


def _kilkenny() -> KilkennySystem:
    found = get_system("kilkenny")
    assert isinstance(found, KilkennySystem)
    return found


class Faces:
    """Loaded dice: the given faces in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def roll(self, sides: int) -> int:
        """The next face."""
        return self.faces.pop(0)


def _run(state: KilkennyState, command: dict[str, Any], *faces: int) -> KilkennyState:
    system = _kilkenny()
    for event in system.decide(state, parse_command(system, command), Faces(*faces)):
        state = system.evolve(state, event)
    return state


def test_kilkenny_is_heavy_only_when_an_ai_seat_chooses_a_move() -> None:
    system = _kilkenny()
    state = system.new_state({"seats": [{"player": "human"}, {"player": "greedy"}]})
    assert not system.automatic_is_heavy(state)  # the human's turn, nothing rolled
    state = _run(state, {"kind": "roll"}, 1)
    assert not system.automatic_is_heavy(state)  # the human's roll: the human moves
    state = _run(state, {"kind": "move", "from": "f4", "to": "f3"})
    assert not system.automatic_is_heavy(state)  # the AI's turn: its roll is no search
    state = _run(state, {"kind": "roll"}, 3)
    assert system.automatic_is_heavy(state)  # the AI chooses among its moves


@pytest.mark.parametrize(
    "system_id", ["free-dice", "hexxen", "kreiswanderer", "dnd5e", "magical-kitties"]
)
def test_tables_without_ai_never_use_the_pool(system_id: str) -> None:
    system: Any = get_system(system_id)
    assert system.automatic_is_heavy(system.new_state({})) is False
