"""The pages of the web table: the start page and the table page.

The routes are thin: they pick the viewer's language and render a small HTML shell from the
templates. The texts reach the JavaScript modules as cacheable files (``/texts/<lang>/<part>
.json``, the address carrying a hash of the content): the texts every page needs, and one
file per game that the page fetches when it loads that game (:data:`GAME_AREAS`).
Everything else (tables, commands, the live log) goes through the JSON API and the WebSocket.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from spieltisch.i18n import (
    LANGUAGES,
    area_catalog,
    area_plurals,
    areas,
    normalize_language,
    translate,
)

__all__ = [
    "GAME_AREAS",
    "LANG_COOKIE",
    "PAGE_PART",
    "STATIC_DIR",
    "TEMPLATE_DIR",
    "docs_page",
    "page_language",
    "router",
    "text_urls",
    "texts_for",
]

GAME_AREAS: dict[str, str] = {
    "magical-kitties": "kitties",
    "hexxen": "hexxen",
    "kreiswanderer": "kreiswanderer",
    "dnd5e": "dnd5e",
    "kilkenny": "kilkenny",
    "free-dice": "freedice",
}
"""Each game's system id → the catalog area with its texts (sent when the page loads it)."""

PAGE_PART = "page"
"""The text part every page gets: every area but the games' and the command line's."""

_NOT_IN_PAGES = {"cli", *GAME_AREAS.values()}

TEMPLATE_DIR = Path(__file__).parent / "templates"
"""Where the Jinja templates of the pages live."""

STATIC_DIR = Path(__file__).parent / "static"
"""The hand-written JavaScript modules and the style sheet, served under ``/static``."""

LANG_COOKIE = "spieltisch_lang"
"""The cookie that keeps a person's chosen language (set by the language switch)."""

_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

router = APIRouter(include_in_schema=False)
"""The page routes; ``create_app`` includes it."""


@cache
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATE_DIR),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def page_language(request: Request) -> str:
    """The viewer's language: ``?lang=``, then the cookie, then ``Accept-Language``."""
    for candidate in (
        request.query_params.get("lang"),
        request.cookies.get(LANG_COOKIE),
    ):
        if candidate and candidate.strip().lower()[:2] in LANGUAGES:
            return normalize_language(candidate)
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGUAGES:
            return tag
    return "en"


@cache
def texts_for(lang: str, part: str = PAGE_PART) -> bytes:
    """The texts of one part (:data:`PAGE_PART` or a game's system id) in ``lang`` as JSON;
    ``KeyError`` for a part that does not exist. A plural entry is the list of its forms in
    the catalog's order (German and English: one, other); the page picks one by ``count``."""
    if part == PAGE_PART:
        wanted = [area for area in areas() if area not in _NOT_IN_PAGES]
    else:
        wanted = [GAME_AREAS[part]]
    lang = normalize_language(lang)
    data: dict[str, str | list[str]] = {}
    for area in wanted:
        data.update(area_catalog(lang, area))
        data.update({key: list(forms) for key, forms in area_plurals(lang, area).items()})
    return json.dumps(data, ensure_ascii=False, sort_keys=True).encode()


@cache
def _version(lang: str, part: str) -> str:
    return hashlib.sha256(texts_for(lang, part)).hexdigest()[:16]


def text_urls(lang: str, root: str = "") -> dict[str, Any]:
    """Where a page fetches its texts: ``page`` and one address per game (``games``)."""

    def url(part: str) -> str:
        return f"{root}/texts/{lang}/{part}.json?v={_version(lang, part)}"

    return {"page": url(PAGE_PART), "games": {game: url(game) for game in GAME_AREAS}}


@router.get("/texts/{lang}/{part}.json", name="texts")
def texts(request: Request, lang: str, part: str) -> Response:
    """One part of the texts in one language; cached for good when asked for by the address
    a page names (its ``v`` is the hash of the content)."""
    if lang not in LANGUAGES or (part != PAGE_PART and part not in GAME_AREAS):
        return Response(status_code=404)
    version = _version(lang, part)
    etag = f'"{version}"'
    cache = (
        "public, max-age=31536000, immutable"
        if request.query_params.get("v") == version
        else "no-cache"
    )
    headers = {"Cache-Control": cache, "ETag": etag, "Content-Language": lang}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(texts_for(lang, part), media_type="application/json", headers=headers)


def _render(name: str, request: Request, lang: str, **context: Any) -> HTMLResponse:
    template = _environment().get_template(name)

    def t(key: str, /, **params: Any) -> str:
        return translate(key, lang, **params)

    root = str(request.scope.get("root_path", ""))
    html = template.render(
        lang=lang,
        languages=LANGUAGES,
        t=t,
        texts=text_urls(lang, root),
        static=root + "/static",
        **context,
    )
    response = HTMLResponse(html)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Content-Language"] = lang
    return response


@router.get("/", response_class=HTMLResponse, name="start_page")
def start_page(request: Request) -> HTMLResponse:
    """The start page: create a table, copy its invite links, list this browser's tables."""
    return _render("start.html", request, page_language(request), page="start", table=None)


@router.get("/t/{table}", response_class=HTMLResponse, name="table_page")
def table_page(request: Request, table: str) -> HTMLResponse:
    """The table page: the game, the live log, the GM's tools (join first with an invite)."""
    lang = page_language(request)
    if not _TABLE_ID.match(table):
        response = _render("start.html", request, lang, page="start", table=None)
        response.status_code = 404
        return response
    return _render("table.html", request, lang, page="table", table=table)


def docs_page(request: Request, openapi_url: str, assets: str) -> HTMLResponse:
    """The interactive API page (Swagger UI) without inline script.

    Swagger UI's files come from ``assets``; ``static/js/docs.js`` starts it on the schema at
    ``openapi_url``, so the page renders under the Content-Security-Policy.
    """
    root = str(request.scope.get("root_path", ""))
    html = (
        _environment()
        .get_template("docs.html")
        .render(openapi_url=root + openapi_url, assets=root + assets, static=root + "/static")
    )
    return HTMLResponse(html)
