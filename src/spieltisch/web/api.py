"""The HTTP routes of the table API: thin wrappers around :class:`EventStore`.

Every route authenticates with ``Authorization: Bearer <token>`` (except creating, joining and
importing tables, and listing systems); errors are raised as :class:`SpieltischError` and
turned into ``{"error": {"code", "message"}}`` by the handlers in :mod:`spieltisch.web.app`.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Query, Request, Response

from spieltisch.engine.chat import is_chat_command
from spieltisch.engine.system import Odds, parse_command
from spieltisch.engine.table import Record
from spieltisch.engine.visibility import Role, Viewer, sees
from spieltisch.errors import SpieltischError
from spieltisch.i18n import error_message
from spieltisch.store import Participant, StoredTable, TableInfo
from spieltisch.systems.registry import get_system, system_ids
from spieltisch.web.deps import CurrentParticipant, StoreDep, request_language
from spieltisch.web.limits import SafeJsonRoute, parse_import, rate_limit, read_body
from spieltisch.web.schemas import (
    CheckError,
    CheckRequest,
    CheckResponse,
    CheckResult,
    CommandRequest,
    CommandResponse,
    EpochPublic,
    ErrorResponse,
    ImportedParticipant,
    ImportResponse,
    Invitation,
    InvitationRequest,
    Invites,
    JoinRequest,
    JoinResponse,
    OddsRequest,
    ParticipantPublic,
    PlayerSeedPublic,
    PlayerSeedRequest,
    PlayerSeedResponse,
    RecordsResponse,
    RevealResponse,
    SystemPublic,
    TableCreate,
    TableCreated,
    TableView,
    UndoRequest,
    UndoResponse,
)
from spieltisch.web.workers import Workers, odds_in_pool

MAX_PAGE = 500
"""The most records one page of ``GET /api/tables/{id}/records`` may ask for (``limit``)."""

__all__ = ["MAX_PAGE", "epochs_public", "router", "table_view", "view_viewer"]

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse} for status in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}

router = APIRouter(prefix="/api", responses=_ERRORS, route_class=SafeJsonRoute)


async def _workers(request: Request) -> Workers | None:
    workers: Workers | None = request.app.state.workers
    return workers


WorkersDep = Annotated[Workers | None, Depends(_workers)]


def view_viewer(table: StoredTable, viewer: Viewer) -> Viewer:
    """The viewer whose view of ``table`` ``viewer`` is sent: ``viewer`` itself, or the one
    the game system names as seeing the same (its optional ``view_viewer(state, viewer)``,
    e.g. a player without its id when the view reads nothing by it), so that everyone of one
    view class shares one view, one patch and one message. A player with a fold of their
    own (:attr:`StoredTable.private_folds`) keeps theirs."""
    if viewer.is_gm or viewer.participant in table.private_folds:
        return viewer
    narrow = getattr(table.system, "view_viewer", None)
    if narrow is None:
        return viewer
    same: Viewer = narrow(table.state_for(viewer), viewer)
    return same


def _state(table: StoredTable, me: Participant) -> dict[str, Any]:
    return table.view(view_viewer(table, table.viewer(me.actor)))


def _written(
    table: StoredTable, me: Participant, records: list[Record], **first: Record
) -> Response:
    """The answer to a write (:class:`CommandResponse`, or :class:`UndoResponse` with its
    ``record`` in ``first``) built from the texts the WebSocket fan-out sends too: each
    record and ``me``'s view of the state are serialized once per table version
    (:meth:`StoredTable.record_json`, :meth:`StoredTable.view_json`), not once more here.
    The view is that of ``me``'s view class (:func:`view_viewer`), the one its connections
    are sent: a player's answer does not encode a view of its own."""
    head = "".join(f'"{name}":{table.record_json(r)},' for name, r in first.items())
    listed = ",".join(table.record_json(r) for r in records)
    state = table.view_json(view_viewer(table, table.viewer(me.actor)))
    body = f'{{{head}"records":[{listed}],"seq":{table.seq},"state":{state}}}'
    return Response(body.encode(), media_type="application/json")


def _pieces(table: StoredTable, me: Participant) -> dict[str, list[str]]:
    """Participant → the pieces ``me`` may know they own (no piece of a hidden record)."""
    pieces: dict[str, list[str]] = {}
    for piece, owner in table.owners(me.role).items():
        pieces.setdefault(owner, []).append(piece)
    return pieces


def epochs_public(info: TableInfo) -> list[EpochPublic]:
    """The table's epochs as the API shows them (every seed revealed so far, no secret)."""
    epochs = info.epochs
    return [
        EpochPublic(
            number=number + 1,
            start=epoch.start,
            end=epochs[number + 1].start if number + 1 < len(epochs) else None,
            commitment=epoch.commitment,
            seed=epoch.seed,
            chain=epoch.chain,
        )
        for number, epoch in enumerate(epochs)
    ]


def table_view(
    info: TableInfo, table: StoredTable, me: Participant, people: list[Participant]
) -> TableView:
    """The table as ``me`` sees it."""
    pieces = _pieces(table, me)

    def public(person: Participant) -> ParticipantPublic:
        return ParticipantPublic(
            participant=person.id,
            name=person.name,
            role=person.role.value,
            pieces=[] if person.removed else sorted(pieces.get(person.id, [])),
            removed=person.removed,
        )

    return TableView(
        table=info.id,
        system=info.system,
        title=info.title,
        language=info.language,
        options=info.options,
        seq=table.seq,
        commitment=info.commitment,
        seed=info.seed,
        epochs=epochs_public(info),
        player_seeds=[PlayerSeedPublic(start=p.start, seed=p.seed) for p in info.player_seeds],
        me=public(me),
        participants=[public(person) for person in people],
        state=_state(table, me),
    )


@router.get("/systems", response_model=list[SystemPublic])
def list_systems() -> list[SystemPublic]:
    """The game systems a table can play, with the JSON Schema of their commands."""
    return [one_system(system_id) for system_id in system_ids()]


@router.get("/systems/{system_id}", response_model=SystemPublic)
def one_system(system_id: str) -> SystemPublic:
    """One game system (what a table page needs of its game: the forms built from its
    command schemas); an unknown id is refused naming the known ones."""
    return _described(system_id, type(get_system(system_id)))


@functools.lru_cache(maxsize=64)
def _described(system_id: str, kind: type[Any]) -> SystemPublic:
    """What :func:`one_system` answers for the system of class ``kind`` registered as
    ``system_id``: made once, as a system's schemas never change (making them cost the server
    several milliseconds each time a table page opened; a system registered anew under the same
    id is another class, described anew)."""
    system = get_system(system_id)
    return SystemPublic(
        id=system_id,
        commands=system.commands.json_schema(),
        options=system.options.json_schema(),
        meta=getattr(system, "meta", {}),
    )


@router.post(
    "/tables", response_model=TableCreated, status_code=201, dependencies=[rate_limit("create")]
)
def create_table(body: TableCreate, store: StoreDep) -> TableCreated:
    """Open a table. The response holds the GM's token and the invite codes: keep them."""
    created = store.create_table(
        body.system, language=body.language, title=body.title, options=body.options, name=body.name
    )
    return TableCreated(
        table=created.table,
        token=created.token,
        participant=created.participant,
        invites=Invites(**created.invites),
        commitment=created.commitment,
    )


@router.post(
    "/tables/import",
    response_model=ImportResponse,
    status_code=201,
    dependencies=[rate_limit("imports")],
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def import_table(request: Request, store: StoreDep) -> ImportResponse:
    """A new table from an export file: same log and dice, new id and tokens.

    The body is refused past the import limits (size before parsing, then records)."""
    limits = request.app.state.settings.imports
    body = await read_body(request, limits.max_bytes)

    def load() -> Any:
        return store.import_table(parse_import(body, limits.max_records))

    created = await anyio.to_thread.run_sync(load)
    return ImportResponse(
        table=created.table,
        token=created.token,
        participant=created.participant,
        invites=Invites(**created.invites),
        commitment=created.commitment,
        participants=[ImportedParticipant(**p) for p in created.participants],
    )


@router.post(
    "/tables/{table_id}/invitation",
    response_model=Invitation,
    dependencies=[rate_limit("join")],
)
def invitation(table_id: str, body: InvitationRequest, store: StoreDep) -> Invitation:
    """What an invite code opens, for the join page: the table's title and game, the GM's
    name and the role it gives (``table.bad_invite`` for a wrong code; counted as a join)."""
    role = store.invite_role(table_id, body.invite)
    info = store.info(table_id)
    gm = next((p.name for p in store.participants(table_id) if p.role is Role.GM), "")
    return Invitation(title=info.title, system=info.system, gm=gm, role=role.value)


@router.post(
    "/tables/{table_id}/join",
    response_model=JoinResponse,
    status_code=201,
    dependencies=[rate_limit("join")],
)
def join_table(table_id: str, body: JoinRequest, store: StoreDep) -> JoinResponse:
    """Join with an invite code; the response holds the new participant's secret token."""
    joined = store.join(table_id, body.invite, body.name)
    return JoinResponse(
        participant=joined.participant.id, token=joined.token, role=joined.participant.role.value
    )


@router.get("/tables/{table_id}", response_model=TableView)
def get_table(table_id: str, me: CurrentParticipant, store: StoreDep) -> TableView:
    """The table, its participants and its state."""
    info, table = store.snapshot(table_id)
    return table_view(info, table, me, store.participants(table_id))


@router.post("/tables/{table_id}/invites", response_model=Invites)
def renew_invites(table_id: str, me: CurrentParticipant, store: StoreDep) -> Invites:
    """New invite codes (GM only); the old ones stop working. Who joined with them stays
    (remove someone with ``DELETE …/participants/{id}``)."""
    return Invites(**store.new_invites(table_id, me))


@router.delete("/tables/{table_id}/participants/{participant_id}", response_model=ParticipantPublic)
def remove_participant(
    table_id: str, participant_id: str, me: CurrentParticipant, store: StoreDep
) -> ParticipantPublic:
    """The GM removes a participant, or a participant leaves (their own id).

    Their token stops working at once, on HTTP and WebSocket (open sockets are closed with
    ``table.removed``), on every worker. They stay listed as ``removed`` (the log names
    them); the pieces they owned stay in the game and are nobody's now. The GM stays
    (``table.gm_stays``)."""
    gone = store.remove_participant(table_id, me, participant_id)
    return ParticipantPublic(
        participant=gone.id, name=gone.name, role=gone.role.value, removed=True
    )


@router.post(
    "/tables/{table_id}/commands",
    response_model=CommandResponse,
    dependencies=[rate_limit("commands")],
)
def post_command(
    table_id: str, body: CommandRequest, me: CurrentParticipant, store: StoreDep
) -> Response:
    """Decide a command; returns its records (and automatic follow-ups) and the new state."""
    done = store.execute(
        table_id, me, body.command, hidden=body.hidden, expected_seq=body.expected_seq
    )
    return _written(done.table, me, done.records)


@router.post(
    "/tables/{table_id}/check", response_model=CheckResponse, dependencies=[rate_limit("odds")]
)
def check_commands(
    table_id: str, body: CheckRequest, request: Request, me: CurrentParticipant, store: StoreDep
) -> CheckResponse:
    """Whether each candidate command would be accepted now from the caller, and if not why
    (localized); decided on the caller's own fold, writing nothing (``Table.check``)."""
    table = store.table(table_id)
    gone = store.gone(table_id)
    lang = request_language(request)
    results = []
    for command in body.commands:
        error = table.check(command, me.actor, hidden=body.hidden, gone=gone)
        results.append(
            CheckResult(ok=True)
            if error is None
            else CheckResult(
                ok=False, error=CheckError(code=error.code, message=error_message(error, lang))
            )
        )
    return CheckResponse(results=results, seq=table.seq)


@router.post(
    "/tables/{table_id}/odds", response_model=Odds | None, dependencies=[rate_limit("odds")]
)
def preview_odds(
    table_id: str, body: OddsRequest, me: CurrentParticipant, store: StoreDep, workers: WorkersDep
) -> Response:
    """The exact outcome distribution of a command before it is rolled (``null``: no dice).

    Computed in the server's process pool, within its time limit (503 ``api.too_slow``)."""
    table = store.table(table_id)
    if is_chat_command(body.command):
        # Chat rolls no game dice (an inline roll is any notation): no odds.
        return Response(b"null", media_type="application/json")
    command = parse_command(table.system, body.command)
    # On the caller's state: a player's odds (and errors) never see a hidden record.
    state = table.state_for(me.role)
    odds = odds_in_pool(table.system, table.options, state, command, workers=workers)
    return Response(odds, media_type="application/json")


@router.get("/tables/{table_id}/records", response_model=RecordsResponse)
def get_records(
    table_id: str,
    me: CurrentParticipant,
    store: StoreDep,
    since: int = Query(0, ge=0),
    before: str | None = Query(None, description="a seq ≥ 1: only records before it"),
    limit: str | None = Query(None, description=f"1 to {MAX_PAGE}: only the latest so many"),
) -> RecordsResponse:
    """The records after ``since`` (and before ``before``) that the caller may see (hidden
    ones only for the GM, whispers only for their sender, their recipient and the GM); with
    ``limit`` only the latest that many of them, and ``older`` says whether more came before.

    A ``before`` or ``limit`` that is no whole number in its range is refused
    (``api.bad_page``, naming it) before the table is read."""
    first = None if before is None else _page_number("before", before, 1, None)
    count = None if limit is None else _page_number("limit", limit, 1, MAX_PAGE)
    _, table = store.snapshot(table_id)
    viewer = table.viewer(me.actor)
    end = table.seq if first is None else min(first - 1, table.seq)
    if count is None:
        listed = [r for r in table.records[since:end] if sees(viewer, r)]
        return RecordsResponse(records=listed, seq=table.seq)
    page: list[Record] = []
    position = end
    while position > since and len(page) < count:  # newest first: a page costs its own size
        record = table.records[position - 1]
        if sees(viewer, record):
            page.append(record)
        position -= 1
    older = any(sees(viewer, r) for r in reversed(table.records[since:position]))
    return RecordsResponse(records=page[::-1], seq=table.seq, older=older)


def _page_number(name: str, text: str, low: int, high: int | None) -> int:
    """``text`` as a whole number from ``low`` to ``high`` (``None``: no bound), or
    ``api.bad_page`` naming the parameter and the value."""
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None
    if value is None or value < low or (high is not None and value > high):
        raise SpieltischError(
            "api.bad_page", name=name, value=text, low=low, high=high if high else "∞"
        )
    return value


@router.post("/tables/{table_id}/undo", response_model=UndoResponse)
def undo(table_id: str, body: UndoRequest, me: CurrentParticipant, store: StoreDep) -> Response:
    """Revert a record (GM only); refused when a later record depends on it."""
    done = store.undo(table_id, me, body.seq)
    return _written(done.table, me, done.records, record=done.records[0])


@router.post("/tables/{table_id}/player-seeds", response_model=PlayerSeedResponse)
def add_player_seed(
    table_id: str, body: PlayerSeedRequest, me: CurrentParticipant, store: StoreDep
) -> PlayerSeedResponse:
    """Mix a player's seed string into every draw from the next record on.

    ``start`` is the ``seq`` of that record (format 3): it moves with the records, never with
    how many dice the GM's hidden ones rolled."""
    added = store.add_player_seed(table_id, me, body.seed)
    info = store.info(table_id)
    return PlayerSeedResponse(
        start=added.start,
        seed=added.seed,
        player_seeds=[PlayerSeedPublic(start=p.start, seed=p.seed) for p in info.player_seeds],
    )


@router.post("/tables/{table_id}/reveal", response_model=RevealResponse)
def reveal(table_id: str, me: CurrentParticipant, store: StoreDep) -> RevealResponse:
    """Reveal the current epoch's seed (GM only); the table commits to a fresh one and rolls on."""
    done = store.reveal(table_id, me)
    epochs = epochs_public(store.info(table_id))
    return RevealResponse(
        seed=done.seed,
        commitment=done.epoch.commitment,
        epoch=epochs[done.number - 1],
        current=epochs[-1],
    )


@router.get("/tables/{table_id}/export")
def export_table(table_id: str, me: CurrentParticipant, store: StoreDep) -> dict[str, Any]:
    """The table as one JSON file (format ``spieltisch-table/2``), for ``spieltisch verify``."""
    return store.export(table_id, me)
