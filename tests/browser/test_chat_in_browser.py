"""The chat panel in Chromium: a GM, two players and a spectator, each in a context of their
own. A ``say`` reaches everyone; a whisper only its recipient and the GM (the other player's
page and the spectator's never show it, not even in the log); ``/r 2W6+3`` shows its dice."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SECRET = "zqwhisper for Pia"


def _send(page: Page, text: str, to: str | None = None) -> None:
    page.select_option("#chat-to", label=f"Whisper to {to}" if to else "Everyone")
    page.fill("#chat-text", text)
    page.locator("#chat-send").click()
    expect(page.locator("#chat-text")).to_have_value("")


def test_say_whisper_and_roll_in_four_browsers(browser: Any, server: Any) -> None:
    contexts = [new_context(browser) for _ in range(4)]
    gm, paul, pia, sue = (context.new_page() for context in contexts)
    errors = [error for page in (gm, paul, pia, sue) for error in watch_errors(page)]
    try:
        links = open_table(gm, server.url, "free-dice", "Chat table", "Gerda")
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        join(paul, links["player"], "Paul")
        join(pia, links["player"], "Pia")
        join(sue, links["spectator"], "Sue")
        everyone = (gm, paul, pia, sue)

        # The spectator reads but has no form; a player cannot pick the spectator.
        expect(sue.locator("#chat-form")).to_have_count(0)
        expect(sue.locator("#chat-readonly")).to_be_visible()
        expect(paul.locator("#chat-to option", has_text="Pia")).to_have_count(1)
        expect(paul.locator("#chat-to option", has_text="Sue")).to_have_count(0)
        expect(gm.locator("#chat-to option", has_text="Sue")).to_have_count(1)

        _send(paul, "Hallo alle")
        for page in everyone:
            message = page.locator(".chat-message", has_text="Hallo alle")
            expect(message).to_have_count(1)
            expect(message).to_contain_text("Paul says:")

        # The GM whispers to Pia: Paul (the other player) and Sue never see it.
        _send(gm, SECRET, to="Pia")
        _send(paul, "zqback to Pia", to="Pia")
        _send(gm, "after the whispers")
        for page in everyone:
            expect(page.locator(".chat-message", has_text="after the whispers")).to_have_count(1)
        for page in (pia, gm):
            whisper = page.locator(".chat-message.is-whisper", has_text=SECRET)
            expect(whisper).to_have_count(1)
            expect(whisper).to_contain_text("Gerda whispers to Pia:")
            expect(page.locator("#log")).to_contain_text(SECRET)
        for page in (paul, sue):
            expect(page.locator("#chat")).not_to_contain_text(SECRET)
            expect(page.locator("#log")).not_to_contain_text(SECRET)
            assert SECRET not in page.content()
        for page in (paul, pia, gm):  # the sender sees their own whisper
            expect(page.locator(".chat-message.is-whisper", has_text="zqback")).to_contain_text(
                "Paul whispers to Pia:"
            )
        expect(sue.locator("#chat")).not_to_contain_text("zqback")

        _send(pia, "/r 2W6+3 # Schaden")
        for page in everyone:
            roll = page.locator(".chat-message", has_text="Schaden")
            expect(roll).to_contain_text("rolls 2W6+3:")
            expect(roll.locator(".chat-dice .die")).to_have_count(2)
        labels = pia.locator(".chat-message", has_text="Schaden").locator(".chat-dice .die")
        shown = labels.evaluate_all("(dice) => dice.map((d) => d.getAttribute('aria-label'))")
        faces = [int(label.rsplit(":", 1)[1]) for label in shown]
        expect(pia.locator(".chat-message", has_text="Schaden")).to_contain_text(
            f"rolls 2W6+3: {sum(faces) + 3} – Schaden"
        )

        # A page loaded afresh (the records API, not the socket) shows the same.
        sue.reload()
        expect(sue.locator(".chat-message", has_text="Hallo alle")).to_have_count(1)
        expect(sue.locator("#chat")).not_to_contain_text(SECRET)
        assert SECRET not in sue.content()
        assert errors == []
    finally:
        for context in contexts:
            context.close()
