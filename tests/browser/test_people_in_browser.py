"""People at a table in the browser: the GM removes a player (whose page says so at once and
stops), a player leaves, the GM makes new invite links; someone who joins while a page opens
is listed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import ApiTable, join, new_context, open_table, post, watch_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_remove_leave_and_new_invites(browser: Any, server: Any) -> None:
    contexts = [new_context(browser, viewport={"width": 1280, "height": 900}) for _ in range(3)]
    gm, pia, paul = (context.new_page() for context in contexts)
    errors = watch_errors(gm) + watch_errors(pia) + watch_errors(paul)
    for page in (gm, pia, paul):
        page.on("dialog", lambda dialog: dialog.accept())
    try:
        links = open_table(gm, server.url, "free-dice", "People", "Gregor")
        gm.locator("#open-table").click()
        join(pia, links["player"], "Pia")
        join(paul, links["player"], "Paul")
        people = gm.locator("#people")
        expect(people).to_contain_text("Paul")

        # The GM removes Pia: her page says so at once and stops; the GM's list strikes her out.
        expect(gm.get_by_role("button", name="Remove Gregor from the table")).to_have_count(0)
        gm.get_by_role("button", name="Remove Pia from the table").click()
        expect(pia.locator("#alert")).to_contain_text("You are no longer at this table.")
        expect(pia.locator("#no-access")).to_be_visible()
        expect(pia.locator("#table")).to_be_hidden()
        expect(people.locator("li.is-removed")).to_contain_text("Pia")
        expect(people.locator("li.is-removed")).to_contain_text("(gone)")
        pia.reload()  # the token is forgotten in her browser too
        expect(pia.locator("#no-access")).to_be_visible()

        # Paul leaves by himself.
        paul.get_by_role("button", name="Leave the table").click()
        expect(paul.locator("#no-access")).to_be_visible()
        expect(people.locator("li.is-removed")).to_have_count(2)

        # New invite links: the old one stops working.
        old = gm.input_value("#invite-player")
        gm.get_by_role("button", name="New invites").click()
        expect(gm.locator("#invite-player")).not_to_have_value(old)
        late = contexts[1].new_page()
        late.goto(old)
        expect(late.locator("#join")).to_have_attribute("data-invitation", "refused")
        late.fill("#join-name", "Late")
        late.locator("#join-form button[type=submit]").click()
        expect(late.locator("#alert")).to_be_visible()
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_someone_who_joins_while_the_page_connects_is_listed(browser: Any, server: Any) -> None:
    """The page reads the table, then opens its socket; whoever joins in between gets no
    message of their own to that socket, and the socket's greeting names them. The page
    reads the table once."""
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    gm = context.new_page()
    errors = watch_errors(gm)
    try:
        table = ApiTable(server.url, gm, "free-dice", title="Late arrival")
        reads: list[str] = []
        gm.on(
            "request",
            lambda request: (
                reads.append(request.url)
                if request.method == "GET" and f"/api/tables/{table.id}?" in request.url
                else None
            ),
        )

        def route(ws: Any) -> None:
            # The page has read the table and opens its socket: Lea joins before it arrives.
            post(
                f"{server.url}/api/tables/{table.id}/join",
                {"invite": table.invites["player"], "name": "Lea"},
            )
            ws.connect_to_server()

        gm.route_web_socket(re.compile(r".*/ws(\?.*)?$"), route)
        table.open()
        expect(gm.locator("#people")).to_contain_text("Lea")
        assert len(reads) == 1, reads
        assert errors == []
    finally:
        context.close()
