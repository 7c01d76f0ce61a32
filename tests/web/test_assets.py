"""The pages' files served from memory (``web/assets.py``): bytes, media types, compression,
ETags, an edited file served anew, and nothing outside the folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.routing import Mount

from asgi_client import TestClient
from spieltisch.web.assets import Assets

STATIC = Path(__file__).resolve().parents[2] / "src" / "spieltisch" / "web" / "static"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("assets")
    (root / "js").mkdir()
    (root / "js" / "a.js").write_text("export const a = 1;\n" * 200)
    (root / "style.css").write_text("body { margin: 0 }\n")
    (root / "icon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (root.parent / "secret.txt").write_text("outside")
    (root / "out.txt").symlink_to(root.parent / "secret.txt")
    return root


@pytest.fixture(scope="module")
def client(folder: Path) -> Iterator[TestClient]:
    app = Starlette(routes=[Mount("/static", Assets(folder))])
    with TestClient(app) as test_client:
        yield test_client


def test_files_come_with_their_bytes_type_and_compression(client: TestClient, folder: Path) -> None:
    for name, media_type in (
        ("js/a.js", "text/javascript"),
        ("style.css", "text/css"),
        ("icon.svg", "image/svg+xml"),
    ):
        plain = client.get("/static/" + name, headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200, name
        assert plain.headers["content-type"].startswith(media_type), name
        assert plain.content == (folder / name).read_bytes()
        assert "content-encoding" not in plain.headers
        assert plain.headers["cache-control"] == "no-cache"
    packed = client.get("/static/js/a.js", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len((folder / "js" / "a.js").read_bytes())
    assert packed.content == (folder / "js" / "a.js").read_bytes()  # unpacked by the client
    assert packed.headers["vary"] == "Accept-Encoding"


def test_an_etag_gets_304_and_an_edited_file_is_served_anew(
    client: TestClient, folder: Path
) -> None:
    path = folder / "js" / "edited.js"
    path.write_text("export const v = 1;\n")
    first = client.get("/static/js/edited.js")
    etag = first.headers["etag"]
    again = client.get("/static/js/edited.js", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    path.write_text("export const v = 22;\n")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    edited = client.get("/static/js/edited.js", headers={"If-None-Match": etag})
    assert edited.status_code == 200
    assert edited.text == "export const v = 22;\n"
    assert edited.headers["etag"] != etag


def test_head_and_other_methods(client: TestClient, folder: Path) -> None:
    head = client.head("/static/style.css", headers={"Accept-Encoding": "identity"})
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == (folder / "style.css").stat().st_size
    posted = client.post("/static/style.css")
    assert posted.status_code == 405
    assert posted.headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize(
    "path",
    [
        "/static/../secret.txt",
        "/static/js/../../secret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/out.txt",  # a link leading out of the folder
        "/static/js",
        "/static/js/",
        "/static/",
        "/static/js\\a.js",
        "/static/js//a.js",
        "/static/%2e/style.css",
        "/static/nope.js",
    ],
)
def test_nothing_outside_the_folder_or_beside_a_file_is_found(
    client: TestClient, path: str
) -> None:
    answer = client.get(path)
    assert answer.status_code == 404, (path, answer.status_code)
    assert b"outside" not in answer.content


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet="ajs./\\%2e_-", max_size=24))
def test_any_path_is_a_file_of_the_folder_or_not_found(
    client: TestClient, folder: Path, name: str
) -> None:
    answer = client.get("/static/" + name, headers={"Accept-Encoding": "identity"})
    assert answer.status_code in (200, 404), (name, answer.status_code)
    if answer.status_code == 200:
        served = folder / unquote(answer.url.path.removeprefix("/static/"))
        assert served.resolve().is_relative_to(folder.resolve())
        assert answer.content == served.read_bytes()


def test_the_application_serves_its_own_files(tmp_path: Path) -> None:
    """The real application answers every file of its static folder with its bytes."""
    from spieltisch.web.app import create_app

    with TestClient(create_app(db_path=str(tmp_path / "t.sqlite3"))) as app_client:
        files = [p for p in STATIC.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        assert files
        for path in files:
            name = path.relative_to(STATIC).as_posix()
            answer = app_client.get("/static/" + name, headers={"Accept-Encoding": "gzip"})
            assert answer.status_code == 200, name
            assert answer.content == path.read_bytes(), name
