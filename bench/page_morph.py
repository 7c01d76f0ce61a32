"""The page's morph (``static/js/morph.js``) on a long log: how long one re-render takes to be
patched into the page, the working tree's morph against an anchor commit's.

Both versions of the module run in one headless Chromium (Debian's shell, as the browser tests
use it), each imported into its own page. A render is drawn as the table page draws its log:
a list of ``--sizes`` entries, each an ``<li>`` with an id, classes, data and ARIA attributes,
two spans and a button, beside a section of 50 paragraphs. The live tree is morphed into a
freshly built equal tree ``--rounds`` times; the time to build the fresh trees alone is
subtracted. The versions alternate ``--repeat`` times, so both see the same load of the
machine. Prints milliseconds per morph (the median of the repeats) and the ratio; asserts
nothing about time.

Run: ``python bench/page_morph.py`` (``--anchor c6644bf``, ``--sizes 50 200 800``).
"""

from __future__ import annotations

import argparse
import base64
import statistics
import subprocess

from playwright.sync_api import sync_playwright

from page_update import CHROMIUM, ROOT  # the same browser and checkout as the update bench

MORPH = "src/spieltisch/web/static/js/morph.js"

TIME = """async ([source, size, rounds]) => {
  const { morph } = await import(source);
  const build = () => {
    const box = document.createElement("div");
    const log = document.createElement("ul");
    log.id = "log";
    for (let i = 0; i < size; i += 1) {
      const entry = document.createElement("li");
      entry.id = "entry-" + i;
      entry.className = "entry kind-" + (i % 5);
      entry.setAttribute("data-seq", String(i));
      entry.setAttribute("aria-label", "entry " + i);
      const who = document.createElement("span");
      who.textContent = "Ada " + i;
      const what = document.createElement("span");
      what.textContent = "3d6: " + ((i * 7) % 18);
      const undo = document.createElement("button");
      undo.type = "button";
      undo.textContent = "undo";
      entry.append(who, what, undo);
      log.append(entry);
    }
    const side = document.createElement("section");
    side.id = "side";
    for (let i = 0; i < 50; i += 1) {
      const line = document.createElement("p");
      line.textContent = "line " + i;
      side.append(line);
    }
    box.append(log, side);
    return box;
  };
  const live = build();
  document.body.append(live);
  morph(live, build());
  const start = performance.now();
  for (let r = 0; r < rounds; r += 1) morph(live, build());
  const morphed = performance.now();
  for (let r = 0; r < rounds; r += 1) build();
  const built = performance.now();
  live.remove();
  return (morphed - start - (built - morphed)) / rounds;
}"""


def _module(source: str) -> str:
    return "data:text/javascript;base64," + base64.b64encode(source.encode()).decode()


def main() -> None:
    """Time both versions of the morph and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchor", default="c6644bf", help="commit whose morph.js is compared")
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 800])
    parser.add_argument("--rounds", type=int, default=20, help="morphs per measurement (≤ 200)")
    parser.add_argument("--repeat", type=int, default=5, help="measurements per version (≤ 20)")
    args = parser.parse_args()
    rounds, repeat = min(args.rounds, 200), min(args.repeat, 20)
    anchor = subprocess.run(
        ["git", "show", f"{args.anchor}:{MORPH}"], cwd=ROOT, check=True, capture_output=True
    ).stdout.decode()
    versions = {args.anchor: _module(anchor), "tree": _module((ROOT / MORPH).read_text())}
    times: dict[tuple[str, int], list[float]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for _ in range(repeat):
            for name, source in versions.items():
                page = browser.new_page()
                for size in args.sizes:
                    took = float(page.evaluate(TIME, [source, size, rounds]))
                    times.setdefault((name, size), []).append(took)
                page.close()
        browser.close()
    print(f"{'entries':>8} {args.anchor + ' ms':>14} {'tree ms':>10} {'ratio':>7}")
    for size in args.sizes:
        before = statistics.median(times[(args.anchor, size)])
        after = statistics.median(times[("tree", size)])
        print(f"{size:8d} {before:14.2f} {after:10.2f} {after / before:7.2f}")


if __name__ == "__main__":
    main()
