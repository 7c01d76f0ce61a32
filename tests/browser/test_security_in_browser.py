"""The hardened pages in Chromium: the policy blocks inline code, /docs still renders, secrets
stay out of URLs and referrers.

Every browser test fails on a Content-Security-Policy violation (``conftest.py``); the first
test shows that such a violation is really seen.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import CSP_VIOLATIONS, join, new_context, open_table, watch_errors
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_policy_blocks_inline_script_and_the_tests_see_it(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#new-system option")).not_to_have_count(0)
    page.evaluate(
        """() => {
        const script = document.createElement("script");
        script.textContent = "window.inlineRan = true";
        document.body.append(script);
        const box = document.createElement("div");
        box.setAttribute("style", "color: red");
        document.body.append(box);
        }"""
    )
    assert page.evaluate("() => window.inlineRan") is None
    page.wait_for_function("() => true")  # let the console messages arrive
    context.close()
    found, CSP_VIOLATIONS[:] = list(CSP_VIOLATIONS), []
    assert any("script" in text for text in found), found
    assert any("inline style" in text for text in found), found


def test_the_api_page_renders_under_the_policy(browser: Any, server: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = watch_errors(page)
    answer = page.goto(server.url + "/docs")
    assert answer is not None and "script-src 'self'" in answer.headers["content-security-policy"]
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Spieltisch")
    expect(page.locator(".opblock").first).to_be_visible()
    context.close()
    assert errors == []


def test_invite_and_token_never_reach_a_url_or_a_referrer(browser: Any, server: Any) -> None:
    gm_context, player_context = new_context(browser), new_context(browser)
    gm, player = gm_context.new_page(), player_context.new_page()
    errors = watch_errors(gm) + watch_errors(player)
    requests: list[Any] = []
    sockets: list[str] = []
    player.on("request", lambda request: requests.append(request))
    player.on("websocket", lambda socket: sockets.append(socket.url))

    links = open_table(gm, server.url, "free-dice", "Quiet table", "Gerda")
    code = links["player"].split("#invite=", 1)[1]
    assert links["player"] == f"{server.url}/t/{links['table']}#invite={code}"
    join(player, links["player"], "Paul")
    assert "#" not in player.url and code not in player.url  # the fragment is gone
    token = player.evaluate(
        "(id) => JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token", links["table"]
    )
    assert any(r.url.endswith("/join?lang=en") for r in requests)
    for request in requests:
        assert code not in request.url and token not in request.url
        assert not request.all_headers().get("referer"), request.url  # no-referrer
    gm_context.close()
    player_context.close()
    assert sockets and all(token not in url and "token" not in url for url in sockets)
    assert errors == []
