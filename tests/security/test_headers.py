"""Security headers on every answer of the app, ``no-store`` on the API, ``Allow`` on 405.

Every route of the application is walked (``app.routes``, included routers opened up), each
called with its path parameters filled in; the walk checks that it missed none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.routing import BaseRoute, Mount, WebSocketRoute

from spieltisch.web import headers, pages

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'; object-src 'none'"
)


def _routes(routes: list[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route, the routes of included routers one by one."""
    for route in routes:
        contexts = getattr(route, "effective_route_contexts", None)
        if contexts is None:
            yield route
        else:
            yield from (context.original_route for context in contexts())


def _fill(path: str, table: str) -> str:
    if path == "/texts/{lang}/{part}.json":
        return "/texts/de/page.json"
    if path == "/api/systems/{system_id}":
        return "/api/systems/toy"
    return re.sub(r"\{[^}]+\}", table, path)


def _hardened(response: Any) -> None:
    where = f"{response.request.method} {response.request.url.path} ({response.status_code})"
    assert response.headers.get("content-security-policy") == CSP, where
    assert response.headers.get("x-content-type-options") == "nosniff", where
    assert response.headers.get("referrer-policy") == "no-referrer", where
    if response.request.url.path.startswith("/api/"):
        assert response.headers.get("cache-control") == "no-store", where


@pytest.fixture
def party(client: Any, toy: Any, make_party: Any) -> Any:
    return make_party(client)


def test_the_policy_allows_no_inline_code() -> None:
    assert headers.CONTENT_SECURITY_POLICY == CSP
    assert "unsafe" not in CSP and "*" not in CSP


def test_every_route_answers_with_the_headers(party: Any) -> None:
    app = party.client.app
    seen: set[str] = set()
    http = 0
    for route in _routes(app.routes):
        if isinstance(route, WebSocketRoute) or type(route).__name__ == "APIWebSocketRoute":
            continue
        if isinstance(route, Mount):
            continue  # the files: see the next test
        http += 1
        path = _fill(getattr(route, "path"), party.id)  # noqa: B009
        for method in sorted(getattr(route, "methods", None) or ()):
            if method == "HEAD":
                continue
            body = {} if method == "POST" else None
            response = party.client.request(method, path, headers=party.gm, json=body)
            assert response.status_code < 500, (method, path, response.text)
            if method == "GET":  # a map image of a table that has none: 404, headers all the same
                expected = 404 if "{image_id}" in route.path else 200  # type: ignore[attr-defined]
                assert response.status_code == expected, (path, response.text)
            _hardened(response)
            seen.add(route.path)  # type: ignore[attr-defined]
    assert http == len(seen) >= 17  # every page, API and docs route was called
    assert {"/", "/t/{table}", "/docs", "/openapi.json", "/api/tables/{table_id}/export"} <= seen


def test_files_docs_and_error_answers_carry_the_headers(party: Any) -> None:
    client = party.client
    calls = [
        ("GET", "/static/js/core.js", 200),
        ("GET", "/static/js/docs.js", 200),
        ("GET", "/static/css/spieltisch.css", 200),
        ("GET", "/static/favicon.svg", 200),
        ("GET", "/docs-assets/swagger-ui-bundle.js", 200),
        ("GET", "/docs-assets/swagger-ui.css", 200),
        ("GET", "/static/nothing.js", 404),
        ("GET", "/nowhere", 404),
        ("GET", "/api/nowhere", 404),
        ("GET", "/t/not%20a%20table", 404),
        ("GET", f"/api/tables/{party.id}", 401),  # no token
        ("GET", "/api/tables/unknown", 404),
        ("DELETE", "/api/systems", 405),
        ("POST", "/static/js/core.js", 405),
        ("POST", "/api/tables", 422),
    ]
    for method, path, status in calls:
        response = client.request(method, path)
        assert response.status_code == status, (method, path, response.text)
        _hardened(response)
    malformed = client.post(
        "/api/tables", content=b"{", headers={"Content-Type": "application/json"}
    )
    assert malformed.status_code == 400
    _hardened(malformed)


def test_api_answers_and_exports_are_never_stored(party: Any) -> None:
    client = party.client
    answers = [
        client.get("/api/systems"),
        client.get(f"/api/tables/{party.id}", headers=party.gm),
        client.get(f"/api/tables/{party.id}/records", headers=party.player),
        client.get(f"/api/tables/{party.id}/export", headers=party.gm),
        client.post(f"/api/tables/{party.id}/commands", headers=party.gm, json={"x": 1}),
        client.get("/api/nowhere"),
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 422, 404]
    for answer in answers:
        assert answer.headers["cache-control"] == "no-store"
    # The pages' files may be kept, and are asked for again with their ETag (304 if unchanged).
    assert client.get("/static/js/core.js").headers["cache-control"] == "no-cache"


def test_405_names_the_allowed_methods(party: Any) -> None:
    client = party.client
    cases = [
        ("GET", "/api/tables", "POST"),
        ("DELETE", "/api/systems", "GET"),
        ("PUT", f"/api/tables/{party.id}", "GET"),
        ("GET", f"/api/tables/{party.id}/join", "POST"),
        ("POST", f"/api/tables/{party.id}/export", "GET"),
        ("POST", "/", "GET"),
        ("DELETE", f"/t/{party.id}", "GET"),
        ("POST", "/docs", "GET"),
        ("PUT", "/openapi.json", "GET, HEAD"),
        ("POST", "/static/js/core.js", "GET, HEAD"),
        ("DELETE", "/docs-assets/swagger-ui.css", "GET, HEAD"),
    ]
    for method, path, allow in cases:
        response = client.request(method, path)
        assert response.status_code == 405, (method, path)
        assert response.headers["allow"] == allow, (method, path)
        assert response.json()["error"]["code"] == "api.method_not_allowed"


_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>")
_HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
_STYLE = re.compile(r"\sstyle\s*=", re.I)


def test_pages_and_templates_have_no_inline_script_handler_or_style(party: Any) -> None:
    sources = {path: party.client.get(path).text for path in ("/", f"/t/{party.id}", "/docs")}
    sources.update({t.name: t.read_text() for t in pages.TEMPLATE_DIR.glob("*.html")})
    assert len(sources) >= 7  # three pages, four templates
    for name, html in sources.items():
        assert not _INLINE_SCRIPT.search(html), name
        assert not _HANDLER.search(html), name
        assert not _STYLE.search(html), name
    assert _INLINE_SCRIPT.search("<script>alert(1)</script>")  # the checks can fail
    assert _HANDLER.search('<a onclick="x()">') and _STYLE.search('<p style="x">')


def test_the_docs_page_starts_swagger_from_a_file(party: Any) -> None:
    html = party.client.get("/docs").text
    assert '<script src="/static/js/docs.js"></script>' in html
    assert 'data-openapi="/openapi.json"' in html
    script = party.client.get("/static/js/docs.js")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.text
    assert script.headers["content-type"].startswith(("text/javascript", "application/javascript"))
