"""Images of a table: the GM uploads a map background, participants fetch it with their token.

The page's CSP allows images only from ``self``, ``data:`` and ``blob:``, and an image needs
the bearer token, so the page fetches it with ``fetch`` and shows it as a blob URL. Uploads
are the raw bytes as the request body (no form encoding), read up to the limit and checked by
:func:`spieltisch.store.images.check_image`.
"""

from __future__ import annotations

from typing import Any

import anyio
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from spieltisch.store.images import image_limit, load_image, save_image
from spieltisch.store.types import StoreError
from spieltisch.web.deps import CurrentParticipant, StoreDep, bearer_token

__all__ = ["ImageCreated", "router"]

router = APIRouter(prefix="/api", tags=["images"])


class ImageCreated(BaseModel):
    """An accepted image: its id (for ``set_image``), content type and size in pixels."""

    id: str
    content_type: str
    width: int
    height: int
    size: int


async def _body(request: Request, limit: int) -> bytes:
    """The request body, refused as ``image.too_big`` once it passes ``limit``."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise StoreError("image.too_big", size=size, limit=limit)
        chunks.append(chunk)
    return b"".join(chunks)


@router.post("/tables/{table_id}/images", response_model=ImageCreated, status_code=201)
async def upload_image(table_id: str, request: Request, store: StoreDep) -> ImageCreated:
    """Upload a PNG, JPEG or WebP image (the raw bytes as the body); the table's GM only."""
    token = bearer_token(request.headers.get("authorization"))

    def who() -> Any:
        if token is None:
            store.info(table_id)
            raise StoreError("table.bad_token", table=table_id)
        return store.authenticate(table_id, token)

    me = await anyio.to_thread.run_sync(who)
    data = await _body(request, image_limit())
    info = await anyio.to_thread.run_sync(lambda: save_image(store, table_id, me, data))
    return ImageCreated(**info.__dict__)


@router.get(
    "/tables/{table_id}/images/{image_id}",
    response_class=Response,
    responses={200: {"content": {"image/png": {}, "image/jpeg": {}, "image/webp": {}}}},
)
def get_image(table_id: str, image_id: str, me: CurrentParticipant, store: StoreDep) -> Response:
    """An image of the table, for its participants (bearer token), never sniffed."""
    image = load_image(store, table_id, image_id)
    return Response(
        content=image.data,
        media_type=image.content_type,
        headers={"X-Content-Type-Options": "nosniff"},
    )
