"""The pages of the web table: the start page and the table page.

The routes are thin: they pick the viewer's language, render a small HTML shell from the
templates and hand the catalog of that language to the JavaScript modules as one JSON blob.
Everything else (tables, commands, the live log) goes through the JSON API and the WebSocket.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from spieltisch.i18n import LANGUAGES, catalog, normalize_language, translate

__all__ = [
    "LANG_COOKIE",
    "STATIC_DIR",
    "TEMPLATE_DIR",
    "docs_page",
    "page_language",
    "router",
    "texts_for",
]

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
def texts_for(lang: str) -> str:
    """The whole catalog of ``lang`` as JSON, safe to embed in a ``<script>`` element."""
    data = dict(catalog(normalize_language(lang)))
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    # Never let a text close the script element or open a comment.
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _render(name: str, request: Request, lang: str, **context: Any) -> HTMLResponse:
    template = _environment().get_template(name)

    def t(key: str, /, **params: Any) -> str:
        return translate(key, lang, **params)

    html = template.render(
        lang=lang,
        languages=LANGUAGES,
        t=t,
        texts=texts_for(lang),
        static=str(request.scope.get("root_path", "")) + "/static",
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
