"""Snapshots of a table's folds: JSON that round-trips exactly, or none at all.

A snapshot holds ``{"gm": state, "shared": state | null, "private": {participant: state},
"shapes": stamp, "log": facts}``: the GM's fold and, once a hidden record made them differ,
the shared fold (``null`` while both are the same state), the own folds of the participants
who were shown something alone (absent while there are none), the stamp of the rules and
event shapes it was folded under (:attr:`spieltisch.engine.upcast.EventShapes.stamp`; a
snapshot without one was folded under rules version 1 with every event at version 1), and
what the table derives from the whole log before it
(:class:`~spieltisch.store.cache.LogFacts`: the draws, the owners of pieces). A snapshot of
other rules or shapes than today's is not used: the table folds from its log, which is read
through the upcasters. A snapshot without the facts (written before them) is used with the
whole log read; the next snapshot written carries them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import TypeAdapter

from spieltisch.engine.system import GameSystem
from spieltisch.engine.upcast import shapes_of
from spieltisch.store.cache import LogFacts

__all__ = [
    "Snapshot",
    "decode_snapshot",
    "decode_state",
    "decode_states",
    "encode_state",
    "encode_states",
]

_STATE_ADAPTERS: dict[type, TypeAdapter[Any] | None] = {}

_FIRST = "r1"
"""The stamp of rules version 1 with every event at version 1 (not written)."""


def _state_adapter(kind: type) -> TypeAdapter[Any] | None:
    if kind not in _STATE_ADAPTERS:
        try:
            _STATE_ADAPTERS[kind] = TypeAdapter(kind)
        except Exception:  # a state type pydantic cannot describe: no snapshots for it
            _STATE_ADAPTERS[kind] = None
    return _STATE_ADAPTERS[kind]


def encode_state(state: Any) -> str | None:
    """The state as JSON if it round-trips exactly (else ``None``: no snapshot)."""
    adapter = _state_adapter(type(state))
    if adapter is None:
        return None
    try:
        data = adapter.dump_json(state)
        if adapter.validate_json(data) != state:
            return None
    except Exception:  # systems' states are open-ended; a snapshot is only an optimisation
        return None
    return data.decode()


def decode_state(system: GameSystem[Any, Any, Any], options: Mapping[str, Any], data: str) -> Any:
    """A snapshot's state, parsed as the type of the system's state; ``None`` if it fails."""
    adapter = _state_adapter(type(system.new_state(options)))
    if adapter is None:
        return None
    try:
        return adapter.validate_json(data)
    except Exception:  # an old snapshot the current code cannot read: fold from the log
        return None


@dataclass(frozen=True)
class Snapshot:
    """A decoded snapshot: the GM's and the shared fold, the log's facts (``None`` for a
    snapshot written before them) and the participants' own folds."""

    state: Any
    shared: Any
    facts: LogFacts | None
    private: Mapping[str, Any] = field(default_factory=dict)


def encode_states(
    state: Any,
    shared: Any,
    stamp: str = _FIRST,
    facts: LogFacts | None = None,
    private: Mapping[str, Any] | None = None,
) -> str | None:
    """The folds as one snapshot (``None`` if one does not round-trip), stamped with the
    rules and event shapes they were folded under, with the ``facts`` of the log before it
    and the ``private`` folds (participant → their own fold)."""
    gm = encode_state(state)
    if gm is None:
        return None
    mark = "" if stamp == _FIRST else f',"shapes":{json.dumps(stamp)}'
    if private:
        owns = {participant: encode_state(fold) for participant, fold in private.items()}
        if any(text is None for text in owns.values()):
            return None
        mark += ',"private":{' + ",".join(f"{json.dumps(p)}:{t}" for p, t in owns.items()) + "}"
    if facts is not None:
        mark += f',"log":{json.dumps(facts.to_json(), separators=(",", ":"))}'
    if shared is state:
        return f'{{"gm":{gm},"shared":null{mark}}}'
    other = encode_state(shared)
    if other is None:
        return None
    return f'{{"gm":{gm},"shared":{other}{mark}}}'


def decode_states(
    system: GameSystem[Any, Any, Any], options: Mapping[str, Any], data: str
) -> tuple[Any, Any] | None:
    """The GM's and the shared fold of a snapshot; ``None`` for one the code cannot read."""
    snapshot = decode_snapshot(system, options, data)
    return None if snapshot is None else (snapshot.state, snapshot.shared)


def decode_snapshot(
    system: GameSystem[Any, Any, Any], options: Mapping[str, Any], data: str
) -> Snapshot | None:
    """A snapshot's folds and facts; ``None`` for one the code cannot read."""
    try:
        outer = json.loads(data)
        gm, shared = outer["gm"], outer["shared"]
        stamp = outer.get("shapes", _FIRST)
        facts = LogFacts.from_json(outer["log"]) if "log" in outer else None
        owns = dict(outer.get("private", {}))
    except (ValueError, TypeError, KeyError, AttributeError):
        return None  # a snapshot of an older format: fold from the log
    if stamp != shapes_of(system).stamp:
        return None  # folded under other rules or event shapes: fold from the log
    state = decode_state(system, options, json.dumps(gm))
    if state is None:
        return None
    private = {p: decode_state(system, options, json.dumps(fold)) for p, fold in owns.items()}
    if any(fold is None for fold in private.values()):
        return None
    if shared is None:
        return Snapshot(state, state, facts, private)
    other = decode_state(system, options, json.dumps(shared))
    return None if other is None else Snapshot(state, other, facts, private)
