"""Map images: real PNG, JPEG and WebP accepted; a renamed text file, an oversized file, a
corrupt PNG and a pixel bomb refused with a clear message; served to the table only, on
SQLite and PostgreSQL."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from asgi_client import TestClient
from spieltisch.store import EventStore
from spieltisch.store.images import MAX_SIDE, check_image, sniff
from spieltisch.web.app import create_app


def picture(fmt: str, size: tuple[int, int] = (40, 30)) -> bytes:
    image = Image.new("RGB", size, (200, 80, 20))
    out = io.BytesIO()
    image.save(out, format=fmt)
    return out.getvalue()


@pytest.fixture
def app_client(database_url: str) -> Iterator[TestClient]:
    store = EventStore(database_url)
    try:
        with TestClient(create_app(store)) as test_client:
            yield test_client
    finally:
        store.close()


def upload(client: TestClient, party: Any, data: bytes, who: dict[str, str] | None = None) -> Any:
    headers = {**(party.gm if who is None else who), "Content-Type": "application/octet-stream"}
    return client.post(f"/api/tables/{party.id}/images", headers=headers, content=data)


@pytest.mark.parametrize(
    ("fmt", "content_type"),
    [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp")],
)
def test_real_images_are_stored_and_served_to_the_table(
    app_client: TestClient, make_party: Any, fmt: str, content_type: str
) -> None:
    party = make_party(app_client, "free-dice")
    data = picture(fmt)
    reply = upload(app_client, party, data)
    assert reply.status_code == 201, reply.text
    body = reply.json()
    assert (body["content_type"], body["width"], body["height"], body["size"]) == (
        content_type,
        40,
        30,
        len(data),
    )
    url = f"/api/tables/{party.id}/images/{body['id']}"
    for who in (party.gm, party.player, party.spectator):
        served = app_client.get(url, headers=who)
        assert served.status_code == 200
        assert served.content == data
        assert served.headers["content-type"] == content_type
        assert served.headers["x-content-type-options"] == "nosniff"
    assert app_client.get(url).status_code == 401
    other = make_party(app_client, "free-dice")
    # Another table's participant gets nothing, even with the right image id.
    assert app_client.get(url, headers=other.gm).status_code == 401
    foreign = app_client.get(f"/api/tables/{other.id}/images/{body['id']}", headers=other.gm)
    assert (foreign.status_code, foreign.json()["error"]["code"]) == (404, "image.unknown")


def test_only_the_gm_uploads(app_client: TestClient, make_party: Any) -> None:
    party = make_party(app_client, "free-dice")
    for who in (party.player, party.spectator):
        reply = upload(app_client, party, picture("PNG"), who)
        assert (reply.status_code, reply.json()["error"]["code"]) == (403, "rule.forbidden")
    assert upload(app_client, party, picture("PNG"), {}).status_code == 401


def test_bad_files_are_refused_with_a_clear_localized_message(
    app_client: TestClient, make_party: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    party = make_party(app_client, "free-dice")
    renamed = b"Just some notes, saved as map.png\n" * 10
    reply = upload(app_client, party, renamed)
    assert (reply.status_code, reply.json()["error"]["code"]) == (422, "image.bad_type")
    assert reply.json()["error"]["message"] == "This is no PNG, JPEG or WebP image."

    png = picture("PNG", (64, 64))
    corrupt = png[:40] + bytes(len(png) - 40)  # the header is right, the data is not
    reply = app_client.post(
        f"/api/tables/{party.id}/images?lang=de",
        headers={**party.gm, "Content-Type": "image/png"},
        content=corrupt,
    )
    assert (reply.status_code, reply.json()["error"]["code"]) == (422, "image.not_decodable")
    assert "beschädigt" in reply.json()["error"]["message"]

    monkeypatch.setenv("SPIELTISCH_IMAGE_MAX_BYTES", "1000")
    big = picture("PNG", (300, 300)) + bytes(2000)
    reply = upload(app_client, party, big)
    assert (reply.status_code, reply.json()["error"]["code"]) == (413, "image.too_big")
    assert "at most 1000 bytes" in reply.json()["error"]["message"]


def test_check_image_refuses_by_magic_bytes_and_by_decoding() -> None:
    assert sniff(picture("PNG")) == "PNG"
    assert sniff(picture("JPEG")) == "JPEG"
    assert sniff(picture("WEBP")) == "WEBP"
    assert sniff(b"GIF89a....") is None
    cases = [
        (b"", "image.empty"),
        (picture("GIF"), "image.bad_type"),
        (b"\x89PNG\r\n\x1a\n" + b"not really", "image.not_decodable"),
        (picture("JPEG")[:200], "image.not_decodable"),  # cut off: header fine, data missing
        (b"\xff\xd8\xff" + picture("PNG")[3:], "image.not_decodable"),  # a JPEG start on a PNG
        (picture("PNG", (MAX_SIDE + 1, 1)), "image.too_large"),
    ]
    for data, code in cases:
        with pytest.raises(Exception) as caught:
            check_image(data, limit=10_000_000)
        assert getattr(caught.value, "code", None) == code, code
    with pytest.raises(Exception) as caught:
        check_image(picture("PNG"), limit=10)
    assert getattr(caught.value, "code", None) == "image.too_big"
    assert check_image(picture("WEBP", (7, 5)), limit=10_000) == ("image/webp", 7, 5)


def test_the_map_refers_to_the_image_by_id(app_client: TestClient, make_party: Any) -> None:
    party = make_party(app_client, "free-dice")
    image = upload(app_client, party, picture("PNG")).json()["id"]
    reply = party.do(party.gm, {"kind": "set_image", "image": image})
    assert reply.status_code == 200, reply.text
    assert party.view(party.player)["state"]["map"]["image"] == image
    refused = party.do(party.player, {"kind": "set_image", "image": None})
    assert refused.status_code == 403
