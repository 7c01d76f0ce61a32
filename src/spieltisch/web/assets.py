"""The pages' own files (scripts, style sheet, icon) served from memory, compressed once.

A table page loads some twenty of them. Read from the disk for every request (in the thread
pool, chunk by chunk) and compressed again by the gzip middleware each time, they cost the
server more than the page's own answers. :class:`Assets` keeps each file's bytes, their gzip
form and an ETag in memory, made when the file is first asked for and made again when its size
or modification time changed, so an edited file is served as it is now. A browser that sends
the ETag back gets 304. Only files inside the folder are served (a path with ``..`` or a
backslash, or one leading out through a link, is not found); GET and HEAD only.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

__all__ = ["Assets"]

_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
"""Media types that must not depend on the machine's MIME table (a module script is refused
by browsers unless it is served as JavaScript)."""


@dataclass(frozen=True)
class _Asset:
    """One file as served: its bytes, their gzip form (None where that is not smaller), its
    media type and ETag, and the size and modification time they were read at."""

    body: bytes
    packed: bytes | None
    media_type: str
    etag: str
    stamp: tuple[int, int]


def _read(path: Path, stamp: tuple[int, int]) -> _Asset:
    body = path.read_bytes()
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    media_type = _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
    return _Asset(
        body=body,
        packed=packed if len(packed) < len(body) else None,
        media_type=media_type or "application/octet-stream",
        etag='"' + hashlib.sha256(body).hexdigest()[:16] + '"',
        stamp=stamp,
    )


class Assets:
    """An ASGI app serving the files under ``directory`` from memory (see the module)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory.resolve()
        self._files: dict[str, _Asset] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a GET or HEAD with the file the path names (404 for any other)."""
        if scope["type"] != "http":
            raise HTTPException(status_code=404)
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(status_code=405, headers={"Allow": "GET, HEAD"})
        asset = self._asset(_route_path(scope))
        if asset is None:
            raise HTTPException(status_code=404)
        asked = Headers(scope=scope)
        headers = {"ETag": asset.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if asset.etag in asked.get("if-none-match", ""):
            await Response(status_code=304, headers=headers)(scope, receive, send)
            return
        body = asset.body
        if asset.packed is not None and "gzip" in asked.get("accept-encoding", ""):
            body, headers["Content-Encoding"] = asset.packed, "gzip"
        headers["Content-Length"] = str(len(body))
        if scope["method"] == "HEAD":
            body = b""
        await Response(body, media_type=asset.media_type, headers=headers)(scope, receive, send)

    def _asset(self, name: str) -> _Asset | None:
        """The file ``name`` (relative, ``/``-separated) as served now; None if there is none."""
        parts = name.strip("/").split("/")
        if not name or any(part in ("", ".", "..") or "\\" in part for part in parts):
            return None
        path = self.directory.joinpath(*parts)
        try:
            found = os.stat(path)
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(found.st_mode) or not path.resolve().is_relative_to(self.directory):
            return None
        stamp = (found.st_size, found.st_mtime_ns)
        known = self._files.get(name)
        if known is None or known.stamp != stamp:
            known = self._files[name] = _read(path, stamp)
        return known


def _route_path(scope: Scope) -> str:
    """The path below the mount point (``scope["root_path"]`` ends with it)."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path
