"""The live table in the browser: the page follows its view by the server's patches, asks for
a snapshot when one does not fit, and reads older log entries on request."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from browser_helpers import join, log_count, new_context, open_table, watch_errors
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page, expect

from spieltisch.jsonpatch import diff

pytestmark = pytest.mark.browser

LONG = 60_000
"""Milliseconds to wait for a page that draws a hundred rolls one after another."""

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: x != 0 or str(x) == "0.0")
    | st.text(max_size=4)
)
_keys = st.sampled_from(["a", "b", "", "~", "/", "a/b", "~1", "0", "-", "__proto__"])
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(_keys, inner, max_size=5),
    max_leaves=25,
)

_APPLY = """async (cases) => {
  const { applyPatch } = await import("/static/js/patch.js");
  const apply = ([old, patch]) => applyPatch(JSON.parse(old), JSON.parse(patch));
  return cases.map((pair) => JSON.stringify(apply(pair)));
}"""


def _numbers(value: Any) -> Any:
    """``value`` with every number a float: JavaScript has no other kind."""
    if isinstance(value, dict):
        return {key: _numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_numbers(item) for item in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


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
@given(st.lists(st.tuples(_values, _values), min_size=1, max_size=8))
def test_the_pages_patch_applier_agrees_with_the_servers_diff(
    start_page: Page, pairs: list[tuple[Any, Any]]
) -> None:
    cases = [[json.dumps(old), json.dumps(diff(old, new))] for old, new in pairs]
    results = start_page.evaluate(_APPLY, cases)
    assert [_numbers(json.loads(text)) for text in results] == [_numbers(new) for _, new in pairs]


def _token(page: Page, table: str) -> str:
    tables = json.loads(page.evaluate("() => localStorage.getItem('spieltisch.tables')"))
    token: str = tables[table]["token"]
    return token


def _rolls(base: str, table: str, token: str, labels: range) -> None:
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}) as http:
        for n in labels:
            command = {"kind": "roll", "expression": "1d6", "label": f"r{n}"}
            reply = http.post(f"/api/tables/{table}/commands", json={"command": command})
            assert reply.status_code == 200, reply.text


def test_pages_follow_patches_ask_for_a_snapshot_and_load_older_entries(
    browser: Any, server: Any
) -> None:
    gm_context, player_context = new_context(browser), new_context(browser)
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    # The player's socket passes through here: one message from the server gets lost.
    asked: list[str] = []
    lose = {"next": False}

    def route(ws: Any) -> None:
        server_ws = ws.connect_to_server()

        def to_server(message: Any) -> None:
            if isinstance(message, str) and '"snapshot"' in message:
                asked.append(message)
            server_ws.send(message)

        def to_page(message: Any) -> None:
            if lose["next"] and isinstance(message, str) and '"patch"' in message:
                lose["next"] = False
                return
            ws.send(message)

        ws.on_message(to_server)
        server_ws.on_message(to_page)

    player.route_web_socket(re.compile(r".*/ws(\?.*)?$"), route)
    try:
        links = open_table(gm, server.url, "free-dice", "Patches", "Gregor")
        gm.locator("#open-table").click()
        expect(gm.locator("#conn")).to_have_attribute("data-state", "live")
        join(player, links["player"], "Pia")
        token = _token(gm, links["table"])

        # Sixty rolls, more than a view lists: both pages show the last, patched in.
        _rolls(server.url, links["table"], token, range(1, 61))
        for page in (gm, player):
            expect(page.locator("#fd-last")).to_contain_text("r60")
        assert asked == []

        # A lost patch: the next one does not fit, the page asks for a snapshot and catches up.
        lose["next"] = True
        _rolls(server.url, links["table"], token, range(61, 63))
        expect(player.locator("#fd-last")).to_contain_text("r62")
        assert asked == ['{"type":"snapshot"}']
        _rolls(server.url, links["table"], token, range(63, 121))
        expect(gm.locator("#fd-last")).to_contain_text("r120")
        expect(player.locator("#fd-last")).to_contain_text("r120")
        expect(gm.locator("#fd-last")).to_contain_text("r120")

        # A fresh page reads the latest hundred entries; older ones on request.
        player.reload()
        expect(player.locator("#conn")).to_have_attribute("data-state", "live")
        expect(player.locator("#log > li")).to_have_count(100)
        older = player.get_by_role("button", name="Load older")
        older.click()
        expect(player.locator("#log > li")).to_have_count(120)
        expect(older).to_be_hidden()
        assert log_count(gm) == 120
        assert errors == []
    finally:
        gm_context.close()
        player_context.close()
