"""Long forms in groups that fit their region, and a Kreiswanderer fight that starts with
everyone present: the Kreiswanderer sheet form (who, values, attributes, resistances) and
HeXXen's 20 skills (one group per attribute) lay their fields out in columns at 1280 × 900
and at 375 × 812, never wider than the region; the GM's "start the fight" has every being
present ticked (a secret one only when the GM ticks it)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import new_context, open_table, watch_errors
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SIZES: dict[str, dict[str, Any]] = {
    "desk": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True},
}


def rows_and_overflow(page: Page, fields: str, region: str) -> tuple[int, int, int]:
    """How many fields match ``fields``, on how many rows they stand, and how many reach past
    the right edge of ``region``."""
    found = [
        int(n)
        for n in page.evaluate(
            """([fields, region]) => {
              const edge = document.querySelector(region).getBoundingClientRect().right;
              const boxes = [...document.querySelectorAll(fields)]
                .map((e) => e.getBoundingClientRect());
              const rows = new Set(boxes.map((b) => Math.round(b.top)));
              return [boxes.length, rows.size, boxes.filter((b) => b.right > edge + 0.5).length];
            }""",
            [fields, region],
        )
    ]
    return found[0], found[1], found[2]


def open_sheets(page: Page, size: str) -> None:
    """On a phone the sheets are a tab of their own."""
    if size == "phone":
        page.locator("#tab-sheets").tap()
        expect(page.locator("#tab-sheets")).to_have_attribute("aria-selected", "true")


def open_gm_table(page: Page, base: str, system: str) -> None:
    open_table(page, base, system, "Long forms", "Gina")
    page.locator("#open-table").click()
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_kreiswanderer_sheet_in_groups_and_a_fight_of_all_present(
    browser: Any, server: Any, size: str
) -> None:
    context = new_context(browser, **SIZES[size])
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_gm_table(page, server.url, "kreiswanderer")
        open_sheets(page, size)
        details = page.locator("#kw-create-details")
        details.locator("summary").click()
        expect(page.locator("#kw-new-values")).to_be_visible()
        for group in ("about", "values", "attributes", "resistances"):
            count, rows, wide = rows_and_overflow(page, f"#kw-new-{group} .field", "#region-sheets")
            assert count >= 4, (group, count)
            assert rows <= (count + 1) // 2, (group, count, rows)
            assert wide == 0, (group, wide)
        # Two open beings and a secret one, then the fight: the open ones are ticked from
        # the start, the secret one only if the GM ticks it (its start would be hidden).
        for name, hp, secret in (("Ada", "30", False), ("Wolf", "12", False), ("Spion", "9", True)):
            if details.get_attribute("open") is None:
                details.locator("summary").click()
            page.fill("#kw-new-name", name)
            page.fill("#kw-new-hp", hp)
            if secret:
                page.locator("#kw-new-secret").check()
            page.locator("#kw-new button[type=submit]").click()
            expect(page.locator(f"#kw-being-{name.lower()}")).to_be_visible()
            # The form empties when the command's answer is in (the being may show before, by
            # the socket): the next being is typed only then, or the emptying takes it away.
            expect(page.locator("#kw-new-name")).to_have_value("")
        if size == "phone":
            page.locator("#tab-scene").tap()
        expect(page.locator("#kw-join-ada")).to_be_checked()
        expect(page.locator("#kw-join-wolf")).to_be_checked()
        expect(page.locator("#kw-join-spion")).not_to_be_checked()
        page.locator("#kw-join-wolf").uncheck()
        page.locator("#kw-start-combat").click()
        expect(page.locator("#kw-assign")).to_contain_text("Ada")
        expect(page.locator("#kw-assign")).not_to_contain_text("Wolf")
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("size", ["desk", "phone"])
def test_hexxen_skills_in_groups_by_attribute(browser: Any, server: Any, size: str) -> None:
    context = new_context(browser, **SIZES[size])
    page = context.new_page()
    errors = watch_errors(page)
    try:
        open_gm_table(page, server.url, "hexxen")
        open_sheets(page, size)
        details = page.locator("#hx-create-details")
        if details.get_attribute("open") is None:
            details.locator("summary").click()
        expect(page.locator("#hx-create-skills-GES")).to_be_visible()
        assert page.locator("#hx-create-skills > fieldset").count() == 6
        expect(page.locator("#hx-create-skills-KKR")).to_contain_text("Nahkampf")
        count, rows, wide = rows_and_overflow(page, "#hx-create-skills .field", "#region-sheets")
        assert count == 20, count
        assert rows <= 12, rows
        assert wide == 0, wide
        assert not errors, errors
    finally:
        context.close()
