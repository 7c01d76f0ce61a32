"""The page routes: the HTML shells, the language choice, the catalog handed to the scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from asgi_client import TestClient
from spieltisch.i18n import LANGUAGES, area_catalog, catalog
from spieltisch.web import pages
from spieltisch.web.app import create_app

WEB = Path(pages.__file__).parent
KEY = re.compile(r"""\bt\(\s*["'](web\.[A-Za-z0-9_.-]*[A-Za-z0-9-])["']""")
FAMILIES = {
    "web.role.": ("gm", "player", "spectator"),
    "web.conn.": ("live", "off", "connecting"),
    "web.join.about_": ("player", "spectator"),
    "web.dnd5e.ev.attack_": ("hit", "critical", "miss"),
    "web.dnd5e.ev.death_": ("revived", "fumbled", "saved", "failed"),
    "web.kitties.tier.": ("0", "1", "2", "3", "4"),
    "web.kitties.tier_short.": ("0", "1", "2", "3", "4"),
    "web.kitties.attr.": ("cute", "cunning", "fierce"),
    "web.kitties.difficulty.": ("3", "4", "5", "6"),
    "web.kitties.menu.": ("complication", "bonus", "super_bonus"),
    "web.kitties.menu_waits.": ("gm", "player"),
    "web.kilkenny.seat.": ("S", "W", "N", "E"),
    "web.dice.kind.": ("hexxen", "janus", "blood", "elixir", "blessing"),
    "web.dice.symbol.": ("successes", "stars", "drops", "janus"),
    "web.invite.": ("player", "spectator"),
    "web.lang.": ("de", "en"),
    "web.hexxen.attr.": ("KKR", "ATH", "GES", "SIN", "WIS", "WIL"),
    "web.hexxen.defense.": ("none", "parry", "dodge"),
    "web.hexxen.effect.": ("outer_damage", "inner_damage", "malus", "paralysis", "lep"),
    "web.hexxen.resource.": ("ideen", "coups", "esprit"),
    "web.hexxen.janus_": ("bonus", "malus"),
    "web.hexxen.die.": ("blood", "elixir"),
    "web.hexxen.trait.": ("heal", "attack_dice", "immune", "check_bonus", "hex_growth", "shown"),
    "web.dnd5e.cover.": ("half", "three_quarters", "total"),
    "web.dnd5e.until.": ("turn_start", "turn_end", "rounds", "save"),
    "web.dnd5e.ended.": ("duration", "save"),
}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    app = create_app(db_path=str(tmp_path / "pages.sqlite"))
    return TestClient(app)


def _page(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="page">(.*?)</script>', html, re.S)
    assert match, "the page carries no page data"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def _texts(client: TestClient, html: str) -> dict[str, str]:
    response = client.get(_page(html)["texts"]["page"])
    assert response.status_code == 200
    data: dict[str, str] = response.json()
    return data


def test_start_page_renders_in_the_chosen_language(client: TestClient) -> None:
    english = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert english.status_code == 200
    assert '<html lang="en">' in english.text
    assert _texts(client, english.text)["web.start.new"] == catalog("en")["web.start.new"]
    german = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="de">' in german.text
    assert catalog("de")["web.start.new"] in german.text


def test_query_beats_cookie_beats_header(client: TestClient) -> None:
    client.cookies.set(pages.LANG_COOKIE, "de")
    assert '<html lang="de">' in client.get("/", headers={"Accept-Language": "en"}).text
    assert '<html lang="en">' in client.get("/?lang=en").text
    client.cookies.set(pages.LANG_COOKIE, "fr")
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "fr"}).text


def test_table_page_and_a_bad_table_id(client: TestClient) -> None:
    page = client.get("/t/abc_DEF-123")
    assert page.status_code == 200
    assert '"table": "abc_DEF-123"' in page.text
    assert "/static/js/table.js" in page.text
    assert client.get("/t/" + "x" * 65).status_code == 404


def test_pages_carry_no_catalog_and_fetch_their_texts_as_cacheable_files(
    client: TestClient,
) -> None:
    html = client.get("/t/abc?lang=de").text
    assert len(html.encode()) < 8_000  # the shell only: no catalog inside
    urls = _page(html)["texts"]
    assert set(urls["games"]) == set(pages.GAME_AREAS)
    page = client.get(urls["page"])
    assert page.headers["cache-control"] == "public, max-age=31536000, immutable"
    texts = page.json()
    assert texts["web.start.new"] == catalog("de")["web.start.new"]
    assert not set(area_catalog("de", "cli")) & set(texts)
    assert not set(area_catalog("de", "dnd5e")) & set(texts)  # each game's come with it
    game = client.get(urls["games"]["dnd5e"]).json()
    assert any(key.startswith("dnd5e.") for key in game)
    assert set(texts) | set(game) <= set(catalog("de"))
    # Asked for without the content's hash, a part is revalidated; the ETag answers 304.
    again = client.get(urls["page"].split("?")[0])
    assert again.headers["cache-control"] == "no-cache"
    etag = again.headers["etag"]
    assert client.get(urls["page"], headers={"If-None-Match": etag}).status_code == 304
    assert client.get("/texts/fr/page.json").status_code == 404
    assert client.get("/texts/de/nope.json").status_code == 404


def test_static_files_are_served(client: TestClient) -> None:
    for name in ("js/core.js", "js/table.js", "js/start.js", "css/spieltisch.css"):
        response = client.get("/static/" + name)
        assert response.status_code == 200, name


def test_every_module_the_scripts_import_exists() -> None:
    scripts = sorted((WEB / "static" / "js").rglob("*.js"))
    assert any(script.parent.parent.name == "games" for script in scripts)
    for script in scripts:
        for target in re.findall(r"""from\s+["'](\.\.?/[\w./-]+)["']""", script.read_text()):
            assert (script.parent / target).resolve().is_file(), f"{script} imports {target}"
    for game in ("free-dice", "kilkenny", "magical-kitties", "hexxen"):  # loaded by system id
        assert (WEB / "static" / "js" / "games" / game / "index.js").is_file(), game


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_literal_text_key_exists(lang: str) -> None:
    texts = catalog(lang)
    sources = [*(WEB / "static" / "js").rglob("*.js"), *(WEB / "templates").glob("*.html")]
    used = {key for path in sources for key in KEY.findall(path.read_text())}
    assert len(used) > 100
    used |= {prefix + name for prefix, names in FAMILIES.items() for name in names}
    missing = sorted(key for key in used if key not in texts)
    assert not missing, missing


@pytest.mark.parametrize("lang", ["de", "en"])
def test_each_script_finds_its_keys_in_the_texts_it_gets(lang: str) -> None:
    """A shared script uses the page's texts only; a game's scripts also their game's."""
    page = set(json.loads(pages.texts_for(lang)))
    games = WEB / "static" / "js" / "games"
    for path in (WEB / "static" / "js").rglob("*.js"):
        keys = set(KEY.findall(path.read_text()))
        given = set(page)
        if games in path.parents:
            game = path.relative_to(games).parts[0]
            given |= set(json.loads(pages.texts_for(lang, game)))
        missing = sorted(key for key in keys if key in catalog(lang) and key not in given)
        assert not missing, (path.name, missing)


def test_api_docs_need_no_internet(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "https://" not in page.text  # nothing from a CDN: /docs works offline
    assets = re.findall(r"""(?:src|href)=["'](/[^"']+)["']""", page.text)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert "/api/tables" in client.get("/openapi.json").json()["paths"]
    assert client.get("/redoc").status_code == 404  # the CDN-bound ReDoc page is off


def test_text_answers_are_compressed_for_a_browser_that_accepts_it(client: TestClient) -> None:
    for url in ("/static/js/table.js", "/static/css/spieltisch.css", "/texts/de/page.json"):
        packed = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert packed.headers.get("content-encoding") == "gzip", url
        plain = client.get(url, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert packed.content == plain.content  # the client unpacked it: the same bytes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_option_has_a_label(client: TestClient, lang: str) -> None:
    """The start page names every option in words, never by its field name ("Max Pool")."""
    texts = json.loads(pages.texts_for(lang))
    missing = [
        f"{system['id']}.{name}"
        for system in client.get("/api/systems").json()
        for name in (system.get("options") or {}).get("properties", {})
        if f"web.option.{system['id']}.{name}" not in texts and f"web.option.{name}" not in texts
    ]
    assert not missing, missing
