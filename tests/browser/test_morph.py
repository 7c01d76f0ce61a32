"""The page's morph (static/js/morph.js) against random trees: whatever the live tree and the
fresh one, the live tree ends up exactly as the fresh one was drawn, and an element whose id
both trees share stays the same node. And the page's one odds cache (static/js/odds.js)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import new_context
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

_TAGS = ["div", "span", "p", "ul", "li", "details", "section"]
_IDS = ["a", "b", "c", "d", "e"]

_MORPH = """async (cases) => {
  const { morph } = await import("/static/js/morph.js");
  const tree = (html) => {
    const box = document.createElement("div");
    box.innerHTML = html;
    return box;
  };
  return cases.map(([before, after]) => {
    const live = tree(before);
    document.body.append(live);
    const kept = new Map([...live.querySelectorAll("[id]")].map((node) => [node.id, node]));
    const fresh = tree(after);
    const expected = fresh.innerHTML;
    morph(live, fresh);
    const same = [...live.querySelectorAll("[id]")]
      .filter((node) => kept.get(node.id) === node).map((node) => node.id);
    // Equal as DOM trees (the order of an element's attributes carries no meaning).
    const drawn = tree(after);
    live.normalize();
    drawn.normalize();
    const result = [live.isEqualNode(drawn) ? "" : live.innerHTML + " != " + expected, same];
    live.remove();
    return JSON.stringify(result);
  });
}"""


def _node(draw: Any, depth: int, ids: list[str]) -> str:
    if depth <= 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(["x", "y", "zz", ""])) or "t"
    tag = draw(st.sampled_from(_TAGS))
    attrs = ""
    if ids and draw(st.booleans()):
        attrs += f' id="{ids.pop(0)}"'
    if draw(st.booleans()):
        attrs += f' class="{draw(st.sampled_from(["k", "m"]))}"'
    if tag == "details" and draw(st.booleans()):
        attrs += " open"
    children = "".join(_node(draw, depth - 1, ids) for _ in range(draw(st.integers(0, 3))))
    return f"<{tag}{attrs}>{children}</{tag}>"


@st.composite
def _trees(draw: Any) -> str:
    ids = list(draw(st.permutations(_IDS)))
    return "".join(_node(draw, 3, ids) for _ in range(draw(st.integers(0, 4))))


@pytest.fixture(scope="module")
def start_page(browser: Any, server: Any) -> Any:
    context = new_context(browser)
    page = context.new_page()
    page.goto(server.url + "/")
    yield page
    context.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.tuples(_trees(), _trees()), min_size=1, max_size=10))
@example(  # a kept open <details> gains a class: its attributes in another order, equal
    pairs=[
        (
            'x<p id="a"><details id="d" open></details></p>x',
            'x<details id="d" class="k" open></details>',
        )
    ]
)
def test_the_morph_makes_the_live_tree_the_fresh_one(
    start_page: Page, pairs: list[tuple[str, str]]
) -> None:
    results = [json.loads(text) for text in start_page.evaluate(_MORPH, [list(p) for p in pairs])]
    assert [mismatch for mismatch, _ in results] == [""] * len(pairs)


def test_an_element_kept_by_id_is_the_same_node(start_page: Page) -> None:
    before = '<ul><li id="a">one</li><li id="b"><input id="c"></li></ul><p>x</p>'
    after = (
        '<p>new</p><ul><li id="z">zero</li><li id="b"><input id="c"></li><li id="a">one</li></ul>'
    )
    [text] = start_page.evaluate(_MORPH, [[before, after]])
    mismatch, same = json.loads(text)
    assert mismatch == ""
    assert sorted(same) == ["a", "b", "c"]


_DETAILS_RACE = """async () => {
  const { morph } = await import("/static/js/morph.js");
  const { details, el } = await import("/static/js/core.js");
  const input = () => el("input", { id: "race-input" });
  const draw = () => el("div", {}, details("race-details", "more", input()));
  const live = document.createElement("div");
  document.body.append(live);
  morph(live, draw());
  const node = live.querySelector("#race-details");
  // A click opens it at once; its toggle event comes in a later task. A render that runs in
  // between (a record arriving) draws the model, which has not heard of the click yet.
  node.querySelector("summary").click();
  const clicked = node.open;
  morph(live, draw());
  const afterRender = node.open;
  await new Promise((done) => setTimeout(done, 0));  // the toggle event
  morph(live, draw());
  const later = live.querySelector("#race-details").open;
  live.remove();
  return { clicked, afterRender, later };
}"""


def test_a_details_opened_just_before_a_render_stays_open(start_page: Page) -> None:
    assert start_page.evaluate(_DETAILS_RACE) == {
        "clicked": True,
        "afterRender": True,
        "later": True,
    }


_ODDS = """async () => {
  const { askOdds, oddsNow } = await import("/static/js/odds.js");
  const asked = [];
  const answers = [];
  // The server's odds endpoint stands behind `fetch`; here each call is counted and answered
  // with the command it was asked for, a refusal for the command "bad".
  const fetch = (command) => {
    asked.push(command.n);
    if (command.n === "bad") return Promise.reject(new Error("refused"));
    return Promise.resolve({ n: command.n });
  };
  const view = {};
  let redrawn = 0;
  const first = [askOdds(view, { n: 1 }, fetch), askOdds(view, { n: 1 }, fetch)];
  answers.push(oddsNow(view, { n: 1 }, fetch, () => { redrawn += 1; }));
  answers.push((await Promise.all(first)).map((a) => a.n));
  await Promise.resolve();
  answers.push(oddsNow(view, { n: 1 }, fetch, () => { redrawn += 1; }));
  oddsNow(view, { n: "bad" }, fetch, () => { redrawn += 1; });
  await askOdds(view, { n: "bad" }, fetch).catch(() => null);
  await Promise.resolve();
  answers.push(oddsNow(view, { n: "bad" }, fetch, () => { redrawn += 1; }));
  await askOdds({}, { n: 1 }, fetch);  // another view: asked again
  return { asked, answers, redrawn };
}"""


def test_the_odds_cache_asks_once_per_command_and_view(start_page: Page) -> None:
    result = start_page.evaluate(_ODDS)
    assert result["asked"] == [1, "bad", 1]
    assert result["answers"] == [None, [1, 1], {"n": 1}, {"error": "refused"}]
    assert result["redrawn"] == 2
