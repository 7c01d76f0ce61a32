"""axe-core on every main page state, in both languages: no serious or critical violation.

The states are a table: the start page, the join page, and each game's table as GM and as
player. A new game joins with one line in ``GAMES`` (and, where an empty table shows little,
one in ``PREPARE``). The minor and moderate findings that remain are printed (run with ``-s``)
and listed in docs/web-table.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import join, new_context, open_table
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

GAMES = ("free-dice", "magical-kitties", "kilkenny")
"""Every game with a table page; each is checked as GM and as player."""


def _kitties(gm: Page) -> None:
    gm.locator("#start-episode").click()
    gm.locator("#start-scene").click()
    expect(gm.locator("#end-scene")).to_be_visible()


def _free_dice(gm: Page) -> None:
    gm.fill("#fd-expression", "2d6")
    gm.locator("#fd-roll button[type=submit]").click()
    expect(gm.locator("#log > li")).to_have_count(1)


PREPARE: dict[str, Callable[[Page], None]] = {"magical-kitties": _kitties, "free-dice": _free_dice}
"""What the GM does first so that the table shows its usual controls."""

LANGUAGES = ("de", "en")
ROLES = ("gm", "player")
BLOCKING = {"serious", "critical"}
STATES = [
    *(("start", None, None, lang) for lang in LANGUAGES),
    *(("join", None, None, lang) for lang in LANGUAGES),
    *(("table", game, role, lang) for game in GAMES for role in ROLES for lang in LANGUAGES),
    *(("phone", game, "player", lang) for game in GAMES for lang in LANGUAGES),
]
"""Every page state checked: (kind, game, role, language); a phone is a player at 375 px."""


@dataclass
class Tables:
    """One table per game, opened lazily, with a GM's and a player's page on it."""

    browser: Any
    url: str
    contexts: list[Any] = field(default_factory=list)
    pages: dict[tuple[str, str], Page] = field(default_factory=dict)
    invites: dict[str, str] = field(default_factory=dict)

    def context(self, width: int = 1280) -> Any:
        phone = {"is_mobile": True, "has_touch": True} if width < 500 else {}
        context = new_context(self.browser, viewport={"width": width, "height": 900}, **phone)
        self.contexts.append(context)
        return context

    def page(self, game: str, role: str) -> Page:
        if (game, role) not in self.pages:
            gm = self.context().new_page()
            links = open_table(gm, self.url, game, "Accessible " + game, "Gina")
            gm.locator("#open-table").click()
            expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
            if game in PREPARE:
                PREPARE[game](gm)
            player = self.context().new_page()
            join(player, links["player"], "Pia")
            self.pages[(game, "gm")], self.pages[(game, "player")] = gm, player
            self.invites[game] = links["player"]
        return self.pages[(game, role)]


@pytest.fixture(scope="module")
def tables(browser: Any, server: Any) -> Iterator[Tables]:
    made = Tables(browser, server.url)
    yield made
    for context in made.contexts:
        context.close()


FOUND: dict[str, list[str]] = {}


def _open(state: tuple[str, str | None, str | None, str], tables: Tables) -> Page:
    kind, game, role, lang = state
    if kind == "start":
        page = tables.context().new_page()
        page.goto(f"{tables.url}/?lang={lang}")
        expect(page.locator("#new-system option")).not_to_have_count(0)
        return page
    if kind == "join":
        tables.page("free-dice", "gm")
        invite = tables.invites["free-dice"]
        page = tables.context().new_page()
        path, fragment = invite.split("#", 1)
        page.goto(f"{path}?lang={lang}#{fragment}")
        expect(page.locator("#join-form")).to_be_visible()
        return page
    assert game is not None and role is not None
    if kind == "phone":
        tables.page(game, "gm")
        page = tables.context(375).new_page()
        join(page, tables.invites[game], "Phil")
        tables.pages[(game, "phone-" + lang)] = page
    page = tables.pages.get((game, "phone-" + lang)) if kind == "phone" else tables.page(game, role)
    assert page is not None
    page.goto(page.url.split("?")[0].split("#")[0] + f"?lang={lang}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    expect(page.locator("#table")).to_be_visible()
    return page


@pytest.mark.parametrize("state", STATES, ids=lambda s: "-".join(x for x in s if x))
def test_no_serious_or_critical_violation(state: tuple[Any, ...], tables: Tables) -> None:
    page = _open(state, tables)
    results = Axe().run(page)
    violations = results.response["violations"]
    name = "-".join(x for x in state if x)
    blocking = [v for v in violations if v["impact"] in BLOCKING]
    minor = [
        f"{v['impact']}: {v['id']} ({len(v['nodes'])}×) {v['help']} at "
        + ", ".join(str(n["target"]) for n in v["nodes"][:3])
        for v in violations
        if v not in blocking
    ]
    FOUND[name] = minor
    print(f"\naxe {name}: " + ("; ".join(minor) if minor else "no minor or moderate findings"))
    detail = [
        f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
        for v in blocking
    ]
    assert not blocking, "\n".join(detail)


def test_axe_finds_what_it_should(tables: Tables) -> None:
    """The check can fail: a button without a name on the page is a critical violation."""
    page = _open(("start", None, None, "en"), tables)
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    found = {v["id"]: v["impact"] for v in Axe().run(page).response["violations"]}
    assert found.get("button-name") == "critical", found
