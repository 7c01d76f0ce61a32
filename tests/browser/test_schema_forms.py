"""Forms built from a schema (issue 26): the start page's table options are generated from the
system's option schema; what they send is what the server stores, a bad number is refused with
its localized message and nothing is created."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import new_context, open_table, watch_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_generated_option_form_creates_the_table_it_shows(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto(server.url + "/")
        page.select_option("#new-system", "dnd5e")
        width = page.locator("#opt-width")
        # Labelled from the texts, with the schema's bounds; a choice named in words.
        expect(page.get_by_label("Map width (squares)")).to_have_value("20")
        expect(width).to_have_attribute("min", "1")
        expect(width).to_have_attribute("max", "200")
        expect(width).to_have_attribute("step", "1")
        expect(page.locator("#opt-discovery option:checked")).to_have_text("the whole table")
        width.fill("31")
        page.select_option("#opt-discovery", label="only the player who made them")
        page.select_option("#opt-edition", index=0)
        links = open_table(page, server.url, "dnd5e", "Schema", "Greta", keep_options=True)
        options = page.evaluate(
            """async (id) => {
              const token = JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token;
              const headers = {Authorization: 'Bearer ' + token};
              const answer = await fetch(`/api/tables/${id}`, {headers});
              return (await answer.json()).options;
            }""",
            links["table"],
        )
        assert options["width"] == 31
        assert options["height"] == 20
        assert options["discovery"] == "player"
        assert options["edition"] == 1
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Map width (squares): '2.5' is not a valid number."),
        ("de", "'2.5' ist keine gültige Zahl."),
    ],
)
def test_a_bad_number_is_refused_by_name_and_creates_nothing(
    browser: Any, server: Any, lang: str, message: str
) -> None:
    context = new_context(browser)
    page = context.new_page()
    try:
        page.goto(server.url + "/?lang=" + lang)
        page.select_option("#new-system", "dnd5e")
        page.fill("#opt-width", "2.5")
        page.fill("#new-title-input", "Schema")
        page.fill("#new-name", "Greta")
        page.locator("#new-table button[type=submit]").click()
        expect(page.locator("#alert")).to_contain_text(message)
        expect(page.locator("#created")).to_be_hidden()
        assert page.evaluate("localStorage.getItem('spieltisch.tables')") in (None, "{}")
    finally:
        context.close()
