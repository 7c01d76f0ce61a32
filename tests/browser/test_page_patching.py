"""The page is patched, not rebuilt: another person's update leaves what one is doing alone —
a number field keeps its value and caret, an open <details> stays open (the same node), the
odds of each command are asked once, and those shown stay until a new view's come; what one
has typed survives a reload; and a page that opens draws the table once (the socket's greeting
brings nothing new), each change once more."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import ApiTable, join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

_SEND = """async ([table, command]) => {
  const token = JSON.parse(localStorage.getItem('spieltisch.tables'))[table].token;
  const answer = await fetch(`/api/tables/${table}/commands`, {
    method: 'POST',
    headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
    body: JSON.stringify({command, hidden: false, expected_seq: null}),
  });
  if (!answer.ok) throw new Error(await answer.text());
  return (await answer.json()).records.at(-1).seq;
}"""


def _send(page: Page, table: str, command: dict[str, Any]) -> int:
    """Send a command with the page's own token (not through its forms); the last record's seq."""
    seq: int = page.evaluate(_SEND, [table, command])
    return seq


def _wait_for(page: Page, seq: int) -> None:
    expect(page.locator(f'#log > li[data-seq="{seq}"]')).to_have_count(1)


def _mark(page: Page, id_: str) -> None:
    """Mark the node with id ``id_`` (a property, which only that node object carries)."""
    page.evaluate("(id) => { document.getElementById(id).keptByTheMorph = true; }", id_)


def _marked(page: Page, id_: str) -> bool:
    """Whether the node now in the page with id ``id_`` is the node marked before."""
    return bool(page.evaluate("(id) => document.getElementById(id).keptByTheMorph === true", id_))


def _pair(browser: Any, server: Any, system: str) -> tuple[Any, Any, Page, Page, str]:
    gm_context, player_context = new_context(browser), new_context(browser)
    gm, player = gm_context.new_page(), player_context.new_page()
    links = open_table(gm, server.url, system, "Patch", "Greta")
    gm.locator("#open-table").click()
    join(player, links["player"], "Pia")
    expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
    table = gm.url.split("/t/", 1)[1].split("?", 1)[0].split("#", 1)[0]
    return gm_context, player_context, gm, player, table


def test_a_number_field_keeps_its_value_and_caret_when_the_gm_acts(
    browser: Any, server: Any
) -> None:
    gm_context, player_context, gm, player, table = _pair(browser, server, "free-dice")
    errors = watch_errors(gm) + watch_errors(player)
    try:
        hero = {
            "kind": "add_character",
            "id": "hero",
            "name": "Hero",
            "tracks": [{"name": "HP", "maximum": 20}],
        }
        _wait_for(player, _send(player, table, hero))
        field = player.locator("#fd-amt-hero-0")
        field.fill("123")
        field.press("End")
        field.press("ArrowLeft")
        field.press("ArrowLeft")  # the caret between 1 and 2
        _mark(player, "fd-amt-hero-0")
        seq = _send(gm, table, {"kind": "roll", "expression": "1d6"})
        _wait_for(player, seq)
        expect(player.locator("#fd-last")).to_contain_text("1d6")
        # The very same field, focused, with what was typed; the next digit lands at the caret.
        assert _marked(player, "fd-amt-hero-0")
        expect(field).to_be_focused()
        expect(field).to_have_value("123")
        player.keyboard.type("9")
        expect(field).to_have_value("1923")
        player.locator("#fd-dmg-hero-0").click()
        expect(player.locator("#fd-track-hero-0")).to_have_text("HP 0/20")
        assert errors == []
    finally:
        gm_context.close()
        player_context.close()


def test_an_open_details_stays_the_same_node_when_the_gm_acts(browser: Any, server: Any) -> None:
    gm_context, player_context, gm, player, table = _pair(browser, server, "kreiswanderer")
    errors = watch_errors(gm) + watch_errors(player)
    try:
        details = player.locator("#kw-create-details")
        expect(details).to_have_attribute("open", "")
        _mark(player, "kw-create-details")
        player.fill("#kw-new-name", "Mara")
        player.locator("#kw-new-hp").focus()
        seq = _send(gm, table, {"kind": "say", "text": "Hallo"})
        _wait_for(player, seq)
        assert _marked(player, "kw-create-details")
        expect(details).to_have_attribute("open", "")
        expect(player.locator("#kw-new-name")).to_have_value("Mara")
        expect(player.locator("#kw-new-hp")).to_be_focused()
        assert errors == []
    finally:
        gm_context.close()
        player_context.close()


def _reload(page: Page) -> None:
    page.reload()
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")


def test_what_a_player_typed_survives_a_reload_in_hexxen_and_kreiswanderer(
    browser: Any, server: Any
) -> None:
    for system, fields, unfold in (
        ("hexxen", {"#hx-create-name": "Jakob", "#hx-create-GES": "4"}, "#hx-create-details"),
        ("kreiswanderer", {"#kw-new-name": "Mara", "#kw-new-hp": "14"}, "#kw-create-details"),
    ):
        gm_context, player_context, gm, player, table = _pair(browser, server, system)
        errors = watch_errors(gm) + watch_errors(player)
        try:
            if player.locator(unfold).get_attribute("open") is None:
                player.locator(f"{unfold} > summary").click()
            for selector, value in fields.items():
                player.fill(selector, value)
            _reload(player)
            for selector, value in fields.items():
                expect(player.locator(selector)).to_have_value(value)
            # Another person's update keeps them too; the GM's page has none of them.
            _wait_for(player, _send(gm, table, {"kind": "say", "text": "Weiter"}))
            for selector, value in fields.items():
                expect(player.locator(selector)).to_have_value(value)
            _reload(gm)
            name = next(iter(fields))
            if gm.locator(name).count():
                expect(gm.locator(name)).to_have_value("")
            assert errors == []
        finally:
            gm_context.close()
            player_context.close()


_COUNT_DRAWS = """
window.tableDraws = 0;
new MutationObserver((records) => {
  for (const record of records) {
    if (record.type === "childList" && record.target.id === "table-title") window.tableDraws++;
  }
}).observe(document, { childList: true, subtree: true });
"""
"""Counts the page's draws of the table: each sets the title's text (a new text node)."""


def test_a_table_page_draws_once_as_it_opens_and_once_per_change(browser: Any, server: Any) -> None:
    context = new_context(browser)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        table = ApiTable(server.url, page, "free-dice")
        table.send({"kind": "roll", "expression": "2d6"})
        context.add_init_script(script=_COUNT_DRAWS)
        # The greeting comes with the page going live, in the same task as a draw it causes.
        table.open()
        expect(page.locator("#log > li")).to_have_count(1)
        assert page.evaluate("window.tableDraws") == 1
        table.send({"kind": "roll", "expression": "1d6"})
        expect(page.locator("#log > li")).to_have_count(2)
        assert page.evaluate("window.tableDraws") == 2
        assert not errors, errors
    finally:
        context.close()


def test_the_odds_shown_stay_while_a_new_views_odds_come(browser: Any, server: Any) -> None:
    # A record changes the view, and the odds of a command are asked again for the new one.
    # Until they come, the page keeps the odds it showed (they no longer vanish and come back,
    # moving everything below them) and marks the game's regions busy; then the mark goes.
    context = new_context(browser)
    try:
        page = context.new_page()
        errors = watch_errors(page)
        table = ApiTable(server.url, page, "free-dice")
        table.open()
        page.fill("#fd-expression", "3d6")
        page.get_by_role("button", name="Show the odds").click()
        chart = page.locator("#odds table.odds-chart")
        expect(chart).to_be_visible()
        scene = page.locator("#game-body")
        expect(scene).to_have_attribute("aria-busy", "false")
        shown = chart.text_content()
        held: list[Any] = []
        odds = re.compile(r"/api/tables/[^/]+/odds(\?|$)")  # the page adds ?lang=
        page.route(odds, lambda route: held.append(route))
        table.send({"kind": "roll", "expression": "1d6"})
        expect(page.locator("#log > li")).to_have_count(1)
        expect(scene).to_have_attribute("aria-busy", "true")
        assert chart.text_content() == shown
        for _ in range(10_000):  # each call into the page lets a held request reach the handler
            if held:
                break
            page.evaluate("0")
        assert len(held) == 1 and chart.text_content() == shown
        held[0].continue_()
        expect(scene).to_have_attribute("aria-busy", "false")
        expect(chart).to_be_visible()
        assert not errors, errors
    finally:
        context.close()
