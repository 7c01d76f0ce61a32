"""A task for a pool's worker in a test: which games' rules the worker has imported."""

from __future__ import annotations

import sys


def loaded(modules: list[str]) -> list[str]:
    """Those of ``modules`` imported in this process."""
    return [name for name in modules if name in sys.modules]
