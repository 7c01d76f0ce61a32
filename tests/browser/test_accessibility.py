"""axe-core on every main page state, in both languages: no serious or critical violation.

The states are a table: the start page, the join page, and each game's table as GM and as
player. A new game joins with one line in ``GAMES`` (and, where an empty table shows little,
one in ``PREPARE``; a state deeper in a game, such as a fight waiting for a reaction, one in
``DEEPEN``). On a phone every tab is checked, one region at a time. The minor and moderate
findings that remain are printed (run with ``-s``) and listed in docs/web-table.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_helpers import ApiTable, join, new_context
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

GAMES = ("free-dice", "magical-kitties", "kilkenny", "hexxen", "kreiswanderer", "dnd5e")
"""Every game with a table page; each is checked as GM and as player."""


def _kitties(gm: Page) -> None:
    gm.locator("#start-episode").click()
    gm.locator("#start-scene").click()
    expect(gm.locator("#end-scene")).to_be_visible()


def _free_dice(gm: Page) -> None:
    gm.fill("#fd-expression", "2d6")
    gm.locator("#fd-roll button[type=submit]").click()
    expect(gm.locator("#log > li")).to_have_count(1)


def _hexxen(gm: Page) -> None:
    gm.fill("#hx-npc-name", "Werwolf")
    gm.select_option("#hx-npc-kind", "anfuehrer")
    gm.fill("#hx-npc-level", "2")
    gm.fill("#hx-npc-block", "INI 8\nLeP 12\nHandlungen 1\n(N) Klauenhieb Angriff 4, Schaden 3")
    gm.locator("#hx-npc-submit").click()
    expect(gm.locator("#hx-npc-werwolf")).to_be_visible()


def _kw_create(page: Page, name: str, hp: int) -> None:
    details = page.locator("#kw-create-details")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.fill("#kw-new-name", name)
    page.fill("#kw-new-hp", str(hp))
    page.locator("#kw-new button[type=submit]").click()
    expect(page.locator(f"#kw-being-{name.lower()}")).to_be_visible()


def _kreiswanderer(gm: Page) -> None:
    _kw_create(gm, "Goblin", 3)


def _dnd5e(gm: Page) -> None:
    gm.select_option("#dd-monster", "goblin")
    gm.fill("#dd-monster-at", "c2")
    gm.locator("#dd-monster-add").click()
    expect(gm.locator("#dd-token-goblin")).to_have_count(1)


PREPARE: dict[str, Callable[[Page], None]] = {
    "magical-kitties": _kitties,
    "free-dice": _free_dice,
    "hexxen": _hexxen,
    "kreiswanderer": _kreiswanderer,
    "dnd5e": _dnd5e,
}
"""What the GM does first so that the table shows its usual controls."""


def _hexxen_attack(gm: Page, player: Page) -> None:
    """The player's hunter is attacked: the defence choices with their odds wait for her."""
    player.fill("#hx-create-name", "Ada")
    for attribute in ("KKR", "ATH", "GES", "SIN", "WIS", "WIL"):
        player.fill(f"#hx-create-{attribute}", "2")
    player.locator("#hx-create-submit").click()
    expect(gm.locator("#hx-hunter-ada")).to_be_visible()
    gm.locator("#hx-start-fight").click()
    gm.locator("#hx-toggle-bound-werwolf").click()
    expect(gm.locator("#hx-declare-0")).to_be_enabled()
    gm.select_option("#hx-att-target", "ada")
    gm.locator("#hx-declare-0").click()
    expect(player.locator("#hx-defend-parry")).to_be_visible()
    expect(gm.locator("#hx-pending-wait")).to_be_visible()


def _kw_fight(gm: Page, player: Page) -> None:
    """A fight has begun: each side still chooses which die becomes the dodge."""
    _kw_create(player, "Ada", 30)
    gm.locator("#kw-join-ada").check()
    gm.locator("#kw-join-goblin").check()
    gm.locator("#kw-start-combat").click()
    expect(player.locator("#kw-assign-ada-0")).to_be_visible()
    expect(gm.locator("#kw-assign-goblin-0")).to_be_visible()


def _dnd5e_reaction(gm: Page, player: Page) -> None:
    """Ada leaves the goblin's reach: the GM is offered an opportunity attack, Ada waits."""
    fields = {"name": "Ada", "hp": "30", "ac": "16", "dex": "14", "at": "b2"}
    fields["attacks"] = "Longsword: +5, 7 (1d8+3) slashing"
    for key, value in fields.items():
        player.fill(f"#dd-hero-{key}", value)
    player.locator("#dd-hero-add").click()
    expect(gm.locator("#dd-ini-ada")).to_be_visible()
    gm.fill("#dd-ini-ada", "20")
    gm.fill("#dd-ini-goblin", "10")
    gm.locator("#dd-start").click()
    expect(player.locator("#dd-round")).to_contain_text("Ada")
    player.locator("#dd-token-ada").click()
    player.locator("#dd-sq-a2").click(force=True)
    expect(player.locator("#dd-route-oa")).to_be_visible()
    player.locator("#dd-move").click()
    expect(gm.locator("#dd-react-goblin-attack")).to_be_visible()
    expect(player.locator("#dd-react-goblin-wait")).to_be_visible()


DEEPEN: dict[str, Callable[[Page, Page], None]] = {
    "hexxen": _hexxen_attack,
    "kreiswanderer": _kw_fight,
    "dnd5e": _dnd5e_reaction,
}
"""A state deeper in a game (GM's page, player's page), checked after the usual ones."""

LANGUAGES = ("de", "en")
ROLES = ("gm", "player")
BLOCKING = {"serious", "critical"}
STATES = [
    *(("start", None, None, lang) for lang in LANGUAGES),
    *(("join", None, None, lang) for lang in LANGUAGES),
    *(("table", game, role, lang) for game in GAMES for role in ROLES for lang in LANGUAGES),
    *(("phone", game, "player", lang) for game in GAMES for lang in LANGUAGES),
    *(("deep", game, role, lang) for game in DEEPEN for role in ROLES for lang in LANGUAGES),
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
    deepened: set[str] = field(default_factory=set)

    def context(self, width: int = 1280) -> Any:
        phone = {"is_mobile": True, "has_touch": True} if width < 500 else {}
        context = new_context(self.browser, viewport={"width": width, "height": 900}, **phone)
        self.contexts.append(context)
        return context

    def page(self, game: str, role: str) -> Page:
        if (game, role) not in self.pages:
            # The start page and its form are checked on their own (state "start").
            gm = self.context().new_page()
            table = ApiTable(self.url, gm, game, title="Accessible " + game)
            table.open()
            if game in PREPARE:
                PREPARE[game](gm)
            player = self.context().new_page()
            join(player, table.invite(), "Pia")
            self.pages[(game, "gm")], self.pages[(game, "player")] = gm, player
            self.invites[game] = table.invite()
        return self.pages[(game, role)]

    def deep(self, game: str, role: str) -> Page:
        """The page of ``role`` once the game has gone a step deeper (``DEEPEN``), once."""
        gm, player = self.page(game, "gm"), self.page(game, "player")
        if game not in self.deepened:
            self.deepened.add(game)
            DEEPEN[game](gm, player)
        return gm if role == "gm" else player


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
        # One phone per game, for both languages (the page is opened again in each).
        if (game, "phone") not in tables.pages:
            tables.page(game, "gm")
            tables.pages[(game, "phone")] = tables.context(375).new_page()
            join(tables.pages[(game, "phone")], tables.invites[game], "Phil")
        page = tables.pages[(game, "phone")]
    else:
        page = tables.deep(game, role) if kind == "deep" else tables.page(game, role)
    assert page is not None
    page.goto(page.url.split("?")[0].split("#")[0] + f"?lang={lang}")
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    expect(page.locator("#table")).to_be_visible()
    return page


AXE = Axe()
"""axe-core, put into a page once per document (its script is about 500 KB)."""


def _axe(page: Page, context: str | None = None) -> list[dict[str, Any]]:
    """axe's violations on ``page`` (within the element ``context`` selects, if given)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.axe_script)
    found = page.evaluate(
        "context => axe.run(context ?? document, { resultTypes: ['violations'] })"
        ".then((results) => results.violations)",
        context,
    )
    return list(found)


def _violations(page: Page, every_tab: bool) -> list[dict[str, Any]]:
    """axe's violations on the page; with ``every_tab``, on each tab's region in turn (a rule
    found behind several tabs counts once, with the nodes of all of them)."""
    if not every_tab:
        return _axe(page)
    found: dict[str, dict[str, Any]] = {}
    tabs = page.locator("#table-tabs [role=tab]")
    expect(tabs.first).to_be_visible()
    for i, name in enumerate([tab.get_attribute("data-region") for tab in tabs.all()]):
        page.locator(f"#tab-{name}").tap()
        expect(page.locator(f"#region-{name}")).to_be_visible()
        # The whole page with the first tab shown, then each other tab's region.
        for violation in _axe(page, f"#region-{name}" if i else None):
            if violation["id"] in found:
                found[violation["id"]]["nodes"].extend(violation["nodes"])
            else:
                found[violation["id"]] = violation
    page.locator("#tab-scene").tap()
    return list(found.values())


@pytest.mark.parametrize("state", STATES, ids=lambda s: "-".join(x for x in s if x))
def test_no_serious_or_critical_violation(state: tuple[Any, ...], tables: Tables) -> None:
    page = _open(state, tables)
    violations = _violations(page, every_tab=state[0] == "phone")
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
    if state[0] != "phone":
        height = page.evaluate("document.documentElement.scrollHeight")
        print(f"page {name}: {height} px high at 1280 px")
    detail = [
        f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
        for v in blocking
    ]
    assert not blocking, "\n".join(detail)
    # A required field is marked once: by the shared marker, not also in its label's text.
    doubled = page.evaluate(
        "[...document.querySelectorAll('label')].map((l) => l.textContent)"
        ".filter((text) => /\\*\\s*\\*|\\(required\\)|Pflichtfeld/.test(text))"
    )
    assert not doubled, doubled


def test_axe_finds_what_it_should(tables: Tables) -> None:
    """The check can fail: a button without a name on the page is a critical violation."""
    page = _open(("start", None, None, "en"), tables)
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    found = {v["id"]: v["impact"] for v in _axe(page)}
    assert found.get("button-name") == "critical", found
