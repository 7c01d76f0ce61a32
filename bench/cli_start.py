"""Cold start of the command line: ``spieltisch odds 3d6 --json`` (or another command) as a
whole process.

Each round starts, alternating, the bare interpreter (``python -c pass``), this checkout's
command and, with ``--anchor DIR``, the same command from another checkout's ``src`` (the
code to compare with); every process is new, so each start pays every import. The median
and the minimum per command are printed with the ratios to the anchor and to the bare
interpreter. The target of the table's live work is a cold start of at most 0.5 s.

Run: ``python bench/cli_start.py [--rounds 15] [--anchor ../old-checkout] [--command "table
list --db tables.sqlite3"]``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ARGS = "odds 3d6 --json"
START = (
    "import sys; from spieltisch.cli.app import main; "
    "sys.argv = ['spieltisch', *sys.argv[1:]]; main()"
)


def _time(command: list[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - began


def main() -> None:
    """Time the cold starts side by side and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--anchor", type=Path, help="another checkout to compare with")
    parser.add_argument("--command", default=ARGS, help="the command line after 'spieltisch'")
    options = parser.parse_args()
    args = shlex.split(options.command)
    here = Path(__file__).resolve().parent.parent / "src"
    runs: dict[str, tuple[list[str], dict[str, str]]] = {
        "python -c pass": ([sys.executable, "-c", "pass"], dict(os.environ)),
        "this checkout": (
            [sys.executable, "-c", START, *args],
            {**os.environ, "PYTHONPATH": str(here)},
        ),
    }
    if options.anchor is not None:
        runs["anchor"] = (
            [sys.executable, "-c", START, *args],
            {**os.environ, "PYTHONPATH": str(options.anchor.resolve() / "src")},
        )
    times: dict[str, list[float]] = {name: [] for name in runs}
    for command, env in runs.values():
        _time(command, env)  # warm the file cache and the bytecode
    for _ in range(options.rounds):
        for name, (command, env) in runs.items():
            times[name].append(_time(command, env))
    print(f"spieltisch {' '.join(args)}: {options.rounds} cold starts each")
    for name, values in times.items():
        print(f"  {name:16} median {statistics.median(values):.3f} s  min {min(values):.3f} s")
    ours = statistics.median(times["this checkout"])
    bare = statistics.median(times["python -c pass"])
    print(f"  this checkout minus the bare interpreter: {ours - bare:.3f} s")
    if "anchor" in times:
        print(f"  ratio this checkout / anchor: {ours / statistics.median(times['anchor']):.2f}")


if __name__ == "__main__":
    main()
