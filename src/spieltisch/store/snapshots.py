"""Snapshots of a folded state: JSON that round-trips exactly, or none at all."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import TypeAdapter

from spieltisch.engine.system import GameSystem

__all__ = ["decode_state", "encode_state"]

_STATE_ADAPTERS: dict[type, TypeAdapter[Any] | None] = {}


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
