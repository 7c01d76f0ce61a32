"""Steps the browser tests share: open a table through the start page or the API, join by
invite, send a command as the person of a page, read the state that person sees (what the
dice decided), bring an element into view, record the dice notices.

Every page of a context made with :func:`new_context` reports the Content-Security-Policy
violations of its console into :data:`CSP_VIOLATIONS`; ``conftest.py`` fails a test that
leaves any there.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from playwright.sync_api import Page, expect

TIMEOUT = 60_000
"""Milliseconds a step may take before the test fails: an action, and an ``expect`` waiting
for the state it names. A passing step returns as soon as its state shows, so this bound
costs a passing run nothing; it only has to exceed the slowest step on a machine loaded by
other work (Playwright's default of 5 seconds, and 15, were both exceeded there: an AI's move
computed in the process pool while a second suite ran)."""

expect.set_options(timeout=TIMEOUT)


CSP_VIOLATIONS: list[str] = []
"""Console reports of blocked scripts, styles, connections (page URL and message)."""


def watch_csp(page: Page) -> None:
    """Collect the Content-Security-Policy violations ``page`` reports in its console."""

    def on_console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            CSP_VIOLATIONS.append(f"{page.url}: {message.text}")

    page.on("console", on_console)


def new_context(browser: Any, **kwargs: Any) -> Any:
    """A fresh browser context (its own localStorage): one person at the table."""
    context = browser.new_context(locale="en-US", **kwargs)
    context.set_default_timeout(TIMEOUT)
    context.on("page", watch_csp)
    return context


def watch_errors(page: Page) -> list[str]:
    """Collect script errors of ``page`` (a test asserts the list stays empty)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def open_table(
    page: Page,
    base: str,
    system: str,
    title: str,
    name: str,
    language: str = "en",
    *,
    keep_options: bool = False,
) -> dict[str, str]:
    """Create a table on the start page as its GM; returns the table id and invite links.

    With ``keep_options`` the page is already open with the options chosen.
    """
    if not keep_options:
        page.goto(base + "/")
        expect(page.locator("#new-system option")).not_to_have_count(0)
        page.select_option("#new-system", system)
        # The game's options are drawn when its texts have come: the button moves down then,
        # so it is clicked only once they are there (a click in that moment hit the field).
        expect(page.locator("#new-options")).to_have_attribute("data-system", system)
    page.fill("#new-title-input", title)
    page.select_option("#new-language", language)
    page.fill("#new-name", name)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#created")).to_be_visible()
    player = page.input_value("#invite-player")
    spectator = page.input_value("#invite-spectator")
    table = page.locator("#open-table").get_attribute("href") or ""
    return {"table": table.rsplit("/", 1)[-1], "player": player, "spectator": spectator}


def join(page: Page, invite_url: str, name: str) -> None:
    """Open an invite link, give a name, join; waits until the table is shown."""
    page.goto(invite_url)
    # The table's name and game come in above the form and move it down: a click in that
    # moment can miss the button, so the form is used once they are there.
    expect(page.locator("#join")).to_have_attribute("data-invitation", "shown")
    page.fill("#join-name", name)
    page.locator("#join-form button[type=submit]").click()
    expect(page.locator("#table")).to_be_visible()
    expect(page.locator("#conn")).to_have_attribute("data-state", "live")


def send_as(page: Page, table: str, command: dict[str, Any]) -> Any:
    """Send ``command`` as the person of ``page`` (with the token this browser holds, so a
    player's character is theirs); the answer's status and body."""
    return page.evaluate(
        """async ([id, command]) => {
          const token = JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token;
          const answer = await fetch(`/api/tables/${id}/commands`, {
            method: 'POST',
            headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
            body: JSON.stringify({command, hidden: false, expected_seq: null}),
          });
          return {status: answer.status, body: await answer.json()};
        }""",
        [table, command],
    )


def state_of(page: Page, table: str) -> Any:
    """The table's state as the person of ``page`` sees it (through the API, with the token
    this browser holds): what the dice decided, read after the fact instead of guessed."""
    return page.evaluate(
        """async (id) => {
          const token = JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token;
          const headers = {Authorization: 'Bearer ' + token};
          const answer = await fetch(`/api/tables/${id}`, {headers});
          return (await answer.json()).state;
        }""",
        table,
    )


def box_of(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the first element matching ``selector`` in page pixels, measured
    in one step in the page once it is laid out: the page draws its scene again on every
    message, and an element just put in the place of another may not have its size yet (a
    box asked for in two steps can meet one that was just replaced)."""
    found: dict[str, float] = page.wait_for_function(
        """sel => { const e = document.querySelector(sel);
          const r = e && e.getBoundingClientRect();
          return r && r.width > 0 && r.height > 0
            ? {x: r.x, y: r.y, width: r.width, height: r.height} : null; }""",
        arg=selector,
    ).json_value()
    return found


def into_view(page: Page, selector: str) -> None:
    """Scroll the element ``selector`` into the viewport and wait until it is there.

    Scrolled again on every try, so a redraw that replaces the element (or scrolls its frame
    back) in between does not fail the step, as a single ``scroll_into_view_if_needed`` can.
    """
    page.wait_for_function(
        """sel => {
          const e = document.querySelector(sel);
          if (!e) return false;
          e.scrollIntoView({block: 'nearest', inline: 'nearest'});
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.top >= 0 && r.left >= 0
            && r.bottom <= innerHeight && r.right <= innerWidth;
        }""",
        arg=selector,
    )


NOTICE_RECORDER = """
(() => {
  window.__notices = [];
  const watch = () => {
    const body = document.getElementById('toast-body');
    if (!body) return;
    new MutationObserver(() => {
      const text = body.querySelector('.toast-text');
      if (!text) return;
      const toast = document.getElementById('toast');
      const notice = {
        seq: Number(toast.dataset.seq), text: text.textContent,
        who: body.querySelector('.toast-who')?.textContent ?? null,
        shown: toast.classList.contains('is-shown'), faces: null,
      };
      window.__notices.push(notice);
      const settled = body.getAnimations({subtree: true}).map((a) => a.finished.catch(() => null));
      Promise.all(settled).then(() => {
        notice.faces = [...body.querySelectorAll('.die')].map((d) => d.getAttribute('aria-label'));
      });
    }).observe(body, {childList: true});
  };
  if (document.readyState === 'loading') addEventListener('DOMContentLoaded', watch);
  else watch();
})();
"""
"""Test instrumentation: every dice notice the page shows, as it showed it (its record, line,
who, whether shown) and its dice once they settled. The notice goes away by itself after a
few seconds; a test reads what it said here instead of racing that timer."""


def record_notices(page: Page) -> None:
    """Record the dice notices of ``page`` from its next page load on (:data:`NOTICE_RECORDER`)."""
    page.add_init_script(NOTICE_RECORDER)


def notice_of(page: Page, seq: int | None = None) -> dict[str, Any]:
    """The dice notice ``page`` showed for record ``seq`` (the last one shown if ``None``),
    once its dice have settled: ``seq``, ``text``, ``who``, ``shown`` and ``faces``."""
    handle = page.wait_for_function(
        """seq => {
          const shown = (window.__notices || []).filter((n) => seq === null || n.seq === seq);
          const last = shown[shown.length - 1];
          return last && last.faces ? last : null;
        }""",
        arg=seq,
    )
    notice: dict[str, Any] = handle.json_value()
    return notice


def log_count(page: Page) -> int:
    """The number of entries in the log feed."""
    return page.locator("#log > li").count()


def post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    """POST JSON to the server, the answer as data."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


class ApiTable:
    """A table made through the API, its GM's page open in a browser."""

    def __init__(
        self,
        base: str,
        page: Page,
        system: str,
        options: dict[str, Any] | None = None,
        language: str = "en",
        title: str = "Test",
    ):
        made = post(
            base + "/api/tables",
            {"system": system, "language": language, "title": title, "options": options or {}},
        )
        self.language = language
        self.base, self.page = base, page
        self.id, self.token = made["table"], made["token"]
        self.invites: dict[str, str] = made["invites"]
        entry = {"token": self.token, "participant": made["participant"], "role": "gm"}
        if not page.url.startswith(base + "/"):
            # Any page of the server's origin holds its localStorage; the icon is the lightest.
            page.goto(base + "/static/favicon.svg")
        page.evaluate(
            "([id, entry]) => localStorage.setItem("
            "'spieltisch.tables', JSON.stringify({[id]: entry}))",
            [self.id, entry],
        )

    def send(self, command: dict[str, Any], *, hidden: bool = False) -> list[dict[str, Any]]:
        """Send a command as the GM (``hidden``: as a hidden record); the records it made."""
        answer = post(
            f"{self.base}/api/tables/{self.id}/commands",
            {"command": command, "hidden": hidden, "expected_seq": None},
            self.token,
        )
        return list(answer["records"])

    def state(self) -> Any:
        """The table's state as the GM sees it."""
        request = urllib.request.Request(
            f"{self.base}/api/tables/{self.id}", headers={"Authorization": "Bearer " + self.token}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)["state"]

    def invite(self, role: str = "player") -> str:
        """The invite link for ``role`` (``player`` or ``spectator``), as the start page shows."""
        return f"{self.base}/t/{self.id}#invite={self.invites[role]}"

    def open(self) -> None:
        """Open the table page in the table's language and wait until it is live."""
        self.page.goto(f"{self.base}/t/{self.id}?lang={self.language}")
        expect(self.page.locator("#conn")).to_have_attribute("data-state", "live")

    def play(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        """Play a command from the open page (so its notice shows); the records it made."""
        records: list[dict[str, Any]] = self.page.evaluate(
            """async ([id, command]) => {
              const token = JSON.parse(localStorage.getItem('spieltisch.tables'))[id].token;
              const answer = await fetch(`/api/tables/${id}/commands`, {
                method: 'POST',
                headers: {'Content-Type': 'application/json', Authorization: 'Bearer ' + token},
                body: JSON.stringify({command, hidden: false, expected_seq: null}),
              });
              return (await answer.json()).records;
            }""",
            [self.id, command],
        )
        return records

    def entry(self, seq: int) -> Any:
        """The log entry of record ``seq``."""
        return self.page.locator(f'#log > li[data-seq="{seq}"]')
