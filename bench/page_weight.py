"""Page weight: the bytes a browser fetches for the table page of each game, compressed.

Counts the style sheet, the table page's JavaScript modules (``table.js`` and every module it
imports, followed through the ``import`` statements) and each game's modules, each file
compressed with gzip (level 6, as a server or proxy compresses them), side by side for the
working tree and an anchor commit (``--anchor``, default ``ea04049``, read with ``git show``).
The HTML and the text catalogs are left out: they are the same size before and after to
within a few hundred bytes and depend on the language.

Run: ``python bench/page_weight.py`` (``--anchor <commit>`` for another anchor). Prints
figures only; asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = "src/spieltisch/web/static"
GAMES = ("free-dice", "magical-kitties", "kilkenny", "hexxen", "kreiswanderer", "dnd5e")
IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']""", re.M)


def reader_at(anchor: str | None) -> Callable[[str], bytes | None]:
    """A function reading a path of the repository: from the working tree, or at ``anchor``."""

    def read(path: str) -> bytes | None:
        if anchor is None:
            file = ROOT / path
            return file.read_bytes() if file.is_file() else None
        answer = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{anchor}:{path}"], capture_output=True
        )
        return answer.stdout if answer.returncode == 0 else None

    return read


def normal(path: str) -> str:
    """``path`` without ``.`` and ``..`` parts."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def modules(start: str, read: Callable[[str], bytes | None]) -> dict[str, bytes]:
    """``start`` and every module it imports (static imports), by path."""
    found: dict[str, bytes] = {}
    todo = [start]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        data = read(path)
        if data is None:
            continue
        found[path] = data
        text = data.decode()
        for name in IMPORT.findall(text):
            todo.append(normal(f"{Path(path).parent.as_posix()}/{name}"))
    return found


def weight(files: dict[str, bytes]) -> tuple[int, int]:
    """Raw and gzip-compressed bytes of ``files``, each compressed on its own."""
    raw = sum(len(data) for data in files.values())
    packed = sum(len(gzip.compress(data, compresslevel=6)) for data in files.values())
    return raw, packed


def page(game: str, read: Callable[[str], bytes | None]) -> tuple[int, int]:
    """The weight of the style sheet and the modules of ``game``'s table page."""
    files: dict[str, bytes] = {}
    css = read(f"{STATIC}/css/spieltisch.css")
    if css is not None:
        files["css"] = css
    for start in (f"{STATIC}/js/table.js", f"{STATIC}/js/games/{game}/index.js"):
        for path, data in modules(start, read).items():
            files[path] = data
    return weight(files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchor", default="ea04049", help="the commit to compare with")
    args = parser.parse_args()
    now, then = reader_at(None), reader_at(args.anchor)
    print(f"{'game':<16} {'anchor gz':>10} {'now gz':>10} {'ratio':>6}   (raw: anchor → now)")
    for game in GAMES:
        raw_a, gz_a = page(game, then)
        raw_n, gz_n = page(game, now)
        print(f"{game:<16} {gz_a:>10,} {gz_n:>10,} {gz_n / gz_a:>6.3f}   ({raw_a:,} → {raw_n:,})")


if __name__ == "__main__":
    main()
