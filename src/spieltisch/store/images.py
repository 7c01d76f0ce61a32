"""Images of a table (battle-map backgrounds): checked, decoded, stored, served.

An upload is accepted only if it is PNG, JPEG or WebP by its magic bytes *and* Pillow decodes
it completely as that same format, within a size limit (:data:`MAX_BYTES` by default,
``SPIELTISCH_IMAGE_MAX_BYTES`` to change it) and a bound on its sides (:data:`MAX_SIDE`).
Only the GM uploads; every participant of the table reads them. The bytes are stored as
uploaded, in the ``images`` table (SQLite and PostgreSQL alike).
"""

from __future__ import annotations

import io
import os
import secrets
import warnings
from dataclasses import dataclass

from PIL import Image, UnidentifiedImageError
from sqlalchemy import insert, select
from sqlalchemy.engine import Connection

from spieltisch.engine.visibility import Role
from spieltisch.store.events import EventStore
from spieltisch.store.models import ImageRow
from spieltisch.store.types import Participant, StoreError

__all__ = [
    "MAX_BYTES",
    "MAX_SIDE",
    "TYPES",
    "ImageInfo",
    "StoredImage",
    "check_image",
    "image_limit",
    "load_image",
    "save_image",
    "sniff",
]

MAX_BYTES = 5 * 1024 * 1024
"""Largest upload by default (5 MiB)."""
MAX_SIDE = 8000
"""Longest side of an image in pixels."""
LIMIT_VARIABLE = "SPIELTISCH_IMAGE_MAX_BYTES"

TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp"}
"""Pillow's format name → the content type it is served with."""


def image_limit() -> int:
    """The upload limit in bytes: ``SPIELTISCH_IMAGE_MAX_BYTES`` if set, else :data:`MAX_BYTES`."""
    value = os.environ.get(LIMIT_VARIABLE, "")
    return int(value) if value.isdigit() and int(value) > 0 else MAX_BYTES


@dataclass(frozen=True)
class ImageInfo:
    """What an accepted image is: its id, content type, pixel size and bytes."""

    id: str
    content_type: str
    width: int
    height: int
    size: int


@dataclass(frozen=True)
class StoredImage:
    """An image as served: its content type and bytes."""

    content_type: str
    data: bytes


def sniff(data: bytes) -> str | None:
    """The format the magic bytes announce (``PNG``, ``JPEG``, ``WEBP``), else None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


def check_image(data: bytes, limit: int | None = None) -> tuple[str, int, int]:
    """Check an upload; its content type, width and height.

    Raises ``image.empty``, ``image.too_big`` (size, limit), ``image.bad_type`` (not PNG,
    JPEG or WebP by its first bytes), ``image.not_decodable`` (the bytes do not decode as
    that format) and ``image.too_large`` (width, height, max).
    """
    limit = image_limit() if limit is None else limit
    if not data:
        raise StoreError("image.empty")
    if len(data) > limit:
        raise StoreError("image.too_big", size=len(data), limit=limit)
    announced = sniff(data)
    if announced is None:
        raise StoreError("image.bad_type")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[announced]) as probe:
                width, height = probe.size
                if max(width, height) > MAX_SIDE:
                    raise StoreError("image.too_large", width=width, height=height, max=MAX_SIDE)
                probe.verify()
            with Image.open(io.BytesIO(data), formats=[announced]) as image:
                image.load()
                fmt = image.format
    except StoreError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombWarning, Exception):
        # Pillow reports broken data with many exception types; each means "not decodable".
        raise StoreError("image.not_decodable") from None
    if fmt != announced:
        raise StoreError("image.not_decodable")
    return TYPES[announced], width, height


def save_image(store: EventStore, table_id: str, by: Participant, data: bytes) -> ImageInfo:
    """Store an image for ``table_id``; only its GM may (``rule.forbidden``)."""
    store.info(table_id)
    if by.role is not Role.GM:
        raise StoreError("rule.forbidden", action="upload_image")
    content_type, width, height = check_image(data)
    info = ImageInfo(
        id=secrets.token_urlsafe(12),
        content_type=content_type,
        width=width,
        height=height,
        size=len(data),
    )

    def work(conn: Connection) -> ImageInfo:
        conn.execute(
            insert(ImageRow).values(
                id=info.id,
                table_id=table_id,
                content_type=info.content_type,
                width=width,
                height=height,
                size=info.size,
                data=data,
            )
        )
        return info

    return store.writes.run(table_id, work)


def load_image(store: EventStore, table_id: str, image_id: str) -> StoredImage:
    """An image of ``table_id``; ``image.unknown`` if that table has none by this id."""
    with store.engine.connect() as conn:
        row = conn.execute(
            select(ImageRow.content_type, ImageRow.data).where(
                ImageRow.id == image_id, ImageRow.table_id == table_id
            )
        ).first()
    if row is None:
        raise StoreError("image.unknown", image=image_id)
    return StoredImage(content_type=row[0], data=bytes(row[1]))
