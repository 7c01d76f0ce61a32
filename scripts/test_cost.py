"""Add up the per-file costs the test processes recorded (``SPIELTISCH_TEST_COST=FILE``).

``python scripts/test_cost.py FILE [N]`` prints the N most expensive test files (default 25)
by CPU seconds, with their wall seconds and test count, and the totals.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path


def main(argv: list[str]) -> int:
    """Print the table for ``argv[0]``, its first ``argv[1]`` rows."""
    costs: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for line in Path(argv[0]).read_text().splitlines():
        path, *numbers = line.split("\t")
        for i, number in enumerate(numbers):
            costs[path][i] += float(number)
    rows = sorted(costs.items(), key=lambda row: -row[1][0])
    print(f"{'CPU s':>8} {'wall s':>8} {'tests':>6}  file")
    for path, (cpu, wall, count) in rows[: int(argv[1]) if len(argv) > 1 else 25]:
        print(f"{cpu:8.1f} {wall:8.1f} {count:6.0f}  {path}")
    cpu, wall, count = (sum(row[i] for _, row in rows) for i in range(3))
    print(f"{cpu:8.1f} {wall:8.1f} {count:6.0f}  all {len(rows)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
