"""The battle map is the middle of a D&D table: at 1280 × 900 it stands at the top of the scene
with squares of about 40 px; tokens carry initials, a number for creatures of the same name
(counted so that a secret one changes no player's marks), an HP bar and a badge for their
conditions; a token dragged over the map shows a ruler with the route's cost and moves where
it is dropped; a creature clicked on the map becomes the target of the attack and of the spell
being cast; a planned route keeps the terrain colour of its squares; and a phone opens the map
on the player's own creature, then on the one whose turn it is, also when the page draws twice
before its next frame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import box_of, into_view, join, new_context, open_table, watch_errors
from playwright.sync_api import Page, expect
from test_dnd5e_spells_in_browser import add_caster, add_monster

SPELLS = {"score": "16", "level": "3", "dc": "13", "attack": "5", "slots": "4, 2"}


def box(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the element ``selector``, once it is laid out."""
    return box_of(page, selector)


def centre_in_frame(page: Page, token: str, frame: str) -> bool:
    """Whether the middle of ``token`` lies inside the visible part of ``frame``."""
    t, f = box(page, token), box(page, frame)
    x, y = t["x"] + t["width"] / 2, t["y"] + t["height"] / 2
    return bool(f["x"] <= x <= f["x"] + f["width"] and f["y"] <= y <= f["y"] + f["height"])


def fill(page: Page, selector: str) -> str:
    """The computed fill of an SVG element."""
    return str(page.eval_on_selector(selector, "e => getComputedStyle(e).fill"))


def test_the_map_is_the_middle_of_the_table(browser: Any, server: Any, screenshots: Path) -> None:
    desk = {"viewport": {"width": 1280, "height": 900}}
    phone_size = {"viewport": {"width": 375, "height": 812}, "is_mobile": True, "has_touch": True}
    contexts = [new_context(browser, **desk), new_context(browser, **desk)]
    contexts.append(new_context(browser, **phone_size))
    gm, pia, ben = (c.new_page() for c in contexts)
    errors = watch_errors(gm) + watch_errors(pia) + watch_errors(ben)
    try:
        links = open_table(gm, server.url, "dnd5e", "Crypt", "Greta")
        gm.locator("#open-table").click()
        join(pia, links["player"], "Pia")
        join(ben, links["player"], "Ben")

        # The map leads the scene and gets the width: squares of about 40 px, in view.
        square = box(pia, "#dd-sq-a1")
        print(f"D&D map square at 1280 × 900: {square['width']:.1f} px")
        assert square["width"] >= 36, square
        assert box(pia, "#dd-map")["y"] < 400

        # A secret goblin first, then two open ones: the GM reads G1, G2 on the open goblins
        # and G3 on the secret one; Pia sees the same G1 and G2 and no third goblin.
        add_monster(gm, "goblin", "t20", "goblin", secret=True)
        gm.uncheck("#dd-monster-secret")
        add_monster(gm, "goblin", "h3", "goblin-2")
        add_monster(gm, "goblin", "j12", "goblin-3")
        add_caster(pia, "Wiz", "c3", "int", "Fire Bolt", **SPELLS)
        for page in (gm, pia):
            expect(page.locator("#dd-token-goblin-2")).to_have_attribute("data-mark", "G1")
            expect(page.locator("#dd-token-goblin-3")).to_have_attribute("data-mark", "G2")
            expect(page.locator("#dd-token-wiz")).to_have_attribute("data-mark", "W")
        expect(gm.locator("#dd-token-goblin")).to_have_attribute("data-mark", "G3")
        expect(pia.locator("#dd-token-goblin")).to_have_count(0)
        expect(pia.locator("#dd-token-goblin-2")).to_have_attribute(
            "aria-label", "Goblin on h3 (G1)"
        )

        # Ben, on his phone, adds Bo in the far corner: his map opens on Bo.
        ben.locator("#tab-tools").tap()
        ben.fill("#dd-hero-name", "Bo")
        ben.fill("#dd-hero-at", "r18")
        ben.locator("#dd-hero-add").tap()
        ben.locator("#tab-scene").tap()
        expect(ben.locator("#dd-token-bo")).to_have_count(1)
        ben.reload()
        expect(ben.locator("#dd-token-bo")).to_have_count(1)
        expect(ben.locator("#tab-scene")).to_have_attribute("aria-selected", "true")
        ben.wait_for_function(
            "() => document.getElementById('dd-map-frame').scrollLeft > 0"
            " || document.getElementById('dd-map-frame').scrollTop > 0"
        )
        assert centre_in_frame(ben, "#dd-token-bo", "#dd-map-frame")
        assert not centre_in_frame(ben, "#dd-sq-a1", "#dd-map-frame")

        # HP bars and a badge of conditions, only from what each person may see.
        expect(pia.locator("#dd-token-goblin-2 .map-hp-left")).to_have_class("map-hp-left is-high")
        gm.select_option("#dd-f-goblin-2-cond", "prone")
        gm.locator("#dd-f-goblin-2-cond-add").click()
        expect(pia.locator("#dd-token-goblin-2 .map-badge-text")).to_have_text("1")
        expect(pia.locator("#dd-token-goblin-2 title")).to_have_text("Goblin · prone")

        gm.select_option("#dd-paint", "difficult")
        gm.locator("#dd-sq-d4").click(force=True)
        gm.select_option("#dd-paint", "")
        expect(pia.locator("#dd-sq-d4")).to_have_class("map-square terrain-difficult")
        plain_difficult = fill(pia, "#dd-sq-d4")

        for who, roll in (("wiz", "20"), ("bo", "15"), ("goblin-2", "2"), ("goblin-3", "2")):
            gm.fill(f"#dd-ini-{who}", roll)
        gm.locator("#dd-start").click()
        expect(pia.locator("#dd-round")).to_have_text("Round 1 · Wiz's turn")
        # A new turn: Ben's map turns to Wiz.
        ben.wait_for_function(
            "() => { const f = document.getElementById('dd-map-frame').getBoundingClientRect();"
            " const t = document.getElementById('dd-token-wiz').getBoundingClientRect();"
            " const x = t.left + t.width / 2, y = t.top + t.height / 2;"
            " return f.left <= x && x <= f.right && f.top <= y && y <= f.bottom; }"
        )

        # A route over difficult terrain keeps its colour (outlined, not painted over).
        pia.locator("#dd-token-wiz").click()
        pia.locator("#dd-sq-d4").click(force=True)
        expect(pia.locator("#dd-sq-d4")).to_have_class("map-square terrain-difficult is-route")
        assert fill(pia, "#dd-sq-d4") != fill(pia, "#dd-sq-e5")
        route_difficult = fill(pia, "#dd-sq-d4")
        assert plain_difficult.startswith("rgba(201, 162, 74"), plain_difficult
        assert route_difficult.startswith("rgb(201, 162, 74") or route_difficult.startswith(
            "rgba(201, 162, 74"
        ), route_difficult
        pia.locator("#dd-route-clear").click()

        # Dragging Wiz: a ruler follows the pointer with the cost and what is left, the drop
        # moves Wiz there (c3 → e5 over d4: 1.5 + 3 m of difficult terrain).
        into_view(pia, "#dd-sq-e5")
        start = box(pia, "#dd-token-wiz")
        to = box(pia, "#dd-sq-e5")
        pia.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        pia.mouse.down()
        pia.mouse.move(to["x"] + to["width"] / 2, to["y"] + to["height"] / 2, steps=8)
        expect(pia.locator("#dd-map .map-ruler-text").first).to_have_text("4.5 m, 4.5 m left")
        pia.screenshot(path=str(screenshots / "dnd5e-map-drag.png"))
        pia.mouse.up()
        for page in (gm, pia):
            expect(page.locator("#dd-token-wiz")).to_have_attribute("data-square", "e5")
        expect(pia.locator("#dd-f-wiz-economy")).to_contain_text("Movement 4.5 of 9 m left")
        expect(pia.locator("#dd-map .map-ruler")).to_have_count(0)

        # A click on a goblin makes it the target of the attack and of Fire Bolt.
        pia.select_option("#dd-cast-spell", "fire-bolt")
        expect(pia.locator("#dd-cast-target-goblin-3")).not_to_be_checked()
        pia.locator("#dd-token-goblin-3").click()
        expect(pia.locator("#dd-attack-target")).to_have_value("goblin-3")
        expect(pia.locator("#dd-cast-target-goblin-3")).to_be_checked()
        expect(pia.locator("#dd-cast-target-goblin-2")).not_to_be_checked()
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()


_TWO_RENDERS = """async () => {
  const { zoomFrame } = await import("/static/js/zoom.js");
  const { morph } = await import("/static/js/morph.js");
  // Sizes through the CSS object model (the page's policy forbids a <style> element).
  const sized = (node, sizes) => {
    for (const [name, value] of Object.entries(sizes)) {
      node.style.setProperty(name, value, "important");
    }
    return node;
  };
  const draw = () => {
    const picture = sized(document.createElement("div"), {
      width: "2000px", height: "2000px", position: "relative",
    });
    const spot = sized(document.createElement("span"), {
      position: "absolute", left: "1800px", top: "1700px", width: "20px", height: "20px",
      display: "block",
    });
    spot.id = "zt-spot";
    picture.append(spot);
    const frame = zoomFrame("zt-frame", picture, 40, { centre: "zt-spot" });
    sized(frame.querySelector("#zt-frame"), { width: "200px", height: "200px", overflow: "auto" });
    const box = document.createElement("div");
    box.id = "zt";
    box.append(frame);
    return box;
  };
  const shown = draw();
  document.body.append(shown);
  morph(shown, draw());  // a second render before the first one's frame
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const frame = document.getElementById("zt-frame");
  return [frame.scrollLeft, frame.scrollTop];
}"""


def test_two_renders_in_one_frame_keep_the_centred_place(browser: Any, server: Any) -> None:
    """A page that renders twice before the next frame (the table, then the socket's greeting)
    keeps the map centred on the token: the second render does not put the frame back to where
    it stood before the first one centred it."""
    context = new_context(browser)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        left, top = page.evaluate(_TWO_RENDERS)
        # The spot's middle (1810, 1710) in the middle of the 200 px frame.
        assert (left, top) == (1710, 1610)
    finally:
        context.close()
