"""Every command kind of the D&D 5e table joins the leak suite (tests/security/leak_samples.py)."""

from __future__ import annotations

import importlib.util
import sys
import typing
from pathlib import Path
from typing import Any

from spieltisch.systems.dnd5e import commands as c

_SAMPLES = Path(__file__).parents[2] / "security" / "leak_samples.py"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("dnd5e_leak_samples", _SAMPLES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _kinds(step: Any) -> set[str]:
    if isinstance(step, dict) and "kind" in step:
        return {step["kind"]}
    return set(getattr(step, "kinds", ()))  # a step that picks its command (``Either``)


def test_every_command_kind_is_a_leak_sample() -> None:
    samples = next(s for s in _load().SAMPLES if s.system == "dnd5e")
    used: set[str] = set()
    for steps in samples.hidden.values():
        for step in steps:
            used |= _kinds(step)
    for step in samples.player.values():
        used |= _kinds(step)
    for _, step in samples.setup:
        used |= _kinds(step)
    members = typing.get_args(typing.get_args(c.Command)[0])
    kinds = {m.model_fields["kind"].default for m in members}
    assert kinds - used == set()
    assert {"terrain", "save"} <= used
