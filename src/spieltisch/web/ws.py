"""The live WebSocket of a table: catch-up from a sequence number, then every change.

``WS /api/tables/{table_id}/ws?since=n&lang=xx`` (both optional). A page from another origin
is refused (see :func:`spieltisch.web.headers.origin_allowed`), and so is a token in the URL:
the token travels in the client's first message, ``{"type": "auth", "token": "…", "since":
n}`` (``since`` optional, it wins over the query), sent within :data:`AUTH_TIMEOUT` seconds.
Then the client receives one ``records`` message with every record after ``n`` it may see
(possibly none), its whole view (``state``, a snapshot) and who is at the table
(``participants``, as in the message below), the *greeting*; then, as the table changes:

* ``{"type": "records", "records": [...], "seq": n, "base": b, "patch": [...]}`` for new
  records: ``patch`` (RFC 6902) turns the view at ``b``, the last one this connection was
  sent, into the view at ``n`` (a message has ``state`` instead when the patch would be
  longer, or the viewer's pieces changed);
* ``{"type": "undo", "record": {...}, "undoes": m, "seq": n, "base": b, "patch": [...]}``;
* ``{"type": "table", "seq": n, "seed": hex|null, "epochs": [...], "player_seeds": [...]}``
  when an epoch's seed is revealed (and a fresh one committed) or a player seed is added;
* ``{"type": "participants", "participants": [...]}`` when someone joins, leaves or is
  removed (those who left are listed with ``"removed": true``).

A client whose view is not a patch's ``base`` sends ``{"type":"snapshot"}`` and receives a
``records`` message without records and with ``state``. When the connection's own participant
leaves or is removed, it gets an error ``table.removed`` and is closed with 4401, on every
worker.

``seq`` is the table's last sequence number at the time of sending; a client reconnects with
``since`` = the last ``seq`` it received. Hidden records reach only the GM.
Errors arrive as ``{"type": "error", "error": {"code", "message"}}``
followed by a close: 4401 bad token, 4403 foreign origin, 4404 unknown table, 4408 no auth
message in time, 4400 otherwise (a token in the URL, a first message that is no auth).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from spieltisch import safejson
from spieltisch.engine.table import Record
from spieltisch.engine.visibility import Viewer, sees
from spieltisch.errors import SpieltischError, located
from spieltisch.i18n import error_message, normalize_language
from spieltisch.store import EventStore, Participant, StoredTable, TableInfo
from spieltisch.web.api import epochs_public, view_viewer
from spieltisch.web.deps import accepted_language
from spieltisch.web.headers import origin_allowed
from spieltisch.web.live import Broker, Subscription

__all__ = ["AUTH_TIMEOUT", "CLOSE_CODES", "SNAPSHOT", "message_texts", "router", "view_viewer"]

_log = logging.getLogger(__name__)

router = APIRouter()

AUTH_TIMEOUT = 10.0
"""Seconds a new connection may take to send its auth message (``app.state.ws_auth_timeout``)."""

SNAPSHOT = '{"type":"snapshot"}'
"""What a client sends to get its whole view again (after a patch that did not apply)."""

CLOSE_CODES = {
    "table.bad_token": 4401,
    "table.removed": 4401,
    "ws.foreign_origin": 4403,
    "table.unknown": 4404,
    "ws.auth_timeout": 4408,
}
"""The close code after an error (4400 for every other code)."""


def message_texts(
    records: list[Record],
    table: StoredTable,
    viewer: Viewer,
    *,
    always: bool = False,
    base: StoredTable | None = None,
) -> list[str]:
    """The messages (JSON text) announcing ``records`` to ``viewer``.

    Runs of ordinary records become one ``records`` message each, every undo its own
    ``undo`` message. With ``always`` an empty ``records`` message is sent when nothing is
    visible (the greeting after connecting). Each message ends with the view ``viewer`` may
    see at ``table.seq``: the whole view as ``state`` (a snapshot), or, given the ``base``
    table the connection's last message showed, the change against it as ``base`` (that
    table's seq) and ``patch`` (RFC 6902, see :func:`StoredTable.patch_json`). Views,
    patches and record texts are made once per table version and view class
    (:func:`view_viewer`) and shared by every message and connection, and by the HTTP
    answer to the command.
    """
    visible = [r for r in records if sees(viewer, r)]
    seen = view_viewer(table, viewer)
    patch = None
    if base is not None and view_viewer(base, viewer) == seen:
        patch = table.patch_json(base, seen)
    if base is not None and patch is not None:
        tail = f',"seq":{table.seq},"base":{base.seq},"patch":{patch}}}'
    else:
        tail = f',"seq":{table.seq},"state":{table.view_json(seen)}}}'
    texts: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            texts.append('{"type":"records","records":[' + ",".join(run) + "]" + tail)
            run.clear()

    for record in visible:
        if record.undoes is None:
            run.append(table.record_json(record))
            continue
        flush()
        texts.append(
            f'{{"type":"undo","record":{table.record_json(record)},"undoes":{record.undoes}' + tail
        )
    flush()
    if not texts and always:
        texts.append('{"type":"records","records":[]' + tail)
    return texts


_ViewerKey = tuple[str, str | None, frozenset[str]]
_TextsKey = tuple[int, _ViewerKey, _ViewerKey, tuple[int, ...]]
_TEXTS: weakref.WeakKeyDictionary[StoredTable, dict[_TextsKey, list[str]]] = (
    weakref.WeakKeyDictionary()
)


def _texts(
    table: StoredTable, base: StoredTable, viewer: Viewer, base_class: _ViewerKey
) -> tuple[list[str], _ViewerKey]:
    """The messages after ``base`` (the table last sent, in view class ``base_class``: the
    key of ``view_viewer(base, viewer)``), made once per table version, position, view class
    and set of visible records; and the view class they show (the key of
    ``view_viewer(table, viewer)``).

    Cached tables are never changed after they are published, so the connections of a
    table share the same serialized messages (and tables at one seq hold the same log):
    connections whose viewers see the same records and the same views get the very same
    texts, whoever they are.
    """
    per_table = _TEXTS.setdefault(table, {})
    added = table.records[base.seq :]
    visible = tuple(r.seq for r in added if sees(viewer, r))
    shown_class = view_viewer(table, viewer).key
    key = (base.seq, base_class, shown_class, visible)
    texts = per_table.get(key)
    if texts is None:
        texts = message_texts(added, table, viewer, base=base)
        per_table[key] = texts
    return texts, shown_class


def _fair(info: TableInfo) -> tuple[int, int]:
    return len(info.epochs), len(info.player_seeds)


def _table_message(info: TableInfo, table: StoredTable) -> dict[str, Any]:
    return {
        "type": "table",
        "seq": table.seq,
        "seed": info.seed,
        "epochs": [epoch.model_dump() for epoch in epochs_public(info)],
        "player_seeds": [{"start": p.start, "seed": p.seed} for p in info.player_seeds],
    }


def _people(people: list[Participant]) -> list[tuple[str, bool]]:
    """Who is at the table, for noticing a change: ids and whether they left."""
    return [(p.id, p.removed) for p in people]


def _greeting(
    records: list[Record], table: StoredTable, viewer: Viewer, people: list[Participant]
) -> list[str]:
    """The messages a new connection starts with: ``records`` and the whole view (see
    :func:`message_texts`), the last one also naming who is at the table (``participants``),
    so a page learns of someone who joined while it was loading without asking again."""
    texts = message_texts(records, table, viewer, always=True)
    listed = _participants_message(people, table, viewer)["participants"]
    last = texts[-1][:-1] + ',"participants":' + json.dumps(listed, separators=(",", ":")) + "}"
    return [*texts[:-1], last]


def _participants_message(
    people: list[Participant], table: StoredTable, viewer: Viewer
) -> dict[str, Any]:
    owners = table.owners(viewer.role)
    return {
        "type": "participants",
        "participants": [
            {
                "participant": p.id,
                "name": p.name,
                "role": p.role.value,
                "pieces": []
                if p.removed
                else sorted(piece for piece, owner in owners.items() if owner == p.id),
                "removed": p.removed,
            }
            for p in people
        ],
    }


@router.websocket("/api/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str, since: int = 0) -> None:
    """Stream a table's records to one participant (see the module docs)."""
    store: EventStore = websocket.app.state.store
    broker: Broker = websocket.app.state.broker
    await websocket.accept()
    try:
        token, since = await _authentication(websocket, since)
        me = await anyio.to_thread.run_sync(store.authenticate, table_id, token)
    except SpieltischError as error:
        await _refuse(websocket, store, table_id, error)
        return
    except WebSocketDisconnect:
        return
    subscription = broker.subscribe(table_id)
    try:
        info, table = await anyio.to_thread.run_sync(store.snapshot, table_id)
        people = await anyio.to_thread.run_sync(store.participants, table_id)
        sent = max(0, min(since, table.seq))
        actor = me.actor
        shown, seer = table, table.viewer(actor)  # the view this client holds: whose, when
        shown_class = view_viewer(shown, seer).key
        for text in _greeting(table.records[sent:], table, seer, people):
            await websocket.send_text(text)
        fair, known = _fair(info), _people(people)
        reader = asyncio.ensure_future(_read_until_closed(websocket, subscription))
        try:
            while True:
                woke = await subscription.wait()
                if subscription.closed:
                    return
                if subscription.snapshot:
                    subscription.snapshot = False
                    for text in message_texts([], shown, seer, always=True):
                        await websocket.send_text(text)
                if woke is None:
                    continue
                seq, local, joined = woke
                wanted = seq if local and seq >= 0 else None
                peeked = store.peek(table_id, wanted) if wanted is not None else None
                if peeked is None and wanted is None:  # another worker's change: read once
                    peeked = await broker.shared(
                        subscription, lambda: anyio.to_thread.run_sync(store.snapshot, table_id)
                    )
                elif peeked is None:
                    peeked = await anyio.to_thread.run_sync(store.snapshot, table_id, wanted)
                info, table = peeked
                if table.seq < shown.seq:  # a stale cache in a lagging worker: ask again later
                    continue
                viewer = table.viewer(actor)
                if viewer.key == seer.key:
                    texts, now_class = _texts(table, shown, viewer, shown_class)
                else:  # the pieces one owns changed: the whole view again
                    texts = message_texts(table.records[shown.seq :], table, viewer, always=True)
                    now_class = view_viewer(table, viewer).key
                for text in texts:
                    await websocket.send_text(text)
                if texts:
                    shown, seer, shown_class = table, viewer, now_class
                if _fair(info) != fair:
                    fair = _fair(info)
                    await websocket.send_json(_table_message(info, table))
                if joined:
                    people = await anyio.to_thread.run_sync(store.participants, table_id)
                    if not any(p.id == me.id and not p.removed for p in people):
                        await _refuse(websocket, store, table_id, SpieltischError("table.removed"))
                        return
                    if _people(people) != known:
                        known = _people(people)
                        await websocket.send_json(
                            _participants_message(people, table, table.viewer(actor))
                        )
        finally:
            reader.cancel()
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        # Sending to a client that went away raises RuntimeError; with the client still there
        # it is a defect: logged, and the socket closed so that the page reconnects (a socket
        # left open without its handler would wait for messages that never come).
        if websocket.client_state is WebSocketState.CONNECTED:
            _log.exception("the socket of table %s stopped", table_id)
            with contextlib.suppress(Exception):
                await websocket.close(code=1011)
    finally:
        broker.unsubscribe(subscription)


async def _authentication(websocket: WebSocket, since: int) -> tuple[str, int]:
    """The token and ``since`` of a new connection, from its first message.

    Raises a :class:`SpieltischError` for a foreign origin, a token in the URL, a first
    message that is no auth message, or none within the time limit.
    """
    allowed = getattr(websocket.app.state, "allowed_origins", None)
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), allowed):
        raise SpieltischError("ws.foreign_origin", origin=origin)
    if "token" in websocket.query_params:
        raise SpieltischError("ws.token_in_url")
    limit = float(getattr(websocket.app.state, "ws_auth_timeout", AUTH_TIMEOUT))
    try:
        with anyio.fail_after(limit):
            text = await websocket.receive_text()
    except TimeoutError:
        raise SpieltischError("ws.auth_timeout", seconds=limit) from None
    except KeyError:  # a binary frame: no "text" in the message
        raise SpieltischError("ws.auth_expected") from None
    try:
        message = safejson.loads(text)
    except ValueError:  # not JSON, too deep, a number too long (JsonLimitError is one too)
        message = None
    token = message.get("token") if isinstance(message, dict) else None
    if not isinstance(message, dict) or message.get("type") != "auth" or not isinstance(token, str):
        raise SpieltischError("ws.auth_expected")
    wanted = message.get("since", since)
    if isinstance(wanted, bool) or not isinstance(wanted, int):
        raise SpieltischError("ws.auth_expected")
    return token, wanted


async def _read_until_closed(websocket: WebSocket, subscription: Subscription) -> None:
    """Answer pings, note asks for a snapshot, and mark the subscription closed when the
    client disconnects (each wakes the connection's one wait, :meth:`Subscription.poke`)."""
    try:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                text = await websocket.receive_text()
                if text == "ping":
                    await websocket.send_text("pong")
                elif text == SNAPSHOT:
                    subscription.snapshot = True
                    subscription.poke()
    finally:
        subscription.closed = True
        subscription.poke()


async def _refuse(
    websocket: WebSocket, store: EventStore, table_id: str, error: SpieltischError
) -> None:
    lang = websocket.query_params.get("lang")
    info = store.cached_info(table_id)  # from memory only: this runs on the event loop
    if lang:
        lang = normalize_language(lang)
    elif info is not None:
        lang = info.language
    else:
        lang = accepted_language(websocket.headers.get("accept-language")) or "en"
    await websocket.send_json(
        {
            "type": "error",
            "error": {"code": error.code, "message": error_message(error, lang), **located(error)},
        }
    )
    await websocket.close(code=CLOSE_CODES.get(error.code, 4400))
