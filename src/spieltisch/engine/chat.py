"""Chat at every table: ``say`` to everyone, ``whisper`` to one participant, inline dice.

Chat is the table's, not a game system's: the engine reserves the command kinds
:data:`CHAT_KINDS` for every system (no system may use them) and decides them here. A chat
record changes no game state — both folds stay as they are — so it can stand anywhere in a
log, and undoing it takes nothing else away.

A ``whisper`` record carries its *audience* (sender and recipient, see
:attr:`spieltisch.engine.table.Record.audience`); the one visibility rule
(:func:`spieltisch.engine.visibility.sees`) shows it to them and the GM only.

A text that starts with ``/r`` (or ``/roll``) rolls the dice notation after it (``/r 2W6+3``;
German ``W`` and English ``d`` alike, see docs/notation.md) with the record's dice source, so
the roll is fair, its raw draws are logged like any roll, and replay decides it again. A
``#`` ends the expression; what follows is a comment shown with the roll
(``/r 1W20+5 # Angriff``).

Pure: no I/O. Who is at the table (for the recipient of a whisper) is handed in by the caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, TypeAdapter, ValidationError

from spieltisch.dice.dice import roll
from spieltisch.dice.errors import DiceError
from spieltisch.dice.fair import DiceSource
from spieltisch.dice.notation import parse
from spieltisch.engine.errors import RuleError
from spieltisch.engine.text import MAX_REF, text_error, text_rule
from spieltisch.engine.visibility import Actor, Role

__all__ = [
    "CHAT_KINDS",
    "COMMANDS",
    "EVENTS",
    "MAX_CHAT",
    "ChatCommand",
    "ChatDie",
    "ChatRoll",
    "Said",
    "Say",
    "Whisper",
    "audience",
    "check_recipient",
    "decide",
    "is_chat",
    "is_chat_command",
    "parse_chat",
]

MAX_CHAT = 1000
"""Longest chat message (characters)."""

CHAT_KINDS = frozenset({"say", "whisper"})
"""Command kinds the table reserves for chat, in every game system."""

ROLL_PREFIXES = ("/roll", "/r")
"""A message starting with one of these (then a space or the end) is an inline roll."""

ChatText = Annotated[StrictStr, Field(max_length=MAX_CHAT), text_rule(MAX_CHAT, multiline=True)]
"""A chat message: multi-line text of at most :data:`MAX_CHAT` characters."""


class Say(BaseModel):
    """Command: say ``text`` to everyone at the table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["say"] = "say"
    text: ChatText


class Whisper(BaseModel):
    """Command: whisper ``text`` to participant ``to`` (only they and the GM see it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["whisper"] = "whisper"
    to: Annotated[StrictStr, Field(max_length=MAX_REF), text_rule(MAX_REF)]
    """The recipient's participant id."""
    text: ChatText


ChatCommand = Annotated[Say | Whisper, Field(discriminator="kind")]


def _unset(value: object) -> bool:
    """Fields added after the first tables were logged are left out of the JSON while they
    hold nothing, so that older records replay to exactly what they logged."""
    return value is None or value is False or value == ()


class ChatDie(BaseModel):
    """One die of an inline roll: which die, the face shown, kept and exploded flags; a
    rerolled throw, the value a throw adds when it is not its face, the term's label."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    die: str
    face: int | dict[str, int]
    kept: bool = True
    exploded: bool = False
    rerolled: bool = Field(default=False, exclude_if=_unset)
    value: int | None = Field(default=None, exclude_if=_unset)
    label: str | None = Field(default=None, exclude_if=_unset)


class ChatPart(BaseModel):
    """The value of a labelled term or a group member within an inline roll."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    term: str
    label: str | None = None
    value: int | dict[str, int]
    kept: bool = True


class ChatRoll(BaseModel):
    """The inline roll of a message: canonical expression, result, every die, a comment;
    the compared total of ``1d20+5>=15`` and the labelled terms and group members."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    expression: str
    result: int | dict[str, int]
    dice: tuple[ChatDie, ...] = ()
    comment: str = ""
    total: int | None = Field(default=None, exclude_if=_unset)
    parts: tuple[ChatPart, ...] = Field(default=(), exclude_if=_unset)


class Said(BaseModel):
    """Event: a message was said (``to`` is ``None``) or whispered to ``to``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["said"] = "said"
    text: str
    to: str | None = None
    roll: ChatRoll | None = None


COMMANDS: TypeAdapter[Say | Whisper] = TypeAdapter(ChatCommand)
"""Parses and dumps the chat commands."""

EVENTS: TypeAdapter[Said] = TypeAdapter(Said)
"""Parses and dumps the chat event."""


def is_chat_command(data: Any) -> bool:
    """Whether ``data`` (a command as JSON) is one of the reserved chat kinds."""
    kind = data.get("kind") if isinstance(data, Mapping) else None
    return isinstance(kind, str) and kind in CHAT_KINDS


def is_chat(record: Any) -> bool:
    """Whether ``record`` (a :class:`~spieltisch.engine.table.Record`) is a chat record."""
    return is_chat_command(record.command)


def parse_chat(data: Any) -> Say | Whisper:
    """Parse a chat command; a :class:`RuleError` (``rule.bad_command``) names what is wrong."""
    try:
        return COMMANDS.validate_python(data)
    except ValidationError as error:
        text = text_error(error, data.get("kind") if isinstance(data, Mapping) else None)
        if text is not None:
            raise RuleError("rule.bad_command", system="chat", detail=text) from None
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:])
        detail = f"{where}: {first['msg']}" if where else str(first["msg"])
        raise RuleError("rule.bad_command", system="chat", detail=detail) from None


def audience(command: Say | Whisper, actor: str) -> list[str] | None:
    """Who besides the GM sees the record: sender and recipient of a whisper, else everyone."""
    return [actor, command.to] if isinstance(command, Whisper) else None


def check_recipient(command: Whisper, actor: Actor, participants: Mapping[str, Role]) -> None:
    """Refuse a whisper to nobody at the table, to oneself, or from a player to a spectator.

    The GM may whisper to anyone; a player to the GM or another player. (Spectators write
    nothing; the table refuses that before.)
    """
    role = participants.get(command.to)
    if role is None:
        raise RuleError("chat.unknown_recipient", to=command.to)
    if command.to == actor.id:
        raise RuleError("chat.whisper_self", to=command.to)
    if actor.role is not Role.GM and role is Role.SPECTATOR:
        raise RuleError("chat.whisper_spectator", to=command.to)


def decide(command: Say | Whisper, dice: DiceSource) -> list[Said]:
    """The event of a chat command; an inline roll draws from ``dice``."""
    if not command.text.strip():
        raise RuleError("chat.empty")
    to = command.to if isinstance(command, Whisper) else None
    return [Said(text=command.text, to=to, roll=_inline_roll(command.text, dice))]


def _inline_roll(text: str, dice: DiceSource) -> ChatRoll | None:
    stripped = text.strip()
    for prefix in ROLL_PREFIXES:
        rest = stripped[len(prefix) :]
        if stripped[: len(prefix)].lower() == prefix and (not rest or rest[0].isspace()):
            break
    else:
        return None
    expression, _, comment = rest.partition("#")
    if not expression.strip():
        raise RuleError("chat.no_expression", text=stripped)
    try:
        result = roll(parse(expression.strip()), dice)
    except DiceError as error:
        raise RuleError(error.code, **error.params) from None
    data = result.to_json()
    return ChatRoll(
        expression=data["expression"],
        result=data["result"],
        dice=tuple(ChatDie.model_validate(die) for die in data["dice"]),
        comment=comment.strip(),
        total=result.total,
        parts=tuple(ChatPart.model_validate(part) for part in data.get("parts", ())),
    )
