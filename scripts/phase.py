"""Run one phase of ``make test`` and print one line: its name, wall time and CPU time.

``python scripts/phase.py NAME COMMAND...`` runs ``COMMAND`` and exits with its status. The
CPU time is user + system of every process it waited for (pytest's workers, the process
pools and browsers they closed): on a shared machine it says more than the wall time.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    """Run ``argv[1:]`` as phase ``argv[0]``; its exit status."""
    name, *command = argv
    start = time.monotonic()
    status = subprocess.call(command)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    verdict = "ok" if status == 0 else f"failed ({status})"
    print(f"== phase {name}: {wall:.0f} s wall, {cpu:.0f} s CPU, {verdict}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
