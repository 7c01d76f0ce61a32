"""Request dependencies: the store, the caller's language and the authenticated participant."""

from __future__ import annotations

from typing import Annotated

import anyio
from fastapi import Depends, Header, Request
from fastapi.security.utils import get_authorization_scheme_param

from spieltisch.i18n import LANGUAGES, normalize_language
from spieltisch.store import EventStore, Participant, StoreError

__all__ = [
    "CurrentParticipant",
    "StoreDep",
    "bearer_token",
    "current_participant",
    "get_store",
    "request_language",
]


async def get_store(request: Request) -> EventStore:
    """The application's event store (async: no thread hop for a lookup)."""
    store: EventStore = request.app.state.store
    return store


StoreDep = Annotated[EventStore, Depends(get_store)]


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header."""
    if not authorization:
        return None
    scheme, token = get_authorization_scheme_param(authorization)
    return token if scheme.lower() == "bearer" and token else None


async def current_participant(
    table_id: str,
    store: StoreDep,
    authorization: Annotated[str | None, Header()] = None,
) -> Participant:
    """The participant whose bearer token the request carries (401 without a valid one).

    A token of a table this process holds in memory is checked right here
    (:meth:`EventStore.authenticate_cached`, the same constant-time comparison); anything
    else (a table not in memory, an unknown token, someone who joined through another
    worker) goes to :meth:`EventStore.authenticate` in a thread, since it reads the database.
    """
    token = bearer_token(authorization)
    if token is not None:
        known = store.authenticate_cached(table_id, token)
        if known is not None:
            return known
    return await anyio.to_thread.run_sync(_authenticate, store, table_id, token)


def _authenticate(store: EventStore, table_id: str, token: str | None) -> Participant:
    if token is None:
        store.info(table_id)  # an unknown table is a 404 before a missing token is a 401
        raise StoreError("table.bad_token", table=table_id)
    return store.authenticate(table_id, token)


CurrentParticipant = Annotated[Participant, Depends(current_participant)]


def accepted_language(header: str | None) -> str | None:
    """The first supported language of an ``Accept-Language`` header, by preference."""
    if not header:
        return None
    choices: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        short = tag.strip().lower()[:2]
        if short in LANGUAGES and quality > 0:
            choices.append((-quality, position, short))
    return min(choices)[2] if choices else None


def request_language(request: Request) -> str:
    """``?lang=``, else the table's language, else ``Accept-Language``, else English.

    Runs on the event loop (also in the error handlers), so it never touches the database.
    """
    explicit = request.query_params.get("lang")
    if explicit:
        return normalize_language(explicit)
    table_id = request.path_params.get("table_id")
    store: EventStore | None = getattr(request.app.state, "store", None)
    if table_id and store is not None:
        # Only from memory: this runs on the event loop. Every table route has loaded the
        # table (authentication does) before it can fail for a reason worth translating.
        info = store.cached_info(str(table_id))
        if info is not None:
            return info.language
    return accepted_language(request.headers.get("accept-language")) or "en"
