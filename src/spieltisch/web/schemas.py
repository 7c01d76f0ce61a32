"""Request and response bodies of the HTTP API (one model per use, documented in OpenAPI)."""

from __future__ import annotations

from typing import Annotated, Any, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    StrictBool,
    StrictInt,
    StrictStr,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import CoreSchema

from spieltisch.engine import chat
from spieltisch.engine.table import Record
from spieltisch.systems.registry import get_system, system_ids

__all__ = [
    "AnyCommand",
    "CommandRequest",
    "CommandResponse",
    "EpochPublic",
    "ErrorBody",
    "ErrorResponse",
    "ImportResponse",
    "ImportedParticipant",
    "Invites",
    "JoinRequest",
    "JoinResponse",
    "OddsRequest",
    "ParticipantPublic",
    "PlayerSeedPublic",
    "PlayerSeedRequest",
    "PlayerSeedResponse",
    "RecordsResponse",
    "RevealResponse",
    "SystemPublic",
    "TableCreate",
    "TableCreated",
    "TableView",
    "UndoRequest",
    "UndoResponse",
]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _EverySystemsCommands:
    """JSON Schema of a command: one of the commands of every registered system.

    Each system's commands are a union discriminated by ``kind``; the systems' unions are the
    branches of a ``oneOf`` (kinds repeat across systems, so ``kind`` alone cannot pick the
    system: the table does). The chat commands every table takes (``say``, ``whisper``) are
    one more branch, titled ``chat``. Validation stays a plain JSON object: the route checks
    the command against the table's own system.
    """

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The ``oneOf`` of every system's command schema (their models become components)."""
        # The generator behind the handler, so that the systems' models become shared components.
        generator: GenerateJsonSchema = cast(Any, handler).generate_json_schema
        branches = []
        for system_id in system_ids():
            schema = generator.generate_inner(get_system(system_id).commands.core_schema)
            branches.append({"title": system_id, **schema})
        branches.append({"title": "chat", **generator.generate_inner(chat.COMMANDS.core_schema)})
        return {
            "oneOf": branches,
            "description": "A command of the table's game system, or a chat command.",
        }


AnyCommand = Annotated[dict[str, Any], _EverySystemsCommands()]
"""A command as JSON, documented as one of the commands of every registered system."""


class ErrorBody(BaseModel):
    """A deliberate error: a stable code and a localized message."""

    code: str
    message: str
    position: int | None = None
    """Where in the text a parser stopped (dice notation, stat lines; 0-based), when the error
    has one."""
    column: int | None = None
    """The same place for people (1-based)."""
    suggestion: str | None = None
    """For dice notation another tool reads: the spelling that works here."""


class ErrorResponse(BaseModel):
    """Every error response: ``{"error": {"code", "message"}}``."""

    error: ErrorBody


class SystemPublic(BaseModel):
    """A game system the server offers."""

    id: str
    commands: dict[str, Any] | None = None
    """JSON Schema of the system's commands."""
    options: dict[str, Any]
    """JSON Schema of the table options."""
    meta: dict[str, Any] = {}
    """What the system declares of itself for clients: player counts, seats, AI names …"""


class TableCreate(_Request):
    """Open a new table; the caller becomes its game master."""

    system: StrictStr
    language: StrictStr = "de"
    title: StrictStr = ""
    options: dict[str, Any] = Field(default_factory=dict)
    name: StrictStr = ""
    """The GM's display name (optional)."""


class Invites(BaseModel):
    """Secret invite codes, one per role."""

    player: str
    spectator: str


class TableCreated(BaseModel):
    """A new table: the GM's token and the invite codes (shown only now)."""

    table: str
    token: str
    participant: str
    invites: Invites
    commitment: str


class ImportedParticipant(BaseModel):
    """A participant recreated by an import, with a fresh token."""

    participant: str
    name: str
    role: str
    token: str


class ImportResponse(TableCreated):
    """An imported table: as a new table, plus the recreated participants."""

    participants: list[ImportedParticipant] = Field(default_factory=list)


class JoinRequest(_Request):
    """Join a table with an invite code."""

    invite: StrictStr
    name: StrictStr


class InvitationRequest(_Request):
    """Ask what an invite code opens, before joining."""

    invite: StrictStr


class Invitation(BaseModel):
    """What an invite opens: the table's title and game, its GM's name, the role it gives."""

    title: str
    system: str
    gm: str
    role: str


class JoinResponse(BaseModel):
    """The new participant and their secret token."""

    participant: str
    token: str
    role: str


class ParticipantPublic(BaseModel):
    """Someone at the table, as everyone sees them."""

    participant: str
    name: str
    role: str
    pieces: list[str] = Field(default_factory=list)
    removed: bool = False
    """Left the table or was removed: named in the log, no longer there (owns no piece)."""


class PlayerSeedPublic(BaseModel):
    """A player's seed string and where it begins to take part: the ``seq`` of the first
    record (a table of format 3, where every record draws from its own stream), the index of
    the first draw (format 2)."""

    start: int
    seed: str


class EpochPublic(BaseModel):
    """One epoch of the table's chain of seeds: the draws it covers and its commitment."""

    number: int
    """Position in the chain, from 1."""
    start: int
    """Where it begins: the ``seq`` of its first record (format 3), the index of its first
    draw (format 2)."""
    end: int | None
    """Where the next epoch begins; ``null`` for the current epoch."""
    commitment: str
    seed: str | None
    """The server seed in hex once revealed, else ``null``."""
    chain: str | None = None
    """Format 3: the link that commits the epoch's beginning, its commitment and every epoch
    before it (see docs/fair-dice.md); ``null`` for a table of format 2."""


class TableView(BaseModel):
    """A table as the caller sees it."""

    table: str
    system: str
    title: str
    language: str
    options: dict[str, Any]
    seq: int
    commitment: str
    seed: str | None
    """The seed revealed last (``null`` before the first reveal); see ``epochs``."""
    epochs: list[EpochPublic]
    player_seeds: list[PlayerSeedPublic]
    me: ParticipantPublic
    participants: list[ParticipantPublic]
    state: dict[str, Any]


class CommandRequest(_Request):
    """A command for the table's game system."""

    command: AnyCommand
    hidden: StrictBool = False
    """Only the GM sees the record (GM only)."""
    expected_seq: StrictInt | None = Field(default=None, ge=0)
    """Refuse (409) unless the log is at this sequence number."""


class CommandResponse(BaseModel):
    """The records a command produced and the state after them."""

    records: list[Record]
    seq: int
    state: dict[str, Any]


MAX_CHECKS = 64
"""Most commands one check request may ask about."""


class CheckRequest(_Request):
    """Candidate commands: would each be accepted now, from the caller?"""

    commands: list[AnyCommand] = Field(max_length=MAX_CHECKS)
    hidden: StrictBool = False
    """Ask as for a hidden record (GM only; for anyone else every answer is a refusal)."""


class CheckError(BaseModel):
    """Why a command would be refused: the error's code and its localized message."""

    code: str
    message: str


class CheckResult(BaseModel):
    """The answer for one candidate command."""

    ok: bool
    error: CheckError | None = None


class CheckResponse(BaseModel):
    """One answer per candidate command, in order; the log's sequence number they hold for."""

    results: list[CheckResult]
    seq: int


class OddsRequest(_Request):
    """A command to preview."""

    command: AnyCommand


class RecordsResponse(BaseModel):
    """Records after a sequence number (and before another) that the caller may see."""

    records: list[Record]
    seq: int
    older: bool = False
    """Whether the caller may see records before the first listed (after ``since``) that a
    ``limit`` left out: ask again with ``before`` = the first listed ``seq``."""


class UndoRequest(_Request):
    """Revert a record."""

    seq: StrictInt


class UndoResponse(BaseModel):
    """The undo record and the re-folded state."""

    record: Record
    records: list[Record]
    seq: int
    state: dict[str, Any]


class PlayerSeedRequest(_Request):
    """A seed string to mix into every later draw."""

    seed: StrictStr


class PlayerSeedResponse(BaseModel):
    """The added seed and all seeds of the table."""

    start: int
    seed: str
    player_seeds: list[PlayerSeedPublic]


class RevealResponse(BaseModel):
    """The revealed epoch and the fresh one the table rolls on with."""

    seed: str
    """The revealed server seed (hex)."""
    commitment: str
    """The revealed epoch's commitment."""
    epoch: EpochPublic
    """The revealed epoch."""
    current: EpochPublic
    """The new current epoch: its commitment, published now; its seed stays secret."""
