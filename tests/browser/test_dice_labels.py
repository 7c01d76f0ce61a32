"""A die given as a bare number (the log's shortest shape) is read aloud as its face alone:
its label once also said "counts" with no value, since the number had no "counts" to leave out."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import new_context, open_table

pytestmark = pytest.mark.browser


def test_a_die_given_as_a_number_is_labelled_by_its_face(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    try:
        open_table(page, server.url, "free-dice", "Labels", "Gina")
        script = page.locator("script[type=module]").first.get_attribute("src") or ""
        dice = script.replace("/table.js", "/dice.js").replace("/start.js", "/dice.js")
        labels = page.evaluate(
            """async (url) => {
                 const { renderDie, renderDice } = await import(url);
                 return [renderDie(5).getAttribute('aria-label'),
                         renderDie(3, { sides: 8 }).getAttribute('aria-label'),
                         ...[...renderDice([2, { die: 'd6', face: 2 }]).children]
                           .map((d) => d.getAttribute('aria-label'))];
               }""",
            dice,
        )
        assert labels == ["d6: 5", "d8: 3", "d6: 2", "d6: 2"]
    finally:
        context.close()
