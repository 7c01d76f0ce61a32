"""The server's garbage collector: survivors of a full pass stay out of the next ones, and
now and then a pass looks at everything again, so garbage in cycles does not stay."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from spieltisch.web.collector import Collector


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class _Node:
    """Something that can sit in a reference cycle."""

    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def clock() -> Iterator[_Clock]:
    yield _Clock()
    gc.unfreeze()  # whatever a failed test left frozen goes back


def test_a_full_pass_freezes_its_survivors(clock: _Clock) -> None:
    collector = Collector(thorough=600, clock=clock)
    collector.install()
    try:
        kept = [_Node() for _ in range(1000)]
        gc.collect()
        assert collector.passes == 1
        frozen = gc.get_freeze_count()
        assert frozen >= len(kept)  # the survivors went to the permanent generation
        assert all(gc.is_tracked(node) for node in kept)
    finally:
        collector.uninstall()
    assert gc.get_freeze_count() == 0
    assert collector._after not in gc.callbacks


def test_garbage_in_cycles_among_frozen_objects_goes_with_the_next_thorough_pass(
    clock: _Clock,
) -> None:
    assert not [c for c in gc.callbacks if getattr(c, "__self__", None).__class__ is Collector]
    collector = Collector(thorough=600, clock=clock)
    collector.install()
    try:
        gone = _cycle()
        gc.collect()
        assert gone() is None  # garbage before any pass saw it alive: collected at once
        held = [_cycle()]
        strong = held[0]()
        gc.collect()  # survives, frozen with the pass
        del strong
        gc.collect()
        gc.collect()
        assert held[0]() is not None  # frozen: the passes before the thorough time skip it
        assert collector.thorough_passes == 0
        clock.now = 600.0
        gc.collect()  # the time has come: this pass unfreezes everything after it
        assert gc.get_freeze_count() == 0
        gc.collect()  # this one looks at everything
        assert held[0]() is None
        assert collector.thorough_passes == 1
        assert gc.get_freeze_count() > 0  # and freezes again after it
    finally:
        collector.uninstall()


def test_installing_twice_or_uninstalling_twice_changes_nothing(clock: _Clock) -> None:
    collector = Collector(clock=clock)
    collector.install()
    collector.install()
    try:
        assert gc.callbacks.count(collector._after) == 1
    finally:
        collector.uninstall()
        collector.uninstall()
    assert collector._after not in gc.callbacks
