"""A module the pool's fork server imports in a test: its import waits until the file named by
``SPIELTISCH_TEST_GATE`` exists, standing in for game systems that take long to import."""

from __future__ import annotations

import os
import time
from pathlib import Path

_gate = Path(os.environ["SPIELTISCH_TEST_GATE"])
for _ in range(2400):  # at most about two minutes
    if _gate.exists():
        break
    time.sleep(0.05)
